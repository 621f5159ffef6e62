import Router from '@koa/router';
import { expect } from 'chai';
import Koa, { type Context, type Middleware } from 'koa';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RouteTable, type TableRoute } from '../../../src/adapters/http/route-table.js';

/**
 * The route table answers as the @koa/router it replaces on the Bearer routes: the same app is
 * served once with each, and every request below must get the same status, `Allow`, body and
 * parameters from both.
 */
const ROUTES: readonly { readonly method: string; readonly path: string }[] = [
  { method: 'POST', path: '/api/:accountId/import' },
  { method: 'GET', path: '/api/:accountId' },
  { method: 'POST', path: '/api/:accountId' },
  { method: 'GET', path: '/api/:accountId/:apiId' },
  { method: 'PATCH', path: '/api/:accountId/:apiId' },
  { method: 'DELETE', path: '/api/:accountId/:apiId' },
  { method: 'GET', path: '/api/:accountId/:apiId/releases/:version' },
  { method: 'GET', path: '/api/:accountId/:apiId/revisions/:revision/export' },
  { method: 'GET', path: '/user' },
  { method: 'PATCH', path: '/user' },
  { method: 'PUT', path: '/user/password' },
  { method: 'GET', path: '/user/grants/:clientId' },
  { method: 'DELETE', path: '/user/grants/:clientId' },
];

/** Answers which route served and with which parameters. */
const answer =
  (route: { readonly method: string; readonly path: string }): Middleware =>
  (ctx: Context) => {
    ctx.body = { route: `${route.method} ${route.path}`, params: ctx['params'] as unknown };
  };

function withRouter(): Koa {
  const router = new Router();
  for (const route of ROUTES) router.register(route.path, [route.method], [answer(route)]);
  return new Koa().use(router.routes() as Middleware).use(router.allowedMethods() as Middleware);
}

function withTable(): Koa {
  const table = new RouteTable(ROUTES.map((route): TableRoute => ({ ...route, serve: answer(route) })));
  return new Koa().use(table.middleware());
}

const REQUESTS: readonly (readonly [string, string])[] = [
  ['GET', '/api/1'],
  ['GET', '/api/1/'],
  ['GET', '/api/1//'],
  ['POST', '/api/1'],
  ['PUT', '/api/1'],
  ['OPTIONS', '/api/1'],
  ['HEAD', '/api/1/7f0e1b2c'],
  ['GET', '/api/1/7f0e1b2c'],
  ['GET', '/API/1/7f0e1b2c'],
  ['GET', '/Api/1/Import'],
  ['POST', '/api/1/import'],
  ['POST', '/api/1/IMPORT/'],
  ['PUT', '/api/1/import'],
  ['OPTIONS', '/api/1/import'],
  ['DELETE', '/api/1/import'],
  ['PROPFIND', '/api/1/import'],
  ['PROPFIND', '/nowhere'],
  ['GET', '/api/1/x/releases/1.0.0%2Bbuild'],
  ['GET', '/api/1/x/releases/%E0%A4%A'],
  ['GET', '/api/1/x/releases/a%2Fb'],
  ['GET', '/api/1/x/releases/'],
  ['GET', '/api/1/x/releases'],
  ['GET', '/api/1/x/revisions/3/export'],
  ['GET', '/api/1/x/revisions/3/export/more'],
  ['GET', '/api'],
  ['GET', '/api/'],
  ['GET', '/'],
  ['GET', '/user'],
  ['DELETE', '/user'],
  ['GET', '/user/password'],
  ['OPTIONS', '/user/grants/c1'],
  ['DELETE', '/user/grants/c%20d'],
  ['GET', '/users'],
];

interface Answer {
  readonly status: number;
  readonly allow: string | undefined;
  readonly body: string;
}

function send(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('RouteTable: answers as @koa/router', () => {
  const servers: ReturnType<Koa['listen']>[] = [];
  const ports: number[] = [];

  before(async () => {
    for (const app of [withRouter(), withTable()]) {
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  });
  after(() => {
    for (const server of servers) server.close();
  });

  for (const [method, path] of REQUESTS) {
    it(`${method} ${path}`, async () => {
      const [router, table] = await Promise.all(ports.map((port) => send(port, method, path)));
      expect(table).to.deep.equal(router);
    });
  }

  it('serves a method with the first route registered for it, and names its pattern for the logs', async () => {
    const table = new RouteTable([
      { method: 'GET', path: '/a/:x', serve: (ctx) => void (ctx.body = 'first') },
      { method: 'GET', path: '/a/:x', serve: (ctx) => void (ctx.body = 'second') },
    ]);
    expect(table.stack).to.deep.equal([
      { path: '/a/:x', methods: ['HEAD', 'GET'] },
      { path: '/a/:x', methods: ['HEAD', 'GET'] },
    ]);
    const ctx = { method: 'GET', path: '/a/1', body: undefined as unknown } as unknown as Context & { matched?: { path: string }[] };
    await table.middleware()(ctx, () => Promise.resolve());
    expect(ctx.body).to.equal('first');
    expect(ctx.matched?.map((layer) => layer.path)).to.deep.equal(['/a/:x']);
  });
});
