// A Koa service of its own that embeds Specbase: the whole of Specbase's HTTP interface under
// /specbase, next to a route of the host's own that calls Specbase's use cases directly.
//
//   npm run build                                    (the package's dist/, what `specbase` resolves to)
//   PORT=3000 node examples/embed-in-koa/server.js
//
// Specbase takes its settings from the environment as `specbase serve` does (DATABASE_URL,
// SQLITE_PATH, LOG_LEVEL, METRICS_TOKEN, ...; docs/configuration.md); PORT and HOST here are the host's.
import Router from '@koa/router';
import Koa from 'koa';
import {
  buildContainer,
  createApp,
  CreateApi,
  CreateApiToken,
  ListApis,
  loadConfig,
  Readiness,
  RegisterUser,
  StorageToken,
  UserRepository,
  WebhookWorker,
} from 'specbase';

const PREFIX = '/specbase';
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

// 1. The container: every port bound to its adapter. Rebind any port here, before the first get.
const container = buildContainer(loadConfig());
const storage = container.get(StorageToken);
await storage.open();
await storage.migrate();
// Webhooks are delivered by a worker in this process (`createApp` alone starts none).
const worker = container.get(WebhookWorker);
worker.start();

// 2. Use cases called directly, without HTTP: a user of the host's, an API of theirs, a token.
const email = 'owner@host.example';
const users = container.get(UserRepository);
let user = await users.getByEmail(email);
if (!user) {
  const registered = await container.get(RegisterUser).execute({ email, password: 'correct horse battery staple', nickname: 'host', verified: true });
  if (!registered.ok) throw new Error(`register: ${registered.error.kind}`);
  user = await users.getByEmail(email);
}
// The host acts for its user: a principal with the scopes this code needs.
const principal = { userId: user.id, accountId: user.accountId, nickname: user.nickname, scopes: ['api'] };
const apis = container.get(ListApis);
const existing = await apis.execute(principal, user.accountId, { limit: 1 });
if (existing.ok && existing.value.items.length === 0) {
  const created = await container.get(CreateApi).execute(principal, { accountId: user.accountId, name: 'Host catalogue', nickname: 'host-catalogue' });
  if (!created.ok) throw new Error(`create API: ${created.error.kind}`);
}
const minted = await container.get(CreateApiToken).execute({ userId: user.id }, { name: 'embed example', scopes: ['api.readonly'] });
if (!minted.ok) throw new Error(`token: ${minted.error.kind}`);

// 3. The host's Koa app: its own route, and Specbase's whole app under the prefix.
const specbase = createApp(container).callback();
const router = new Router();
router.get('/hello', async (ctx) => {
  const listed = await apis.execute(principal, user.accountId, { limit: 50 });
  if (!listed.ok) ctx.throw(500);
  ctx.body = { service: 'host', apis: listed.value.items.map((api) => api.nickname) };
});
// Specbase answers with its own Koa app (its routes, errors, headers, body limits), given the
// untouched request with the prefix taken off its URL. No host middleware may read the body first.
router.all([PREFIX, `${PREFIX}/{*rest}`], async (ctx) => {
  ctx.respond = false;
  const rest = ctx.req.url.slice(PREFIX.length);
  ctx.req.url = rest.startsWith('/') ? rest : `/${rest}`;
  await specbase(ctx.req, ctx.res);
});

const app = new Koa();
app.use(router.routes());
app.use(router.allowedMethods());
const server = app.listen(port, host);
await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
const url = `http://${host}:${server.address().port}`;
process.stdout.write(
  [
    `Host listening on ${url}`,
    `  its own route: ${url}/hello`,
    `  Specbase:      ${url}${PREFIX}/healthz`,
    `Try: curl -H "Authorization: Bearer ${minted.value.token}" ${url}${PREFIX}/api/${user.accountId}`,
    '',
  ].join('\n'),
);

// 4. Shutdown: /specbase/readyz turns 503, the listener closes, the worker ends its round, the database closes.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    container.get(Readiness).drain();
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    await Promise.all([closed, worker.stop()]);
    await storage.close();
    process.exit(0);
  });
}
