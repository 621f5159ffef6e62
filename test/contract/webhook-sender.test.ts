import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { DeliveryOutcome, OutgoingRun, WebhookSender } from '../../src/application/ports/webhook-sender.port.js';
import type { OutgoingAttempt } from '../../src/application/webhooks/run-policy.js';
import { HttpWebhookSender, type AttemptSender } from '../../src/adapters/webhooks/http-webhook-sender.js';
import { SENDER_THREAD_FROM_SOURCE, tsWorker } from '../support/ts-worker.js';
import { attemptInOrder } from '../../src/application/webhooks/run-policy.js';
import { runClock } from '../../src/adapters/webhooks/run-clock.js';
import { Worker } from 'node:worker_threads';
import { ThreadedWebhookSender } from '../../src/adapters/webhooks/threaded-webhook-sender.js';
import { serviceSignature, standardWebhookSignature, verifyServiceSignature } from '../../src/adapters/webhooks/signatures.js';
import { REFUSALS, SsrfGuard } from '../../src/adapters/webhooks/ssrf-guard.js';

/**
 * Mocha's limit for a test that starts sender threads: each thread compiles the sender from source
 * (tsx), 5-9 s apiece at load average 14, two starts in some tests. It guards against a hang; it
 * is no bound on the behaviour.
 */
const THREAD_TEST_TIMEOUT_MS = 60_000;

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A real HTTP server on 127.0.0.1:0 that records what reaches it. */
class Receiver {
  readonly received: Received[] = [];
  connections = 0;
  private handler: Handler = (_req, res) => res.end('ok');
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        this.handler(req, res, body);
      });
    });
    this.server.on('connection', () => this.connections++);
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(handler: Handler): void {
    this.handler = handler;
  }

  reset(): void {
    this.received.splice(0);
    this.connections = 0;
    this.handler = (_req, res) => res.end('ok');
  }

  /** Resolves once the server holds no open connection; fails after a second. */
  async idle(): Promise<void> {
    const deadline = performance.now() + 1000;
    for (;;) {
      const open = await new Promise<number>((resolve, reject) =>
        this.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
      if (open === 0) return;
      if (performance.now() > deadline) throw new Error(`${open} connection(s) still open`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An independent computation through WebCrypto rather than node:crypto's createHmac. */
async function hmac(secret: string, message: Uint8Array, encoding: 'hex' | 'base64'): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Buffer.from(await crypto.subtle.sign('HMAC', key, message)).toString(encoding);
}

const SECRET = 'a'.repeat(8) + '0123456789abcdef0123456789abcdef0123456789abcdef01234567';
const EVENT_ID = '0193a0f2-7c1e-7b3a-9d4e-1f2a3b4c5d6e';
const PAYLOAD = {
  id: EVENT_ID,
  name: 'api.created',
  timestamp: '2026-11-22T10:15:00.000+00:00',
  user: { id: 7, nickname: 'zoë' },
  resourceType: 'Api',
  resource: { id: '0193a0f2-0000-7000-8000-000000000001', nickname: 'petstore', name: 'Pets – “naïve” 🐾' },
};
const BODY = JSON.stringify(PAYLOAD);

function delivery(targetUrl: string, overrides: Partial<OutgoingAttempt> = {}): OutgoingAttempt {
  return { targetUrl, secret: SECRET, eventId: EVENT_ID, body: BODY, attemptDate: new Date(), ...overrides };
}

function standardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const pick = (name: string) => String(headers[name]);
  return { 'webhook-id': pick('webhook-id'), 'webhook-timestamp': pick('webhook-timestamp'), 'webhook-signature': pick('webhook-signature') };
}

interface SenderOptions {
  readonly timeoutMs: number;
  readonly userAgent?: string;
}


/**
 * Each WebhookSender the service can run with, made for a receiver on loopback (private targets
 * allowed). The threaded one must behave exactly like the one it runs in its thread; its fallback
 * fails loudly, so an attempt that did not cross to the thread cannot pass here.
 */
const SENDERS: readonly { readonly name: string; readonly inProcess: boolean; readonly make: (options: SenderOptions) => WebhookSender & AttemptSender }[] = [
  { name: 'HttpWebhookSender', inProcess: true, make: (options) => new HttpWebhookSender({ ...options, guard: new SsrfGuard({ allowPrivateTargets: true }) }) },
  {
    name: 'ThreadedWebhookSender',
    inProcess: false,
    make: (options) => {
      const sender = new ThreadedWebhookSender({
        threads: 1,
        start: SENDER_THREAD_FROM_SOURCE,
        data: { ...options, allowPrivateTargets: true },
        fallback: NOT_IN_THIS_THREAD,
      });
      threaded.push(sender);
      return sender;
    },
  },
];
const threaded: ThreadedWebhookSender[] = [];

/** The fallback of a threaded sender under test: it fails loudly, so work that did not cross to the thread cannot pass. */
const NOT_IN_THIS_THREAD = {
  send: () => Promise.reject(new Error('the attempt did not go through the thread')),
  sendRun: () => Promise.reject(new Error('the run did not go through the thread')),
};
after(() => Promise.all(threaded.map((sender) => sender.close())));

for (const { name, inProcess, make } of SENDERS) {
  describe(`WebhookSender: ${name}`, function () {
    this.timeout(THREAD_TEST_TIMEOUT_MS);
    let receiver: Receiver;
    let other: Receiver;
    const open = make({ timeoutMs: 2000 });

    before(async () => {
      receiver = await Receiver.start();
      other = await Receiver.start();
    });
    beforeEach(() => {
      receiver.reset();
      other.reset();
    });
    afterEach(async () => {
      await receiver.idle();
      await other.idle();
    });
    after(async () => {
      await receiver.close();
      await other.close();
    });

    // The signing functions, and the guard with a stubbed DNS, are the same in every sender: checked once.
    if (inProcess) describe('signatures', () => {
      it('X-Service-Signature is the hex HMAC-SHA256 of the target URL followed by the raw body bytes', async () => {
        const url = 'https://hooks.example.com/specbase?x=1';
        const expected = await hmac(SECRET, Buffer.concat([Buffer.from(url), Buffer.from(BODY)]), 'hex');
        expect(serviceSignature(SECRET, url, BODY)).to.equal(expected).and.match(/^[0-9a-f]{64}$/);
        expect(serviceSignature(SECRET, url, Buffer.from(BODY))).to.equal(expected);
      });

      it('webhook-signature is v1, and the base64 HMAC-SHA256 of "id.timestamp.body"', async () => {
        const expected = await hmac(SECRET, Buffer.from(`${EVENT_ID}.1795342500.${BODY}`), 'base64');
        expect(standardWebhookSignature(SECRET, EVENT_ID, 1795342500, BODY)).to.equal(`v1,${expected}`);
      });

      it('uses the UTF-8 bytes of a non-ASCII secret as the key', async () => {
        const secret = 'sécret-🔑-0123456789';
        const expected = await hmac(secret, Buffer.concat([Buffer.from('http://x/'), Buffer.from(BODY)]), 'hex');
        expect(serviceSignature(secret, 'http://x/', BODY)).to.equal(expected);
      });

      it('verifyServiceSignature accepts the signature and refuses a changed URL, body, secret or malformed header', () => {
        const url = 'https://hooks.example.com/a';
        const signature = serviceSignature(SECRET, url, BODY);
        expect(verifyServiceSignature(SECRET, url, BODY, signature)).to.equal(true);
        expect(verifyServiceSignature(SECRET, url, Buffer.from(BODY), signature.toUpperCase())).to.equal(true);
        expect(verifyServiceSignature(SECRET, 'https://hooks.example.com/b', BODY, signature)).to.equal(false);
        expect(verifyServiceSignature(SECRET, url, BODY + ' ', signature)).to.equal(false);
        expect(verifyServiceSignature(SECRET + 'x', url, BODY, signature)).to.equal(false);
        expect(verifyServiceSignature(SECRET, url, BODY, signature.slice(2))).to.equal(false);
        expect(verifyServiceSignature(SECRET, url, BODY, undefined)).to.equal(false);
        expect(verifyServiceSignature(SECRET, url, BODY, 'zz'.repeat(32))).to.equal(false);
      });
    });

    describe('a delivery as a receiver sees it', () => {
      it('POSTs the exact body with the contract headers, verifiable with the standardwebhooks package', async () => {
        const attemptDate = new Date();
        const outcome = await open.send(delivery(receiver.url('/hook?team=1'), { attemptDate }));
        expect(outcome).to.include({ status: 200, error: null, responseBody: 'ok' });

        expect(receiver.received).to.have.length(1);
        const [request] = receiver.received;
        expect(request!.method).to.equal('POST');
        expect(request!.url).to.equal('/hook?team=1');
        expect(request!.body.toString('utf8')).to.equal(BODY);
        const headers = request!.headers;
        expect(headers['content-type']).to.equal('application/json');
        expect(headers['content-length']).to.equal(String(Buffer.byteLength(BODY)));
        expect(headers['user-agent']).to.equal('Specbase-Webhooks/1');
        expect(headers['webhook-id']).to.equal(EVENT_ID);
        expect(headers['webhook-timestamp']).to.equal(String(Math.floor(attemptDate.getTime() / 1000)));

        const expectedService = await hmac(SECRET, Buffer.concat([Buffer.from(receiver.url('/hook?team=1')), request!.body]), 'hex');
        expect(headers['x-service-signature']).to.equal(expectedService);
        expect(verifyServiceSignature(SECRET, receiver.url('/hook?team=1'), request!.body, String(headers['x-service-signature']))).to.equal(true);

        const verified = new Webhook(SECRET, { format: 'raw' }).verify(request!.body.toString('utf8'), standardHeaders(headers));
        expect(verified).to.deep.equal(PAYLOAD);
        expect(() => new Webhook(SECRET, { format: 'raw' }).verify(request!.body.toString('utf8') + ' ', standardHeaders(headers))).to.throw(
          'No matching signature found',
        );
      });

      it('signs a non-ASCII secret with its UTF-8 bytes: standardwebhooks needs the key as bytes, not as a string', async () => {
        const secret = 'sécret-🔑-0123456789';
        await open.send(delivery(receiver.url(), { secret }));
        const [request] = receiver.received;
        const body = request!.body.toString('utf8');
        const headers = standardHeaders(request!.headers);
        expect(new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(body, headers)).to.deep.equal(PAYLOAD);
        // With a string, format 'raw' keeps the low byte of each UTF-16 unit (not UTF-8): only ASCII secrets match.
        expect(() => new Webhook(secret, { format: 'raw' }).verify(body, headers)).to.throw('No matching signature found');
      });

      it('sends a configured User-Agent', async () => {
        const sender = make({ timeoutMs: 2000, userAgent: 'Test/9' });
        await sender.send(delivery(receiver.url()));
        expect(receiver.received[0]!.headers['user-agent']).to.equal('Test/9');
      });
    });

    describe('outcomes', () => {
      it('a 200 gives status 200, no error, and at most the first 1024 bytes of a 5 KB body', async () => {
        receiver.respond((_req, res) => res.end('x'.repeat(5 * 1024)));
        const started = performance.now();
        const outcome = await open.send(delivery(receiver.url()));
        const elapsed = performance.now() - started;
        expect(outcome.status).to.equal(200);
        expect(outcome.error).to.equal(null);
        expect(outcome.responseBody).to.equal('x'.repeat(1024));
        expect(Number.isInteger(outcome.durationMs)).to.equal(true);
        expect(outcome.durationMs, 'the attempt, within what its caller waited').to.be.within(0, Math.ceil(elapsed));
      });

      it('drops a multi-byte character cut at the 1 KiB mark instead of mangling it', async () => {
        receiver.respond((_req, res) => res.end('€'.repeat(1000)));
        const outcome = await open.send(delivery(receiver.url()));
        expect(outcome.responseBody).to.equal('€'.repeat(341));
      });

      it('stops reading a response that never ends after 1 KiB and closes the connection', async () => {
        let closed!: Promise<unknown>;
        receiver.respond((_req, res) => {
          closed = new Promise((resolve) => res.on('close', resolve));
          res.writeHead(200);
          const chunk = 'y'.repeat(64 * 1024);
          // Written until the sender closes the connection: it has no end to wait for.
          const interval = setInterval(() => (res.destroyed ? clearInterval(interval) : res.write(chunk)), 5);
          res.on('close', () => clearInterval(interval));
        });
        // A timeout that outlasts the test: a sender that read on to the end would never answer.
        const patient = make({ timeoutMs: 600_000 });
        const outcome = await patient.send(delivery(receiver.url()));
        expect(outcome).to.include({ status: 200, error: null, responseBody: 'y'.repeat(1024) });
        await closed;
      });

      it('a 500 gives status 500 and its body', async () => {
        receiver.respond((_req, res) => {
          res.statusCode = 500;
          res.end('{"error":"boom"}');
        });
        expect(await open.send(delivery(receiver.url()))).to.include({ status: 500, error: null, responseBody: '{"error":"boom"}' });
      });

      it('a 302 gives status 302 and the redirect is not followed', async () => {
        receiver.respond((_req, res) => {
          res.writeHead(302, { Location: other.url('/elsewhere') });
          res.end();
        });
        const outcome = await open.send(delivery(receiver.url()));
        expect(outcome).to.include({ status: 302, error: null });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(other.connections).to.equal(0);
        expect(other.received).to.have.length(0);
      });

      it('a receiver that never answers gives a timeout, not before timeoutMs, and the connection is closed', async () => {
        receiver.respond(() => undefined);
        const sender = make({ timeoutMs: 300 });
        const started = performance.now();
        const outcome = await sender.send(delivery(receiver.url()));
        const elapsed = performance.now() - started;
        expect(outcome).to.include({ status: null, error: 'timed out after 300 ms', responseBody: '' });
        // Not before the timeout; that it ends at all is the answer coming back (however late a loaded machine makes it).
        expect(outcome.durationMs, 'the attempt, within what its caller waited').to.be.within(290, Math.ceil(elapsed));
        expect(receiver.received).to.have.length(1);
      });

      it('a receiver that sends its status and then stalls keeps its status and the body so far once the timeout ends the attempt', async () => {
        const sender = make({ timeoutMs: 300 });
        // Staged only when the status is out well before the timeout: a loaded machine can keep the
        // receiver (in this thread) from answering within 300 ms, and then it is staged again.
        for (let staging = 1; ; staging++) {
          let statusSentMs = Infinity;
          receiver.respond((_req, res) => {
            res.writeHead(202);
            res.write('partial', () => (statusSentMs = performance.now()));
          });
          const started = performance.now();
          const outcome = await sender.send(delivery(receiver.url()));
          const elapsed = performance.now() - started;
          if (statusSentMs - started > 150 && staging < 5) {
            await receiver.idle();
            continue;
          }
          expect(outcome).to.include({ status: 202, error: null, responseBody: 'partial' });
          expect(outcome.durationMs, 'ended by the timeout, within what its caller waited').to.be.within(290, Math.ceil(elapsed));
          return;
        }
      });

      it('a closed port gives status null and a short error', async () => {
        const closed = await Receiver.start();
        const url = closed.url();
        await closed.close();
        const outcome = await open.send(delivery(url));
        expect(outcome).to.include({ status: null, error: 'connection refused (ECONNREFUSED)', responseBody: '' });
      });

      it('a connection closed without a response gives status null and a short error', async () => {
        receiver.respond((req) => req.socket.destroy());
        const outcome = await open.send(delivery(receiver.url()));
        expect(outcome).to.include({ status: null, error: 'connection reset (ECONNRESET)' });
      });

      it('an https target that does not speak TLS gives status null and a TLS error', async () => {
        const outcome = await open.send(delivery(`https://127.0.0.1:${receiver.port}/hook`));
        expect(outcome.status).to.equal(null);
        expect(outcome.error).to.match(/^(TLS handshake failed|TLS error|connection reset) \(/);
      });

      it('reaches localhost by name when private targets are allowed', async () => {
        const outcome = await open.send(delivery(`http://localhost:${receiver.port}/hook`));
        expect(outcome).to.include({ status: 200, error: null });
      });
    });

    if (!inProcess) it('refuses a loopback target when private targets are not allowed, without connecting', async () => {
      const sender = new ThreadedWebhookSender({
        threads: 1,
        start: SENDER_THREAD_FROM_SOURCE,
        data: { timeoutMs: 1000, allowPrivateTargets: false },
        fallback: NOT_IN_THIS_THREAD,
      });
      threaded.push(sender);
      const url = receiver.url();
      expect(await sender.send(delivery(url))).to.deep.equal({ status: null, durationMs: 0, responseBody: '', error: await new SsrfGuard({ allowPrivateTargets: false }).refusal(url) });
      expect(receiver.connections).to.equal(0);
    });

    if (inProcess) describe('the SSRF guard in front of the connection', () => {
      const lookups: string[] = [];
      const dns = {
        'public.example.com': ['93.184.216.34'],
        'private.example.com': ['10.0.0.1'],
        'loopback.example.com': ['127.0.0.1'],
      } as Record<string, string[]>;
      const guard = new SsrfGuard({
        allowPrivateTargets: false,
        lookup: async (hostname) => {
          lookups.push(hostname);
          const answer = dns[hostname];
          if (answer === undefined) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
          return answer;
        },
      });
      const strict = new HttpWebhookSender({ timeoutMs: 1000, guard });
      beforeEach(() => lookups.splice(0));

      const refused = (port: number) => [
        `http://127.0.0.1:${port}/`,
        `http://localhost:${port}/`,
        `http://[::1]:${port}/`,
        `http://10.0.0.1:${port}/`,
        `http://169.254.169.254:${port}/latest/meta-data/`,
        `http://2130706433:${port}/`,
        `http://0x7f.1:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://[fd00:ec2::254]:${port}/`,
        `http://100.100.100.200:${port}/`,
        `http://0.0.0.0:${port}/`,
        `http://loopback.example.com:${port}/`,
        `http://private.example.com:${port}/`,
        `ftp://127.0.0.1:${port}/`,
        `http://user:pass@127.0.0.1:${port}/`,
      ];

      it('refusal() refuses loopback, private, metadata and odd literal forms, bad schemes and credentials', async () => {
        for (const url of refused(receiver.port)) expect(await guard.refusal(url), url).to.be.a('string');
      });

      it('send() refuses the same targets without opening any connection', async () => {
        for (const url of refused(receiver.port)) {
          // Checked first, so a guard regression fails here instead of sending traffic off this host.
          const refusal = await guard.refusal(url);
          expect(refusal, url).to.be.a('string');
          expect(await strict.send(delivery(url)), url).to.deep.equal({ status: null, durationMs: 0, responseBody: '', error: refusal });
        }
        expect(receiver.connections).to.equal(0);
        expect(receiver.received).to.have.length(0);
      });

      it('accepts a name resolving to a public address (refusal() only: nothing connects off this host)', async () => {
        expect(await guard.refusal('https://public.example.com/hook')).to.equal(null);
        expect(lookups).to.deep.equal(['public.example.com']);
      });

      it('vets the address again at connect time: a DNS answer that turns private after the check is refused', async () => {
        let calls = 0;
        const rebinding = new SsrfGuard({
          allowPrivateTargets: false,
          lookup: async () => (++calls === 1 ? ['93.184.216.34'] : ['127.0.0.1']),
        });
        const sender = new HttpWebhookSender({ timeoutMs: 1000, guard: rebinding });
        const outcome = await sender.send(delivery(`http://rebind.example.com:${receiver.port}/hook`));
        expect(calls).to.equal(2);
        expect(outcome).to.include({ status: null, error: REFUSALS.forbiddenResolution });
        expect(receiver.connections).to.equal(0);
      });

      it('bounds a stalled DNS answer by the same timeout', async () => {
        const stalled = new SsrfGuard({ allowPrivateTargets: false, lookup: () => new Promise<string[]>(() => undefined) });
        const sender = new HttpWebhookSender({ timeoutMs: 200, guard: stalled });
        const started = performance.now();
        const outcome = await sender.send(delivery(`http://slow-dns.example.com:${receiver.port}/hook`));
        expect(outcome).to.include({ status: null, error: 'timed out after 200 ms' });
        expect(performance.now() - started, 'not before the timeout').to.be.at.least(190);
        expect(receiver.connections).to.equal(0);
      });
    });
  });
}

describe('ThreadedWebhookSender: its threads', function () {
  this.timeout(THREAD_TEST_TIMEOUT_MS);
  const inProcess = (): WebhookSender & AttemptSender & { readonly bodies: string[] } => {
    const bodies: string[] = [];
    const send = async (d: OutgoingAttempt): Promise<DeliveryOutcome> => (bodies.push(d.body), { status: 203, durationMs: 0, responseBody: 'in process', error: null });
    return { bodies, send, sendRun: (r, stop) => attemptInOrder(send, r, runClock(r), () => stop?.aborted === true) };
  };
  const attempt = (body: string): OutgoingAttempt => ({ targetUrl: 'http://127.0.0.1:9/', secret: SECRET, eventId: EVENT_ID, body, attemptDate: new Date() });
  const DYING = new URL('../support/dying-sender.thread.ts', import.meta.url);

  it('sends in this thread, and says so once per thread, when a thread cannot start', async () => {
    const fallback = inProcess();
    const errors: string[] = [];
    const sender = new ThreadedWebhookSender({ threads: 2, start: (o) => new Worker(new URL('./no-such.thread.js', DYING), o), data: { timeoutMs: 1000, allowPrivateTargets: true }, fallback, onError: (_e, what) => errors.push(what) });
    const outcomes: DeliveryOutcome[] = await Promise.all([sender.send(attempt('a')), sender.send(attempt('b'))]);
    expect(outcomes.map((o) => o.responseBody)).to.deep.equal(['in process', 'in process']);
    expect((await sender.send(attempt('c'))).status, 'later attempts too').to.equal(203);
    expect(fallback.bodies.sort()).to.deep.equal(['a', 'b', 'c']);
    expect(sender.threadedRequests).to.equal(2);
    expect(errors).to.deep.equal(Array(2).fill('a webhook sender thread could not start; sending in the main thread instead'));
    await sender.close();
  });

  it('ends the attempt in flight of a thread that died with an error outcome, and starts a new thread for the next', async () => {
    const fallback = inProcess();
    const errors: string[] = [];
    const sender = new ThreadedWebhookSender({ threads: 1, start: tsWorker(DYING), data: { timeoutMs: 1000, allowPrivateTargets: true }, fallback, onError: (_e, what) => errors.push(what) });
    expect(await sender.send(attempt('first'))).to.include({ status: 299, responseBody: 'first' });
    const died = await sender.send(attempt('die'));
    expect(died).to.include({ status: null, responseBody: '', error: 'the webhook sender thread stopped' });
    expect(await sender.send(attempt('after')), 'a new thread').to.include({ status: 299, responseBody: 'after' });
    expect(fallback.bodies, 'none in this thread: it may have reached the receiver, so it is retried, not resent').to.deep.equal([]);
    expect(errors).to.deep.equal(['a webhook sender thread died']);
    await sender.close();
  });

  it('counts a deadline from when the thread listens: a send and a run posted while it starts are answered, not taken for hung', async () => {
    const errors: string[] = [];
    let started = 0;
    const start = tsWorker(DYING);
    // Each listens a second after it starts (and after tsx is up in it): past the 300 + 200 ms a request has.
    const slowToStart = () =>
      new ThreadedWebhookSender({
        threads: 1,
        start: (options) => (started++, start({ ...options, workerData: { ...options.workerData, startDelayMs: 1000 } })),
        data: { timeoutMs: 300, allowPrivateTargets: true },
        fallback: inProcess(),
        watchdogSlackMs: 200,
        onError: (_e, what) => errors.push(what),
      });
    const [one, other] = [slowToStart(), slowToStart()];
    const now = new Date();
    const startingNothing: OutgoingRun = { targetUrl: 'http://127.0.0.1:9/', secret: SECRET, deliveries: [{ eventId: 'e0', body: 'late', lastAttempt: false }], startBy: new Date(now.getTime() - 1), now };
    const [sent, run] = await Promise.all([one.send(attempt('slow start')), other.sendRun(startingNothing)]);
    expect(sent, 'answered by the thread').to.include({ status: 299, responseBody: 'slow start' });
    expect(run, 'past its startBy: no attempt, and none charged for the start').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    expect(started, 'one thread each, none replaced').to.equal(2);
    await Promise.all([one.close(), other.close()]);
  });

  it('takes a thread that does not listen within startTimeoutMs for one that cannot start: its work and later work go to this thread', async () => {
    const fallback = inProcess();
    const errors: string[] = [];
    const start = tsWorker(DYING);
    const sender = new ThreadedWebhookSender({
      threads: 1,
      start: (options) => start({ ...options, workerData: { ...options.workerData, startDelayMs: 600_000 } }),
      data: { timeoutMs: 300, allowPrivateTargets: true },
      fallback,
      startTimeoutMs: 300,
      onError: (_e, what) => errors.push(what),
    });
    expect(await sender.send(attempt('first')), 'none of it was sent: in this thread').to.include({ status: 203, responseBody: 'in process' });
    expect(await sender.send(attempt('later'))).to.include({ status: 203 });
    expect(fallback.bodies).to.deep.equal(['first', 'later']);
    expect(errors).to.deep.equal(['a webhook sender thread could not start; sending in the main thread instead']);
    await sender.close();
  });

  for (const how of ['hang', 'stall'] as const) {
    it(`replaces a thread whose run does not report by its deadline (${how}): the run ends, charged one failed attempt, the rest released`, async () => {
      const errors: string[] = [];
      let started = 0;
      const start = tsWorker(DYING);
      const sender = new ThreadedWebhookSender({
        threads: 1,
        start: (options) => (started++, start(options)),
        data: { timeoutMs: 300, allowPrivateTargets: true },
        fallback: inProcess(),
        watchdogSlackMs: 200,
        onError: (_e, what) => errors.push(what),
      });
      expect(await sender.send(attempt('warm')), 'the thread is up').to.include({ status: 299 });
      const now = new Date();
      // The run's deadline: its last start (now + 100 ms) plus one attempt (300 ms) plus the slack (200 ms).
      const deadlineMs = 600;
      const run: OutgoingRun = { targetUrl: 'http://127.0.0.1:9/', secret: SECRET, deliveries: ['ok', how, 'never'].map((body, i) => ({ eventId: `e${i}`, body, lastAttempt: false })), startBy: new Date(now.getTime() + 100), now };
      const began = performance.now();
      const attempts = await sender.sendRun(run);
      const tookMs = performance.now() - began;
      // Not before its deadline; that it ends at all is the run's answer below (a hang would never give one).
      expect(tookMs, 'not before its deadline').to.be.at.least(deadlineMs - 20);
      expect(attempts.map((a) => [a.outcome.status, a.outcome.error])).to.deep.equal(
        [[null, 'the webhook sender thread did not answer in time']],
        'nothing was reported (reports come 16 at a time): the first counts as failed, so a delivery that hangs threads backs off; the rest are released',
      );
      expect(errors).to.deep.equal(['a webhook sender thread hung; it was ended and will be replaced']);
      expect(await sender.send(attempt('after')), 'a new thread answers').to.include({ status: 299, responseBody: 'after' });
      expect(started, 'the hung thread was replaced').to.equal(2);
      await sender.close();
    });
  }

  it("releases, uncounted, the other runs of a thread replaced because one run was overdue", async () => {
    const sender = new ThreadedWebhookSender({ threads: 1, start: tsWorker(DYING), data: { timeoutMs: 300, allowPrivateTargets: true }, fallback: inProcess(), watchdogSlackMs: 200 });
    expect(await sender.send(attempt('warm'))).to.include({ status: 299 });
    const now = new Date();
    const run = (eventId: string, startInMs: number): OutgoingRun => ({ targetUrl: 'http://127.0.0.1:9/', secret: SECRET, deliveries: [{ eventId, body: 'stall', lastAttempt: false }], startBy: new Date(now.getTime() + startInMs), now });
    // Both stall in the one thread; the first is overdue after 100 + 300 + 200 ms, the second would be 60 s later.
    const [overdue, bystander] = await Promise.all([sender.sendRun(run('a', 100)), sender.sendRun(run('b', 60_000))]);
    expect(overdue.map((a) => a.outcome.error)).to.deep.equal(['the webhook sender thread did not answer in time']);
    expect(bystander, 'not its fault: released, no attempt counted').to.deep.equal([]);
    await sender.close();
  });

  it('sends in this thread once closed', async () => {
    const fallback = inProcess();
    const sender = new ThreadedWebhookSender({ threads: 1, start: tsWorker(DYING), data: { timeoutMs: 1000, allowPrivateTargets: true }, fallback });
    expect((await sender.send(attempt('x'))).status).to.equal(299);
    await sender.close();
    expect((await sender.send(attempt('y'))).status).to.equal(203);
    expect(fallback.bodies).to.deep.equal(['y']);
  });
});

describe('ThreadedWebhookSender: runs, attempted in its thread', function () {
  this.timeout(THREAD_TEST_TIMEOUT_MS);
  let receiver: Receiver;
  const senders: ThreadedWebhookSender[] = [];
  const make = (start = SENDER_THREAD_FROM_SOURCE) => {
    const sender = new ThreadedWebhookSender({
      threads: 1,
      start,
      data: { timeoutMs: 1000, allowPrivateTargets: true },
      fallback: NOT_IN_THIS_THREAD,
    });
    senders.push(sender);
    return sender;
  };
  const run = (bodies: string[], overrides: Partial<OutgoingRun> = {}): OutgoingRun => ({
    targetUrl: receiver.url('/run'),
    secret: SECRET,
    deliveries: bodies.map((body, i) => ({ eventId: `event-${i}`, body, lastAttempt: false })),
    startBy: new Date(Date.now() + 60_000),
    now: new Date(),
    ...overrides,
  });
  before(async () => (receiver = await Receiver.start()));
  beforeEach(() => receiver.reset());
  after(async () => {
    await Promise.all(senders.map((sender) => sender.close()));
    await receiver.close();
  });

  it("sends a run one POST after the other, in order, signed, each attempt dated as it started by the caller's clock", async () => {
    // The caller's clock (a test's, say) is years ahead of the wall clock: startBy and the dates follow it.
    const callerNow = new Date('2031-05-01T12:00:00.000Z');
    const called = performance.now();
    const attempts = await make().sendRun(run(['{"n":1}', '{"n":2}', '{"n":3}'], { now: callerNow, startBy: new Date(callerNow.getTime() + 60_000) }));
    const elapsed = performance.now() - called;
    expect(attempts.map(({ outcome }) => [outcome.status, outcome.error, outcome.responseBody])).to.deep.equal(Array(3).fill([200, null, 'ok']));
    expect(receiver.received.map((r) => [r.body.toString(), r.headers['webhook-id']])).to.deep.equal([
      ['{"n":1}', 'event-0'],
      ['{"n":2}', 'event-1'],
      ['{"n":3}', 'event-2'],
    ]);
    const dates = attempts.map((a) => a.attemptDate.getTime());
    expect(dates).to.deep.equal([...dates].sort((a, b) => a - b));
    // Between the call and its answer on the caller's clock (the wall clock is years behind it); +1 for Date's whole milliseconds.
    expect(dates[0]! - callerNow.getTime()).to.be.within(0, Math.ceil(elapsed) + 1);
    expect(receiver.received.map((r) => Number(r.headers['webhook-timestamp']))).to.deep.equal(dates.map((d) => Math.floor(d / 1000)));
    for (const r of receiver.received) expect(verifyServiceSignature(SECRET, receiver.url('/run'), r.body, String(r.headers['x-service-signature']))).to.equal(true);
  });

  it('starts no attempt after startBy, and stops after a failed last attempt', async () => {
    expect(await make().sendRun(run(['a', 'b'], { startBy: new Date(Date.now() - 1) }))).to.deep.equal([]);
    receiver.respond((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const attempts = await make().sendRun({ ...run(['a', 'b', 'c']), deliveries: ['a', 'b', 'c'].map((body, i) => ({ eventId: `e${i}`, body, lastAttempt: i === 1 })) });
    expect(attempts.map((a) => a.outcome.status)).to.deep.equal([500, 500]);
    expect(receiver.received).to.have.length(2);
  });

  it('stopped, ends the run after the attempt in flight', async () => {
    const stop = new AbortController();
    receiver.respond((_req, res) => {
      stop.abort();
      setTimeout(() => res.end('ok'), 20);
    });
    const attempts = await make().sendRun(run(['a', 'b', 'c']), stop.signal);
    expect(attempts.map((a) => a.outcome.status)).to.deep.equal([200]);
    expect(receiver.received).to.have.length(1);
  });

  it('a thread that dies mid-run keeps the attempts it reported (16 at a time); the first unreported gets an error outcome (retried: at least once), the rest is not sent', async () => {
    const sender = make(tsWorker(new URL('../support/dying-sender.thread.ts', import.meta.url)));
    const bodies = [...Array.from({ length: 16 }, (_, i) => `ok${i}`), 'die', 'never'];
    const attempts = await sender.sendRun({ ...run(bodies), targetUrl: 'http://127.0.0.1:9/' });
    expect(attempts.map(({ outcome }) => [outcome.status, outcome.responseBody, outcome.error])).to.deep.equal([
      ...bodies.slice(0, 16).map((body) => [299, body, null]),
      [null, '', 'the webhook sender thread stopped'],
    ]);
    expect((await sender.sendRun({ ...run(['after']), targetUrl: 'http://127.0.0.1:9/' })).map((a) => a.outcome.status), 'a new thread').to.deep.equal([299]);
  });

  it('one abort listener per signal, however many runs wait on it', async () => {
    const sender = make();
    const stop = new AbortController();
    let warnings = 0;
    const onWarning = () => (warnings += 1);
    process.on('warning', onWarning);
    try {
      const attempts = await Promise.all(Array.from({ length: 20 }, () => sender.sendRun(run(['a']), stop.signal)));
      expect(attempts.map((a) => a.length)).to.deep.equal(Array(20).fill(1));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings, 'no MaxListenersExceededWarning').to.equal(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
