import { expect } from 'chai';
import { stringify as stringifyYaml } from 'yaml';
import { EventOutbox, type OutboxEvent } from '../../src/application/ports/event-outbox.port.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';
import { swagger2Of } from '../support/swagger2-of.js';

type Json = Record<string, unknown>;

interface ApiBody {
  id: string;
  revision: number;
  breakingChangePolicy: string;
  specFormat: string | null;
}

interface Change {
  rule: string;
  level: 'breaking' | 'warning' | 'info';
  location: Record<string, string>;
  pointer: string;
  message: string;
}

interface Counts {
  breaking: number;
  warning: number;
  info: number;
}

const PETSTORE = JSON.parse(swaggerFixture('petstore.json').bytes.toString('utf8')) as Json;

/** Petstore with changes: `extra` paths added, `without` operations removed (`<method> <path>`). */
function petstore(change: { version: string; extra?: Json; without?: string[]; requiredLimit?: boolean }): string {
  const doc = structuredClone(PETSTORE) as { info: Json; paths: Record<string, Record<string, Json>> };
  doc.info['version'] = change.version;
  for (const removed of change.without ?? []) {
    const [method, path] = removed.split(' ') as [string, string];
    delete doc.paths[path]![method];
  }
  Object.assign(doc.paths, change.extra ?? {});
  if (change.requiredLimit) {
    const parameters = doc.paths['/pet/findByStatus']!['get']!['parameters'] as Json[];
    parameters.push({ name: 'limit', in: 'query', required: true, type: 'integer' });
  }
  return JSON.stringify(doc, null, 2);
}

const PHOTOS = { '/pet/{petId}/photos': { get: { summary: 'Photos of a pet', parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer' }], responses: { '200': { description: 'ok' } } } } };

forEachDatabase('spec history, changes, changelog, breaking-change policy and dry run over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let all: string;

  before(async function () {
    this.timeout(60_000);
    // A loopback webhook target is taken (it is never called: the worker has nothing to deliver to it here).
    server = await startTestServerOn(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    ada = await server.user('ada@example.com', 'ada');
    all = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });

  async function imported(nickname: string, text: string, createRelease = false): Promise<{ api: ApiBody; base: string }> {
    const response = await server.multipart('POST', `/api/${ada.accountId}/import`, all, [
      { name: 'spec', value: text, filename: 'petstore.json', type: 'application/json' },
      { name: 'body', value: JSON.stringify({ nickname, ...(createRelease ? { createRelease: true } : {}) }) },
    ]);
    expect(response.status, await response.clone().text()).to.equal(201);
    const api = ((await response.json()) as { api: ApiBody }).api;
    return { api, base: `/api/${ada.accountId}/${api.id}` };
  }

  function put(base: string, text: string, query = ''): Promise<Response> {
    return server.request('PUT', `${base}/spec${query}`, { token: all, body: text, headers: { 'Content-Type': 'application/json' } });
  }

  async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
    const answered = await response;
    expect(answered.status, await answered.clone().text()).to.equal(status);
    return (await answered.json()) as T;
  }

  async function eventsOf(apiId: string): Promise<OutboxEvent[]> {
    const pending = await server.running.container.get<EventOutbox>(EventOutbox).pending(1000);
    return pending.filter((e) => {
      const resource = e.payload.resource as { id?: unknown; api?: { id?: unknown } };
      return e.payload.resourceType === 'Api' ? resource.id === apiId : resource.api?.id === apiId;
    });
  }

  describe('the spec history', () => {
    let base: string;

    before(async () => {
      ({ base } = await imported('history', petstore({ version: '1.0.0' })));
      await json(put(base, petstore({ version: '1.1.0', extra: PHOTOS })));
      await json(server.request('PATCH', base, { token: all, body: { name: 'Renamed' } }));
      await json(put(base, petstore({ version: '2.0.0', extra: PHOTOS, without: ['delete /store/order/{orderId}'] }), `?allowBreaking=${encodeURIComponent('orders are deleted by support only')}`));
    });

    it('lists every spec newest first, by the API revision it was stored at, with who, the format, change counts and the reason', async () => {
      const page = await json<{ items: Json[]; nextCursor: string | null }>(server.request('GET', `${base}/revisions`, { token: all }));
      expect(page.items.map((r) => [r['revision'], r['specFormat'], r['counts'], r['reason']])).to.deep.equal([
        [4, 'swagger-2.0', { breaking: 1, warning: 0, info: 0 }, 'orders are deleted by support only'],
        [2, 'swagger-2.0', { breaking: 0, warning: 0, info: 1 }, null],
        [1, 'swagger-2.0', null, null],
      ]);
      expect(page.items[0]!['user']).to.deep.equal({ id: ada.userId, nickname: 'ada' });
      const first = await json<{ items: Json[]; nextCursor: string }>(server.request('GET', `${base}/revisions?limit=2`, { token: all }));
      const second = await json<{ items: Json[]; nextCursor: string | null }>(server.request('GET', `${base}/revisions?limit=2&cursor=${first.nextCursor}`, { token: all }));
      expect(second.items.map((r) => r['revision'])).to.deep.equal([1]);
      expect(second.nextCursor).to.equal(null);
    });

    it('exports each revision exactly as stored, in either syntax; a revision without a spec is 404', async () => {
      const exported = await server.request('GET', `${base}/revisions/2/export`, { token: all });
      expect(exported.headers.get('content-disposition')).to.equal('inline; filename="history-r2.json"');
      expect(await exported.text()).to.equal(petstore({ version: '1.1.0', extra: PHOTOS }));
      const yaml = await server.request('GET', `${base}/revisions/1/export?format=yaml`, { token: all });
      expect(yaml.headers.get('content-type')).to.match(/^application\/yaml/);
      expect((await server.request('GET', `${base}/revisions/3/export`, { token: all })).status, 'revision 3 was a rename').to.equal(404);
      expect((await server.request('GET', `${base}/revisions/abc/export`, { token: all })).status).to.equal(404);
    });

    it('answers what changed: by default the current spec against the one before it, as recorded', async () => {
      const changes = await json<{ from: Json; to: Json; breaking: boolean; counts: Counts; items: Change[] }>(server.request('GET', `${base}/changes`, { token: all }));
      expect(changes.from).to.deep.equal({ revision: 2, release: null });
      expect(changes.to).to.deep.equal({ revision: 4, release: null });
      expect(changes.breaking).to.equal(true);
      expect(changes.items).to.deep.equal([
        {
          rule: 'endpoint-removed',
          level: 'breaking',
          location: { method: 'DELETE', path: '/store/order/{orderId}' },
          pointer: '/paths/~1store~1order~1{orderId}/delete',
          message: 'DELETE /store/order/{orderId} was removed.',
        },
      ]);
    });

    it('compares any two revisions, and says nothing came before the first', async () => {
      const changes = await json<{ counts: Counts; items: Change[] }>(server.request('GET', `${base}/changes?fromRevision=1&toRevision=4`, { token: all }));
      expect(changes.items.map((c) => [c.rule, c.location.path])).to.deep.equal([
        ['endpoint-added', '/pet/{petId}/photos'],
        ['endpoint-removed', '/store/order/{orderId}'],
      ]);
      expect(changes.counts).to.deep.equal({ breaking: 1, warning: 0, info: 1 });
      const back = await json<{ items: Change[] }>(server.request('GET', `${base}/changes?fromRevision=4&toRevision=1`, { token: all }));
      expect(back.items.map((c) => [c.rule, c.level])).to.deep.equal([
        ['endpoint-added', 'info'],
        ['endpoint-removed', 'breaking'],
      ]);
      const first = await json<Json>(server.request('GET', `${base}/changes?toRevision=1`, { token: all }));
      expect(first).to.deep.equal({ from: null, to: { revision: 1, release: null }, breaking: false, counts: { breaking: 0, warning: 0, info: 0 }, items: [] });
    });

    it('refuses sides it cannot read: both forms of one side (400), a revision or release that does not exist (404)', async () => {
      expect((await problem(await server.request('GET', `${base}/changes?toRevision=2&toRelease=1.0.0`, { token: all }))).code).to.equal('validation_failed');
      expect((await problem(await server.request('GET', `${base}/changes?fromRevision=x`, { token: all }))).code).to.equal('validation_failed');
      expect((await server.request('GET', `${base}/changes?fromRevision=3`, { token: all })).status).to.equal(404);
      expect((await server.request('GET', `${base}/changes?toRelease=9.9.9`, { token: all })).status).to.equal(404);
    });
  });

  it('compares what documents describe: the same API as OpenAPI 3.0 and then as Swagger 2.0 changes nothing', async () => {
    const v3 = {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1.0.0' },
      servers: [{ url: 'https://api.example.com/v1' }],
      paths: {
        '/pets': {
          get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }], responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } },
          post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '201': { description: 'made' } } },
        },
      },
      components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string', nullable: true } } } } },
    };
    const { base } = await imported('formats', JSON.stringify(v3));
    const moved = await json<{ api: ApiBody; changes: { breaking: boolean; counts: Counts; items: Change[] } }>(
      server.request('PUT', `${base}/spec`, { token: all, body: stringifyYaml(swagger2Of(v3)), headers: { 'Content-Type': 'application/yaml' } }),
    );
    expect(moved.api.specFormat).to.equal('swagger-2.0');
    expect(moved.changes).to.deep.equal({ breaking: false, counts: { breaking: 0, warning: 0, info: 0 }, items: [] });
  });

  describe('the changelog', () => {
    let base: string;
    let apiId: string;

    before(async () => {
      let api: ApiBody;
      ({ api, base } = await imported('changelog', petstore({ version: '1.0.0' }), true));
      apiId = api.id;
      await json(put(base, petstore({ version: '1.1.0', extra: PHOTOS }), '?release=1.1.0'));
      await json(put(base, petstore({ version: '2.0.0', extra: PHOTOS, requiredLimit: true }), '?release=2.0.0'));
    });

    it('lists the releases newest first, each with what changed since the one before', async () => {
      const log = await json<{ items: { release: Json; since: string | null; counts: Counts; items: Change[] }[] }>(server.request('GET', `${base}/changelog`, { token: all }));
      expect(log.items.map((e) => [e.release['version'], e.release['status'], e.since, e.counts])).to.deep.equal([
        ['2.0.0', 'released', '1.1.0', { breaking: 1, warning: 0, info: 0 }],
        ['1.1.0', 'released', '1.0.0', { breaking: 0, warning: 0, info: 1 }],
        ['1.0.0', 'released', null, { breaking: 0, warning: 0, info: 0 }],
      ]);
      expect(log.items[0]!.items.map((c) => [c.rule, c.location.parameter])).to.deep.equal([['request-parameter-required-added', 'query limit']]);
    });

    it('compares two releases', async () => {
      const changes = await json<{ from: Json; to: Json; items: Change[] }>(server.request('GET', `${base}/changes?fromRelease=1.0.0&toRelease=2.0.0`, { token: all }));
      expect(changes.from).to.deep.equal({ revision: 1, release: '1.0.0' });
      expect(changes.to).to.deep.equal({ revision: 3, release: '2.0.0' });
      expect(changes.items.map((c) => c.rule)).to.deep.equal(['request-parameter-required-added', 'endpoint-added']);
    });

    it('shows the changelog as a docs page, and for a public API as an Atom feed', async () => {
      const page = `/docs/${ada.accountId}/changelog/changelog`;
      expect((await fetch(`${server.url}${page}`, { redirect: 'manual' })).status, 'private: sign in first').to.equal(303);
      expect((await fetch(`${server.url}${page}.atom`)).status, 'no feed of a private API').to.equal(404);
      await json(server.request('PATCH', base, { token: all, body: { type: 'public' } }));
      const html = await (await fetch(`${server.url}${page}`)).text();
      expect(html).to.include('<title>Changelog · Swagger Petstore · Specbase</title>');
      expect(html).to.include(`<a href="/docs/${ada.accountId}/changelog/changelog" aria-current="page">Changelog</a>`);
      expect(html).to.match(/<h2><a href="\/docs\/\d+\/changelog\/2\.0\.0">2\.0\.0<\/a><\/h2><p class="sb-meta">Released \d{4}-\d\d-\d\d · since 1\.1\.0: 1 breaking<\/p>/);
      expect(html).to.include('<h4 class="sb-level breaking">Breaking</h4><ul><li><code>request-parameter-required-added</code> GET /pet/findByStatus: the required query parameter limit was added.</li></ul>');
      expect(html).to.include('<p class="sb-empty">The first release.</p>');
      const feed = await fetch(`${server.url}${page}.atom`);
      expect(feed.headers.get('content-type')).to.equal('application/atom+xml; charset=utf-8');
      const xml = await feed.text();
      expect(xml).to.match(/^<\?xml version="1\.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/);
      expect([...xml.matchAll(/<entry><id>([^<]+)<\/id><title>([^<]+)<\/title>/g)].map((m) => [m[1], m[2]])).to.deep.equal(
        ['2.0.0', '1.1.0', '1.0.0'].map((v) => [`${server.url}/docs/${ada.accountId}/changelog/${v}`, `Swagger Petstore ${v}`]),
      );
      expect(xml).to.include('<summary>1 breaking, 0 warning, 0 info since 1.1.0.</summary>');
      expect(xml, 'the content is escaped HTML').to.include('<content type="html">&#60;h4 class=&#34;sb-level breaking&#34;&#62;Breaking&#60;/h4&#62;');
    });

    it('counts a release from the one before a deleted one', async () => {
      expect((await server.request('DELETE', `${base}/releases/1.1.0`, { token: all })).status).to.equal(204);
      const log = await json<{ items: { release: Json; since: string | null; items: Change[] }[] }>(server.request('GET', `${base}/changelog`, { token: all }));
      expect(log.items.map((e) => [e.release['version'], e.since, e.items.map((c) => c.rule)])).to.deep.equal([
        ['2.0.0', '1.0.0', ['request-parameter-required-added', 'endpoint-added']],
        ['1.0.0', null, []],
      ]);
    });

    it('announces each release with what it changed since the previous one, and each spec update with what it changed', async () => {
      const events = await eventsOf(apiId);
      const released = events.filter((e) => e.payload.name === 'release.released').map((e) => [e.payload.resource['version'], e.payload.resource['changes']]);
      expect(released).to.deep.equal([
        ['1.0.0', { since: null, breaking: false, counts: { breaking: 0, warning: 0, info: 0 } }],
        ['1.1.0', { since: '1.0.0', breaking: false, counts: { breaking: 0, warning: 0, info: 1 } }],
        ['2.0.0', { since: '1.1.0', breaking: true, counts: { breaking: 1, warning: 0, info: 0 } }],
      ]);
      // Spec updates (a change of the API itself, like making it public, carries no `changes`).
      const updated = events.filter((e) => e.payload.name === 'api.updated' && e.payload.resource['changes'] !== undefined);
      expect(updated.map((e) => [e.payload.resource['revision'], e.payload.resource['changes']])).to.deep.equal([
        [2, { fromRevision: 1, breaking: false, counts: { breaking: 0, warning: 0, info: 1 } }],
        [3, { fromRevision: 2, breaking: true, counts: { breaking: 1, warning: 0, info: 0 } }],
      ]);
      expect(updated[0]!.payload.resource).to.include({ id: apiId, nickname: 'changelog', specFormat: 'swagger-2.0' });
      expect(events.filter((e) => e.payload.name !== 'api.updated' || e.payload.resource['changes'] !== undefined).map((e) => e.payload.name)).to.deep.equal([
        'api.created',
        'release.released',
        'api.updated',
        'release.released',
        'api.updated',
        'release.released',
        'release.deleted',
      ]);
    });
  });

  it('announces a change of the API itself with api.updated, without changes; a webhook may subscribe to it', async () => {
    const { api, base } = await imported('patched', petstore({ version: '1.0.0' }));
    await json(server.request('PATCH', base, { token: all, body: { type: 'public', breakingChangePolicy: 'refuse' } }));
    const updated = (await eventsOf(api.id)).filter((e) => e.payload.name === 'api.updated');
    expect(updated).to.have.length(1);
    expect(updated[0]!.payload.resource).to.include({ revision: 2, type: 'public', breakingChangePolicy: 'refuse' });
    expect(updated[0]!.payload.resource).to.not.have.property('changes');
    const hook = await server.request('POST', `/webhooks/${ada.accountId}`, { token: all, body: { targetUrl: 'http://127.0.0.1:9/specbase', events: ['api.updated'] } });
    expect(hook.status, await hook.clone().text()).to.equal(201);
  });

  it('announces the first spec of an API created empty with api.updated and changes from no revision', async () => {
    const created = await json<ApiBody>(server.request('POST', `/api/${ada.accountId}`, { token: all, body: { nickname: 'empty-first', name: 'Empty' } }), 201);
    const base = `/api/${ada.accountId}/${created.id}`;
    const answer = await json<{ changes: unknown }>(put(base, petstore({ version: '1.0.0' })));
    expect(answer.changes, 'nothing to compare with').to.equal(null);
    const updated = (await eventsOf(created.id)).filter((e) => e.payload.name === 'api.updated');
    expect(updated.map((e) => [e.payload.resource['revision'], e.payload.resource['changes']])).to.deep.equal([
      [2, { fromRevision: null, breaking: false, counts: { breaking: 0, warning: 0, info: 0 } }],
    ]);
  });

  describe('the breaking-change policy', () => {
    const breaking = (version: string) => petstore({ version, without: ['delete /store/order/{orderId}'] });

    it('allow (the default): breaking changes are taken', async () => {
      const { api, base } = await imported('allow', petstore({ version: '1.0.0' }));
      expect(api.breakingChangePolicy).to.equal('allow');
      const answer = await json<{ api: ApiBody; changes: { breaking: boolean } }>(put(base, breaking('1.1.0')));
      expect(answer.changes.breaking).to.equal(true);
      expect(answer.api.revision).to.equal(2);
    });

    it('refuse: 409 breaking_change with the changes and nothing written; non-breaking changes pass; allowBreaking overrides with its reason kept', async () => {
      const { base } = await imported('refuse', petstore({ version: '1.0.0' }));
      await json(server.request('PATCH', base, { token: all, body: { breakingChangePolicy: 'refuse' } }));
      const before = await server.rowCounts();
      const withPhotos = petstore({ version: '1.1.0', without: ['delete /store/order/{orderId}'], extra: PHOTOS });
      const refused = await server.request('PUT', `${base}/spec`, { token: all, body: withPhotos, headers: { 'Content-Type': 'application/json' } });
      expect(refused.status).to.equal(409);
      const body = (await problem(refused)) as unknown as { code: string; detail: string; counts: Counts; items: Change[] };
      expect(body.code).to.equal('breaking_change');
      expect(body.detail).to.include('breakingChangePolicy is refuse');
      expect(body.counts, 'counts tally items').to.deep.equal({ breaking: 1, warning: 0, info: 1 });
      expect(body.items.map((c) => [c.rule, c.level])).to.deep.equal([
        ['endpoint-added', 'info'],
        ['endpoint-removed', 'breaking'],
      ]);
      expect(await server.rowCounts()).to.deep.equal(before);
      await json(put(base, petstore({ version: '1.1.0', extra: PHOTOS })));
      const overridden = await json<{ api: ApiBody }>(put(base, breaking('1.2.0'), '?allowBreaking=the%20mobile%20app%20no%20longer%20uses%20it'));
      const revisions = await json<{ items: Json[] }>(server.request('GET', `${base}/revisions?limit=1`, { token: all }));
      expect(revisions.items[0]).to.include({ revision: overridden.api.revision, reason: 'the mobile app no longer uses it' });
      expect((await problem(await put(base, breaking('1.3.0'), '?allowBreaking='))).code).to.equal('validation_failed');
      expect((await problem(await put(base, breaking('1.3.0'), `?allowBreaking=${'x'.repeat(201)}`))).code).to.equal('validation_failed');
      for (const reason of ['%00', 'ok%0Athen', '%1B%5B31m']) expect((await problem(await put(base, breaking('1.3.0'), `?allowBreaking=${reason}`))).code, reason).to.equal('validation_failed');
    });

    it('requireMajor: breaking changes only with a release whose major version is above every release', async () => {
      const { base } = await imported('major', petstore({ version: '1.0.0' }), true);
      await json(server.request('PATCH', base, { token: all, body: { breakingChangePolicy: 'requireMajor' } }));
      const without = await problem(await put(base, breaking('1.1.0')));
      expect(without).to.include({ status: 409, code: 'breaking_change' });
      expect(without.detail).to.include('requireMajor').and.include('above 1');
      expect((await problem(await put(base, breaking('1.5.0'), '?release=1.5.0'))).code).to.equal('breaking_change');
      const released = await json<{ release: { version: string } }>(put(base, breaking('2.0.0'), '?release=2.0.0'));
      expect(released.release.version).to.equal('2.0.0');
      expect((await json<{ api: ApiBody }>(put(base, petstore({ version: '2.1.0', without: ['delete /store/order/{orderId}'], extra: PHOTOS })))).api.revision, 'a change that breaks nothing needs no release').to.be.a('number');
      expect((await problem(await server.request('PATCH', base, { token: all, body: { breakingChangePolicy: 'never' } }))).code).to.equal('validation_failed');
    });
  });

  describe('?dryRun=true for CI', () => {
    it('validates and compares, answering what a real update would, and writes nothing: no revision, no event', async () => {
      const { api, base } = await imported('dry', petstore({ version: '1.0.0' }));
      await json(server.request('PATCH', base, { token: all, body: { breakingChangePolicy: 'refuse' } }));
      const events = (await eventsOf(api.id)).length;
      const before = await server.rowCounts();
      const dry = await server.request('PUT', `${base}/spec?dryRun=true`, { token: all, body: petstore({ version: '1.1.0', extra: PHOTOS }), headers: { 'Content-Type': 'application/json' } });
      expect(dry.status).to.equal(200);
      expect(dry.headers.get('etag')).to.equal('"2"');
      const body = (await dry.json()) as { api: ApiBody; counts: Json; changes: { breaking: boolean; counts: Counts; items: Change[] } };
      expect(Object.keys(body).sort()).to.deep.equal(['api', 'changes', 'counts']);
      expect(body.api.revision, 'the API as it is').to.equal(2);
      expect(body.counts).to.deep.equal({ endpoints: 21, models: 6, environments: 1, authAdapters: 2 });
      expect(body.changes).to.deep.include({ breaking: false, counts: { breaking: 0, warning: 0, info: 1 } });
      expect(body.changes.items[0]).to.include({ rule: 'endpoint-added', level: 'info' });
      expect((await problem(await put(base, petstore({ version: '1.1.0', without: ['delete /store/order/{orderId}'] }), '?dryRun=true'))).code).to.equal('breaking_change');
      expect((await problem(await put(base, '{"swagger":"2.0"}', '?dryRun=true'))).code).to.equal('invalid_spec');
      expect((await problem(await put(base, petstore({ version: '1.1.0' }), '?dryRun=maybe'))).code).to.equal('validation_failed');
      expect(await server.rowCounts()).to.deep.equal(before);
      expect((await eventsOf(api.id)).length).to.equal(events);
    });

    it('refuses a release a real update would refuse', async () => {
      const { base } = await imported('dry-release', petstore({ version: '1.0.0' }), true);
      expect((await problem(await put(base, petstore({ version: '1.1.0' }), '?dryRun=true&release=1.0.0'))).code).to.equal('duplicate_version');
      expect((await problem(await put(base, petstore({ version: '1.1.0' }), '?dryRun=true&release=not%20a%20label'))).code).to.equal('validation_failed');
      expect((await json<{ changes: Json }>(put(base, petstore({ version: '1.1.0' }), '?dryRun=true&release=1.1.0'))).changes).to.deep.include({ breaking: false });
    });
  });
});
