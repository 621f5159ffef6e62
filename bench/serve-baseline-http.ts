/**
 * Benchmark child: a bare node:http server on 127.0.0.1 answering every request with one fixed
 * JSON body (the bytes of the file BENCH_BODY_FILE, like the Koa baseline). The floor under any framework. Reports `{ type: 'ready', url }` over IPC.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

if (!process.send) throw new Error('serve-baseline-http.ts must be started by bench/run.ts (it reports over IPC)');
const bodyFile = process.env['BENCH_BODY_FILE'];
if (!bodyFile) throw new Error('BENCH_BODY_FILE is not set');
const text = readFileSync(bodyFile, 'utf8');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
});
server.keepAliveTimeout = 5_000; // as Specbase sets it

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});

function shutdown(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);
