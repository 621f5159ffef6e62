import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protectedRoutes, type HttpDependencies } from '../../src/adapters/http/app.js';
import { SCOPES, scopesPermit, accessOfMethod, type Scope, type Area } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';
import { ShiftedClock } from '../support/fakes.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';

/** `count` OAuth access tokens of `user` through the identity service (confidential client, code flow with PKCE). */
async function oauthAccessTokens(server: TestServer, user: TestUser, count: number): Promise<string[]> {
  const client = await server.running.container.get(RegisterOAuthClient).execute({ name: 'Matrix', redirectUris: ['http://127.0.0.1:9/cb'], public: false });
  if (!client.ok) throw new Error('setup');
  const browser = server.browser();
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id: client.value.clientId, redirect_uri: 'http://127.0.0.1:9/cb', scope: 'openid email', code_challenge: challenge, code_challenge_method: 'S256' });
    const back = await browser.authorize(`/o/oauth2/auth?${query.toString()}`, user);
    const response = await server.fetch('/o/oauth2/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: verifier, client_id: client.value.clientId, client_secret: client.value.clientSecret! }),
    });
    tokens.push(((await response.json()) as { access_token: string }).access_token);
  }
  return tokens;
}

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
  /** Shared with a viewer and an editor; apart from `apiId`, which the matrix deletes. */
  let sharedApiId: string;
  let strangerToken: string;
  /** Tokens that must open nothing: a revoked API token, an OAuth access token that expired, one still valid (not an API token). */
  const refused = new Map<string, string>();
  let clock: ShiftedClock;
  const grantees = new Map<'viewer' | 'editor', string>();
  const tokens = new Map<Scope, string>();

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    for (const scope of SCOPES) tokens.set(scope, await server.token(ada, [scope]));
    const form = new FormData();
    form.append('spec', new Blob([PETSTORE], { type: 'text/yaml' }), 'petstore.yaml');
    form.append('body', JSON.stringify({ createRelease: true, releaseVersion: '1.0.0' }));
    const response = await fetch(`${server.url}/api/${ada.accountId}/import`, { method: 'POST', headers: { Authorization: `Bearer ${await server.token(ada, SCOPES)}` }, body: form });
    expect(response.status, await response.clone().text()).to.equal(201);
    apiId = ((await response.json()) as { api: { id: string } }).api.id;
    strangerToken = await server.token(await server.user('stranger@example.com', 'stranger'), SCOPES);
    const put = await server.request('POST', `/api/${ada.accountId}`, { token: tokens.get('api')!, body: { name: 'Shared Petstore', nickname: 'shared' } });
    sharedApiId = ((await put.json()) as { id: string }).id;
    const spec = await server.request('PUT', `/api/${ada.accountId}/${sharedApiId}/spec`, { token: tokens.get('api')!, body: PETSTORE.toString('utf8'), headers: { 'Content-Type': 'application/yaml' } });
    expect(spec.status).to.equal(200);
    for (const role of ['viewer', 'editor'] as const) {
      const grantee = await server.user(`${role}@example.com`, role);
      const shared = await server.request('POST', `/api/${ada.accountId}/${sharedApiId}/shares`, { token: tokens.get('api_share')!, body: { email: grantee.email, role } });
      expect(shared.status).to.equal(201);
      grantees.set(role, await server.token(grantee, SCOPES));
    }

    const revoked = await server.token(ada, SCOPES);
    await server.revoke(ada, revoked);
    refused.set('a revoked API token', revoked);
    const oauth = await oauthAccessTokens(server, ada, 2);
    refused.set('a valid OAuth access token', oauth[0]!);
    clock.advance(3601_000);
    refused.set('an expired OAuth access token', oauth[1]!);
  });

  describe('tokens that open nothing, generated from the route table: 401 with the Bearer challenge, nothing of ada’s in the body', () => {
    for (const route of ROUTES) {
      it(`${route.method} ${route.path}`, async () => {
        for (const [label, token] of refused) {
          const response = await server.request(route.method, pathOf(route, sharedApiId), { token, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });
          expect(response.status, label).to.equal(401);
          expect(response.headers.get('www-authenticate'), label).to.include('error="invalid_token"');
          const text = await response.text();
          for (const secret of [sharedApiId, 'Petstore']) expect(text, label).to.not.include(secret);
        }
      });
    }
  });

  describe('the owner with every scope, generated from the route table: past authorisation on every route', () => {
    for (const route of ROUTES.filter((r) => r.method === 'GET')) {
      it(`${route.method} ${route.path}`, async () => {
        const response = await server.request(route.method, pathOf(route, sharedApiId), { token: await ownerToken() });
        expect([401, 403], await response.clone().text()).to.not.include(response.status);
        if (!/:(pageId|shareId|webhookId|deliveryId|version)\b/.test(route.path)) expect(response.status, 'a real resource is found').to.equal(200);
      });
    }
  });

  let everything: string | undefined;
  async function ownerToken(): Promise<string> {
    everything ??= await server.token(ada, SCOPES);
    return everything;
  }

  /** A route's path with ada's account and API, and ids that name nothing for the rest. */
  function pathOf(route: { path: string }, api = apiId): string {
    return route.path
      .replace(':accountId', String(ada.accountId))
      .replace(':apiId', api)
      .replace(':version', '9.9.9')
      // The shared API got its spec at revision 2 (created empty at 1).
      .replace(':revision', '2')
      .replace(/:[a-zA-Z]+Id\b/g, '00000000-0000-7000-8000-000000000000');
  }
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
      const path = pathOf(route);
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

  describe('another account, generated from the route table: 404 with every scope, nothing of ada’s in the body', () => {
    for (const route of ROUTES.filter((r) => r.path.includes(':accountId'))) {
      it(`${route.method} ${route.path}`, async () => {
        const response = await server.request(route.method, pathOf(route, sharedApiId), { token: strangerToken, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });
        expect(response.status).to.equal(404);
        const text = await response.text();
        for (const secret of [sharedApiId, 'ada', 'Petstore']) expect(text).to.not.include(secret);
      });
    }
  });

  describe('grantees, generated from the route table: a viewer reads, an editor also writes, shares and deleting the API stay with the owner', () => {
    const onSharedApi = ROUTES.filter((r) => r.path.startsWith('/api/:accountId/:apiId'));
    for (const route of onSharedApi) {
      const ownerOnly = route.path.includes('/shares') || (route.method === 'DELETE' && route.path === '/api/:accountId/:apiId');
      const reads = accessOfMethod(route.method) === 'read';
      for (const role of ['viewer', 'editor'] as const) {
        const expected = ownerOnly ? 'forbidden (owner only)' : reads || role === 'editor' ? 'allowed' : 'forbidden';
        it(`${role}: ${route.method} ${route.path} -> ${expected}`, async () => {
          const response = await server.request(route.method, pathOf(route, sharedApiId), { token: grantees.get(role)!, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }) });
          if (expected === 'allowed') {
            expect([401, 403], `${response.status} ${await response.clone().text()}`).to.not.include(response.status);
            if (route.path === '/api/:accountId/:apiId' || route.path === '/api/:accountId/:apiId/releases') expect(response.status, 'the shared API itself is found').to.not.equal(404);
          } else {
            expect(response.status).to.equal(403);
            const body = (await response.json()) as { code: string; role: string; action?: string };
            expect(body).to.include({ code: 'forbidden', role });
            // An owner-only refusal names the operation as /openapi.json does.
            if (ownerOnly) expect(body.action).to.equal(route.operationId);
          }
        });
      }
    }
  });
});
