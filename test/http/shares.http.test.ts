import { expect } from 'chai';
import { SCOPES, type Scope } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

interface ShareBody {
  id: string;
  email: string;
  role: string;
  user: { id: number; nickname: string };
  creationDate: string;
}

const PETSTORE = swaggerFixture('petstore.yaml').bytes.toString('utf8');
const YAML = { 'Content-Type': 'application/yaml' };

forEachDatabase('Core-API: shares over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let adaAll: string;
  let grace: TestUser;
  let graceAll: string;
  let mallory: TestUser;
  let malloryAll: string;

  before(async () => {
    server = await startTestServerOn(target, { JSON_MAX_BYTES: '65536' });
    ada = await server.user('ada@example.com', 'ada');
    grace = await server.user('grace@example.com', 'grace');
    mallory = await server.user('mallory@example.com', 'mallory');
    [adaAll, graceAll, malloryAll] = await Promise.all([server.token(ada, SCOPES), server.token(grace, SCOPES), server.token(mallory, SCOPES)]);
  });
  after(async () => {
    await server?.stop();
  });

  /** A new API of ada's with the petstore spec, a release 1.0.0 and a page. */
  async function adasApi(nickname: string): Promise<string> {
    const created = await server.request('POST', `/api/${ada.accountId}`, { token: adaAll, body: { name: nickname, nickname } });
    const api = (await created.json()) as { id: string };
    const path = `/api/${ada.accountId}/${api.id}`;
    expect((await server.request('PUT', `${path}/spec`, { token: adaAll, body: PETSTORE, headers: YAML })).status).to.equal(200);
    expect((await server.request('POST', `${path}/releases`, { token: adaAll, body: { version: '1.0.0' } })).status).to.equal(201);
    expect((await server.request('POST', `${path}/pages`, { token: adaAll, body: { title: 'Intro', slug: 'intro', body: '# Hi' } })).status).to.equal(201);
    return path;
  }

  async function share(path: string, email: string, role: string, token = adaAll): Promise<Response> {
    return server.request('POST', `${path}/shares`, { token, body: { email, role } });
  }

  async function shareOf(path: string, email: string, role: string): Promise<ShareBody> {
    const response = await share(path, email, role);
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as ShareBody;
  }

  async function status(method: string, path: string, token: string, body?: unknown): Promise<number> {
    const options = body === undefined ? { token } : typeof body === 'string' ? { token, body, headers: YAML } : { token, body };
    return (await server.request(method, path, options)).status;
  }

  describe('the owner manages shares', () => {
    it('creates, lists, reads, changes the role of and revokes a share', async () => {
      const path = await adasApi('managed');
      const created = await share(path, 'Grace@Example.com', 'viewer');
      expect(created.status).to.equal(201);
      const body = (await created.json()) as ShareBody;
      expect(created.headers.get('location')).to.equal(`${path}/shares/${body.id}`);
      expect(body).to.deep.include({ email: 'grace@example.com', role: 'viewer', user: { id: grace.userId, nickname: 'grace' } });
      expect(body.creationDate).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

      const listed = (await (await server.request('GET', `${path}/shares`, { token: adaAll })).json()) as { items: ShareBody[]; nextCursor: string | null };
      expect(listed.items.map((s) => s.id)).to.deep.equal([body.id]);
      expect(listed.nextCursor).to.equal(null);
      expect(await (await server.request('GET', `${path}/shares/${body.id}`, { token: adaAll })).json()).to.deep.equal(body);

      const patched = await server.request('PATCH', `${path}/shares/${body.id}`, { token: adaAll, body: { role: 'editor' } });
      expect(patched.status).to.equal(200);
      expect(await patched.json()).to.deep.include({ id: body.id, role: 'editor', email: 'grace@example.com' });

      expect(await status('DELETE', `${path}/shares/${body.id}`, adaAll)).to.equal(204);
      expect(await status('GET', `${path}/shares/${body.id}`, adaAll)).to.equal(404);
      expect(await status('DELETE', `${path}/shares/${body.id}`, adaAll)).to.equal(404);
    });

    it('lists shares a page at a time', async () => {
      const path = await adasApi('paged');
      const ids = [(await shareOf(path, grace.email, 'viewer')).id, (await shareOf(path, mallory.email, 'editor')).id];
      const first = (await (await server.request('GET', `${path}/shares?limit=1`, { token: adaAll })).json()) as { items: ShareBody[]; nextCursor: string };
      const second = (await (await server.request('GET', `${path}/shares?limit=1&cursor=${first.nextCursor}`, { token: adaAll })).json()) as { items: ShareBody[]; nextCursor: null };
      expect([...first.items, ...second.items].map((s) => s.id)).to.deep.equal(ids);
      expect(second.nextCursor).to.equal(null);
    });

    it('refuses a second share with the same user (409), an unknown e-mail (422), the own account (422) and bad input (400)', async () => {
      const path = await adasApi('refusals');
      await shareOf(path, grace.email, 'viewer');
      const again = await share(path, 'GRACE@example.com', 'editor');
      expect(again.status).to.equal(409);
      expect(await problem(again)).to.include({ code: 'duplicate_share' });
      const unknown = await share(path, 'nobody@example.com', 'viewer');
      expect(unknown.status).to.equal(422);
      expect(await problem(unknown)).to.include({ code: 'unknown_user' });
      const own = await share(path, ada.email, 'viewer');
      expect(own.status).to.equal(422);
      expect(await problem(own)).to.include({ code: 'own_account' });
      for (const body of [{ email: mallory.email, role: 'admin' }, { email: mallory.email }, { role: 'viewer' }, { email: 42, role: 'viewer' }, { email: mallory.email, role: null }, { email: 'not an e-mail', role: 'viewer' }, { email: 'nobody@example.com', role: 'admin' }]) {
        const response = await server.request('POST', `${path}/shares`, { token: adaAll, body });
        expect(response.status, JSON.stringify(body)).to.equal(400);
        expect((await problem(response)).code).to.equal('validation_failed');
      }
      const listed = (await (await server.request('GET', `${path}/shares`, { token: adaAll })).json()) as { items: ShareBody[] };
      expect(listed.items.map((s) => s.email), 'nothing but the first share was written').to.deep.equal([grace.email]);
      const [only] = listed.items;
      const badRole = await server.request('PATCH', `${path}/shares/${only?.id}`, { token: adaAll, body: { role: 'owner' } });
      expect(badRole.status).to.equal(400);
      expect(((await (await server.request('GET', `${path}/shares/${only?.id}`, { token: adaAll })).json()) as ShareBody).role).to.equal('viewer');
    });

    it('needs api_share for writes and api_share.readonly for reads (403 naming the scope)', async () => {
      const path = await adasApi('scoped');
      const existing = await shareOf(path, grace.email, 'viewer');
      const readonly = await server.token(ada, ['api_share.readonly']);
      const apiOnly = await server.token(ada, ['api']);
      expect(await status('GET', `${path}/shares`, readonly)).to.equal(200);
      expect(await status('GET', `${path}/shares/${existing.id}`, readonly)).to.equal(200);
      for (const [method, route, body] of [
        ['POST', `${path}/shares`, { email: mallory.email, role: 'viewer' }],
        ['PATCH', `${path}/shares/${existing.id}`, { role: 'editor' }],
        ['DELETE', `${path}/shares/${existing.id}`, undefined],
      ] as const) {
        const response = await server.request(method, route, { token: readonly, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${route}`).to.equal(403);
        expect(response.headers.get('www-authenticate')).to.include('scope="api_share"');
      }
      const read = await server.request('GET', `${path}/shares`, { token: apiOnly });
      expect(read.status).to.equal(403);
      expect(read.headers.get('www-authenticate')).to.include('scope="api_share.readonly"');
    });

    it("hides another account's shares: every share route is 404 to a user without a share", async () => {
      const path = await adasApi('hidden');
      const existing = await shareOf(path, grace.email, 'editor');
      for (const [method, route, body] of [
        ['GET', `${path}/shares`, undefined],
        ['POST', `${path}/shares`, { email: mallory.email, role: 'editor' }],
        ['GET', `${path}/shares/${existing.id}`, undefined],
        ['PATCH', `${path}/shares/${existing.id}`, { role: 'viewer' }],
        ['DELETE', `${path}/shares/${existing.id}`, undefined],
      ] as const) {
        const response = await server.request(method, route, { token: malloryAll, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${route}`).to.equal(404);
        expect(await response.text()).not.to.include('grace');
      }
      expect(((await (await server.request('GET', `${path}/shares/${existing.id}`, { token: adaAll })).json()) as ShareBody).role).to.equal('editor');
    });

    it('deleting the API deletes its shares', async () => {
      const path = await adasApi('deleted');
      await shareOf(path, grace.email, 'editor');
      const before = (await server.rowCounts())['shares'];
      expect(await status('DELETE', path, adaAll)).to.equal(204);
      expect((await server.rowCounts())['shares']).to.equal(Number(before) - 1);
      expect(await status('GET', path, graceAll)).to.equal(404);
    });
  });

  describe('a grantee', () => {
    it('as viewer reads the shared API, its spec, derived resources, releases and pages under the owner’s path, and may change none of it', async () => {
      const path = await adasApi('viewed');
      await shareOf(path, grace.email, 'viewer');
      const before = (await (await server.request('GET', path, { token: adaAll })).json()) as { name: string; revision: number };
      const api = await server.request('GET', path, { token: graceAll });
      expect(api.status).to.equal(200);
      expect(await api.json()).to.deep.include({ nickname: 'viewed', user: { id: ada.userId, nickname: 'ada' } });
      for (const route of [`${path}/export`, `${path}/endpoints`, `${path}/models`, `${path}/environments`, `${path}/auth-adapters`, `${path}/releases`, `${path}/releases/1.0.0`, `${path}/pages`]) {
        expect(await status('GET', route, graceAll), route).to.equal(200);
      }
      const writes: [string, string, unknown][] = [
        ['PATCH', path, { name: 'Renamed' }],
        ['PUT', `${path}/spec`, PETSTORE],
        ['POST', `${path}/releases`, { version: '2.0.0' }],
        ['POST', `${path}/releases/1.0.0/deprecate`, undefined],
        ['DELETE', `${path}/releases/1.0.0`, undefined],
        ['POST', `${path}/pages`, { title: 'Mine', slug: 'mine', body: '' }],
      ];
      for (const [method, route, body] of writes) {
        const response = await server.request(method, route, { token: graceAll, ...(body === undefined ? {} : typeof body === 'string' ? { body, headers: YAML } : { body }) });
        expect(response.status, `${method} ${route}`).to.equal(403);
        expect(await problem(response)).to.include({ code: 'forbidden', role: 'viewer' });
      }
      const after = (await (await server.request('GET', path, { token: adaAll })).json()) as { name: string; revision: number };
      expect(after, 'nothing changed').to.deep.equal(before);
      expect(((await (await server.request('GET', `${path}/pages`, { token: adaAll })).json()) as { items: unknown[] }).items).to.have.length(1);
      expect(((await (await server.request('GET', `${path}/releases/1.0.0`, { token: adaAll })).json()) as { status: string }).status).to.equal('released');
    });

    it('as editor changes the API, its spec, releases and pages, but neither deletes the API nor manages its shares (403 forbidden naming the action)', async () => {
      const path = await adasApi('edited');
      const granted = await shareOf(path, grace.email, 'editor');
      const patched = await server.request('PATCH', path, { token: graceAll, body: { name: 'Edited by grace' } });
      expect(patched.status).to.equal(200);
      expect(await patched.json()).to.deep.include({ name: 'Edited by grace', user: { id: ada.userId, nickname: 'ada' } });
      expect(await status('PUT', `${path}/spec`, graceAll, PETSTORE.replace('version: 1.0.0', 'version: 1.1.0'))).to.equal(200);
      expect(await status('POST', `${path}/releases`, graceAll, { version: '1.1.0' })).to.equal(201);
      expect(await status('POST', `${path}/releases/1.0.0/deprecate`, graceAll)).to.equal(200);
      expect(await status('POST', `${path}/pages`, graceAll, { title: 'Grace', slug: 'grace', body: 'notes' })).to.equal(201);
      for (const [method, route, body, action] of [
        ['DELETE', path, undefined, 'deleteApi'],
        ['GET', `${path}/shares`, undefined, 'listShares'],
        ['GET', `${path}/shares/${granted.id}`, undefined, 'getShare'],
        ['POST', `${path}/shares`, { email: mallory.email, role: 'viewer' }, 'createShare'],
        ['PATCH', `${path}/shares/${granted.id}`, { role: 'viewer' }, 'updateShare'],
        ['DELETE', `${path}/shares/${granted.id}`, undefined, 'deleteShare'],
      ] as const) {
        const response = await server.request(method, route, { token: graceAll, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${route}`).to.equal(403);
        expect(await problem(response)).to.include({ code: 'forbidden', role: 'editor', action });
      }
      expect(await status('GET', path, adaAll)).to.equal(200);
    });

    it('keeps their own token scopes: a share does not widen a token', async () => {
      const path = await adasApi('scopes-apply');
      await shareOf(path, grace.email, 'editor');
      const releasesOnly = await server.token(grace, ['api_release.readonly']);
      const apiReadonly = await server.token(grace, ['api.readonly'] as Scope[]);
      const denied = await server.request('GET', path, { token: releasesOnly });
      expect(denied.status).to.equal(403);
      expect(denied.headers.get('www-authenticate')).to.include('scope="api.readonly"');
      expect(await status('GET', `${path}/releases`, releasesOnly)).to.equal(200);
      expect(await status('GET', path, apiReadonly)).to.equal(200);
      expect(await status('PATCH', path, apiReadonly, { name: 'x' })).to.equal(403);
    });

    it('lists only the APIs shared with them in the owner’s account, and nothing of an account where they hold no share', async () => {
      const shared = await adasApi('listed-shared');
      await adasApi('listed-private');
      const reader = await server.user('reader@example.com', 'reader');
      await shareOf(shared, reader.email, 'viewer');
      const listed = (await (await server.request('GET', `/api/${ada.accountId}`, { token: await server.token(reader, ['api.readonly']) })).json()) as { items: { nickname: string }[] };
      expect(listed.items.map((a) => a.nickname)).to.deep.equal(['listed-shared']);
      const stranger = await server.user('stranger@example.com', 'stranger');
      expect(await status('GET', `/api/${ada.accountId}`, await server.token(stranger, ['api.readonly']))).to.equal(404);
    });

    it('reaches only the shared API: another API of the same account stays 404', async () => {
      const shared = await adasApi('only-this');
      const other = await adasApi('not-this');
      await shareOf(shared, grace.email, 'editor');
      for (const route of [other, `${other}/export`, `${other}/releases`, `${other}/pages`]) expect(await status('GET', route, graceAll), route).to.equal(404);
      expect(await status('PATCH', other, graceAll, { name: 'x' })).to.equal(404);
      expect(await status('POST', `/api/${ada.accountId}`, graceAll, { name: 'Planted', nickname: 'planted' }), 'no creating APIs in the owner’s account').to.equal(404);
    });

    it('loses access at once when the share is revoked, and gains write access at once when made editor', async () => {
      const path = await adasApi('revoked');
      const granted = await shareOf(path, grace.email, 'viewer');
      expect(await status('GET', path, graceAll)).to.equal(200);
      expect(await status('PATCH', path, graceAll, { name: 'Before' })).to.equal(403);
      expect(await status('PATCH', `${path}/shares/${granted.id}`, adaAll, { role: 'editor' })).to.equal(200);
      expect(await status('PATCH', path, graceAll, { name: 'After promotion' })).to.equal(200);
      expect(await status('DELETE', `${path}/shares/${granted.id}`, adaAll)).to.equal(204);
      for (const route of [path, `${path}/export`, `${path}/releases`, `${path}/pages`, `${path}/endpoints`]) expect(await status('GET', route, graceAll), route).to.equal(404);
      expect(await status('PATCH', path, graceAll, { name: 'After revocation' })).to.equal(404);
    });
  });
});
