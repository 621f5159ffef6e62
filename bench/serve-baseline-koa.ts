/**
 * Benchmark child: a bare Koa 3 server on 127.0.0.1 answering every request with one fixed JSON
 * body, the very bytes of the file BENCH_BODY_FILE as a string with the `Content-Type` Koa gives
 * an object (Specbase sends its API records' JSON texts kept from earlier answers, so the baseline
 * serialises nothing either). With BENCH_HEADERS_FILE (a JSON list of [name, value] pairs) it also
 * sends those headers as they are, a Specbase answer's own: the whole answer's bytes, for the
 * reference figure of what the headers cost the server and the load generator. Reports
 * `{ type: 'ready', url }` over IPC.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

if (!process.send) throw new Error('serve-baseline-koa.ts must be started by bench/run.ts (it reports over IPC)');
const bodyFile = process.env['BENCH_BODY_FILE'];
if (!bodyFile) throw new Error('BENCH_BODY_FILE is not set');
const body = readFileSync(bodyFile, 'utf8');
const headersFile = process.env['BENCH_HEADERS_FILE'];
const headers = headersFile ? (JSON.parse(readFileSync(headersFile, 'utf8')) as [string, string][]) : [];

const app = new Koa();
app.use((ctx) => {
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  for (const [name, value] of headers) ctx.set(name, value);
  ctx.body = body;
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
server.keepAliveTimeout = 5_000; // as Specbase sets it

function shutdown(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);
