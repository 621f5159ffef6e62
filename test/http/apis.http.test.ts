import { expect } from 'chai';
import { apiRoutes, type ApiUseCases } from '../../src/adapters/http/apis.routes.js';
import { SCOPES, type Scope } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServer, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

interface ApiBody {
  id: string;
  revision: number;
  nickname: string;
  name: string;
  type: string;
  user: { id: number; nickname: string };
}

forEachDatabase('Core-API: APIs over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let adaAll: string;
  let bobApi: string;
  let counter = 0;

  before(async () => {
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    adaAll = await server.token(ada, SCOPES);
    bobApi = await server.token(bob, ['api']);
  });
  after(async () => {
    await server?.stop();
  });

  async function createApi(nickname = `api-${++counter}`, token = adaAll, accountId = ada.accountId): Promise<ApiBody> {
    const response = await server.request('POST', `/api/${accountId}`, { token, body: { name: `API ${nickname}`, nickname } });
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as ApiBody;
  }

  it('answers an empty account with an empty first page', async () => {
    const carol = await server.user('carol@example.com', 'carol');
    const response = await server.request('GET', `/api/${carol.accountId}`, { token: await server.token(carol, ['api.readonly']) });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(await response.json()).to.deep.equal({ items: [], nextCursor: null });
  });

  it('creates, reads, updates and deletes an API with ETag and Location', async () => {
    const created = await server.request('POST', `/api/${ada.accountId}`, { token: adaAll, body: { name: 'Pet Store', nickname: 'petstore', type: 'public' } });
    expect(created.status).to.equal(201);
    const api = (await created.json()) as ApiBody & Record<string, unknown>;
    expect(created.headers.get('location')).to.equal(`/api/${ada.accountId}/${api.id}`);
    expect(created.headers.get('etag')).to.equal('"1"');
    expect(api).to.include({ name: 'Pet Store', nickname: 'petstore', type: 'public', revision: 1 });
    expect(api.user).to.deep.equal({ id: ada.userId, nickname: 'ada' });
    expect(api.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(api['creationDate']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);

    const read = await server.request('GET', `/api/${ada.accountId}/${api.id}`, { token: adaAll });
    expect(read.status).to.equal(200);
    expect(read.headers.get('etag')).to.equal('"1"');
    expect(await read.json()).to.deep.equal(api);

    const patched = await server.request('PATCH', `/api/${ada.accountId}/${api.id}`, { token: adaAll, body: { name: 'Pets' }, headers: { 'If-Match': '"1"' } });
    expect(patched.status).to.equal(200);
    expect(patched.headers.get('etag')).to.equal('"2"');
    expect(await patched.json()).to.include({ name: 'Pets', revision: 2 });

    const deleted = await server.request('DELETE', `/api/${ada.accountId}/${api.id}`, { token: adaAll });
    expect(deleted.status).to.equal(204);
    expect(await deleted.text()).to.equal('');
    expect((await server.request('GET', `/api/${ada.accountId}/${api.id}`, { token: adaAll })).status).to.equal(404);
  });

  it('answers HEAD like GET without a body', async () => {
    const api = await createApi();
    const response = await server.request('HEAD', `/api/${ada.accountId}/${api.id}`, { token: await server.token(ada, ['api.readonly']) });
    expect(response.status).to.equal(200);
    expect(response.headers.get('etag')).to.equal('"1"');
    expect(await response.text()).to.equal('');
  });

  describe('scope matrix: every scope against every APIs route', () => {
    /** The route table the router is built from; handlers are not called here. */
    const table = new Map(apiRoutes({} as ApiUseCases).map((r) => [`${r.method} ${r.path}`, r]));
    type Route = { name: string; key: string; method: string; expect: number; run: (token: string) => Promise<Response> };
    const routes: Route[] = [
      { name: 'GET /api/<account>', key: 'GET /api/:accountId', method: 'GET', expect: 200, run: (t) => server.request('GET', `/api/${ada.accountId}`, { token: t }) },
      {
        name: 'POST /api/<account>',
        key: 'POST /api/:accountId',
        method: 'POST',
        expect: 201,
        run: (t) => server.request('POST', `/api/${ada.accountId}`, { token: t, body: { name: 'M', nickname: `matrix-${++counter}` } }),
      },
      { name: 'GET /api/<account>/<api>', key: 'GET /api/:accountId/:apiId', method: 'GET', expect: 200, run: async (t) => server.request('GET', `/api/${ada.accountId}/${(await createApi()).id}`, { token: t }) },
      {
        name: 'PATCH /api/<account>/<api>',
        key: 'PATCH /api/:accountId/:apiId',
        method: 'PATCH',
        expect: 200,
        run: async (t) => server.request('PATCH', `/api/${ada.accountId}/${(await createApi()).id}`, { token: t, body: { name: 'Renamed' } }),
      },
      { name: 'DELETE /api/<account>/<api>', key: 'DELETE /api/:accountId/:apiId', method: 'DELETE', expect: 204, run: async (t) => server.request('DELETE', `/api/${ada.accountId}/${(await createApi()).id}`, { token: t }) },
    ];
    const tokens = new Map<Scope, string>();

    it('covers every route of the APIs route table', () => {
      expect(routes.map((r) => r.key).sort()).to.deep.equal([...table.keys()].sort());
    });

    before(async () => {
      for (const scope of SCOPES) tokens.set(scope, await server.token(ada, [scope]));
    });

    for (const scope of SCOPES) {
      for (const route of routes) {
        const read = route.method === 'GET';
        const allowed = scope === 'api' || (scope === 'api.readonly' && read);
        it(`${scope} -> ${route.name}: ${allowed ? route.expect : 403}`, async () => {
          const response = await route.run(tokens.get(scope)!);
          if (allowed) {
            expect(response.status, await response.clone().text()).to.equal(route.expect);
            return;
          }
          expect(response.status).to.equal(403);
          const needed = table.get(route.key)?.scope;
          expect(needed, 'the table declares the scope the route enforces').to.equal(read ? 'api.readonly' : 'api');
          expect(response.headers.get('www-authenticate')).to.equal(`Bearer realm="specbase", error="insufficient_scope", scope="${needed}"`);
          expect(await problem(response)).to.include({ status: 403, code: 'insufficient_scope' });
        });
      }
    }
  });

  describe("another account's APIs are not found", () => {
    let adaApi: ApiBody;
    before(async () => {
      adaApi = await createApi('private-to-ada');
    });
    const cases: [string, () => Promise<Response>][] = [
      ['GET list', () => server.request('GET', `/api/${ada.accountId}`, { token: bobApi })],
      ['POST create', () => server.request('POST', `/api/${ada.accountId}`, { token: bobApi, body: { name: 'X', nickname: 'intruder' } })],
      ['GET one', () => server.request('GET', `/api/${ada.accountId}/${adaApi.id}`, { token: bobApi })],
      ['PATCH', () => server.request('PATCH', `/api/${ada.accountId}/${adaApi.id}`, { token: bobApi, body: { name: 'Owned' } })],
      ['DELETE', () => server.request('DELETE', `/api/${ada.accountId}/${adaApi.id}`, { token: bobApi })],
      ['GET one under the own account path', () => server.request('GET', `/api/${bob.accountId}/${adaApi.id}`, { token: bobApi })],
      ['PATCH under the own account path', () => server.request('PATCH', `/api/${bob.accountId}/${adaApi.id}`, { token: bobApi, body: { name: 'Owned' } })],
      ['DELETE under the own account path', () => server.request('DELETE', `/api/${bob.accountId}/${adaApi.id}`, { token: bobApi })],
      ['an account that does not exist', () => server.request('GET', '/api/999999', { token: bobApi })],
      ['an account id that cannot exist', () => server.request('GET', '/api/abc', { token: bobApi })],
      ['an API id that is not a UUID', () => server.request('GET', `/api/${bob.accountId}/..%2F..%2Fetc`, { token: bobApi })],
      ['an account id beyond 32 bits', () => server.request('GET', '/api/2147483648', { token: bobApi })],
      // Ids are compared in the lowercase form they are issued in, on SQLite and PostgreSQL alike.
      ['an API id in uppercase', () => server.request('GET', `/api/${ada.accountId}/${adaApi.id.toUpperCase()}`, { token: adaAll })],
      ['a write to an API id in uppercase', () => server.request('PATCH', `/api/${ada.accountId}/${adaApi.id.toUpperCase()}`, { token: adaAll, body: { name: 'Upper' } })],
    ];
    for (const [name, run] of cases) {
      it(`${name}: 404`, async () => {
        const response = await run();
        expect(response.status).to.equal(404);
        const body = await problem(response);
        expect(body).to.include({ status: 404, code: 'not_found' });
        expect(JSON.stringify(body)).to.not.include('private-to-ada');
      });
    }
    it("leaves the other account's API untouched", async () => {
      const response = await server.request('GET', `/api/${ada.accountId}/${adaApi.id}`, { token: adaAll });
      expect(await response.json()).to.deep.include({ name: 'API private-to-ada', revision: 1 });
      const list = (await (await server.request('GET', `/api/${ada.accountId}?limit=200`, { token: adaAll })).json()) as { items: ApiBody[] };
      expect(list.items.some((a) => a.nickname === 'intruder')).to.equal(false);
    });
  });

  describe('a missing, malformed or unknown token is a 401 with WWW-Authenticate', () => {
    let revoked: string;
    before(async () => {
      revoked = await server.token(ada, ['api']);
      await server.revoke(ada, revoked);
    });
    const headers: [string, () => Record<string, string>][] = [
      ['no Authorization header', () => ({})],
      ['the Basic scheme', () => ({ Authorization: 'Basic YWRhOnB3' })],
      ['Bearer without a token', () => ({ Authorization: 'Bearer' })],
      ['a malformed token', () => ({ Authorization: 'Bearer not-a-token' })],
      ['an unknown token', () => ({ Authorization: `Bearer sbt_${'x'.repeat(43)}` })],
      ['a revoked token', () => ({ Authorization: `Bearer ${revoked}` })],
    ];
    const routes: [string, string][] = [
      ['GET', '/api/1'],
      ['POST', '/api/1'],
      ['GET', '/api/1/00000000-0000-7000-8000-000000000001'],
      ['PATCH', '/api/1/00000000-0000-7000-8000-000000000001'],
      ['DELETE', '/api/1/00000000-0000-7000-8000-000000000001'],
    ];
    for (const [label, header] of headers) {
      for (const [method, path] of routes) {
        it(`${label}: ${method} ${path.replace(/\/0000.*/, '/<api>')} -> 401`, async () => {
          const response = await server.request(method, path, { headers: header(), ...(method === 'POST' || method === 'PATCH' ? { body: { name: 'x' } } : {}) });
          expect(response.status).to.equal(401);
          expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="specbase", error="invalid_token"');
          expect(await problem(response)).to.include({ status: 401, code: 'invalid_token', type: 'urn:specbase:problem:invalid_token' });
        });
      }
    }
  });

  describe('conditional updates and conflicts', () => {
    it('refuses a stale If-Match with 412 and changes nothing', async () => {
      const api = await createApi();
      const path = `/api/${ada.accountId}/${api.id}`;
      expect((await server.request('PATCH', path, { token: adaAll, body: { name: 'Second' }, headers: { 'If-Match': '"1"' } })).status).to.equal(200);
      const stale = await server.request('PATCH', path, { token: adaAll, body: { name: 'Lost update', type: 'public' }, headers: { 'If-Match': '"1"' } });
      expect(stale.status).to.equal(412);
      expect(await problem(stale)).to.include({ code: 'revision_conflict' });
      const current = await server.request('GET', path, { token: adaAll });
      expect(current.headers.get('etag')).to.equal('"2"');
      expect(await current.json()).to.include({ name: 'Second', type: 'private', revision: 2 });
    });

    it('accepts If-Match: * and no If-Match at all', async () => {
      const api = await createApi();
      const path = `/api/${ada.accountId}/${api.id}`;
      expect((await server.request('PATCH', path, { token: adaAll, body: { name: 'A' }, headers: { 'If-Match': '*' } })).status).to.equal(200);
      expect((await server.request('PATCH', path, { token: adaAll, body: { name: 'B' } })).status).to.equal(200);
    });

    for (const header of ['1', 'W/"1"', '"one"', '"1", "2"']) {
      it(`refuses the malformed If-Match ${header} with 400`, async () => {
        const api = await createApi();
        const response = await server.request('PATCH', `/api/${ada.accountId}/${api.id}`, { token: adaAll, body: { name: 'X' }, headers: { 'If-Match': header } });
        expect(response.status).to.equal(400);
        expect((await problem(response)).errors?.[0]?.field).to.equal('If-Match');
      });
    }

    it('refuses a duplicate nickname with 409 on create and on rename', async () => {
      await createApi('taken');
      const duplicate = await server.request('POST', `/api/${ada.accountId}`, { token: adaAll, body: { name: 'Again', nickname: 'taken' } });
      expect(duplicate.status).to.equal(409);
      expect(await problem(duplicate)).to.include({ code: 'duplicate_nickname' });
      const other = await createApi();
      const rename = await server.request('PATCH', `/api/${ada.accountId}/${other.id}`, { token: adaAll, body: { nickname: 'taken' } });
      expect(rename.status).to.equal(409);
      const unchanged = await server.request('GET', `/api/${ada.accountId}/${other.id}`, { token: adaAll });
      expect(await unchanged.json()).to.include({ nickname: other.nickname, revision: 1 });
    });

    it('lets concurrent updates without If-Match all land, each on a new revision', async () => {
      const api = await createApi();
      const path = `/api/${ada.accountId}/${api.id}`;
      const writers = Array.from({ length: 8 }, (_, i) => i);
      const responses = await Promise.all(writers.map((n) => server.request('PATCH', path, { token: adaAll, body: { name: `name-${n}` } })));
      expect(responses.map((r) => r.status)).to.deep.equal(writers.map(() => 200));
      const revisions = await Promise.all(responses.map(async (r) => ((await r.json()) as ApiBody).revision));
      expect([...revisions].sort((a, b) => a - b)).to.deep.equal(writers.map((n) => n + 2));
    });

    it('with concurrent updates all naming the same If-Match, exactly one lands and the rest get 412', async () => {
      const api = await createApi();
      const path = `/api/${ada.accountId}/${api.id}`;
      const writers = Array.from({ length: 6 }, (_, i) => i);
      const responses = await Promise.all(
        writers.map((n) => server.request('PATCH', path, { token: adaAll, body: { name: `name-${n}` }, headers: { 'If-Match': '"1"' } })),
      );
      expect(responses.map((r) => r.status).sort()).to.deep.equal([200, 412, 412, 412, 412, 412]);
      const current = (await (await server.request('GET', path, { token: adaAll })).json()) as ApiBody;
      expect(current.revision).to.equal(2);
    });

    it('an update racing a delete gets 404, never a 5xx', async () => {
      const api = await createApi();
      const path = `/api/${ada.accountId}/${api.id}`;
      const [patch, remove] = await Promise.all([
        server.request('PATCH', path, { token: adaAll, body: { name: 'late' } }),
        server.request('DELETE', path, { token: adaAll }),
      ]);
      expect(remove.status).to.equal(204);
      expect([200, 404]).to.include(patch.status);
      expect((await server.request('GET', path, { token: adaAll })).status).to.equal(404);
    });
  });

  describe('pagination', () => {
    it('walks every API of the account in creation order with nextCursor', async () => {
      const carol = await server.user('carol.pages@example.com', 'carol');
      const token = await server.token(carol, ['api']);
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await createApi(`p${i}`, token, carol.accountId)).nickname);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
        const body = (await (await server.request('GET', `/api/${carol.accountId}${query}`, { token })).json()) as { items: ApiBody[]; nextCursor: string | null };
        seen.push(...body.items.map((a) => a.nickname));
        cursor = body.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);
      expect(seen).to.deep.equal(made);
      expect(pages).to.equal(3);
    });

    for (const query of ['limit=0', 'limit=201', 'limit=-1', 'limit=1.5', 'limit=abc', 'limit=1&limit=2', 'cursor=abc', 'cursor=eyJhZnRlciI6MX0']) {
      it(`refuses ?${query} with 400 naming the parameter`, async () => {
        const response = await server.request('GET', `/api/${ada.accountId}?${query}`, { token: adaAll });
        expect(response.status).to.equal(400);
        expect((await problem(response)).errors?.[0]?.field).to.equal(query.split('=')[0]);
      });
    }

    it('accepts limit=200', async () => {
      expect((await server.request('GET', `/api/${ada.accountId}?limit=200`, { token: adaAll })).status).to.equal(200);
    });
  });

  describe('bad bodies are 4xx problems that write nothing', () => {
    async function count(): Promise<number> {
      const body = (await (await server.request('GET', `/api/${ada.accountId}?limit=200`, { token: adaAll })).json()) as { items: unknown[] };
      return body.items.length;
    }
    const cases: [string, { body?: unknown; headers?: Record<string, string> }, number, string, string?][] = [
      ['malformed JSON', { body: '{"name": "x", ', headers: { 'Content-Type': 'application/json' } }, 400, 'invalid_json'],
      ['a JSON array', { body: [] }, 400, 'validation_failed', 'body'],
      ['a JSON string', { body: '"text"', headers: { 'Content-Type': 'application/json' } }, 400, 'invalid_json'],
      ['no body', {}, 400, 'validation_failed', 'body'],
      ['text/plain', { body: 'name=x', headers: { 'Content-Type': 'text/plain' } }, 415, 'unsupported_media_type'],
      ['form encoding', { body: 'name=x&nickname=y', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }, 415, 'unsupported_media_type'],
      ['a body over JSON_MAX_BYTES', { body: { name: 'x'.repeat(5000), nickname: 'big' } }, 413, 'payload_too_large'],
      ['a missing name', { body: { nickname: 'no-name' } }, 400, 'validation_failed', 'name'],
      ['a name of the wrong type', { body: { name: 42, nickname: 'typed' } }, 400, 'validation_failed', 'name'],
      ['an unknown field', { body: { name: 'x', nickname: 'extra', owner: 1 } }, 400, 'validation_failed', 'owner'],
      ['a __proto__ field', { body: '{"name":"x","nickname":"proto","__proto__":{"admin":true}}', headers: { 'Content-Type': 'application/json' } }, 400, 'invalid_json'],
      ['a bad nickname', { body: { name: 'x', nickname: '../../etc/passwd' } }, 400, 'validation_failed', 'nickname'],
      ['an unknown type', { body: { name: 'x', nickname: 'typed2', type: 'secret' } }, 400, 'validation_failed', 'type'],
      ['a nickname with SQL in it', { body: { name: 'x', nickname: "a'; DROP TABLE apis; --" } }, 400, 'validation_failed', 'nickname'],
    ];
    for (const [label, options, status, code, field] of cases) {
      it(`${label}: ${status} ${code}`, async () => {
        const before = await count();
        const response = await server.request('POST', `/api/${ada.accountId}`, { token: adaAll, ...options });
        expect(response.status, await response.clone().text()).to.equal(status);
        const body = await problem(response);
        expect(body).to.include({ status, code });
        if (field) expect(body.errors?.map((e) => e.field)).to.include(field);
        expect(await count()).to.equal(before);
      });
    }

    it('a PATCH with an unknown field changes nothing', async () => {
      const api = await createApi();
      const response = await server.request('PATCH', `/api/${ada.accountId}/${api.id}`, { token: adaAll, body: { name: 'New', revision: 99 } });
      expect(response.status).to.equal(400);
      expect(await (await server.request('GET', `/api/${ada.accountId}/${api.id}`, { token: adaAll })).json()).to.include({ name: api.name, revision: 1 });
    });
  });

  describe('the rest of the HTTP surface', () => {
    it('GET /healthz answers {"status":"ok"} without a token', async () => {
      const response = await server.request('GET', '/healthz');
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ status: 'ok' });
    });

    it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
      const echoed = await server.request('GET', '/healthz', { headers: { 'X-Request-Id': 'ci-run-42' } });
      expect(echoed.headers.get('x-request-id')).to.equal('ci-run-42');
      const replaced = await server.request('GET', '/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
      expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('answers an unknown path with a problem+json 404', async () => {
      const response = await server.request('GET', '/nowhere');
      expect(response.status).to.equal(404);
      expect(await problem(response)).to.include({ code: 'not_found' });
    });

    it('answers a method no route knows with a problem+json 501', async () => {
      const response = await server.request('PROPFIND', `/api/${ada.accountId}`, { token: adaAll });
      expect(response.status).to.equal(501);
      expect(await problem(response)).to.include({ code: 'not_implemented' });
    });

    it('parses +json media types such as application/merge-patch+json', async () => {
      const api = await createApi();
      const response = await server.request('PATCH', `/api/${ada.accountId}/${api.id}`, {
        token: adaAll,
        body: { name: 'Merged' },
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(response.status, await response.clone().text()).to.equal(200);
      expect(await response.json()).to.include({ name: 'Merged' });
    });

    it('answers a method the route lacks with a problem+json 405 and Allow', async () => {
      const response = await server.request('PUT', `/api/${ada.accountId}`, { token: adaAll, body: {} });
      expect(response.status).to.equal(405);
      expect(response.headers.get('allow')).to.include('GET');
      expect(await problem(response)).to.include({ code: 'method_not_allowed' });
    });
  });

  if (target.name === 'postgres') {
    it('answers a rename on the renaming instance at once, and on another instance within the NOTIFY bound, though both had the API cached', async () => {
      // NOTIFY reaches an idle listener a few milliseconds after the commit; the rest is headroom for a loaded machine.
      const BOUND_MS = 500;
      const db = await target.create();
      const a = await startTestServer(db.config);
      const b = await startTestServer(db.config);
      try {
        const dee = await a.user('dee@example.com', 'dee');
        const token = await a.token(dee, ['api']);
        const created = await a.request('POST', `/api/${dee.accountId}`, { token, body: { name: 'Before', nickname: 'renamed-api' } });
        expect(created.status).to.equal(201);
        const { id } = (await created.json()) as ApiBody;
        const name = async (instance: TestServer, path: string) => {
          const response = await instance.request('GET', path, { token });
          expect(response.status).to.equal(200);
          const body = (await response.json()) as ApiBody | { items: ApiBody[] };
          return 'items' in body ? body.items.find((api) => api.id === id)?.name : body.name;
        };
        const one = `/api/${dee.accountId}/${id}`;
        const list = `/api/${dee.accountId}`;
        for (const instance of [a, b, a, b]) {
          expect(await name(instance, one)).to.equal('Before');
          expect(await name(instance, list)).to.equal('Before');
        }

        const renamedAt = Date.now();
        expect((await a.request('PATCH', one, { token, body: { name: 'After' } })).status).to.equal(200);
        expect(await name(a, one)).to.equal('After', 'the renaming instance at once');
        expect(await name(a, list)).to.equal('After', 'the renaming instance at once');
        let seen = false;
        while (!seen) {
          const sentAfterMs = Date.now() - renamedAt;
          const [single, listed] = [await name(b, one), await name(b, list)];
          if (single === 'After' && listed === 'After') seen = true;
          else expect(sentAfterMs).to.be.below(BOUND_MS, 'served stale from the cache after the bound');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        // Every stale answer was asked for before the bound, so the first asked after it was fresh; how
        // soon after the bound that was asked is the machine's business, not the cache's.
        expect(await name(b, one)).to.equal('After');
      } finally {
        await a.stop();
        await b.stop();
        await db.dispose();
      }
    });
  }
});
