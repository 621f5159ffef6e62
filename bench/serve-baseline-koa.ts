/**
 * Benchmark child: a bare Koa 3 server on 127.0.0.1 answering every request with one fixed JSON
 * body (the file BENCH_BODY_FILE, parsed once; Koa serialises it per response, as it does for
 * Specbase). Reports `{ type: 'ready', url }` over IPC.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

if (!process.send) throw new Error('serve-baseline-koa.ts must be started by bench/run.ts (it reports over IPC)');
const bodyFile = process.env['BENCH_BODY_FILE'];
if (!bodyFile) throw new Error('BENCH_BODY_FILE is not set');
const body: unknown = JSON.parse(readFileSync(bodyFile, 'utf8'));

const app = new Koa();
app.use((ctx) => {
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
