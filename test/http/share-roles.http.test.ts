import { expect } from 'chai';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

type Role = 'owner' | 'editor' | 'viewer';
const ROLES: readonly Role[] = ['owner', 'editor', 'viewer'];

/** One API of the owner's with something of every kind the table names, each new for one test. */
interface Fixture {
  readonly accountId: number;
  /** `/api/<owner account>/<api id>` */
  readonly path: string;
  readonly pageId: string;
  /** The editor's share. */
  readonly shareId: string;
  /** A webhook of the owner's account. */
  readonly webhookId: string;
}

interface Call {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

interface Action {
  readonly name: string;
  readonly call: (f: Fixture) => Call;
  /** What the refusal names for an editor (the viewer is refused every write for its role alone). */
  readonly names?: { readonly field: string } | { readonly action: string };
  /**
   * A grantee is refused with 404 here, not 403: webhooks belong to an account, not to an API, and
   * a share of one API gives nothing of its account, not even the knowledge that it has webhooks.
   */
  readonly accountResource?: true;
}

interface Row {
  /** The contract's words for the row (CONTRACT.md, Core-API, "Roles on a shared API"). */
  readonly what: string;
  readonly may: readonly Role[];
  readonly actions: readonly Action[];
}

const PETSTORE = swaggerFixture('petstore.yaml').bytes.toString('utf8');
const PETSTORE_1_1 = PETSTORE.replace('version: 1.0.0', 'version: 1.1.0');
const YAML = { 'Content-Type': 'application/yaml' };

const get = (path: string): Call => ({ method: 'GET', path });

/** The contract's roles table, row by row: every test below is generated from it. */
const ROLE_TABLE: readonly Row[] = [
  {
    what: 'read the API, its spec, revisions, changes, releases, pages, lint results; export',
    may: ['owner', 'editor', 'viewer'],
    actions: [
      { name: 'GET the API', call: (f) => get(f.path) },
      { name: 'GET .../export', call: (f) => get(`${f.path}/export`) },
      { name: 'GET .../revisions', call: (f) => get(`${f.path}/revisions`) },
      { name: 'GET .../revisions/2/export', call: (f) => get(`${f.path}/revisions/2/export`) },
      { name: 'GET .../changes', call: (f) => get(`${f.path}/changes`) },
      { name: 'GET .../changelog', call: (f) => get(`${f.path}/changelog`) },
      { name: 'GET .../endpoints', call: (f) => get(`${f.path}/endpoints`) },
      { name: 'GET .../models', call: (f) => get(`${f.path}/models`) },
      { name: 'GET .../environments', call: (f) => get(`${f.path}/environments`) },
      { name: 'GET .../auth-adapters', call: (f) => get(`${f.path}/auth-adapters`) },
      { name: 'GET .../releases', call: (f) => get(`${f.path}/releases`) },
      { name: 'GET .../releases/1.0.0', call: (f) => get(`${f.path}/releases/1.0.0`) },
      { name: 'GET .../pages', call: (f) => get(`${f.path}/pages`) },
      { name: 'GET .../pages/<page>', call: (f) => get(`${f.path}/pages/${f.pageId}`) },
    ],
  },
  {
    what: '`PUT .../spec` (dry run too), create and edit pages, PATCH `name` / `description`',
    may: ['owner', 'editor'],
    actions: [
      { name: 'PUT .../spec', call: (f) => ({ method: 'PUT', path: `${f.path}/spec`, body: PETSTORE_1_1, headers: YAML }) },
      { name: 'PUT .../spec?dryRun=true', call: (f) => ({ method: 'PUT', path: `${f.path}/spec?dryRun=true`, body: PETSTORE_1_1, headers: YAML }) },
      { name: 'POST .../pages', call: (f) => ({ method: 'POST', path: `${f.path}/pages`, body: { title: 'More', slug: 'more', body: '# More' } }) },
      { name: 'PATCH .../pages/<page>', call: (f) => ({ method: 'PATCH', path: `${f.path}/pages/${f.pageId}`, body: { title: 'Welcome' } }) },
      { name: 'DELETE .../pages/<page>', call: (f) => ({ method: 'DELETE', path: `${f.path}/pages/${f.pageId}` }) },
      { name: 'PATCH the API {name}', call: (f) => ({ method: 'PATCH', path: f.path, body: { name: 'Renamed' } }) },
    ],
  },
  {
    what: 'releases and their transitions',
    may: ['owner', 'editor'],
    actions: [
      { name: 'POST .../releases', call: (f) => ({ method: 'POST', path: `${f.path}/releases`, body: { version: '1.1.0' } }) },
      { name: 'POST .../releases/1.0.0/deprecate', call: (f) => ({ method: 'POST', path: `${f.path}/releases/1.0.0/deprecate` }) },
      { name: 'POST .../releases/1.0.0/end-of-life', call: (f) => ({ method: 'POST', path: `${f.path}/releases/1.0.0/end-of-life` }) },
      { name: 'DELETE .../releases/1.0.0', call: (f) => ({ method: 'DELETE', path: `${f.path}/releases/1.0.0` }) },
    ],
  },
  {
    what: 'PATCH `nickname`, `type` (visibility), `breakingChangePolicy`, `allowRemovalAfterSunset`, `lint`',
    may: ['owner'],
    actions: [
      { name: 'PATCH the API {nickname}', call: (f) => ({ method: 'PATCH', path: f.path, body: { nickname: 'renamed' } }), names: { field: 'nickname' } },
      { name: 'PATCH the API {type: public}', call: (f) => ({ method: 'PATCH', path: f.path, body: { type: 'public' } }), names: { field: 'type' } },
      { name: 'PATCH the API {breakingChangePolicy}', call: (f) => ({ method: 'PATCH', path: f.path, body: { breakingChangePolicy: 'refuse' } }), names: { field: 'breakingChangePolicy' } },
      { name: 'PATCH the API {allowRemovalAfterSunset}', call: (f) => ({ method: 'PATCH', path: f.path, body: { allowRemovalAfterSunset: true } }), names: { field: 'allowRemovalAfterSunset' } },
      { name: 'PATCH the API {name, type: public}', call: (f) => ({ method: 'PATCH', path: f.path, body: { name: 'Renamed', type: 'public' } }), names: { field: 'type' } },
    ],
  },
  {
    what: 'shares, webhooks, deleting the API',
    may: ['owner'],
    actions: [
      { name: 'GET .../shares', call: (f) => get(`${f.path}/shares`), names: { action: 'listShares' } },
      { name: 'GET .../shares/<share>', call: (f) => get(`${f.path}/shares/${f.shareId}`), names: { action: 'getShare' } },
      { name: 'POST .../shares', call: (f) => ({ method: 'POST', path: `${f.path}/shares`, body: { email: 'third@example.com', role: 'editor' } }), names: { action: 'createShare' } },
      { name: 'PATCH .../shares/<share>', call: (f) => ({ method: 'PATCH', path: `${f.path}/shares/${f.shareId}`, body: { role: 'viewer' } }), names: { action: 'updateShare' } },
      { name: 'DELETE .../shares/<share>', call: (f) => ({ method: 'DELETE', path: `${f.path}/shares/${f.shareId}` }), names: { action: 'deleteShare' } },
      { name: 'GET /webhooks/<owner account>', call: (f) => get(`/webhooks/${f.accountId}`), accountResource: true },
      { name: 'POST /webhooks/<owner account>', call: (f) => ({ method: 'POST', path: `/webhooks/${f.accountId}`, body: { targetUrl: 'http://127.0.0.1:9/other', events: ['api.updated'] } }), accountResource: true },
      { name: 'GET /webhooks/<owner account>/<webhook>', call: (f) => get(`/webhooks/${f.accountId}/${f.webhookId}`), accountResource: true },
      { name: 'PATCH /webhooks/<owner account>/<webhook>', call: (f) => ({ method: 'PATCH', path: `/webhooks/${f.accountId}/${f.webhookId}`, body: { targetUrl: 'http://127.0.0.1:9/moved' } }), accountResource: true },
      { name: 'POST /webhooks/<owner account>/<webhook>/activate', call: (f) => ({ method: 'POST', path: `/webhooks/${f.accountId}/${f.webhookId}/activate` }), accountResource: true },
      { name: 'DELETE /webhooks/<owner account>/<webhook>', call: (f) => ({ method: 'DELETE', path: `/webhooks/${f.accountId}/${f.webhookId}` }), accountResource: true },
      { name: 'DELETE the API', call: (f) => ({ method: 'DELETE', path: f.path }), names: { action: 'deleteApi' } },
    ],
  },
];

/**
 * The roles table of the contract walked row by row: each role makes each action of each row over
 * HTTP, on an API of its own for the test. A role the row allows gets a 2xx; any other gets 403
 * `forbidden` (404 for the account's webhooks, which a share does not reach), and everything the
 * table covers reads afterwards exactly as before.
 */
forEachDatabase('Core-API: the roles on a shared API, from the contract’s table', (target) => {
  let server: TestServer;
  let owner: TestUser;
  const tokens = new Map<Role, string>();
  const users = new Map<Role, TestUser>();
  let made = 0;
  let fixture: Fixture | undefined;

  before(async () => {
    server = await startTestServerOn(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    owner = await server.user('owner@example.com', 'owner');
    users.set('owner', owner);
    users.set('editor', await server.user('editor@example.com', 'editor'));
    users.set('viewer', await server.user('viewer@example.com', 'viewer'));
    await server.user('third@example.com', 'third');
    for (const role of ROLES) tokens.set(role, await server.token(users.get(role)!, SCOPES));
  });
  after(async () => {
    await server?.stop();
  });
  // The account's quotas count what tests leave behind: webhooks above all (30 per account).
  afterEach(async () => {
    if (fixture === undefined) return;
    await server.request('DELETE', `/webhooks/${fixture.accountId}/${fixture.webhookId}`, { token: ownerToken() });
    await server.request('DELETE', fixture.path, { token: ownerToken() });
    fixture = undefined;
  });

  function ownerToken(): string {
    return tokens.get('owner')!;
  }

  async function created(response: Promise<Response>): Promise<{ id: string }> {
    const answer = await response;
    expect([200, 201], await answer.clone().text()).to.include(answer.status);
    return (await answer.json()) as { id: string };
  }

  /** A private API of the owner's with a spec, release 1.0.0, a page, an editor's and a viewer's share, and a webhook of the account. */
  async function newFixture(): Promise<Fixture> {
    const token = ownerToken();
    const nickname = `shared-${++made}`;
    const api = await created(server.request('POST', `/api/${owner.accountId}`, { token, body: { name: nickname, nickname, type: 'private' } }));
    const path = `/api/${owner.accountId}/${api.id}`;
    await created(server.request('PUT', `${path}/spec`, { token, body: PETSTORE, headers: YAML }));
    await created(server.request('POST', `${path}/releases`, { token, body: { version: '1.0.0' } }));
    const page = await created(server.request('POST', `${path}/pages`, { token, body: { title: 'Intro', slug: 'intro', body: '# Hi' } }));
    const share = await created(server.request('POST', `${path}/shares`, { token, body: { email: users.get('editor')!.email, role: 'editor' } }));
    await created(server.request('POST', `${path}/shares`, { token, body: { email: users.get('viewer')!.email, role: 'viewer' } }));
    const webhook = await created(server.request('POST', `/webhooks/${owner.accountId}`, { token, body: { targetUrl: 'http://127.0.0.1:9/hook', events: ['api.updated'] } }));
    fixture = { accountId: owner.accountId, path, pageId: page.id, shareId: share.id, webhookId: webhook.id };
    return fixture;
  }

  /** Everything the table covers, as the owner reads it, and the rows of every table (events included). */
  async function stored(f: Fixture): Promise<unknown> {
    const token = ownerToken();
    const read = async (path: string): Promise<unknown> => {
      const response = await server.request('GET', path, { token });
      return { status: response.status, body: await response.text() };
    };
    return {
      api: await read(f.path),
      spec: await read(`${f.path}/export`),
      revisions: await read(`${f.path}/revisions`),
      releases: await read(`${f.path}/releases`),
      pages: await read(`${f.path}/pages`),
      shares: await read(`${f.path}/shares`),
      webhooks: await read(`/webhooks/${f.accountId}`),
      rows: await server.rowCounts(),
    };
  }

  function send(role: Role, call: Call): Promise<Response> {
    return server.request(call.method, call.path, {
      token: tokens.get(role)!,
      ...(call.body === undefined ? {} : { body: call.body }),
      ...(call.headers === undefined ? {} : { headers: call.headers }),
    });
  }

  for (const row of ROLE_TABLE) {
    describe(row.what, () => {
      for (const action of row.actions) {
        for (const role of ROLES) {
          const allowed = row.may.includes(role);
          const refusal = action.accountResource ? '404 not_found' : '403 forbidden';
          it(`${role}: ${action.name} -> ${allowed ? '2xx' : refusal}`, async () => {
            const f = await newFixture();
            if (allowed) {
              const response = await send(role, action.call(f));
              expect(response.status, await response.clone().text()).to.be.within(200, 299);
              return;
            }
            const before = await stored(f);
            const response = await send(role, action.call(f));
            const body = await problem(response);
            if (action.accountResource) {
              expect(response.status).to.equal(404);
              expect(body.code).to.equal('not_found');
            } else {
              expect(response.status, JSON.stringify(body)).to.equal(403);
              expect(body).to.include({ code: 'forbidden', role });
              if (role === 'editor' && action.names !== undefined) expect(body).to.include(action.names);
            }
            expect(await stored(f), 'nothing is written').to.deep.equal(before);
          });
        }
      }
    });
  }
});
