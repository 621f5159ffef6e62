/**
 * The retention soak (issue 14, done-when 2): a Specbase server under a steady mixed load for
 * SOAK_MINUTES (default 10) with every retention period set to minutes, and the row count of each
 * table that grows with use sampled every 30 s. The load's working set is constant (a pool of
 * APIs whose specs are replaced over and over, plus APIs made and deleted at once), so whatever a
 * table keeps beyond it is history: deliveries, dispatched events, spec revisions and their
 * chunks, rate-limit counters, and the events' webhook payloads. With retention those stay flat
 * once their period has passed; without, they grow with the writes. The same-run baseline of each table is what the load wrote
 * to it (cumulative): the report gives rows kept against rows written, and the kept count at the
 * end against the count just after the warm-up (the longest period plus one cleanup interval).
 *
 *   node --import tsx bench/soak.ts            (SQLite, and PostgreSQL when BENCH_DATABASE_URL or
 *                                              TEST_DATABASE_URL is set; SOAK_MINUTES=10)
 *
 * Settings: DELIVERY_RETENTION=2m, OUTBOX_RETENTION=1m, SPEC_HISTORY_RETENTION=2m,
 * RATE_LIMIT_COUNTER_RETENTION=1m, RETENTION_INTERVAL_MS=15000. The rate-limit counters are rows
 * on PostgreSQL only (SQLite counts in the process, bounded by itself). The identity service's
 * tables are not part of it: their periods are hours and days, fixed (docs/identity.md), and
 * test/contract/identity-purge.test.ts shows them bounded with a moving clock instead.
 * A report, not a test: exits 0 whether or not the tables stay flat.
 */
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { checkInterrupted, expectStatus, formatTable, prepareBackend, runIfMain, startChild, stopChild, type Backend, eachBackend, positiveIntegerFromEnv } from './common.js';

const SAMPLE_EVERY_MS = 30_000;
const TABLES = ['webhook_deliveries', 'webhook_payloads', 'outbox_events', 'api_revisions', 'spec_chunks', 'rate_limits', 'apis'] as const;
type Table = (typeof TABLES)[number];
const CLIENTS = 4;
const POOL = 20;
const RETENTION = { DELIVERY_RETENTION: '2m', OUTBOX_RETENTION: '1m', SPEC_HISTORY_RETENTION: '2m', RATE_LIMIT_COUNTER_RETENTION: '1m', RETENTION_INTERVAL_MS: '15000' };
/**
 * When each table must be flat: its period (for a counter, its window of 5 min, the password
 * limits', plus the period after it) plus a cleanup interval plus a sample.
 */
const SETTLE_MS = 15_000 + SAMPLE_EVERY_MS;
const WARM_UP_MS: Record<Table, number> = {
  webhook_deliveries: 2 * 60_000 + SETTLE_MS,
  webhook_payloads: 2 * 60_000 + SETTLE_MS,
  outbox_events: 60_000 + SETTLE_MS,
  api_revisions: 2 * 60_000 + SETTLE_MS,
  spec_chunks: 2 * 60_000 + SETTLE_MS,
  rate_limits: 6 * 60_000 + SETTLE_MS,
  apis: SETTLE_MS,
};


export interface Sample {
  readonly atS: number;
  readonly rows: Record<Table, number>;
  readonly written: Record<Table, number>;
}

export interface SoakResult {
  readonly backend: string;
  readonly samples: readonly Sample[];
}

const swagger = (title: string, version: number) =>
  JSON.stringify({ swagger: '2.0', info: { title, version: `1.${version}.0` }, paths: { [`/items/v${version % 7}`]: { get: { responses: { 200: { description: `ok ${version}` } } } }, '/health': { get: { responses: { 200: { description: 'up' } } } } }, 'x-pad': `${version} `.repeat(2_000) });

async function soak(backend: Backend): Promise<SoakResult> {
  const minutes = positiveIntegerFromEnv('SOAK_MINUTES', 10);
  const prepared = await prepareBackend(backend, 'specbase-soak');
  // The receiver: every delivery answered 204.
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const server = await startChild('serve-specbase.ts', { ...prepared.specbaseEnv, ...RETENTION, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_API: '0', RATE_LIMIT_PASSWORD_IP: '1000000' }, [], true);
  const count = counter(backend, prepared.schema, prepared.specbaseEnv['BENCH_SQLITE_PATH']);
  try {
    const { url } = server;
    const auth = { Authorization: `Bearer ${server.ready.token!}`, 'Content-Type': 'application/json' };
    const account = server.ready.accountId!;
    const written: Record<Table, number> = { webhook_deliveries: 0, webhook_payloads: 0, outbox_events: 0, api_revisions: 0, spec_chunks: 0, rate_limits: 0, apis: 0 };
    const event = () => {
      written.outbox_events += 1;
      written.webhook_deliveries += 1;
      // One webhook: a payload for each event, as for each delivery.
      written.webhook_payloads += 1;
    };
    await expectStatus(await fetch(`${url}/webhooks/${account}`, { method: 'POST', headers: auth, body: JSON.stringify({ targetUrl: target, events: ['api.created', 'api.updated', 'api.deleted'], active: true }) }), 201, 'webhook');
    const pool: string[] = [];
    for (let i = 0; i < POOL; i++) {
      const created = JSON.parse(await expectStatus(await fetch(`${url}/api/${account}`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Pool ${i}`, nickname: `pool-${i}` }) }), 201, 'pool API')) as { id: string };
      pool.push(created.id);
      written.apis += 1;
      event();
    }
    const started = Date.now();
    const endAt = started + minutes * 60_000;
    let n = 0;
    const client = async (): Promise<void> => {
      while (Date.now() < endAt) {
        checkInterrupted();
        const i = ++n;
        // A spec replaced: a revision (and new chunks) per update, an api.updated each.
        const api = pool[i % POOL]!;
        await expectStatus(await fetch(`${url}/api/${account}/${api}/spec`, { method: 'PUT', headers: auth, body: swagger(`Pool ${i % POOL}`, i) }), 200, 'spec update');
        written.api_revisions += 1;
        event();
        // An API made and deleted: two events, nothing kept but their log.
        const made = JSON.parse(await expectStatus(await fetch(`${url}/api/${account}`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `Tmp ${i}`, nickname: `tmp-${i}` }) }), 201, 'temporary API')) as { id: string };
        written.apis += 1;
        event();
        await expectStatus(await fetch(`${url}/api/${account}?limit=20`, { headers: auth }), 200, 'list');
        await expectStatus(await fetch(`${url}/api/${account}/${made.id}`, { method: 'DELETE', headers: auth }), 204, 'delete');
        event();
        // A wrong password for an address never seen: a rate-limit counter per address.
        await fetch(`${url}/user/tokens`, { headers: { Authorization: `Basic ${Buffer.from(`nobody-${i}@example.com:wrong password`).toString('base64')}` } }).then((r) => r.arrayBuffer());
        written.rate_limits += 1;
      }
    };
    const samples: Sample[] = [];
    const sample = async (): Promise<void> => {
      const s: Sample = { atS: Math.round((Date.now() - started) / 1000), rows: await count(), written: { ...written } };
      samples.push(s);
      console.log(`[${backend.name}] ${s.atS} s: ${TABLES.map((t) => `${t} ${s.rows[t]} of ${s.written[t]}`).join(', ')}`);
    };
    const sampling = (async () => {
      while (Date.now() + SAMPLE_EVERY_MS <= endAt) {
        await sample();
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      }
    })();
    await Promise.all([...Array.from({ length: CLIENTS }, client), sampling]);
    await sample();
    return { backend: backend.name, samples };
  } finally {
    await stopChild(server.child);
    await new Promise((resolve) => receiver.close(resolve));
    await prepared.cleanup();
  }
}

/** Counts each table's rows straight from the database the server uses. */
function counter(backend: Backend, schema: string | undefined, sqlitePath: string | undefined): () => Promise<Record<Table, number>> {
  if (backend.databaseUrl === undefined) {
    return async () => {
      const db = new Database(sqlitePath ?? join('.', 'missing'), { readonly: true, fileMustExist: true });
      try {
        return Object.fromEntries(TABLES.map((t) => [t, Number(db.prepare(`SELECT count(*) AS n FROM "${t}"`).pluck().get())])) as Record<Table, number>;
      } finally {
        db.close();
      }
    };
  }
  return async () => {
    const client = new pg.Client({ connectionString: backend.databaseUrl });
    await client.connect();
    try {
      const rows: Partial<Record<Table, number>> = {};
      for (const t of TABLES) rows[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${client.escapeIdentifier(schema!)}.${client.escapeIdentifier(t)}`)).rows[0]!.n);
      return rows as Record<Table, number>;
    } finally {
      await client.end();
    }
  };
}

/** How long each table keeps a row at most: its period plus one cleanup interval (a counter: its 5-min window too). */
const KEPT_FOR_MS: Record<Table, number> = {
  webhook_deliveries: 2 * 60_000 + 15_000,
  webhook_payloads: 2 * 60_000 + 15_000,
  outbox_events: 60_000 + 15_000,
  api_revisions: 2 * 60_000 + 15_000,
  spec_chunks: 2 * 60_000 + 15_000,
  rate_limits: 6 * 60_000 + 15_000,
  apis: 0,
};

/**
 * Per table: the rows once it has settled and at the end, and the rows kept at the end against
 * what the load wrote to it within the last period plus one cleanup interval: at most about 1
 * when nothing older is kept, whatever the load's rate did meanwhile. (The rows at the end against
 * the rows at settling also move with the rate: the load runs faster or slower with the machine.)
 */
export function report(results: readonly SoakResult[]): void {
  for (const { backend, samples } of results) {
    const last = samples.at(-1);
    console.log(`\n${backend}: ${samples.length} samples over ${last?.atS ?? 0} s, retention ${Object.entries(RETENTION).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    if (!last) continue;
    const writtenAt = (t: Table, atMs: number): number => [...samples].reverse().find((s) => s.atS * 1000 <= atMs)?.written[t] ?? 0;
    const rows = [['table', 'settled at', 'rows then', `rows at ${last.atS} s`, 'written in all', 'written in the last period', 'kept / those', 'bounded (kept / those <= 1.1)']];
    for (const t of TABLES) {
      if (t === 'rate_limits' && backend === 'SQLite') {
        rows.push([t, '-', '-', '-', String(last.written[t]), '-', '-', 'n/a: counted in the process']);
        continue;
      }
      const settled = samples.find((s) => s.atS * 1000 >= WARM_UP_MS[t]);
      if (!settled || settled === last) {
        rows.push([t, `${WARM_UP_MS[t] / 1000} s`, '-', String(last.rows[t]), String(last.written[t]), '-', '-', 'too short to judge']);
        continue;
      }
      if (t === 'spec_chunks' || t === 'apis') {
        // Chunks follow revisions (about one new chunk per revision here); APIs are the working set.
        rows.push([t, `${settled.atS} s`, String(settled.rows[t]), String(last.rows[t]), t === 'apis' ? String(last.written[t]) : '-', '-', '-', t === 'apis' ? `working set: ${POOL} + in flight` : `with api_revisions`]);
        continue;
      }
      const recent = last.written[t] - writtenAt(t, last.atS * 1000 - KEPT_FOR_MS[t]);
      const ratio = recent === 0 ? 0 : last.rows[t] / recent;
      rows.push([t, `${settled.atS} s`, String(settled.rows[t]), String(last.rows[t]), String(last.written[t]), String(recent), ratio.toFixed(2), ratio <= 1.1 ? 'yes' : 'NO']);
    }
    console.log(formatTable(rows));
  }
}

runIfMain(import.meta.url, 'soak', (backends) => eachBackend(backends, 'soak', soak), report);
