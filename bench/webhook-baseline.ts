/**
 * Benchmark child for bench/webhooks.ts: the baseline of the webhook benchmark, i.e. a plain loop
 * of signed HTTP POSTs from one process, doing per request what HttpWebhookSender.post does
 * (src/adapters/webhooks/http-webhook-sender.ts) and nothing else (no database, no SSRF check):
 *
 *   new URL(target); Buffer.from(body)
 *   X-Service-Signature = hex HMAC-SHA256(secret, target URL + body)         (node:crypto)
 *   webhook-signature   = v1, base64 HMAC-SHA256(secret, `${id}.${ts}.` + body)
 *   node:http request without an agent, its socket opened by `createConnection` (a fresh
 *   connection per POST, none kept alive; the sender's way since 2026-11-28, `agent: false`
 *   before), a timeout timer, at most 1 KiB of the response read, both ends destroyed when it ends.
 *
 * Reports `{ type: 'ready' }` over IPC, then answers
 * - `{ type: 'run', id, base, count, concurrency, body, secret, eventId }`: `count` POSTs to
 *   `${base}/b/<lane>`, `concurrency` lanes each sending one after the other, with
 *   `{ type: 'ran', id, ms, failures }` (ms: from the first request to the last response).
 * - `{ type: 'single', id, base, count, body, secret, eventId }`: `count` POSTs one at a time, with
 *   `{ type: 'singles', id, ms: [...], failures }` (the round trip of each).
 * Failures (an error, a timeout or a non-2xx status) are counted, not retried.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

const TIMEOUT_MS = 10_000;
const RESPONSE_EXCERPT_BYTES = 1024;
const USER_AGENT = 'Specbase-Webhooks/1';

interface Job {
  readonly id: number;
  readonly base: string;
  readonly count: number;
  readonly body: string;
  readonly secret: string;
  readonly eventId: string;
}

export type BaselineCommand = (Job & { readonly type: 'run'; readonly concurrency: number }) | (Job & { readonly type: 'single' });

export type BaselineReport =
  | { readonly type: 'ran'; readonly id: number; readonly ms: number; readonly failures: number }
  | { readonly type: 'singles'; readonly id: number; readonly ms: readonly number[]; readonly failures: number };

const send = process.send?.bind(process);
if (!send) throw new Error('webhook-baseline.ts must be started by bench/webhooks.ts (it reports over IPC)');

/** One signed POST; resolves with whether it got a 2xx. Never rejects. */
function post(targetUrl: string, text: string, secret: string, eventId: string): Promise<boolean> {
  const started = performance.now();
  const url = new URL(targetUrl);
  const body = Buffer.from(text, 'utf8');
  const key = Buffer.from(secret, 'utf8');
  const timestamp = Math.floor(Date.now() / 1000);
  const options: RequestOptions = {
    method: 'POST',
    createConnection: (o: RequestOptions): Socket => createConnection({ host: o.host ?? undefined, port: Number(o.port) }),
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': USER_AGENT,
      'X-Service-Signature': createHmac('sha256', key).update(Buffer.from(targetUrl, 'utf8')).update(body).digest('hex'),
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${createHmac('sha256', key).update(Buffer.from(`${eventId}.${timestamp}.`, 'utf8')).update(body).digest('base64')}`,
    },
  };
  return new Promise<boolean>((resolve) => {
    let request: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    let settled = false;
    const chunks: Buffer[] = [];
    let kept = 0;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      response?.destroy();
      request?.destroy();
      // As the sender does: the kept bytes as text (a cut multi-byte character dropped).
      new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });
      const status = response?.statusCode;
      resolve(status !== undefined && status >= 200 && status < 300);
    };
    const timer = setTimeout(finish, Math.max(0, started + TIMEOUT_MS - performance.now()));
    try {
      request = httpRequest(url, options, (res) => {
        response = res;
        res.on('data', (chunk: Buffer) => {
          const room = RESPONSE_EXCERPT_BYTES - kept;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          kept += Math.min(chunk.length, room);
          if (kept >= RESPONSE_EXCERPT_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
        res.on('close', finish);
      });
      request.on('error', finish);
      request.end(body);
    } catch {
      finish();
    }
  });
}

async function run(job: Job, concurrency: number): Promise<BaselineReport> {
  let next = 0;
  let failures = 0;
  const lane = async (n: number): Promise<void> => {
    const target = `${job.base}/b/${n}`;
    while (next < job.count) {
      next += 1;
      if (!(await post(target, job.body, job.secret, job.eventId))) failures += 1;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, n) => lane(n + 1)));
  return { type: 'ran', id: job.id, ms: performance.now() - start, failures };
}

async function singles(job: Job): Promise<BaselineReport> {
  const ms: number[] = [];
  let failures = 0;
  for (let i = 0; i < job.count; i++) {
    const start = performance.now();
    if (!(await post(`${job.base}/b/1`, job.body, job.secret, job.eventId))) failures += 1;
    ms.push(performance.now() - start);
  }
  return { type: 'singles', id: job.id, ms, failures };
}

function isCommand(message: unknown): message is BaselineCommand {
  const m = message as Partial<BaselineCommand> | null;
  return typeof m === 'object' && m !== null && (m.type === 'run' || m.type === 'single') && typeof m.id === 'number';
}

process.on('message', (message: unknown) => {
  if (!isCommand(message)) return;
  const work = message.type === 'run' ? run(message, message.concurrency) : singles(message);
  void work.then((reply) => send(reply));
});

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
process.on('disconnect', () => process.exit(0));

send({ type: 'ready' });
