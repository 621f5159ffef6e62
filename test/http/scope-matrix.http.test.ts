import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protectedRoutes, type HttpDependencies } from '../../src/adapters/http/app.js';
import { SCOPES, scopesPermit, accessOfMethod, type Scope, type Area } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const PETSTORE = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../fixtures/swagger/petstore.yaml'));

/** The route table the router is built from (handlers are not called here). */
const ROUTES = protectedRoutes({ jsonMaxBytes: 1024, importMaxBytes: 1024, apis: {}, specs: {}, releases: {} } as unknown as HttpDependencies);

/**
 * Generated from the route table: every route with a token of each single scope. Where the scope
 * does not grant the route's declared scope, the answer is 403 naming exactly that scope; where it
 * does, the request gets past authorisation (whatever the body then makes of it).
 */
forEachDatabase('scope matrix over the whole route table', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let apiId: string;
  const tokens = new Map<Scope, string>();

  before(async () => {
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
    for (const scope of SCOPES) tokens.set(scope, await server.token(ada, [scope]));
    const form = new FormData();
    form.append('spec', new Blob([PETSTORE], { type: 'text/yaml' }), 'petstore.yaml');
    form.append('body', JSON.stringify({ createRelease: true, releaseVersion: '1.0.0' }));
    const response = await fetch(`${server.url}/api/${ada.accountId}/import`, { method: 'POST', headers: { Authorization: `Bearer ${await server.token(ada, SCOPES)}` }, body: form });
    expect(response.status, await response.clone().text()).to.equal(201);
    apiId = ((await response.json()) as { api: { id: string } }).api.id;
  });
  after(async () => {
    await server?.stop();
  });

  it('declares a scope for every protected route', () => {
    for (const route of ROUTES) expect(route.scope, `${route.method} ${route.path}`).to.be.a('string');
  });

  for (const route of ROUTES) {
    const declared = route.scope!;
    const [area, readonly] = declared.split('.') as [Area, string | undefined];
    it(`${route.method} ${route.path} (${declared})`, async () => {
      expect(readonly === undefined ? 'write' : 'read', 'a readonly scope exactly for GET routes').to.equal(accessOfMethod(route.method));
      const path = route.path.replace(':accountId', String(ada.accountId)).replace(':apiId', apiId).replace(':version', '9.9.9');
      for (const scope of SCOPES) {
        const response = await server.request(route.method, path, { token: tokens.get(scope)!, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });
        const granted = scopesPermit([scope], area, accessOfMethod(route.method));
        if (granted) {
          expect([401, 403], `${scope} is let through`).to.not.include(response.status);
        } else {
          expect(response.status, `${scope} is refused`).to.equal(403);
          expect(response.headers.get('www-authenticate')).to.include(`scope="${declared}"`);
        }
      }
    });
  }
});
