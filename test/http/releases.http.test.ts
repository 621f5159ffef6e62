import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { EventOutbox, type OutboxEvent } from '../../src/application/ports/event-outbox.port.js';
import type { AccountId } from '../../src/domain/account/account.js';
import { NEXT, RELEASE_STATUSES, type ReleaseStatus } from '../../src/domain/release/release.aggregate.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const PETSTORE_TEXT = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../fixtures/swagger/petstore.yaml'), 'utf8');
const PETSTORE_V2_TEXT = PETSTORE_TEXT.replace(/^ {2}version: 1\.0\.0$/m, '  version: 2.0.0');

interface ReleaseBody {
  id: string;
  version: string;
  status: ReleaseStatus;
  releaseDate: string;
  api: { id: string };
}

interface ApiBody {
  id: string;
  nickname: string;
  name: string;
  version: string | null;
}

interface ImportBody {
  api: ApiBody;
  release: ReleaseBody | null;
  counts: Record<string, number>;
}

interface ListBody {
  items: ReleaseBody[];
  nextCursor: string | null;
}

/** The HTTP action that moves a release into each target state the machine knows. */
const ACTION_TO: Partial<Record<ReleaseStatus, 'deprecate' | 'end-of-life'>> = { deprecated: 'deprecate', endOfLife: 'end-of-life' };
const ACTIONS = [
  { segment: 'deprecate', to: 'deprecated' },
  { segment: 'end-of-life', to: 'endOfLife' },
] as const;

function allowed(from: ReleaseStatus, to: ReleaseStatus): boolean {
  return (NEXT[from] as readonly ReleaseStatus[]).includes(to);
}

/** The shortest path of allowed transitions from `released` to `state`, found in NEXT. */
function pathTo(state: ReleaseStatus): ReleaseStatus[] {
  const queue: ReleaseStatus[][] = [[]];
  const seen = new Set<ReleaseStatus>(['released']);
  while (queue.length > 0) {
    const path = queue.shift()!;
    const at = path.at(-1) ?? 'released';
    if (at === state) return path;
    for (const next of NEXT[at] as readonly ReleaseStatus[]) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  throw new Error(`${state} cannot be reached from released`);
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

forEachDatabase('Core-API: releases over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let adaAll: string;
  let adaReadonly: string;
  let bobRelease: string;
  let counter = 0;

  before(async () => {
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    adaAll = await server.token(ada, SCOPES);
    adaReadonly = await server.token(ada, ['api_release.readonly']);
    bobRelease = await server.token(bob, ['api_release']);
  });
  after(async () => {
    await server?.stop();
  });

  /** Imports petstore.yaml as multipart (`spec` part plus a `body` part) with createRelease 1.0.0. */
  async function importPetstore(extra: Record<string, unknown> = {}): Promise<Response> {
    const form = new FormData();
    form.append('spec', new Blob([PETSTORE_TEXT], { type: 'application/yaml' }), 'petstore.yaml');
    form.append('body', JSON.stringify({ createRelease: true, releaseVersion: '1.0.0', ...extra }));
    return server.fetch(`/api/${ada.accountId}/import`, { method: 'POST', headers: { Authorization: `Bearer ${adaAll}` }, body: form });
  }

  async function importedApi(): Promise<ImportBody> {
    const response = await importPetstore({ nickname: `petstore-${++counter}` });
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as ImportBody;
  }

  const base = (apiId: string, accountId = ada.accountId) => `/api/${accountId}/${apiId}/releases`;

  function release(apiId: string, version: unknown, token = adaAll): Promise<Response> {
    return server.request('POST', base(apiId), { token, body: { version } });
  }

  async function released(apiId: string, version: string): Promise<ReleaseBody> {
    const response = await release(apiId, version);
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as ReleaseBody;
  }

  function act(apiId: string, version: string, segment: string, token = adaAll): Promise<Response> {
    return server.request('POST', `${base(apiId)}/${encodeURIComponent(version)}/${segment}`, { token });
  }

  async function statusOf(apiId: string, version: string): Promise<ReleaseStatus | 404> {
    const response = await server.request('GET', `${base(apiId)}/${encodeURIComponent(version)}`, { token: adaAll });
    if (response.status === 404) return 404;
    expect(response.status).to.equal(200);
    return ((await response.json()) as ReleaseBody).status;
  }

  async function list(apiId: string, query = '?limit=200'): Promise<ListBody> {
    const response = await server.request('GET', `${base(apiId)}${query}`, { token: adaAll });
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as ListBody;
  }

  /** A fresh release of `apiId` brought into `state` through allowed transitions only. */
  async function releaseIn(apiId: string, state: ReleaseStatus): Promise<string> {
    const version = `3.${++counter}.0`;
    await released(apiId, version);
    for (const step of pathTo(state)) {
      const response = await act(apiId, version, ACTION_TO[step]!);
      expect(response.status, await response.clone().text()).to.equal(200);
    }
    expect(await statusOf(apiId, version)).to.equal(state);
    return version;
  }

  /** The outbox's events about one API, oldest first (other tests write events too). */
  async function eventsOf(apiId: string): Promise<OutboxEvent[]> {
    const pending = await server.running.container.get<EventOutbox>(EventOutbox).pending(1000);
    expect(pending.length, 'the outbox read is not truncated').to.be.below(1000);
    return pending.filter((e) => {
      const resource = e.payload.resource as { id?: unknown; api?: { id?: unknown } };
      return e.payload.resourceType === 'Api' ? resource.id === apiId : resource.api?.id === apiId;
    });
  }

  describe('releasing, listing and reading', () => {
    let imported: { status: number; location: string | null; body: ImportBody };
    let created: { status: number; location: string | null; body: ReleaseBody };
    let apiId: string;

    before(async () => {
      const importResponse = await importPetstore();
      imported = { status: importResponse.status, location: importResponse.headers.get('location'), body: (await importResponse.json()) as ImportBody };
      apiId = imported.body.api.id;
      const createResponse = await release(apiId, '1.1.0');
      created = { status: createResponse.status, location: createResponse.headers.get('location'), body: (await createResponse.json()) as ReleaseBody };
    });

    it('import with createRelease answers 201 with release 1.0.0, released', () => {
      expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
      expect(imported.location).to.equal(`/api/${ada.accountId}/${apiId}`);
      expect(imported.body.release).to.not.equal(null);
      expect(imported.body.release).to.include({ version: '1.0.0', status: 'released' });
      expect(imported.body.release!.id).to.match(UUID);
      expect(imported.body.release!.releaseDate).to.match(TIMESTAMP);
      expect(imported.body.release!.api).to.deep.equal({ id: apiId });
    });

    it('POST /releases answers 201 with Location and the release record', () => {
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.location).to.equal(`/api/${ada.accountId}/${apiId}/releases/1.1.0`);
      expect(Object.keys(created.body).sort()).to.deep.equal(['api', 'id', 'releaseDate', 'status', 'version']);
      expect(created.body).to.include({ version: '1.1.0', status: 'released' });
      expect(created.body.id).to.match(UUID).and.not.equal(imported.body.release?.id);
      expect(created.body.releaseDate).to.match(TIMESTAMP);
      expect(created.body.api).to.deep.equal({ id: apiId });
    });

    it('GET /releases lists both in release-date order as {items, nextCursor}', async () => {
      const body = await list(apiId, '');
      expect(Object.keys(body).sort()).to.deep.equal(['items', 'nextCursor']);
      expect(body.nextCursor).to.equal(null);
      expect(body.items).to.deep.equal([imported.body.release, created.body]);
      const dates = body.items.map((r) => Date.parse(r.releaseDate));
      expect(dates).to.deep.equal([...dates].sort((a, b) => a - b));
    });

    it('GET /releases pages with limit and nextCursor', async () => {
      const first = await list(apiId, '?limit=1');
      expect(first.items.map((r) => r.version)).to.deep.equal(['1.0.0']);
      expect(first.nextCursor).to.be.a('string');
      const second = await list(apiId, `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(second.items.map((r) => r.version)).to.deep.equal(['1.1.0']);
      expect(second.nextCursor).to.equal(null);
    });

    it('GET one release, at its Location', async () => {
      const response = await server.request('GET', created.location!, { token: adaAll });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(await response.json()).to.deep.equal(created.body);
      const first = await server.request('GET', `${base(apiId)}/1.0.0`, { token: adaAll });
      expect(await first.json()).to.deep.equal(imported.body.release);
    });

    it('GET an unknown version: 404 not_found', async () => {
      const response = await server.request('GET', `${base(apiId)}/9.9.9`, { token: adaAll });
      expect(response.status).to.equal(404);
      expect(await problem(response)).to.include({ status: 404, code: 'not_found' });
    });

    for (const version of ['1.0.0', '1.1.0']) {
      it(`POST an existing label ${version}: 409 duplicate_version, nothing added`, async () => {
        const response = await release(apiId, version);
        expect(response.status).to.equal(409);
        expect(await problem(response)).to.include({ status: 409, code: 'duplicate_version' });
        expect((await list(apiId)).items.map((r) => r.version)).to.deep.equal(['1.0.0', '1.1.0']);
      });
    }

    const invalid: [string, Record<string, unknown>][] = [
      ['"bad version/1"', { version: 'bad version/1' }],
      ['a missing version', {}],
      ['an empty version', { version: '' }],
      ['a version with a slash', { version: '1/0' }],
      ['a version starting with a dot', { version: '.1' }],
      ['a 65-character version', { version: 'a'.repeat(65) }],
      ['a number', { version: 2 }],
      ['null', { version: null }],
    ];
    for (const [label, body] of invalid) {
      it(`POST ${label}: 400 naming the field version, nothing added`, async () => {
        const response = await server.request('POST', base(apiId), { token: adaAll, body });
        expect(response.status, await response.clone().text()).to.equal(400);
        const answer = await problem(response);
        expect(answer).to.include({ status: 400, code: 'validation_failed' });
        expect(answer.errors?.map((e) => e.field)).to.deep.equal(['version']);
        expect((await list(apiId)).items).to.have.length(2);
      });
    }

    it('releasing an API created empty: 409 no_spec', async () => {
      const createdApi = await server.request('POST', `/api/${ada.accountId}`, { token: adaAll, body: { name: 'Empty', nickname: 'empty-api' } });
      expect(createdApi.status).to.equal(201);
      const emptyId = ((await createdApi.json()) as ApiBody).id;
      const response = await release(emptyId, '1.0.0');
      expect(response.status).to.equal(409);
      expect(await problem(response)).to.include({ status: 409, code: 'no_spec' });
      expect(await list(emptyId)).to.deep.equal({ items: [], nextCursor: null });
    });

    it('a label with "+" round-trips through its Location', async () => {
      const response = await release(apiId, 'v3-beta.1+build.7');
      expect(response.status, await response.clone().text()).to.equal(201);
      const location = response.headers.get('location')!;
      const read = await server.request('GET', location, { token: adaAll });
      expect(read.status).to.equal(200);
      expect(await read.json()).to.include({ version: 'v3-beta.1+build.7' });
      expect((await server.request('DELETE', location, { token: adaAll })).status).to.equal(204);
    });
  });

  describe('the state machine, every (from, to) pair generated from NEXT', () => {
    let apiId: string;
    before(async () => {
      apiId = (await importedApi()).api.id;
    });

    it('has an HTTP action for every target NEXT allows, and nothing leads back to released', () => {
      const targets = new Set(RELEASE_STATUSES.flatMap((s) => [...(NEXT[s] as readonly ReleaseStatus[])]));
      expect([...targets].sort()).to.deep.equal(ACTIONS.map((a) => a.to).sort());
      expect(targets.has('released')).to.equal(false);
      for (const state of RELEASE_STATUSES) expect(() => pathTo(state), `${state} is reachable`).to.not.throw();
    });

    for (const from of RELEASE_STATUSES) {
      for (const { segment, to } of ACTIONS) {
        const ok = allowed(from, to);
        it(`${from} -> ${segment}: ${ok ? `200 ${to}` : '409 invalid_transition'}`, async () => {
          const version = await releaseIn(apiId, from);
          const before = await eventsOf(apiId);
          const response = await act(apiId, version, segment);
          const after = await eventsOf(apiId);
          if (ok) {
            expect(response.status, await response.clone().text()).to.equal(200);
            expect(await response.json()).to.include({ version, status: to });
            expect(await statusOf(apiId, version)).to.equal(to);
            expect(after.slice(before.length).map((e) => e.payload.name)).to.deep.equal([`release.${to}`]);
          } else {
            expect(response.status).to.equal(409);
            expect(await problem(response)).to.include({ status: 409, code: 'invalid_transition' });
            expect(await statusOf(apiId, version)).to.equal(from);
            expect(after, 'a refused transition records no event').to.deep.equal(before);
          }
        });
      }
    }

    it('a transition of an unknown version: 404', async () => {
      for (const { segment } of ACTIONS) {
        const response = await act(apiId, '9.9.9', segment);
        expect(response.status).to.equal(404);
        expect(await problem(response)).to.include({ code: 'not_found' });
      }
    });

    for (const state of RELEASE_STATUSES) {
      it(`DELETE from ${state}: 204, then GET 404, and the label can be released again`, async () => {
        const version = await releaseIn(apiId, state);
        const old = ((await (await server.request('GET', `${base(apiId)}/${version}`, { token: adaAll })).json()) as ReleaseBody).id;
        const response = await server.request('DELETE', `${base(apiId)}/${version}`, { token: adaAll });
        expect(response.status).to.equal(204);
        expect(await response.text()).to.equal('');
        expect(await statusOf(apiId, version)).to.equal(404);
        expect((await list(apiId)).items.map((r) => r.version)).to.not.include(version);
        const again = await server.request('DELETE', `${base(apiId)}/${version}`, { token: adaAll });
        expect(again.status).to.equal(404);

        const rereleased = await release(apiId, version);
        expect(rereleased.status, await rereleased.clone().text()).to.equal(201);
        const body = (await rereleased.json()) as ReleaseBody;
        expect(body).to.include({ version, status: 'released' });
        expect(body.id).to.not.equal(old);
        expect(await statusOf(apiId, version)).to.equal('released');
      });
    }
  });

  describe('events in the outbox', () => {
    it('records exactly api.created, then each release event in order, with the contract payload; refusals record nothing', async () => {
      const imported = await importedApi();
      const api = imported.api;
      const v100 = imported.release!;
      const v110 = await released(api.id, '1.1.0');
      const expectStatus = async (response: Promise<Response>, status: number) => {
        const answer = await response;
        expect(answer.status, await answer.clone().text()).to.equal(status);
      };
      await expectStatus(act(api.id, '1.0.0', 'deprecate'), 200);
      await expectStatus(act(api.id, '1.0.0', 'deprecate'), 409);
      await expectStatus(release(api.id, '1.1.0'), 409);
      await expectStatus(release(api.id, 'bad version/1'), 400);
      await expectStatus(act(api.id, '1.0.0', 'end-of-life'), 200);
      await expectStatus(act(api.id, '1.0.0', 'deprecate'), 409);
      await expectStatus(act(api.id, '1.0.0', 'end-of-life'), 409);
      await expectStatus(act(api.id, '1.1.0', 'end-of-life'), 200);
      await expectStatus(act(api.id, '1.1.0', 'deprecate'), 409);
      await expectStatus(act(api.id, '1.1.0', 'end-of-life', adaReadonly), 403);
      await expectStatus(server.request('DELETE', `${base(api.id)}/1.1.0`, { token: adaAll }), 204);
      await expectStatus(act(api.id, '1.1.0', 'end-of-life'), 404);
      await expectStatus(server.request('DELETE', `${base(api.id)}/1.1.0`, { token: adaAll }), 404);

      const events = await eventsOf(api.id);
      const expected: [string, ReleaseBody | null, ReleaseStatus | null][] = [
        ['api.created', null, null],
        ['release.released', v100, 'released'],
        ['release.released', v110, 'released'],
        ['release.deprecated', v100, 'deprecated'],
        ['release.endOfLife', v100, 'endOfLife'],
        ['release.endOfLife', v110, 'endOfLife'],
        ['release.deleted', v110, 'endOfLife'],
      ];
      const summary = (e: OutboxEvent) => `${e.payload.name}${e.payload.resourceType === 'Release' ? `(${String(e.payload.resource['version'])})` : ''}`;
      expect(events.map(summary)).to.deep.equal(expected.map(([name, r]) => (r ? `${name}(${r.version})` : name)));

      const user = { id: ada.userId, nickname: 'ada' };
      expect(new Set(events.map((e) => e.id)).size, 'every event has its own id').to.equal(events.length);
      for (const [i, event] of events.entries()) {
        const [name, record, status] = expected[i]!;
        expect(event.accountId).to.equal(ada.accountId);
        expect(Object.keys(event.payload).sort()).to.deep.equal(['id', 'name', 'resource', 'resourceType', 'timestamp', 'user']);
        expect(event.payload).to.include({ id: event.id, name });
        expect(event.payload.timestamp).to.match(TIMESTAMP);
        expect(event.payload.user).to.deep.equal(user);
        if (record === null) {
          expect(event.payload.resourceType).to.equal('Api');
          expect(event.payload.resource).to.include({ id: api.id, nickname: api.nickname, name: 'Swagger Petstore' });
          continue;
        }
        expect(event.payload.resourceType).to.equal('Release');
        // release.released says what changed since the release before (1.1.0 froze the same spec as 1.0.0).
        const changes = name === 'release.released' ? { changes: { since: record.version === '1.0.0' ? null : '1.0.0', breaking: false, counts: { breaking: 0, warning: 0, info: 0 } } } : {};
        expect(event.payload.resource).to.deep.equal({
          id: record.id,
          version: record.version,
          status,
          releaseDate: record.releaseDate,
          api: { id: api.id, nickname: api.nickname, name: 'Swagger Petstore' },
          ...changes,
        });
      }
      const times = events.map((e) => Date.parse(e.payload.timestamp));
      expect(times, 'timestamps in outbox order').to.deep.equal([...times].sort((a, b) => a - b));
    });
  });

  describe('scopes and other accounts', () => {
    let apiId: string;
    let record: ReleaseBody;
    before(async () => {
      const imported = await importedApi();
      apiId = imported.api.id;
      record = imported.release!;
    });

    it('api_release.readonly can GET the list and one release', async () => {
      const listed = await server.request('GET', base(apiId), { token: adaReadonly });
      expect(listed.status).to.equal(200);
      expect(await listed.json()).to.deep.equal({ items: [record], nextCursor: null });
      const one = await server.request('GET', `${base(apiId)}/1.0.0`, { token: adaReadonly });
      expect(one.status).to.equal(200);
      expect(await one.json()).to.deep.equal(record);
    });

    const writes: [string, () => Promise<Response>][] = [
      ['POST /releases', () => release(apiId, '2.0.0', adaReadonly)],
      ['POST deprecate', () => act(apiId, '1.0.0', 'deprecate', adaReadonly)],
      ['POST end-of-life', () => act(apiId, '1.0.0', 'end-of-life', adaReadonly)],
      ['DELETE', () => server.request('DELETE', `${base(apiId)}/1.0.0`, { token: adaReadonly })],
    ];
    for (const [name, run] of writes) {
      it(`api_release.readonly: ${name} -> 403 insufficient_scope, nothing changes`, async () => {
        const before = await eventsOf(apiId);
        const response = await run();
        expect(response.status).to.equal(403);
        expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="specbase", error="insufficient_scope", scope="api_release"');
        expect(await problem(response)).to.include({ status: 403, code: 'insufficient_scope' });
        expect(await list(apiId)).to.deep.equal({ items: [record], nextCursor: null });
        expect(await eventsOf(apiId)).to.deep.equal(before);
      });
    }

    const routes: [string, (accountId: AccountId) => Promise<Response>][] = [
      ['GET list', (acc) => server.request('GET', base(apiId, acc), { token: bobRelease })],
      ['GET one', (acc) => server.request('GET', `${base(apiId, acc)}/1.0.0`, { token: bobRelease })],
      ['POST /releases', (acc) => server.request('POST', base(apiId, acc), { token: bobRelease, body: { version: '6.6.6' } })],
      ['POST deprecate', (acc) => server.request('POST', `${base(apiId, acc)}/1.0.0/deprecate`, { token: bobRelease })],
      ['POST end-of-life', (acc) => server.request('POST', `${base(apiId, acc)}/1.0.0/end-of-life`, { token: bobRelease })],
      ['DELETE', (acc) => server.request('DELETE', `${base(apiId, acc)}/1.0.0`, { token: bobRelease })],
    ];
    for (const [name, run] of routes) {
      for (const where of ['the owner account path', "the caller's own account path"] as const) {
        it(`another account's api_release token: ${name} under ${where} -> 404`, async () => {
          const response = await run(where === 'the owner account path' ? ada.accountId : bob.accountId);
          expect(response.status).to.equal(404);
          const body = await problem(response);
          expect(body).to.include({ status: 404, code: 'not_found' });
          expect(JSON.stringify(body)).to.not.include(apiId);
        });
      }
    }

    it("leaves the other account's release untouched", async () => {
      expect(await list(apiId)).to.deep.equal({ items: [record], nextCursor: null });
      expect((await eventsOf(apiId)).map((e) => e.payload.name)).to.deep.equal(['api.created', 'release.released']);
    });
  });

  describe('export of a release snapshot', () => {
    it('after PUT /spec, ?release=1.0.0 exports the frozen original while the API exports the new document', async () => {
      expect(PETSTORE_V2_TEXT, 'the fixture has info.version 1.0.0 to change').to.not.equal(PETSTORE_TEXT);
      const original = parseYaml(PETSTORE_TEXT) as { info: { version: string } };
      const modified = parseYaml(PETSTORE_V2_TEXT) as { info: { version: string } };
      expect(original.info.version).to.equal('1.0.0');
      expect(modified.info.version).to.equal('2.0.0');

      const api = (await importedApi()).api;
      const path = `/api/${ada.accountId}/${api.id}`;
      const put = await server.request('PUT', `${path}/spec`, { token: adaAll, body: PETSTORE_V2_TEXT, headers: { 'Content-Type': 'application/yaml' } });
      expect(put.status, await put.clone().text()).to.equal(200);
      const replaced = (await put.json()) as ImportBody;
      expect(replaced.release).to.equal(null);
      expect(replaced.api.version).to.equal('2.0.0');

      const frozen = await server.request('GET', `${path}/export?release=1.0.0&format=json`, { token: adaAll });
      expect(frozen.status, await frozen.clone().text()).to.equal(200);
      expect(frozen.headers.get('content-type')).to.match(/^application\/json/);
      const frozenDoc = (await frozen.json()) as { info: { version: string } };
      expect(frozenDoc.info.version).to.equal('1.0.0');
      expect(frozenDoc).to.deep.equal(original);

      const current = await server.request('GET', `${path}/export?format=json`, { token: adaAll });
      expect(current.status).to.equal(200);
      const currentDoc = (await current.json()) as { info: { version: string } };
      expect(currentDoc.info.version).to.equal('2.0.0');
      expect(currentDoc).to.deep.equal(modified);

      const frozenYaml = await server.request('GET', `${path}/export?release=1.0.0`, { token: adaAll });
      expect(frozenYaml.status).to.equal(200);
      expect(await frozenYaml.text(), 'the snapshot in its own format is the uploaded text').to.equal(PETSTORE_TEXT);

      expect((await list(api.id)).items.map((r) => [r.version, r.status])).to.deep.equal([['1.0.0', 'released']]);
      const unknown = await server.request('GET', `${path}/export?release=9.9.9&format=json`, { token: adaAll });
      expect(unknown.status).to.equal(404);
    });
  });
});
