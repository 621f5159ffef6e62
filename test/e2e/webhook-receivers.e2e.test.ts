import { expect } from 'chai';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { spawnTracked } from '../support/processes.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceSignature, standardWebhookSignature } from '../../src/adapters/webhooks/signatures.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { ROOT } from '../support/built-cli.js';
import { startTestServer, type TestServer, type TestUser } from '../support/http-server.js';

/*
 * The example receivers of docs/webhook-receivers.md (examples/webhook-receivers/) as child
 * processes, fed by a real Specbase server through a recording proxy: the proxy's URL is the
 * webhook's targetUrl, as with a receiver behind a reverse proxy, and what it records is the
 * genuine delivery the tampered copies are made from.
 */

interface ReceiverSpec {
  readonly name: string;
  readonly file: string;
  readonly command: string;
  /** Why it cannot run here, or undefined. */
  readonly missing: string | undefined;
}

const python3 = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const RECEIVERS: readonly ReceiverSpec[] = [
  { name: 'Node.js', file: 'examples/webhook-receivers/node-receiver.mjs', command: process.execPath, missing: undefined },
  {
    name: 'Python',
    file: 'examples/webhook-receivers/python_receiver.py',
    command: 'python3',
    missing: python3.status === 0 ? undefined : 'python3 is not on PATH',
  },
];

/** A receiver example as a child process; stdout and stderr kept as lines. */
class ReceiverProcess {
  readonly out: string[] = [];
  readonly err: string[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    const collect = (into: string[]) => {
      let partial = '';
      return (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        into.push(...lines);
        for (const wake of this.waiters) wake();
      };
    };
    child.stdout!.on('data', collect(this.out));
    child.stderr!.on('data', collect(this.err));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => {
      for (const wake of this.waiters) wake();
    });
  }

  static async start(spec: ReceiverSpec, env: Record<string, string>): Promise<{ receiver: ReceiverProcess; url: string }> {
    const child = spawnTracked(spec.command, [join(ROOT, spec.file)], { cwd: ROOT, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env } });
    const receiver = new ReceiverProcess(child);
    const line = await receiver.line(/^listening on (http:\/\/\S+)$/, 'the listening line', 15_000);
    return { receiver, url: line.match(/^listening on (http:\/\/\S+)$/)![1]! };
  }

  /** The first stdout line matching `pattern`, waiting for it. */
  line(pattern: RegExp, what: string, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.out.find((l) => pattern.test(l));
        if (found !== undefined) {
          done();
          resolve(found);
          return true;
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) {
          done();
          reject(new Error(`the receiver exited before ${what}: ${this.output()}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} within ${timeoutMs} ms: ${this.output()}`));
      }, timeoutMs);
      const waiter = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
      };
      this.waiters.push(waiter);
      check();
    });
  }

  output(): string {
    return `stdout: ${JSON.stringify(this.out)} stderr: ${JSON.stringify(this.err)}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await this.exited;
    clearTimeout(timer);
  }
}

interface Exchange {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly status: number;
}

/** POSTs `body` with exactly `headers` (plus Content-Length) to `url`; resolves to the status. */
function post(url: string, headers: OutgoingHttpHeaders, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'Content-Length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Listens on 127.0.0.1, forwards every POST to `upstream` unchanged and records it with the answer. */
class RecordingProxy {
  readonly exchanges: Exchange[] = [];
  upstream: string | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers = { ...req.headers };
        for (const name of ['host', 'connection', 'content-length']) delete headers[name];
        const forwarded = this.upstream === undefined ? Promise.resolve(503) : post(this.upstream + (req.url ?? '/'), headers, body);
        forwarded.then(
          (status) => {
            this.exchanges.push({ headers: req.headers, body, status });
            res.writeHead(status).end();
          },
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** The headers of a delivery a receiver reads, from a recorded one, with some replaced or (undefined) removed. */
function deliveryHeaders(genuine: Exchange, changes: Record<string, string | undefined> = {}): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name of ['content-type', 'user-agent', 'x-service-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = name in changes ? changes[name] : genuine.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

const header = (exchange: Exchange, name: string): string => {
  const value = exchange.headers[name];
  if (typeof value !== 'string') throw new Error(`the delivery has no ${name} header`);
  return value;
};

/** The same string with one character changed (a base64 or hex signature stays well-formed). */
/**
 * `value` with its second-to-last character changed, also to a reader that ignores case: hex
 * signatures are compared case-insensitively, so turning an `a` into an `A` changed nothing (1 run
 * in 16 accepted the "tampered" copy).
 */
function flipLast(value: string): string {
  return value.slice(0, -2) + (value.at(-2)?.toLowerCase() === 'a' ? 'b' : 'a') + value.slice(-1);
}

describe('Webhook receiver examples (examples/webhook-receivers) against a real server', function () {
  let dir: string;
  let server: TestServer;
  let ada: TestUser;
  let token: string;
  let nickname = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'specbase-receivers-'));
    server = await startTestServer(
      { kind: 'sqlite', path: join(dir, 'test.sqlite') },
      { WEBHOOK_WORKER: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '3000' },
    );
    ada = await server.user('ada@example.com', 'ada');
    token = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function json<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await server.request(method, path, body === undefined ? { token } : { token, body });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  }

  /**
   * A webhook for api.created to a recording proxy, the receiver behind it with the webhook's
   * secret, and one api.created event delivered: resolves to the genuine delivery as recorded.
   */
  async function deliverOne(spec: ReceiverSpec, secret: string | undefined, use: (ctx: { receiver: ReceiverProcess; receiverUrl: string; genuine: Exchange; secret: string; targetUrl: string; webhookId: string }) => Promise<void>): Promise<void> {
    const proxy = new RecordingProxy();
    const targetUrl = `${await proxy.start()}/hooks/specbase`;
    let receiver: ReceiverProcess | undefined;
    let webhookId: string | undefined;
    try {
      const created = await json<{ id: string; secret?: string }>('POST', `/webhooks/${ada.accountId}`, { targetUrl, events: ['api.created'], active: true, ...(secret === undefined ? {} : { secret }) });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      webhookId = created.body.id;
      const theSecret = secret ?? created.body.secret!;
      const started = await ReceiverProcess.start(spec, { WEBHOOK_SECRET: theSecret, WEBHOOK_TARGET_URL: targetUrl });
      receiver = started.receiver;
      proxy.upstream = started.url;

      nickname += 1;
      const api = await json<{ id: string }>('POST', `/api/${ada.accountId}`, { name: 'Receivers', nickname: `receivers-${nickname}` });
      expect(api.status).to.equal(201);
      const accepted = await receiver.line(/^accepted /, 'accepted line');
      await waitFor(() => proxy.exchanges.length > 0, 'the delivery recorded by the proxy', receiver);
      expect(proxy.exchanges, 'Specbase sent one delivery').to.have.length(1);
      const genuine = proxy.exchanges[0]!;
      expect(genuine.status, receiver.output()).to.equal(204);
      expect(accepted).to.equal(`accepted ${header(genuine, 'webhook-id')} api.created Api ${api.body.id}`);
      expect(receiver.err, 'nothing rejected').to.deep.equal([]);
      await use({ receiver, receiverUrl: started.url, genuine, secret: theSecret, targetUrl, webhookId });
    } finally {
      if (webhookId !== undefined) await json('DELETE', `/webhooks/${ada.accountId}/${webhookId}`);
      await receiver?.stop();
      await proxy.stop();
    }
  }

  for (const spec of RECEIVERS) {
    if (spec.missing !== undefined) {
      console.log(`\n  The ${spec.name} webhook receiver example is NOT tested: ${spec.missing}.\n`);
      describe.skip(`${spec.name} receiver (skipped: ${spec.missing})`, () => {
        it('verifies deliveries');
      });
      continue;
    }

    describe(`${spec.name} receiver (${spec.file})`, () => {
      it('accepts the genuine delivery, rejects tampered copies with 401, and answers a repeat with 204 without handling it again', async () => {
        await deliverOne(spec, undefined, async ({ receiver, receiverUrl, genuine, secret, targetUrl, webhookId }) => {
          const url = receiverUrl + '/hooks/specbase';
          const id = header(genuine, 'webhook-id');
          const body = genuine.body;
          const tamperedBody = Buffer.from(body.toString('utf8').replace('"name":"api.created"', '"name":"api.deleted"'), 'utf8');
          expect(tamperedBody.equals(body)).to.equal(false);
          const now = Math.floor(Date.now() / 1000);
          const stale = now - 10 * 60;

          const cases: { what: string; headers: OutgoingHttpHeaders; body: Buffer; reason: RegExp }[] = [
            { what: 'the body changed', headers: deliveryHeaders(genuine), body: tamperedBody, reason: /X-Service-Signature does not match/ },
            {
              what: 'the body changed, with an X-Service-Signature made for it (webhook-signature must catch it)',
              headers: deliveryHeaders(genuine, { 'x-service-signature': serviceSignature(secret, targetUrl, tamperedBody) }),
              body: tamperedBody,
              reason: /webhook-signature does not match/,
            },
            {
              what: 'a delivery meant for another URL of the receiver',
              headers: deliveryHeaders(genuine, { 'x-service-signature': serviceSignature(secret, `${targetUrl}/elsewhere`, body) }),
              body,
              reason: /X-Service-Signature does not match/,
            },
            { what: 'X-Service-Signature altered', headers: deliveryHeaders(genuine, { 'x-service-signature': flipLast(header(genuine, 'x-service-signature')) }), body, reason: /X-Service-Signature does not match/ },
            { what: 'webhook-signature altered', headers: deliveryHeaders(genuine, { 'webhook-signature': flipLast(header(genuine, 'webhook-signature')) }), body, reason: /webhook-signature does not match/ },
            { what: 'webhook-id changed', headers: deliveryHeaders(genuine, { 'webhook-id': flipLast(id) }), body, reason: /webhook-signature does not match/ },
            {
              what: 'both signatures valid but webhook-timestamp 10 minutes old',
              headers: deliveryHeaders(genuine, { 'webhook-timestamp': String(stale), 'webhook-signature': standardWebhookSignature(secret, id, stale, body) }),
              body,
              reason: /webhook-timestamp too far from now/,
            },
            { what: 'no X-Service-Signature', headers: deliveryHeaders(genuine, { 'x-service-signature': undefined }), body, reason: /X-Service-Signature missing/ },
            { what: 'no webhook-signature', headers: deliveryHeaders(genuine, { 'webhook-signature': undefined }), body, reason: /webhook-signature missing/ },
            {
              what: 'signed with another secret',
              headers: deliveryHeaders(genuine, {
                'x-service-signature': serviceSignature('another secret of 32 characters', targetUrl, body),
                'webhook-signature': standardWebhookSignature('another secret of 32 characters', id, now, body),
                'webhook-timestamp': String(now),
              }),
              body,
              reason: /X-Service-Signature does not match/,
            },
          ];
          for (const [index, tampered] of cases.entries()) {
            const status = await post(url, tampered.headers, tampered.body);
            expect(status, `${tampered.what}: ${receiver.output()}`).to.equal(401);
            await waitFor(() => receiver.err.length > index, `the rejection of "${tampered.what}" on stderr`, receiver);
            expect(receiver.err[index], tampered.what).to.match(tampered.reason);
          }
          expect(receiver.err).to.have.length(cases.length);

          // At least once: the same event again (here the genuine bytes replayed, then a redelivery
          // by Specbase with a new timestamp) is acknowledged but not handled twice.
          expect(await post(url, deliveryHeaders(genuine), body)).to.equal(204);
          await receiver.line(new RegExp(`^duplicate ${id}$`), 'duplicate line');
          const log = await json<{ items: { id: string }[] }>('GET', `/webhooks/${ada.accountId}/${webhookId}/deliveries`);
          const redelivered = await json<{ id: string }>('POST', `/webhooks/${ada.accountId}/${webhookId}/deliveries/${log.body.items[0]!.id}/redeliver`);
          expect(redelivered.status).to.equal(202);
          await waitFor(() => receiver.out.filter((l) => l === `duplicate ${id}`).length === 2, 'the redelivery to be seen as a duplicate', receiver);
          expect(receiver.out.filter((l) => l.startsWith('accepted '))).to.have.length(1);
          expect(receiver.err).to.have.length(cases.length);
        });
      });

      it('verifies a secret given by the user that is not ASCII (the key is its UTF-8 bytes)', async () => {
        await deliverOne(spec, 'ein Geheimnis: Schlüssel-ß-✓-2026', async ({ receiver, receiverUrl, genuine }) => {
          const tampered = Buffer.from(genuine.body.toString('utf8').replace('"resourceType":"Api"', '"resourceType":"Apx"'), 'utf8');
          expect(await post(receiverUrl + '/hooks/specbase', deliveryHeaders(genuine), tampered)).to.equal(401);
          await waitFor(() => receiver.err.length > 0, 'the rejection on stderr', receiver);
          expect(receiver.err).to.deep.equal(['rejected: X-Service-Signature does not match']);
        });
      });
    });
  }

  it('docs/webhook-receivers.md quotes the receivers as they are', () => {
    const guide = readFileSync(join(ROOT, 'docs/webhook-receivers.md'), 'utf8');
    const blocks = [...guide.matchAll(/```(js|python)\n([\s\S]*?)```/g)];
    expect(blocks.length).to.be.at.least(2);
    const sources = { js: readFileSync(join(ROOT, RECEIVERS[0]!.file), 'utf8'), python: readFileSync(join(ROOT, RECEIVERS[1]!.file), 'utf8') };
    for (const [, language, code] of blocks) {
      expect(sources[language as 'js' | 'python'].includes(code!), `a ${language} block of the guide is not in the example file:\n${code}`).to.equal(true);
    }
  });
});

async function waitFor(done: () => boolean, what: string, receiver: ReceiverProcess, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not reached in time: ${what}: ${receiver.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
