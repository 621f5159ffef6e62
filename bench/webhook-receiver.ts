/**
 * Benchmark child for bench/webhooks.ts: the loopback webhook receiver. A node:http server on
 * 127.0.0.1 and an ephemeral port that reads each request body and answers 204 at once, and
 * counts the POSTs it received (in total and per path). Reports `{ type: 'ready', url }` over IPC,
 * then obeys:
 *
 * - `{ type: 'reset', id, mode, expect }`: counts from zero. Mode `count` only counts (and reports
 *   `{ type: 'reached', id, at, count }` once `expect` POSTs have arrived, `at` being Date.now() at
 *   the arrival of that POST); mode `latency` also reports every POST as
 *   `{ type: 'arrival', at, path, body }` (at = Date.now() when the body had arrived).
 *   Answered with `{ type: 'reset', id }`.
 * - `{ type: 'count', id }`: answered with `{ type: 'counted', id, at, count, paths, sample }`
 *   (paths: POSTs per path since the reset; sample: the first POST since the reset, headers and body).
 *
 * The arrival time of a POST is taken when its whole body has been read, just before the 204.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverCommand =
  | { readonly type: 'reset'; readonly id: number; readonly mode: 'count' | 'latency'; readonly expect: number }
  | { readonly type: 'count'; readonly id: number };

export interface ReceivedSample {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type ReceiverReport =
  | { readonly type: 'reset'; readonly id: number }
  | { readonly type: 'reached'; readonly id: number; readonly at: number; readonly count: number }
  | { readonly type: 'arrival'; readonly at: number; readonly path: string; readonly body: string }
  | {
      readonly type: 'counted';
      readonly id: number;
      readonly at: number;
      readonly count: number;
      readonly paths: Readonly<Record<string, number>>;
      readonly sample: ReceivedSample | null;
    };

const send = process.send?.bind(process);
if (!send) throw new Error('webhook-receiver.ts must be started by bench/webhooks.ts (it reports over IPC)');
const report = (message: ReceiverReport): void => {
  send(message);
};

let mode: 'count' | 'latency' = 'count';
let count = 0;
let expect = Infinity;
let resetId = 0;
let paths = new Map<string, number>();
let sample: ReceivedSample | null = null;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  const latency = mode === 'latency';
  const keepSample = sample === null;
  request.on('data', (chunk: Buffer) => {
    if (latency || keepSample) chunks.push(chunk);
  });
  request.on('end', () => {
    const at = Date.now();
    response.writeHead(204).end();
    if (request.method !== 'POST') return;
    const path = request.url ?? '/';
    count += 1;
    paths.set(path, (paths.get(path) ?? 0) + 1);
    if (sample === null) sample = { path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
    if (latency) report({ type: 'arrival', at, path, body: Buffer.concat(chunks).toString('utf8') });
    if (count === expect) report({ type: 'reached', id: resetId, at, count });
  });
});
server.keepAliveTimeout = 5_000;

function isCommand(message: unknown): message is ReceiverCommand {
  const m = message as Partial<ReceiverCommand> | null;
  return typeof m === 'object' && m !== null && (m.type === 'reset' || m.type === 'count') && typeof m.id === 'number';
}

process.on('message', (message: unknown) => {
  if (!isCommand(message)) return;
  if (message.type === 'reset') {
    mode = message.mode;
    expect = message.expect;
    resetId = message.id;
    count = 0;
    paths = new Map();
    sample = null;
    report({ type: 'reset', id: message.id });
  } else {
    report({ type: 'counted', id: message.id, at: Date.now(), count, paths: Object.fromEntries(paths), sample });
  }
});

function shutdown(): void {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1_000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
