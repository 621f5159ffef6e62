/**
 * The growth benchmark (issue 9): does a request cost what its own work costs, whatever else the
 * database holds, and does an import cost in proportion to the document?
 *
 * (a) List latency against account size. Targets: `GET /api/:accountId` with 100,000 APIs in the
 *     account within 1.5x of the same with 100 APIs, for the first page of 20 and for a page of 20
 *     deep in the list (reached through the `nextCursor` the API hands out, 60% of the way in);
 *     the list query uses an index and no OFFSET.
 *     - Two Specbase servers (bench/serve-specbase.ts, fresh databases), one per account size, so
 *       both are measured in the same run, interleaved; with READ_CACHE_SIZE=0, as SQLite's read
 *       cache would answer a repeated page without reaching the database.
 *     - Seeding: one API through POST /api/:accountId (the reference), the other N - 1 straight
 *       into the database the server uses, in one transaction of multi-row INSERTs, rows made as
 *       the app makes them: `Api.create` (the domain's checks) and the row mapping of
 *       TypeOrmApiRepository.save, written through the app's own EntitySchema (src/adapters/
 *       persistence/schema.ts, its column types and timestamp transformer). Ids are UUIDv7 (the
 *       `uuid` package, as UuidV7IdGenerator) with the creation time in them, one second apart and
 *       older than the reference, so id order is creation order as in a real account. No outbox
 *       rows: the `api.created` events of old APIs were dispatched long ago and are not read by a
 *       list; pending ones would only make the webhook worker busy during the measurement. Then
 *       PostgreSQL gets VACUUM (ANALYZE) apis (what autovacuum does within a minute of such a
 *       load) and SQLite a WAL checkpoint; SQLite gets no ANALYZE, as the app never runs it.
 *     - Checks before measuring: a seeded row has the reference row's columns, types and formats;
 *       the whole list is walked through the HTTP API (`limit=200`, `cursor`): every API once,
 *       ids ascending, nicknames in creation order, the last page without `nextCursor`.
 *     - Query plans: TypeOrmApiRepository.list runs once in this process against each database
 *       with a TypeORM logger that records its SQL, which is then EXPLAINed (SQLite: EXPLAIN
 *       QUERY PLAN; PostgreSQL: EXPLAIN (ANALYZE, BUFFERS)) and searched for OFFSET.
 *     - The list query alone, without the HTTP request around it (token, rate limit, JSON):
 *       TypeOrmApiRepository.list, built without a read cache, called in this process against
 *       both databases, the four (size, page) pairs taking turns call by call for
 *       4 x BENCH_GROWTH_PROBE s, each call timed: p50 and p99.
 *     - Measurement over HTTP, per round and per target (100 or 100,000 APIs x first or deep
 *       page), in BENCH_GROWTH_ROUNDS (default 3) interleaved rounds after a warm-up:
 *       1. latency: one keep-alive connection per target, one request at a time, the four
 *          targets taking turns request by request (so a busy moment of the machine hits all
 *          of them alike) for 4 x BENCH_GROWTH_PROBE (default 3) s, each request timed with
 *          performance.now(); p50 and p99 over all the rounds' requests together (a p99 per
 *          round would rest on a handful of requests). One connection, because with more the
 *          latency is mostly time spent queueing behind the other connections (16 connections:
 *          ~16 x the service time), and the target is about what a request costs. Not
 *          autocannon: its latency histogram counts whole milliseconds, and a list answers in
 *          about one;
 *       2. throughput: autocannon, 16 connections (as bench/run.ts: enough to keep the server's
 *          one core busy from the other core), BENCH_GROWTH_DURATION (default 3) s: req/s, and
 *          its p50/p99 under that load (whole milliseconds); medians over the rounds.
 *
 * (b) Import time against document size. Target: linear. Generated Swagger 2.0 JSON documents
 *     (bench/generated-swagger.ts: each resource adds 2 paths, 5 operations and a model, ~6.8 KB)
 *     with N, 2N and 4N paths, N = BENCH_GROWTH_IMPORT_PATHS (default 300, ~1 MB; 4N ~4 MB, the
 *     size of the Kubernetes document bench/import.ts imports), imported through POST
 *     /api/:accountId/import (multipart, as bench/import.ts sends it) into a fresh server, timed by
 *     the client until the 201 has been read; one warm-up import of each size (the first imports
 *     of a process run before V8 has optimised the parser and validator and take several times
 *     longer), then BENCH_GROWTH_IMPORT_RUNS (default 5) rounds of N, 2N, 4N; medians. Criterion:
 *     time(4N) / time(N) between 3 and 5. Linear cost with a small fixed part gives a little under
 *     4; n log n a little over; quadratic 16. The marginal cost (ms per MB between N and 2N, and
 *     between 2N and 4N) is reported as well: constant when the growth is linear. So is the CPU
 *     time the Specbase process used for each import (bench/proc-cpu.ts; not the PostgreSQL
 *     server's), which other work on the machine hardly changes, with its own 4N / N ratio.
 *
 * Runs on SQLite always, and on PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set
 * (throw-away schemas). BENCH_GROWTH_APIS (default 100000, a multiple of 1000) sets the large
 * account, for shorter runs while developing; BENCH_GROWTH_ONLY=list or =import runs one part.
 * `node --import tsx bench/growth.ts` runs it alone. The report gives the machine's load average
 * during each part: other work on the machine shows in p99 and req/s first.
 *
 * A report, not a test: exits 0 whether or not the targets are met; non-zero only when something
 * crashed (or was interrupted).
 */
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { IsNull, type Logger as TypeOrmLogger } from 'typeorm';
import { v7 } from 'uuid';
import { TypeOrmDatabase, type DatabaseConfig } from '../src/adapters/persistence/typeorm-database.js';
import type { ApiRow } from '../src/adapters/persistence/rows.js';
import { TypeOrmApiRepository } from '../src/adapters/persistence/typeorm-api.repository.js';
import type { AccountId, UserId } from '../src/domain/account/account.js';
import { Api, type ApiId } from '../src/domain/api/api.aggregate.js';
import {
  type Backend,
  checkInterrupted,
  expectStatus,
  formatTable,
  cannon,
  median,
  onInterrupt,
  positiveIntegerFromEnv,
  sized,
  prepareBackend,
  type PreparedBackend,
  rate,
  runIfMain,
  type ServerChild,
  startChild,
  stopAllChildren,
  stopChild,
  type SummaryRow,
} from './common.js';
import { generatedSwagger } from './generated-swagger.js';
import { cpuMs } from './proc-cpu.js';

const SMALL = 100;
const LARGE = positiveIntegerFromEnv('BENCH_GROWTH_APIS', sized(100_000, 10_000));
if (LARGE % 1_000 !== 0) throw new Error(`BENCH_GROWTH_APIS must be a multiple of 1000, not ${LARGE}`);
const PAGE_LIMIT = 20;
/** The deep page starts after this share of the list. */
const DEPTH = 0.6;
const CONNECTIONS = 16;
const DURATION_S = positiveIntegerFromEnv('BENCH_GROWTH_DURATION', sized(3, 2));
const PROBE_S = positiveIntegerFromEnv('BENCH_GROWTH_PROBE', sized(3, 1));
const WARMUP_S = 1;
const ROUNDS = positiveIntegerFromEnv('BENCH_GROWTH_ROUNDS', sized(3, 1));
const SEED_CHUNK = 1_000;
const LATENCY_TARGET = 1.5;

const IMPORT_PATHS = positiveIntegerFromEnv('BENCH_GROWTH_IMPORT_PATHS', sized(300, 100));
if (IMPORT_PATHS % 2 !== 0) throw new Error(`BENCH_GROWTH_IMPORT_PATHS must be even (2 paths a resource), not ${IMPORT_PATHS}`);
const IMPORT_RUNS = positiveIntegerFromEnv('BENCH_GROWTH_IMPORT_RUNS', sized(5, 1));
const IMPORT_TIMEOUT_MS = 120_000;
const LINEAR_MIN = 3;
const LINEAR_MAX = 5;
const ONLY = process.env['BENCH_GROWTH_ONLY'] ?? '';
if (!['', 'list', 'import'].includes(ONLY)) throw new Error(`BENCH_GROWTH_ONLY must be list or import, not ${ONLY}`);

// ---------------------------------------------------------------------------------------------
// HTTP

const inFlight = new Set<AbortController>();
onInterrupt(() => {
  for (const controller of inFlight) controller.abort();
});

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly token: string;
  readonly accountId: AccountId;
}

async function startSpecbase(prepared: PreparedBackend): Promise<Server> {
  // READ_CACHE_SIZE=0: the figure is how the database read grows with the account; with SQLite's
  // read cache on, a repeated page would not reach the database at all.
  const started: ServerChild = await startChild('serve-specbase.ts', { ...prepared.specbaseEnv, READ_CACHE_SIZE: '0' }, [], true);
  const { token, accountId } = started.ready;
  if (token === undefined || accountId === undefined) {
    await stopChild(started.child);
    throw new Error('serve-specbase.ts reported no demo token');
  }
  return { child: started.child, url: started.url, token, accountId: accountId as AccountId };
}

async function getJson<T>(server: Server, path: string): Promise<T> {
  checkInterrupted();
  const send = () => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    // A pooled keep-alive connection the server closed (after its 5 s keepAliveTimeout) while
    // this process was busy seeding, before fetch saw the close: a GET may simply be sent again.
    if ((error as { cause?: { code?: unknown } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    response = await send();
  }
  return JSON.parse(await expectStatus(response, 200, `GET ${path}`)) as T;
}

interface ApiItem {
  readonly id: string;
  readonly nickname: string;
  readonly user: { readonly id: number; readonly nickname: string };
  readonly [field: string]: unknown;
}

interface ListBody {
  readonly items: readonly ApiItem[];
  readonly nextCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// (a) Seeding

const pad = (i: number): string => String(i).padStart(6, '0');
const nicknameAt = (position: number): string => `growth-api-${pad(position)}`;
const nameAt = (position: number): string => `Growth API ${pad(position)}`;

function databaseConfig(backend: Backend, prepared: PreparedBackend): DatabaseConfig {
  if (backend.databaseUrl === undefined) {
    const path = prepared.specbaseEnv['BENCH_SQLITE_PATH'];
    if (!path) throw new Error('prepareBackend gave no SQLite path');
    return { kind: 'sqlite', path };
  }
  return { kind: 'postgres', url: backend.databaseUrl, schema: prepared.schema, poolSize: 2 };
}

/** A TypeORM logger that keeps the SQL it is shown, to EXPLAIN what the repository really sends. */
class SqlRecorder implements TypeOrmLogger {
  readonly queries: { query: string; parameters: unknown[] }[] = [];
  logQuery(query: string, parameters?: unknown[]): void {
    this.queries.push({ query, parameters: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

async function openDatabase(config: DatabaseConfig): Promise<{ db: TypeOrmDatabase; recorder: SqlRecorder }> {
  const db = new TypeOrmDatabase(config);
  const recorder = new SqlRecorder();
  db.dataSource.setOptions({ logger: recorder, logging: ['query'] });
  await db.open();
  return { db, recorder };
}

/** Column name -> the shape of its raw value: type, and for text the characters' classes (so dates and ids compare by format). */
function rowShape(raw: Record<string, unknown>): Record<string, string> {
  const shape: Record<string, string> = {};
  for (const [column, value] of Object.entries(raw)) {
    const type = value === null ? 'null' : value instanceof Date ? 'Date' : typeof value;
    shape[column] = typeof value === 'string' && /date/.test(column) ? `${type} ${value.replace(/[0-9]/g, '9')}` : type;
  }
  return shape;
}

async function waitForDispatchedOutbox(db: TypeOrmDatabase): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const pending = await db.read((m) => m.getRepository(db.schemas.outbox).count({ where: { dispatchedAt: IsNull() } }));
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`the webhook worker left ${pending} outbox events pending for 15 s`);
    checkInterrupted();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Plan {
  readonly sql: string;
  readonly lines: readonly string[];
  /** The index the plan reads `apis` through, if any. */
  readonly index: string | undefined;
  /** `account_id` is checked on each row the index gives (a filter), not part of the index search. */
  readonly accountFiltered: boolean;
  /** A full scan of `apis`, or a sort of its rows. */
  readonly scanOrSort: boolean;
  readonly offset: boolean;
}

async function explain(db: TypeOrmDatabase, sql: string, parameters: unknown[]): Promise<Plan> {
  let lines: string[];
  if (db.dialect === 'sqlite') {
    const rows = await db.read((m) => m.query<{ id: number; parent: number; detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`, parameters));
    const depth = new Map<number, number>([[0, 0]]);
    lines = rows.map((row) => {
      const d = (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, d);
      return `${'  '.repeat(d - 1)}${row.detail}`;
    });
  } else {
    const rows = await db.read((m) => m.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters));
    lines = rows.map((row) => row['QUERY PLAN']);
  }
  const text = lines.join('\n');
  const index =
    db.dialect === 'sqlite'
      ? /SEARCH a USING (?:COVERING )?INDEX (\S+)/.exec(text)?.[1]
      : /Index (?:Only )?Scan(?: Backward)? using (\S+) on \S*apis a\b/.exec(text)?.[1];
  const scanOrSort = db.dialect === 'sqlite' ? /SCAN a\b|TEMP B-TREE FOR ORDER BY/.test(text) : /Seq Scan on \S*apis\b|\bSort\b/.test(text);
  const accountFiltered = /Filter: \(\S*account_id\b/.test(text);
  return { sql, lines, index, accountFiltered, scanOrSort, offset: /\bOFFSET\b/i.test(sql) };
}

/** Runs the app's own TypeOrmApiRepository.list and EXPLAINs the SQL it sent. */
async function listPlan(db: TypeOrmDatabase, recorder: SqlRecorder, accountId: AccountId, after: ApiId | undefined): Promise<Plan> {
  const repository = new TypeOrmApiRepository(db.read, db.schemas, db.dialect);
  recorder.queries.length = 0;
  const page = await repository.list(accountId, { limit: PAGE_LIMIT, ...(after === undefined ? {} : { after }) });
  if (page.items.length !== PAGE_LIMIT) throw new Error(`TypeOrmApiRepository.list gave ${page.items.length} APIs, expected ${PAGE_LIMIT}`);
  const listed = recorder.queries.filter((q) => /^\s*SELECT\b/i.test(q.query) && /\bapis\b/.test(q.query));
  if (listed.length !== 1) throw new Error(`TypeOrmApiRepository.list sent ${listed.length} SELECTs on apis, expected 1`);
  return explain(db, listed[0]!.query, listed[0]!.parameters);
}

interface SeededAccount {
  readonly apis: number;
  readonly server: Server;
  readonly firstPath: string;
  readonly deepPath: string;
  readonly seedMs: number;
  readonly firstBytes: number;
  readonly plans: { readonly first: Plan; readonly deep: Plan };
  readonly config: DatabaseConfig;
  /** The id the deep page starts after. */
  readonly deepAfterId: ApiId;
}

/**
 * One API through the HTTP API, `count - 1` straight into the database (see the header), then
 * the checks: row shapes, the whole list walked through the HTTP API, the query plans.
 */
async function seedAccount(backend: Backend, prepared: PreparedBackend, server: Server, count: number): Promise<SeededAccount> {
  const tag = `[${backend.name}, ${count.toLocaleString('en-US')} APIs]`;
  const created = await fetch(`${server.url}/api/${server.accountId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: nameAt(count), nickname: nicknameAt(count) }),
  });
  const reference = JSON.parse(await expectStatus(created, 201, `POST /api/${server.accountId}`)) as ApiItem & { creationDate: string };

  const { db, recorder } = await openDatabase(databaseConfig(backend, prepared));
  try {
    await waitForDispatchedOutbox(db);
    const rawRow = (id: string) => db.read((m) => m.createQueryBuilder(db.schemas.apis, 'a').where('a.id = :id', { id }).getRawOne<Record<string, unknown>>());
    const referenceRow = await rawRow(reference.id);
    if (referenceRow === undefined) throw new Error(`${tag} the API created through HTTP is not in the database the bench opened`);

    // Older than the reference, one second apart: ids (UUIDv7, time first) sort in creation order.
    const referenceMs = new Date(reference.creationDate).getTime();
    const firstMs = referenceMs - count * 1_000;
    const owner = { id: reference.user.id as UserId, nickname: reference.user.nickname };
    const rows: ApiRow[] = [];
    for (let position = 1; position < count; position++) {
      const msecs = firstMs + position * 1_000;
      const api = Api.create({ id: v7({ msecs }) as ApiId, accountId: server.accountId, owner, name: nameAt(position), nickname: nicknameAt(position) }, new Date(msecs));
      if (!api.ok) throw new Error(`${tag} Api.create refused seed ${position}: ${JSON.stringify(api.error)}`);
      // As TypeOrmApiRepository.save maps an Api to its row.
      const { owner: apiOwner, ...state } = api.value.snapshot();
      rows.push({ ...state, userId: apiOwner.id });
    }
    const seedStart = performance.now();
    await db.transaction(async (m) => {
      const repository = m.getRepository(db.schemas.apis);
      for (let i = 0; i < rows.length; i += SEED_CHUNK) await repository.insert(rows.slice(i, i + SEED_CHUNK));
    });
    const seedMs = performance.now() - seedStart;
    if (db.dialect === 'postgres') {
      const table = `${db.schemaName ? `"${db.schemaName}".` : ''}"apis"`;
      await db.read((m) => m.query(`VACUUM (ANALYZE) ${table}`));
    } else {
      await db.read((m) => m.query('PRAGMA wal_checkpoint(TRUNCATE)'));
    }
    console.log(`${tag} seeded ${rows.length.toLocaleString('en-US')} APIs in ${Math.round(seedMs)} ms (one transaction, ${SEED_CHUNK}-row INSERTs)`);

    const seededRow = rows.length === 0 ? undefined : await rawRow(rows[Math.floor(rows.length / 2)]!.id);
    if (rows.length > 0) {
      const expected = JSON.stringify(rowShape(referenceRow));
      const actual = JSON.stringify(rowShape(seededRow ?? {}));
      if (actual !== expected) throw new Error(`${tag} a seeded row differs from the one the app wrote:\n  app:    ${expected}\n  seeded: ${actual}`);
    }

    const deepAfterPosition = Math.round(count * DEPTH);
    const walk = await walkList(server, count, deepAfterPosition, tag);
    const firstPath = `/api/${server.accountId}?limit=${PAGE_LIMIT}`;
    const deepPath = `/api/${server.accountId}?limit=${PAGE_LIMIT}&cursor=${encodeURIComponent(walk.deepCursor)}`;
    const first = await getJson<ListBody>(server, firstPath);
    const deep = await getJson<ListBody>(server, deepPath);
    const nicknames = (body: ListBody) => body.items.map((item) => item.nickname).join(',');
    const expected = (from: number) => Array.from({ length: PAGE_LIMIT }, (_, i) => nicknameAt(from + i)).join(',');
    if (nicknames(first) !== expected(1) || first.nextCursor === null) throw new Error(`${tag} the first page is not APIs 1-${PAGE_LIMIT} with a nextCursor`);
    if (nicknames(deep) !== expected(deepAfterPosition + 1)) throw new Error(`${tag} the deep page does not start at API ${deepAfterPosition + 1}`);
    const single = await getJson<ApiItem>(server, `/api/${server.accountId}/${deep.items[0]!.id}`);
    if (JSON.stringify(Object.keys(single)) !== JSON.stringify(Object.keys(reference)) || JSON.stringify(single.user) !== JSON.stringify(reference.user)) {
      throw new Error(`${tag} a seeded API reads back unlike the one created through HTTP`);
    }

    const plans = {
      first: await listPlan(db, recorder, server.accountId, undefined),
      deep: await listPlan(db, recorder, server.accountId, walk.deepAfterId),
    };
    const firstBytes = Buffer.byteLength(JSON.stringify(first));
    console.log(`${tag} list walked through HTTP (${walk.pages} pages of ${walk.limit}): all ${count.toLocaleString('en-US')} APIs in creation order, once each`);
    return { apis: count, server, firstPath, deepPath, seedMs, firstBytes, plans, config: databaseConfig(backend, prepared), deepAfterId: walk.deepAfterId };
  } finally {
    await db.close();
  }
}

/** Reads the whole list through `cursor`; returns the cursor of the page after `deepAfterPosition` APIs. */
async function walkList(server: Server, count: number, deepAfterPosition: number, tag: string) {
  const limit = [200, PAGE_LIMIT].find((l) => deepAfterPosition % l === 0);
  if (limit === undefined) throw new Error(`${tag} no page size ends a page after API ${deepAfterPosition}`);
  let cursor = '';
  let seen = 0;
  let pages = 0;
  let previousId = '';
  let deepCursor: string | undefined;
  let deepAfterId: ApiId | undefined;
  for (;;) {
    const body: ListBody = await getJson<ListBody>(server, `/api/${server.accountId}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages++;
    for (const item of body.items) {
      seen++;
      if (!(item.id > previousId)) throw new Error(`${tag} API ${seen} (${item.id}) does not sort after ${previousId}`);
      if (item.nickname !== nicknameAt(seen)) throw new Error(`${tag} API ${seen} is ${item.nickname}, expected ${nicknameAt(seen)}`);
      previousId = item.id;
    }
    if (seen === deepAfterPosition) {
      deepCursor = body.nextCursor ?? undefined;
      deepAfterId = previousId as ApiId;
    }
    if (body.nextCursor === null) break;
    if (body.items.length !== limit) throw new Error(`${tag} a page of ${body.items.length} APIs (limit ${limit}) has a nextCursor`);
    cursor = body.nextCursor;
  }
  if (seen !== count) throw new Error(`${tag} the list has ${seen} APIs, expected ${count}`);
  if (deepCursor === undefined || deepAfterId === undefined) throw new Error(`${tag} no nextCursor after API ${deepAfterPosition}`);
  return { limit, pages, deepCursor, deepAfterId };
}

// ---------------------------------------------------------------------------------------------
// (a) Measuring

interface LatencyRun {
  /** Every request's ms, sorted. */
  readonly times: readonly number[];
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly failures: number;
}

interface LoadRun {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failures: number;
}

/** Nearest-rank percentile. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * One keep-alive connection per target, one request at a time: a request to each target in turn
 * for `seconds`, each timed on its own. Taking turns request by request, the targets share
 * whatever else the machine is doing, so their ratio holds even when the machine is busy.
 */
async function latencyRound(targets: readonly Target[], seconds: number): Promise<LatencyRun[]> {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const urls = targets.map((target) => new URL(target.path, target.server.url));
  const times = targets.map(() => [] as number[]);
  const failures = targets.map(() => 0);
  const once = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      const req = request(urls[i]!, { agent: agents[i]!, headers: { authorization: `Bearer ${targets[i]!.server.token}` } }, (res) => {
        res.resume();
        res.once('end', () => {
          if (res.statusCode === 200) times[i]!.push(performance.now() - start);
          else failures[i]!++;
          resolve();
        });
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end();
    });
  try {
    const end = performance.now() + seconds * 1_000;
    while (performance.now() < end) {
      checkInterrupted();
      for (let i = 0; i < targets.length; i++) await once(i);
    }
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return targets.map((target, i) => {
    const sorted = times[i]!.sort((a, b) => a - b);
    if (sorted.length === 0) throw new Error(`GET ${target.path}: no successful request in ${seconds} s`);
    return { times: sorted, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), requests: sorted.length, failures: failures[i]! };
  });
}

async function loadRun(server: Server, path: string, seconds: number): Promise<LoadRun> {
  const result = await cannon({ url: `${server.url}${path}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${server.token}` } });
  return { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

export interface QueryFigure {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly calls: number;
}

/**
 * The list query alone: the app's TypeOrmApiRepository.list, built without the server's SQLite
 * read cache, called in this process against both databases, the four (size, page) pairs taking
 * turns call by call for 4 x BENCH_GROWTH_PROBE s after 100 warm-up calls each; each call timed.
 */
async function measureQueries(small: SeededAccount, large: SeededAccount): Promise<{ first: { small: QueryFigure; large: QueryFigure }; deep: { small: QueryFigure; large: QueryFigure } }> {
  const opened: TypeOrmDatabase[] = [];
  try {
    const repositoryOf = async (seeded: SeededAccount) => {
      const db = new TypeOrmDatabase(seeded.config);
      opened.push(db);
      await db.open();
      return new TypeOrmApiRepository(db.read, db.schemas, db.dialect);
    };
    const calls = [
      { seeded: small, after: undefined },
      { seeded: large, after: undefined },
      { seeded: small, after: small.deepAfterId },
      { seeded: large, after: large.deepAfterId },
    ];
    const prepared = await Promise.all(
      calls.map(async (call) => ({ ...call, repository: await repositoryOf(call.seeded), accountId: call.seeded.server.accountId, times: [] as number[] })),
    );
    const once = async (call: (typeof prepared)[number]) => {
      const start = performance.now();
      const page = await call.repository.list(call.accountId, { limit: PAGE_LIMIT, ...(call.after === undefined ? {} : { after: call.after }) });
      const elapsed = performance.now() - start;
      if (page.items.length !== PAGE_LIMIT) throw new Error(`TypeOrmApiRepository.list gave ${page.items.length} APIs, expected ${PAGE_LIMIT}`);
      return elapsed;
    };
    for (let i = 0; i < 100; i++) for (const call of prepared) await once(call);
    const end = performance.now() + 4 * PROBE_S * 1_000;
    while (performance.now() < end) {
      checkInterrupted();
      for (const call of prepared) call.times.push(await once(call));
    }
    const [sf, lf, sd, ld] = prepared.map((call): QueryFigure => {
      const sorted = call.times.sort((a, b) => a - b);
      return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), calls: sorted.length };
    }) as [QueryFigure, QueryFigure, QueryFigure, QueryFigure];
    return { first: { small: sf, large: lf }, deep: { small: sd, large: ld } };
  } finally {
    for (const db of opened) await db.close();
  }
}

export interface ListFigure {
  /** One connection: over every round's requests. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** autocannon, CONNECTIONS connections: medians over the rounds. */
  readonly reqPerSec: number;
  readonly loadP50Ms: number;
  readonly loadP99Ms: number;
  readonly failures: number;
}

export interface ListGrowthResult {
  readonly kind: 'list';
  readonly backend: string;
  readonly small: number;
  readonly large: number;
  readonly first: { readonly small: ListFigure; readonly large: ListFigure };
  readonly deep: { readonly small: ListFigure; readonly large: ListFigure };
  readonly deepAfter: { readonly small: number; readonly large: number };
  readonly seedMs: number;
  readonly firstBytes: { readonly small: number; readonly large: number };
  readonly plans: { readonly small: SeededAccount['plans']; readonly large: SeededAccount['plans'] };
  /** The list query alone, in the benchmark process, without a read cache. */
  readonly query: { readonly first: { readonly small: QueryFigure; readonly large: QueryFigure }; readonly deep: { readonly small: QueryFigure; readonly large: QueryFigure } };
  /** The 1-minute load average before and after the measurement. */
  readonly load: readonly [number, number];
}

interface Target {
  readonly label: string;
  readonly server: Server;
  readonly path: string;
  readonly latency: LatencyRun[];
  readonly load: LoadRun[];
}

function figureOf(target: Target): ListFigure {
  const all = target.latency.flatMap((run) => run.times).sort((a, b) => a - b);
  const failures = [...target.latency, ...target.load].reduce((sum, run) => sum + run.failures, 0);
  return {
    p50Ms: percentile(all, 50),
    p99Ms: percentile(all, 99),
    requests: all.length,
    reqPerSec: median(target.load.map((r) => r.reqPerSec)),
    loadP50Ms: median(target.load.map((r) => r.p50Ms)),
    loadP99Ms: median(target.load.map((r) => r.p99Ms)),
    failures,
  };
}

const ms = (value: number): string => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US'));

async function benchList(backend: Backend): Promise<ListGrowthResult> {
  const preparedSmall = await prepareBackend(backend, 'specbase-growth-small');
  const preparedLarge = await prepareBackend(backend, 'specbase-growth-large');
  const servers: Server[] = [];
  try {
    const small = await startSpecbase(preparedSmall);
    servers.push(small);
    const large = await startSpecbase(preparedLarge);
    servers.push(large);
    console.log(`[${backend.name}] list: ${SMALL} APIs at ${small.url}, ${LARGE.toLocaleString('en-US')} APIs at ${large.url}`);
    const seededSmall = await seedAccount(backend, preparedSmall, small, SMALL);
    const seededLarge = await seedAccount(backend, preparedLarge, large, LARGE);
    const query = await measureQueries(seededSmall, seededLarge);
    const q = (f: QueryFigure) => `p50 ${ms(f.p50Ms)} ms, p99 ${ms(f.p99Ms)} ms`;
    console.log(
      `[${backend.name}] list query alone (${query.first.small.calls} calls each): first page ${q(query.first.small)} / ${q(query.first.large)}, ` +
        `deep page ${q(query.deep.small)} / ${q(query.deep.large)} (${SMALL} / ${LARGE.toLocaleString('en-US')} APIs)`,
    );

    const targets: Target[] = [
      { label: `first page, ${SMALL} APIs`, server: small, path: seededSmall.firstPath, latency: [], load: [] },
      { label: `first page, ${LARGE.toLocaleString('en-US')} APIs`, server: large, path: seededLarge.firstPath, latency: [], load: [] },
      { label: `deep page, ${SMALL} APIs`, server: small, path: seededSmall.deepPath, latency: [], load: [] },
      { label: `deep page, ${LARGE.toLocaleString('en-US')} APIs`, server: large, path: seededLarge.deepPath, latency: [], load: [] },
    ];
    const loadBefore = loadavg()[0]!;
    for (const target of targets) await loadRun(target.server, target.path, WARMUP_S);
    await latencyRound(targets, WARMUP_S);
    for (let round = 1; round <= ROUNDS; round++) {
      const latencies = await latencyRound(targets, PROBE_S * targets.length);
      const line: string[] = [];
      for (const [i, target] of targets.entries()) {
        const latency = latencies[i]!;
        const load = await loadRun(target.server, target.path, DURATION_S);
        target.latency.push(latency);
        target.load.push(load);
        const failures = latency.failures + load.failures;
        line.push(`${target.label}: p50 ${ms(latency.p50Ms)} ms, p99 ${ms(latency.p99Ms)} ms, ${rate(load.reqPerSec)} req/s${failures ? ` (${failures} FAILED)` : ''}`);
      }
      console.log(`[${backend.name}] round ${round}/${ROUNDS}: ${line.join('; ')}`);
    }
    const [sf, lf, sd, ld] = targets.map(figureOf) as [ListFigure, ListFigure, ListFigure, ListFigure];
    return {
      kind: 'list',
      backend: backend.name,
      small: SMALL,
      large: LARGE,
      first: { small: sf, large: lf },
      deep: { small: sd, large: ld },
      deepAfter: { small: Math.round(SMALL * DEPTH), large: Math.round(LARGE * DEPTH) },
      seedMs: seededLarge.seedMs,
      firstBytes: { small: seededSmall.firstBytes, large: seededLarge.firstBytes },
      plans: { small: seededSmall.plans, large: seededLarge.plans },
      query,
      load: [loadBefore, loadavg()[0]!],
    };
  } finally {
    await Promise.all(servers.map((server) => stopChild(server.child)));
    await preparedSmall.cleanup();
    await preparedLarge.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// (b) Import time against document size

interface ImportSize {
  readonly label: string;
  readonly paths: number;
  readonly operations: number;
  readonly definitions: number;
  readonly bytes: Buffer;
}

function importSizes(): ImportSize[] {
  return [1, 2, 4].map((factor) => {
    const generated = generatedSwagger((IMPORT_PATHS / 2) * factor);
    return { label: factor === 1 ? 'N' : `${factor}N`, ...generated, bytes: Buffer.from(generated.text) };
  });
}

let imports = 0;

interface ImportRun {
  /** The client's wall time, from sending the request to having read the 201. */
  readonly ms: number;
  /** CPU time the Specbase process used meanwhile (Linux), not the database server's. */
  readonly cpuMs: number | undefined;
}

async function importOnce(server: Server, size: ImportSize): Promise<ImportRun> {
  checkInterrupted();
  const nickname = `growth-import-${++imports}`;
  const boundary = `----specbase-growth-${imports}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="spec"; filename="growth.json"\r\nContent-Type: application/json\r\n\r\n`),
    size.bytes,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ nickname })}\r\n--${boundary}--\r\n`,
    ),
  ]);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`import ${size.label} took over ${IMPORT_TIMEOUT_MS} ms`)), IMPORT_TIMEOUT_MS);
  inFlight.add(controller);
  try {
    const cpuStart = cpuMs(server.child.pid);
    const start = performance.now();
    const response = await fetch(`${server.url}/api/${server.accountId}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      signal: controller.signal,
    });
    const text = await response.text();
    const elapsed = performance.now() - start;
    const cpuEnd = cpuMs(server.child.pid);
    if (response.status !== 201) throw new Error(`import ${size.label}: expected HTTP 201, got ${response.status}: ${text.slice(0, 500)}`);
    const counts = (JSON.parse(text) as { counts?: { endpoints?: unknown; models?: unknown } }).counts;
    if (counts?.endpoints !== size.operations || counts.models !== size.definitions) {
      throw new Error(`import ${size.label}: ${String(counts?.endpoints)} endpoints and ${String(counts?.models)} models, expected ${size.operations} and ${size.definitions}`);
    }
    return { ms: elapsed, cpuMs: cpuStart === undefined || cpuEnd === undefined ? undefined : cpuEnd - cpuStart };
  } finally {
    clearTimeout(timer);
    inFlight.delete(controller);
  }
}

export interface ImportGrowthResult {
  readonly kind: 'import';
  readonly backend: string;
  readonly sizes: readonly { readonly label: string; readonly paths: number; readonly bytes: number; readonly runs: readonly ImportRun[] }[];
  /** The 1-minute load average before and after the measurement. */
  readonly load: readonly [number, number];
}

async function benchImportGrowth(backend: Backend): Promise<ImportGrowthResult> {
  const prepared = await prepareBackend(backend, 'specbase-growth-import');
  let server: Server | undefined;
  try {
    server = await startSpecbase(prepared);
    const sizes = importSizes();
    console.log(
      `[${backend.name}] import: Specbase at ${server.url}; ` + sizes.map((s) => `${s.label} = ${s.paths} paths, ${(s.bytes.length / 1e6).toFixed(2)} MB`).join('; '),
    );
    const loadBefore = loadavg()[0]!;
    for (const size of sizes) console.log(`[${backend.name}] import warm-up ${size.label}: ${Math.round((await importOnce(server, size)).ms)} ms`);
    const runs = sizes.map(() => [] as ImportRun[]);
    for (let round = 1; round <= IMPORT_RUNS; round++) {
      // Alternate the order, so no size always follows the largest one's leftovers (GC).
      const order = round % 2 === 1 ? [0, 1, 2] : [2, 1, 0];
      for (const i of order) runs[i]!.push(await importOnce(server, sizes[i]!));
      const cpu = (run: ImportRun) => (run.cpuMs === undefined ? '' : ` (CPU ${Math.round(run.cpuMs)} ms)`);
      console.log(`[${backend.name}] import round ${round}/${IMPORT_RUNS}: ` + sizes.map((s, i) => `${s.label} ${Math.round(runs[i]!.at(-1)!.ms)} ms${cpu(runs[i]!.at(-1)!)}`).join(', '));
    }
    return { kind: 'import', backend: backend.name, sizes: sizes.map((s, i) => ({ label: s.label, paths: s.paths, bytes: s.bytes.length, runs: runs[i]! })), load: [loadBefore, loadavg()[0]!] };
  } finally {
    if (server) await stopChild(server.child);
    await prepared.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark

export type GrowthResult = ListGrowthResult | ImportGrowthResult;

/** Runs (a) and (b) on each backend; returns what it measured, and the error that stopped it, if any. */
export async function benchGrowth(backends: readonly Backend[]): Promise<{ results: GrowthResult[]; failure?: Error }> {
  const results: GrowthResult[] = [];
  try {
    for (const backend of backends) {
      if (ONLY !== 'import') results.push(await benchList(backend));
      if (ONLY !== 'list') results.push(await benchImportGrowth(backend));
    }
    return { results };
  } catch (error) {
    return { results, failure: error instanceof Error ? error : new Error('growth bench failed', { cause: error }) };
  } finally {
    await stopAllChildren();
  }
}

// ---------------------------------------------------------------------------------------------
// Figures and the report

interface ListVerdict {
  readonly page: 'first' | 'deep';
  readonly p50Ratio: number;
  readonly p99Ratio: number;
  readonly rateRatio: number;
  readonly latencyMet: boolean;
  readonly rateMet: boolean;
}

function listVerdicts(result: ListGrowthResult): ListVerdict[] {
  return (['first', 'deep'] as const).map((page) => {
    const { small, large } = result[page];
    const valid = small.failures === 0 && large.failures === 0;
    const p50Ratio = large.p50Ms / small.p50Ms;
    const p99Ratio = large.p99Ms / small.p99Ms;
    const rateRatio = large.reqPerSec / small.reqPerSec;
    return {
      page,
      p50Ratio,
      p99Ratio,
      rateRatio,
      latencyMet: valid && p50Ratio <= LATENCY_TARGET && p99Ratio <= LATENCY_TARGET,
      rateMet: valid && rateRatio >= 1 / LATENCY_TARGET,
    };
  });
}

function planOk(plan: Plan): boolean {
  return plan.index !== undefined && !plan.scanOrSort && !plan.offset;
}

function planSummary(plan: Plan): string {
  const index = plan.index ? `index ${plan.index}${plan.accountFiltered ? ' (account_id as a filter)' : ''}` : 'NO index';
  return `${index}${plan.scanOrSort ? ', full scan or sort' : ''}${plan.offset ? ', OFFSET' : ', no OFFSET'}`;
}

interface SizeFigure {
  readonly label: string;
  readonly paths: number;
  readonly mb: number;
  /** Median wall ms, its range, and the median CPU ms of the Specbase process (undefined off Linux). */
  readonly ms: number;
  readonly min: number;
  readonly max: number;
  readonly cpuMs: number | undefined;
}

interface ImportFigures {
  readonly sizes: readonly [SizeFigure, SizeFigure, SizeFigure];
  /** time(4N) / time(N), wall and CPU. */
  readonly ratio: number;
  readonly cpuRatio: number | undefined;
  /** Marginal wall ms per MB between N and 2N, and between 2N and 4N. */
  readonly slopes: readonly [number, number];
  readonly met: boolean;
}

function importFigures(result: ImportGrowthResult): ImportFigures {
  const [n, n2, n4] = result.sizes.map((s): SizeFigure => {
    const wall = s.runs.map((r) => r.ms);
    const cpu = s.runs.map((r) => r.cpuMs).filter((v) => v !== undefined);
    return {
      label: s.label,
      paths: s.paths,
      mb: s.bytes / 1e6,
      ms: median(wall),
      min: Math.min(...wall),
      max: Math.max(...wall),
      cpuMs: cpu.length === wall.length ? median(cpu) : undefined,
    };
  }) as [SizeFigure, SizeFigure, SizeFigure];
  const ratio = n4.ms / n.ms;
  return {
    sizes: [n, n2, n4],
    ratio,
    cpuRatio: n4.cpuMs === undefined || n.cpuMs === undefined ? undefined : n4.cpuMs / n.cpuMs,
    slopes: [(n2.ms - n.ms) / (n2.mb - n.mb), (n4.ms - n2.ms) / (n4.mb - n2.mb)],
    met: ratio >= LINEAR_MIN && ratio <= LINEAR_MAX,
  };
}

const large = (result: ListGrowthResult): string => result.large.toLocaleString('en-US');
const loadText = (load: readonly [number, number]): string => `load average ${load[0].toFixed(1)} -> ${load[1].toFixed(1)} on ${availableParallelism()} cores`;

/** The lines of the table `npm run bench` ends with. */
export function summarizeGrowth(results: readonly GrowthResult[]): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const result of results) {
    if (result.kind === 'list') {
      for (const verdict of listVerdicts(result)) {
        const { small, large: big } = result[verdict.page];
        const page = verdict.page === 'first' ? 'first page of 20' : `page of 20 after ${result.deepAfter.large.toLocaleString('en-US')}`;
        rows.push({
          figure: `list p50/p99 (1 connection), ${page}, ${large(result)} vs ${result.small} APIs [${result.backend}]`,
          specbase: `${ms(big.p50Ms)} / ${ms(big.p99Ms)} ms`,
          baseline: `${ms(small.p50Ms)} / ${ms(small.p99Ms)} ms (${result.small} APIs)`,
          ratio: `${verdict.p50Ratio.toFixed(2)} / ${verdict.p99Ratio.toFixed(2)}`,
          target: `<= ${LATENCY_TARGET}x`,
          met: verdict.latencyMet,
        });
        rows.push({
          figure: `list req/s (${CONNECTIONS} connections), ${page}, ${large(result)} vs ${result.small} APIs [${result.backend}]`,
          specbase: `${rate(big.reqPerSec)} req/s`,
          baseline: `${rate(small.reqPerSec)} req/s (${result.small} APIs)`,
          ratio: verdict.rateRatio.toFixed(2),
          target: `>= ${(1 / LATENCY_TARGET).toFixed(2)}x`,
          met: verdict.rateMet,
        });
      }
      const { first, deep } = result.query;
      const queryRatios = [first.large.p50Ms / first.small.p50Ms, deep.large.p50Ms / deep.small.p50Ms];
      rows.push({
        figure: `list query alone (TypeOrmApiRepository.list) p50, first / deep page, ${large(result)} vs ${result.small} APIs [${result.backend}]`,
        specbase: `${ms(first.large.p50Ms)} / ${ms(deep.large.p50Ms)} ms`,
        baseline: `${ms(first.small.p50Ms)} / ${ms(deep.small.p50Ms)} ms (${result.small} APIs)`,
        ratio: queryRatios.map((r) => r.toFixed(2)).join(' / '),
        target: `<= ${LATENCY_TARGET}x`,
        met: queryRatios.every((r) => r <= LATENCY_TARGET),
      });
      const plans = [result.plans.large.first, result.plans.large.deep];
      rows.push({
        figure: `list query plan, ${large(result)} APIs [${result.backend}]`,
        specbase: [...new Set(plans.map(planSummary))].join('; '),
        baseline: '-',
        ratio: '-',
        target: 'index, no sort, no OFFSET',
        met: plans.every(planOk),
      });
    } else {
      const figures = importFigures(result);
      const [n, , n4] = figures.sizes;
      rows.push({
        figure: `import time, 4N vs N paths (Swagger 2.0 JSON) [${result.backend}]`,
        specbase: `${ms(n4.ms)} ms (4N = ${n4.paths} paths, ${n4.mb.toFixed(1)} MB)`,
        baseline: `${ms(n.ms)} ms (N = ${n.paths} paths, ${n.mb.toFixed(1)} MB)`,
        ratio: `${figures.ratio.toFixed(2)}${figures.cpuRatio === undefined ? '' : ` (CPU ${figures.cpuRatio.toFixed(2)})`}`,
        target: `${LINEAR_MIN}-${LINEAR_MAX}x (linear)`,
        met: figures.met,
      });
    }
  }
  return rows;
}

export function reportGrowth(results: readonly GrowthResult[]): void {
  const lists = results.filter((r): r is ListGrowthResult => r.kind === 'list');
  const importResults = results.filter((r): r is ImportGrowthResult => r.kind === 'import');
  if (lists.length > 0) {
    console.log('');
    console.log(
      `List latency against account size: GET /api/:accountId?limit=${PAGE_LIMIT}, 127.0.0.1, ${ROUNDS} interleaved rounds after a warm-up. ` +
        `p50/p99: one connection per target, one request at a time, the targets taking turns (${4 * PROBE_S} s a round), over all rounds' requests. ` +
        `req/s and p50/p99 loaded: autocannon, ${CONNECTIONS} connections, ${DURATION_S} s runs, medians of the rounds (latency in whole ms)`,
    );
    console.log('');
    const rows: string[][] = [['figure', 'APIs', 'p50 ms', 'p99 ms', 'requests', 'req/s', 'p50 ms loaded', 'p99 ms loaded', 'failed']];
    for (const result of lists) {
      for (const page of ['first', 'deep'] as const) {
        for (const size of ['small', 'large'] as const) {
          const f = result[page][size];
          const where = page === 'first' ? 'first page' : `page after ${result.deepAfter[size].toLocaleString('en-US')}`;
          rows.push([`list, ${where} [${result.backend}]`, result[size].toLocaleString('en-US'), ms(f.p50Ms), ms(f.p99Ms), rate(f.requests), rate(f.reqPerSec), String(f.loadP50Ms), String(f.loadP99Ms), String(f.failures)]);
        }
      }
    }
    console.log(formatTable(rows));
    console.log('');
    console.log(
      `The list query alone: TypeOrmApiRepository.list without a read cache, in the benchmark process, the four taking turns call by call ` +
        `(${4 * PROBE_S} s), each call timed`,
    );
    console.log('');
    const queryRows: string[][] = [['figure', 'APIs', 'p50 ms', 'p99 ms', 'calls', 'p50 / p50 at 100', 'p99 / p99 at 100']];
    for (const result of lists) {
      for (const page of ['first', 'deep'] as const) {
        for (const size of ['small', 'large'] as const) {
          const f = result.query[page][size];
          const base = result.query[page].small;
          const where = page === 'first' ? 'first page' : `page after ${result.deepAfter[size].toLocaleString('en-US')}`;
          queryRows.push([
            `list query, ${where} [${result.backend}]`,
            result[size].toLocaleString('en-US'),
            ms(f.p50Ms),
            ms(f.p99Ms),
            rate(f.calls),
            size === 'small' ? '-' : (f.p50Ms / base.p50Ms).toFixed(2),
            size === 'small' ? '-' : (f.p99Ms / base.p99Ms).toFixed(2),
          ]);
        }
      }
    }
    console.log(formatTable(queryRows));
    console.log('');
    for (const result of lists) {
      for (const verdict of listVerdicts(result)) {
        console.log(
          `[${result.backend}] ${verdict.page} page, ${large(result)} / ${result.small} APIs: p50 x${verdict.p50Ratio.toFixed(2)}, p99 x${verdict.p99Ratio.toFixed(2)} ` +
            `(target <= ${LATENCY_TARGET}: ${verdict.latencyMet ? 'met' : 'NOT met'}); req/s x${verdict.rateRatio.toFixed(2)}`,
        );
      }
      console.log(`[${result.backend}] ${loadText(result.load)}`);
      console.log(
        `[${result.backend}] seeding ${(result.large - 1).toLocaleString('en-US')} APIs took ${ms(result.seedMs)} ms; first page body ${result.firstBytes.small} B (${result.small}) / ${result.firstBytes.large} B (${large(result)})`,
      );
      for (const size of ['small', 'large'] as const) {
        for (const page of ['first', 'deep'] as const) {
          const plan = result.plans[size][page];
          console.log(`[${result.backend}] query plan, ${page} page, ${result[size].toLocaleString('en-US')} APIs: ${planSummary(plan)}`);
          for (const line of plan.lines) console.log(`    ${line}`);
        }
      }
      console.log(`[${result.backend}] the list SQL (deep page): ${result.plans.large.deep.sql}`);
    }
  }
  if (importResults.length > 0) {
    console.log('');
    console.log(
      `Import time against document size: generated Swagger 2.0 JSON, POST /api/:accountId/import (multipart), client wall time to the 201, ` +
        `median of ${IMPORT_RUNS} rounds after one warm-up import of each size. Linear when time(4N) / time(N) is ${LINEAR_MIN}-${LINEAR_MAX} ` +
        `(a fixed part makes it a little under 4; quadratic growth would give 16)`,
    );
    console.log('');
    const rows: string[][] = [['figure', 'paths', 'MB', 'median ms', 'min-max ms', 'ms per MB', 'ms per path', 'CPU ms', 'CPU ms per MB']];
    for (const result of importResults) {
      for (const size of importFigures(result).sizes) {
        rows.push([
          `import ${size.label} [${result.backend}]`,
          String(size.paths),
          size.mb.toFixed(2),
          ms(size.ms),
          `${Math.round(size.min)}-${Math.round(size.max)}`,
          ms(size.ms / size.mb),
          (size.ms / size.paths).toFixed(2),
          size.cpuMs === undefined ? '-' : ms(size.cpuMs),
          size.cpuMs === undefined ? '-' : ms(size.cpuMs / size.mb),
        ]);
      }
    }
    console.log(formatTable(rows));
    console.log('');
    for (const result of importResults) {
      const figures = importFigures(result);
      console.log(
        `[${result.backend}] time(4N) / time(N) = ${figures.ratio.toFixed(2)} (${LINEAR_MIN}-${LINEAR_MAX}: ${figures.met ? 'linear' : 'NOT linear'})` +
          `${figures.cpuRatio === undefined ? '' : `, CPU time ${figures.cpuRatio.toFixed(2)}`}; ` +
          `marginal cost ${ms(figures.slopes[0])} ms/MB from N to 2N, ${ms(figures.slopes[1])} ms/MB from 2N to 4N; ${loadText(result.load)}`,
      );
    }
  }
  console.log('');
  console.log('(a report, not a test: the exit code does not depend on the targets)');
}

// ---------------------------------------------------------------------------------------------
// `node --import tsx bench/growth.ts`

runIfMain(import.meta.url, 'growth bench', (backends) => benchGrowth(backends), reportGrowth);

