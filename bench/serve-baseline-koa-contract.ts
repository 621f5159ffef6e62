/**
 * Benchmark child: the least a Koa 3 application can do to answer a read under Specbase's HTTP
 * contract, for reference next to the bare Koa baseline (bench/run.ts). Per request, as Specbase
 * does: the request id (the caller's when sane, else a random UUID) in `X-Request-Id`; the four
 * security headers; the Bearer token from `Authorization`, looked up in a Map by its SHA-256
 * (remembered per token text, as Specbase's token cache does) and refused with 401 when unknown;
 * a per-token counter with the three `RateLimit-*` headers; the path split and checked against
 * the route's shape; an `ETag`; the body (BENCH_BODY_FILE's bytes, sent as a string, as Specbase
 * sends its records' kept JSON texts). No database, logging, metrics, scopes or access checks: what any application would
 * spend before doing Specbase's own work. Reports `{ type: 'ready', url }` over IPC; BENCH_TOKEN
 * is the one token it knows.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

if (!process.send) throw new Error('serve-baseline-koa-contract.ts must be started by bench/run.ts (it reports over IPC)');
const bodyFile = process.env['BENCH_BODY_FILE'];
const token = process.env['BENCH_TOKEN'];
if (!bodyFile || !token) throw new Error('BENCH_BODY_FILE and BENCH_TOKEN must be set');
const body = readFileSync(bodyFile, 'utf8');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const principals = new Map([[sha256(token), { tokenId: 'bench' }]]);
const hashes = new Map<string, string>();
const counts = new Map<string, number>();
const LIMIT = 10_000_000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BEARER = /^Bearer +(\S+) *$/i;

const app = new Koa();
app.use(async (ctx, next) => {
  const incoming = ctx.req.headers['x-request-id'];
  ctx.res.setHeader('X-Request-Id', typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID());
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.setHeader('X-Frame-Options', 'DENY');
  ctx.res.setHeader('Referrer-Policy', 'no-referrer');
  ctx.res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  await next();
});
app.use((ctx) => {
  const presented = BEARER.exec(ctx.get('Authorization'))?.[1];
  let hash = presented === undefined ? undefined : hashes.get(presented);
  if (presented !== undefined && hash === undefined) hashes.set(presented, (hash = sha256(presented)));
  const principal = hash === undefined ? undefined : principals.get(hash);
  if (principal === undefined) {
    ctx.status = 401;
    ctx.body = { code: 'invalid_token' };
    return;
  }
  const count = (counts.get(principal.tokenId) ?? 0) + 1;
  counts.set(principal.tokenId, count);
  ctx.set('RateLimit-Limit', String(LIMIT));
  ctx.set('RateLimit-Remaining', String(LIMIT - count));
  ctx.set('RateLimit-Reset', '60');
  const segments = ctx.path.split('/');
  if (segments[1] !== 'api' || segments.length < 3 || segments.length > 4) {
    ctx.status = 404;
    return;
  }
  ctx.set('ETag', '"1"');
  ctx.set('Content-Type', 'application/json; charset=utf-8');
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
