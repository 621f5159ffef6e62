import { expect } from 'chai';
import { Clock } from '../../src/application/ports/clock.port.js';
import { EventOutbox } from '../../src/application/ports/event-outbox.port.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

type Json = Record<string, unknown>;

interface ApiBody {
  id: string;
  revision: number;
  breakingChangePolicy: string;
  allowRemovalAfterSunset: boolean;
}

interface Change {
  rule: string;
  level: 'breaking' | 'warning' | 'info';
  location: Record<string, string>;
  message: string;
  afterSunset?: true;
}

interface Changes {
  breaking: boolean;
  counts: { breaking: number; warning: number; info: number };
  items: Change[];
}

/** A clock at noon UTC of the day it is set to. */
class DayClock implements Clock {
  day = '2027-06-30';
  now(): Date {
    return new Date(`${this.day}T12:00:00.000Z`);
  }
}

const ok = { '200': { description: 'ok' } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/**
 * GET /pets and GET /owners; DELETE /pets/{id} deprecated with `sunset` as its x-sunset, unless
 * `without` names it (`delete-pet`, `owners`).
 */
function spec(version: string, sunset: string, without: readonly ('delete-pet' | 'owners')[] = []): string {
  const paths: Json = { '/pets': { get: { responses: ok } } };
  if (!without.includes('delete-pet')) paths['/pets/{id}'] = { delete: { deprecated: true, 'x-sunset': sunset, parameters: [idParameter], responses: ok } };
  if (!without.includes('owners')) paths['/owners'] = { get: { responses: ok } };
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version }, paths });
}

const removalOf = (items: readonly Change[]) => items.filter((c) => c.rule === 'endpoint-removed').map((c) => [c.location['method'], c.location['path'], c.level, c.afterSunset ?? null]);

forEachDatabase('allowRemovalAfterSunset: an operation removed after its sunset and the breaking-change policy, over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let all: string;
  const clock = new DayClock();

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    all = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    clock.day = '2027-06-30';
  });

  async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
    const answered = await response;
    expect(answered.status, await answered.clone().text()).to.equal(status);
    return (await answered.json()) as T;
  }

  /** An API of ada's with `text` as its spec (released as 1.0.0), its policy and flag set by PATCH. */
  async function anApi(nickname: string, text: string, settings: Json): Promise<{ api: ApiBody; base: string }> {
    const response = await server.multipart('POST', `/api/${ada.accountId}/import`, all, [
      { name: 'spec', value: text, filename: 'pets.json', type: 'application/json' },
      { name: 'body', value: JSON.stringify({ nickname, createRelease: true }) },
    ]);
    expect(response.status, await response.clone().text()).to.equal(201);
    const imported = ((await response.json()) as { api: ApiBody }).api;
    const base = `/api/${ada.accountId}/${imported.id}`;
    const api = await json<ApiBody>(server.request('PATCH', base, { token: all, body: settings }));
    return { api, base };
  }

  function put(base: string, text: string, query = ''): Promise<Response> {
    return server.request('PUT', `${base}/spec${query}`, { token: all, body: text, headers: { 'Content-Type': 'application/json' } });
  }

  it('shows allowRemovalAfterSunset on the API (false by default); PATCH sets it, announced by api.updated; anything but a boolean is 400', async () => {
    const { api, base } = await anApi('flag', spec('1.0.0', '2027-06-30'), {});
    expect(api.allowRemovalAfterSunset).to.equal(false);
    const set = await json<ApiBody>(server.request('PATCH', base, { token: all, body: { allowRemovalAfterSunset: true } }));
    expect(set).to.include({ allowRemovalAfterSunset: true, revision: api.revision + 1, breakingChangePolicy: 'allow' });
    expect(await json<ApiBody>(server.request('GET', base, { token: all }))).to.include({ allowRemovalAfterSunset: true });
    const events = await server.running.container.get<EventOutbox>(EventOutbox).pending(1000);
    const updated = events.filter((e) => e.payload.name === 'api.updated' && e.payload.resource['id'] === api.id).map((e) => e.payload.resource['allowRemovalAfterSunset']);
    expect(updated).to.deep.equal([true]);
    for (const value of ['true', 1, null]) {
      const refused = await problem(await server.request('PATCH', base, { token: all, body: { allowRemovalAfterSunset: value } }));
      expect(refused, JSON.stringify(value)).to.include({ status: 400, code: 'validation_failed' });
    }
    expect(await json<ApiBody>(server.request('GET', base, { token: all }))).to.include({ allowRemovalAfterSunset: true, revision: set.revision });
  });

  it('refuse with the flag: an operation removed on its sunset day is taken (dry run and update), still reported as breaking, with afterSunset', async () => {
    const { base } = await anApi('after', spec('1.0.0', '2027-06-30'), { breakingChangePolicy: 'refuse', allowRemovalAfterSunset: true });
    const next = spec('1.1.0', '2027-06-30', ['delete-pet']);
    const dry = await json<{ changes: Changes }>(put(base, next, '?dryRun=true'));
    expect(dry.changes).to.deep.include({ breaking: true, counts: { breaking: 1, warning: 0, info: 0 } });
    expect(removalOf(dry.changes.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', true]]);
    const updated = await json<{ api: ApiBody; changes: Changes }>(put(base, next));
    expect(updated.changes).to.deep.equal(dry.changes);
    // As recorded with the revision, and as classified now between the release and the revision.
    const recorded = await json<Changes>(server.request('GET', `${base}/changes`, { token: all }));
    expect(removalOf(recorded.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', true]]);
    const fromRelease = await json<Changes>(server.request('GET', `${base}/changes?fromRelease=1.0.0`, { token: all }));
    expect(removalOf(fromRelease.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', true]]);
  });

  it('refuse with the flag: an operation removed the day before its sunset is refused, 409 breaking_change, nothing written', async () => {
    const { base } = await anApi('before', spec('1.0.0', '2027-07-01'), { breakingChangePolicy: 'refuse', allowRemovalAfterSunset: true });
    const before = await server.rowCounts();
    for (const query of ['?dryRun=true', '']) {
      const refused = await put(base, spec('1.1.0', '2027-07-01', ['delete-pet']), query);
      const body = (await problem(refused)) as unknown as { status: number; code: string; detail: string; items: Change[] };
      expect(body, query).to.include({ status: 409, code: 'breaking_change' });
      expect(body.detail).to.equal("The spec has 1 breaking change and the API's breakingChangePolicy is refuse: fix them, or send allowBreaking=<reason>.");
      expect(removalOf(body.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', null]]);
    }
    expect(await server.rowCounts()).to.deep.equal(before);
  });

  it('refuse without the flag: an operation removed after its sunset is refused like any breaking change, its item marked afterSunset', async () => {
    const { api, base } = await anApi('no-flag', spec('1.0.0', '2027-06-30'), { breakingChangePolicy: 'refuse' });
    expect(api.allowRemovalAfterSunset).to.equal(false);
    const body = (await problem(await put(base, spec('1.1.0', '2027-06-30', ['delete-pet'])))) as unknown as { status: number; code: string; items: Change[] };
    expect(body).to.include({ status: 409, code: 'breaking_change' });
    expect(removalOf(body.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', true]]);
  });

  it('refuse with the flag: another breaking change beside the removal after sunset is refused, and the answer says which counted', async () => {
    const { base } = await anApi('both', spec('1.0.0', '2027-06-30'), { breakingChangePolicy: 'refuse', allowRemovalAfterSunset: true });
    for (const query of ['?dryRun=true', '']) {
      const body = (await problem(await put(base, spec('1.1.0', '2027-06-30', ['delete-pet', 'owners']), query))) as unknown as { status: number; code: string; detail: string; counts: Json; items: Change[] };
      expect(body, query).to.include({ status: 409, code: 'breaking_change' });
      expect(body.counts).to.deep.equal({ breaking: 2, warning: 0, info: 0 });
      expect(removalOf(body.items)).to.deep.equal([
        ['DELETE', '/pets/{id}', 'breaking', true],
        ['GET', '/owners', 'breaking', null],
      ]);
      expect(body.detail).to.equal(
        "The spec has 1 breaking change besides 1 operation removed after its sunset (allowRemovalAfterSunset lets those through) and the API's breakingChangePolicy is refuse: fix them, or send allowBreaking=<reason>.",
      );
    }
  });

  it('requireMajor with the flag: a removal after its sunset needs no new major version', async () => {
    const { base } = await anApi('major', spec('1.0.0', '2027-06-30'), { breakingChangePolicy: 'requireMajor', allowRemovalAfterSunset: true });
    const taken = await json<{ changes: Changes; release: unknown }>(put(base, spec('1.1.0', '2027-06-30', ['delete-pet'])));
    expect(taken).to.deep.include({ release: null });
    expect(taken.changes.breaking).to.equal(true);
  });

  it('judges a comparison made later by the day its newer spec was stored, not by today', async () => {
    clock.day = '2027-06-29';
    const { base } = await anApi('later', spec('1.0.0', '2027-06-30'), { breakingChangePolicy: 'allow' });
    const stored = await json<{ changes: Changes }>(put(base, spec('1.1.0', '2027-06-30', ['delete-pet'])));
    expect(removalOf(stored.changes.items)).to.deep.equal([['DELETE', '/pets/{id}', 'breaking', null]]);
    clock.day = '2027-07-02';
    const fromRelease = await json<Changes>(server.request('GET', `${base}/changes?fromRelease=1.0.0`, { token: all }));
    expect(removalOf(fromRelease.items), 'removed the day before its sunset, whenever asked').to.deep.equal([['DELETE', '/pets/{id}', 'breaking', null]]);
  });
});
