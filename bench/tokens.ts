/**
 * Figure 2 of `npm run bench`: token checking. A hot Bearer token must not cost a database read
 * per request, and a token revoked elsewhere must stop working within the documented bound
 * (TOKEN_CACHE_REVALIDATE_MS, 2 s by default).
 *
 * - Database reads per request: autocannon on an authenticated route (`GET /api/<account_id>`,
 *   an empty account) with the demo token, 3 runs of 5 s; the server's own counter
 *   `specbase_token_authentications_total{source}` read from /metrics before and after gives the
 *   share of requests that read the database. Target: below 0.01 (no read per request).
 *   Same-run baseline: the same server with the cache off (TOKEN_CACHE_SIZE=0), req/s side by side.
 * - Revocation bound: three fresh tokens, each used (so cached), then its row deleted straight in
 *   the database, as another instance's revocation would; requests every 10 ms until the first
 *   401. Target: every one within TOKEN_CACHE_REVALIDATE_MS.
 *
 *   node --import tsx bench/tokens.ts    (SQLite; also PostgreSQL with BENCH_DATABASE_URL or TEST_DATABASE_URL)
 */
import { join } from 'node:path';
import type autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  type Backend,
  cannon,
  checkInterrupted,
  eachBackend,
  expectStatus,
  formatTable,
  median,
  prepareBackend,
  type PreparedBackend,
  profileOptions,
  rate,
  runIfMain,
  type ServerChild,
  startChild,
  stopChild,
  type SummaryRow,
  sized,
} from './common.js';

const CONNECTIONS = 16;
const DURATION_S = sized(5, 2);
const ROUNDS = sized(3, 1);
const REVOCATIONS = sized(3, 1);
/** The server's default TOKEN_CACHE_REVALIDATE_MS (src/application/auth/token-cache.ts). */
const BOUND_MS = 2_000;
const TARGET_READS_PER_REQUEST = 0.01;

async function authentications(url: string): Promise<{ cache: number; database: number }> {
  const text = await expectStatus(await fetch(`${url}/metrics`), 200, 'GET /metrics');
  const read = (source: string): number => Number(new RegExp(`^specbase_token_authentications_total\\{source="${source}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { cache: read('cache'), database: read('database') };
}

export interface TokenResult {
  readonly backend: string;
  readonly cachedReqPerSec: number;
  readonly uncachedReqPerSec: number;
  readonly cachedP99Ms: number;
  readonly requests: number;
  readonly databaseReads: number;
  readonly failures: number;
  /** Milliseconds from each direct deletion to the first 401. */
  readonly revokedAfterMs: readonly number[];
}

interface LoadFigures {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly databaseReads: number;
  readonly failures: number;
}

/** Loads `GET /api/<account_id>` with the demo token; the server's own counters say how it authenticated. */
async function loadAuthenticated(server: ServerChild, label: string): Promise<LoadFigures> {
  const { token, accountId } = server.ready;
  if (token === undefined || accountId === undefined) throw new Error('serve-specbase.ts reported no demo token');
  const headers = { authorization: `Bearer ${token}` };
  const url = `${server.url}/api/${accountId}`;
  await expectStatus(await fetch(url, { headers }), 200, `GET /api/${accountId}`);
  const before = await authentications(server.url);
  const runs: autocannon.Result[] = [];
  for (let round = 1; round <= ROUNDS; round++) runs.push(await cannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers }));
  const after = await authentications(server.url);
  const requests = after.cache + after.database - before.cache - before.database;
  const databaseReads = after.database - before.database;
  console.log(`[tokens] ${label}: ${runs.map((r) => Math.round(r.requests.average)).join(', ')} req/s; ${databaseReads} database reads in ${requests} authentications`);
  return {
    reqPerSec: median(runs.map((r) => r.requests.average)),
    p99Ms: median(runs.map((r) => r.latency.p99)),
    requests,
    databaseReads,
    failures: runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

/** The baseline: the same server with the cache off, on a fresh database of its own (each bootstraps its demo token). */
async function loadWithoutCache(backend: Backend): Promise<LoadFigures> {
  const prepared = await prepareBackend(backend, 'specbase-tokens-off');
  try {
    const server = await startChild('serve-specbase.ts', { ...prepared.specbaseEnv, TOKEN_CACHE_SIZE: '0' }, [], true);
    try {
      return await loadAuthenticated(server, `${backend.name}, cache off`);
    } finally {
      await stopChild(server.child);
    }
  } finally {
    await prepared.cleanup();
  }
}

/** Creates tokens, uses each, deletes its row from outside and times the first 401. */
async function timeRevocations(backend: Backend, server: ServerChild, prepared: PreparedBackend): Promise<number[]> {
  const basic = `Basic ${Buffer.from(`${server.ready.email ?? ''}:${server.ready.password ?? ''}`).toString('base64')}`;
  const revokedAfterMs: number[] = [];
  const remove = await directDelete(backend, prepared);
  try {
    for (let i = 1; i <= REVOCATIONS; i++) {
      const created = await fetch(`${server.url}/user/tokens`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `revoked ${i}`, scopes: ['api.readonly'] }),
      });
      const { id, token } = JSON.parse(await expectStatus(created, 201, 'POST /user/tokens')) as { id: string; token: string };
      const get = () => fetch(`${server.url}/api/${server.ready.accountId ?? 0}`, { headers: { authorization: `Bearer ${token}` } });
      for (let k = 0; k < 3; k++) await expectStatus(await get(), 200, 'GET with the new token');
      const deletedAt = performance.now();
      await remove(id);
      for (;;) {
        checkInterrupted();
        const response = await get();
        await response.arrayBuffer();
        if (response.status === 401) break;
        if (response.status !== 200) throw new Error(`unexpected ${response.status} while waiting for the revocation`);
        if (performance.now() - deletedAt > 10 * BOUND_MS) throw new Error('a deleted token still works after 10x the bound');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      revokedAfterMs.push(performance.now() - deletedAt);
    }
  } finally {
    await remove.close();
  }
  return revokedAfterMs;
}

async function benchBackend(backend: Backend): Promise<TokenResult> {
  const uncached = await loadWithoutCache(backend);
  const prepared = await prepareBackend(backend, 'specbase-tokens');
  try {
    const server = await startChild('serve-specbase.ts', prepared.specbaseEnv, profileOptions('tokens'), true);
    try {
      const cached = await loadAuthenticated(server, `${backend.name}, cache on`);
      const revokedAfterMs = await timeRevocations(backend, server, prepared);
      return {
        backend: backend.name,
        cachedReqPerSec: cached.reqPerSec,
        uncachedReqPerSec: uncached.reqPerSec,
        cachedP99Ms: cached.p99Ms,
        requests: cached.requests,
        databaseReads: cached.databaseReads,
        failures: cached.failures + uncached.failures,
        revokedAfterMs,
      };
    } finally {
      await stopChild(server.child);
    }
  } finally {
    await prepared.cleanup();
  }
}

/** Deletes an api_tokens row from outside the server, as another instance's revocation would. */
async function directDelete(backend: Backend, prepared: PreparedBackend): Promise<((id: string) => Promise<void>) & { close(): Promise<void> }> {
  if (backend.databaseUrl === undefined) {
    const db = new Database(prepared.specbaseEnv['BENCH_SQLITE_PATH'] ?? join(prepared.tmp, 'specbase.sqlite'));
    db.pragma('busy_timeout = 5000');
    const statement = db.prepare('DELETE FROM api_tokens WHERE id = ?');
    return Object.assign(
      async (id: string) => {
        if (statement.run(id).changes !== 1) throw new Error(`token ${id} was not deleted`);
      },
      { close: async () => void db.close() },
    );
  }
  const client = new pg.Client({ connectionString: backend.databaseUrl });
  await client.connect();
  const table = `${client.escapeIdentifier(prepared.schema ?? 'public')}.api_tokens`;
  return Object.assign(
    async (id: string) => {
      if ((await client.query(`DELETE FROM ${table} WHERE id = $1`, [id])).rowCount !== 1) throw new Error(`token ${id} was not deleted`);
    },
    { close: () => client.end() },
  );
}

export function benchTokens(backends: readonly Backend[]): Promise<{ results: TokenResult[]; failure?: Error }> {
  return eachBackend(backends, 'token bench', benchBackend);
}

export function summarizeTokens(results: readonly TokenResult[]): SummaryRow[] {
  return results.flatMap((r) => {
    const perRequest = r.databaseReads / r.requests;
    const worst = Math.max(...r.revokedAfterMs);
    return [
      {
        figure: `token check, hot token: database reads per request [${r.backend}]`,
        specbase: `${perRequest.toFixed(4)} (${r.databaseReads} in ${rate(r.requests)}); ${rate(r.cachedReqPerSec)} req/s`,
        baseline: `1 per request, ${rate(r.uncachedReqPerSec)} req/s (TOKEN_CACHE_SIZE=0)`,
        ratio: (r.cachedReqPerSec / r.uncachedReqPerSec).toFixed(2),
        target: `< ${TARGET_READS_PER_REQUEST} reads/request`,
        met: r.failures === 0 && perRequest < TARGET_READS_PER_REQUEST,
      },
      {
        figure: `token revoked elsewhere, refused after [${r.backend}]`,
        specbase: `${r.revokedAfterMs.map((ms) => Math.round(ms)).join(', ')} ms`,
        baseline: '-',
        ratio: '-',
        target: `<= ${BOUND_MS} ms (TOKEN_CACHE_REVALIDATE_MS)`,
        met: worst <= BOUND_MS,
      },
    ];
  });
}

export function reportTokens(results: readonly TokenResult[]): void {
  const rows = summarizeTokens(results);
  console.log('');
  console.log(`Token checking: ${CONNECTIONS} connections, median of ${ROUNDS} x ${DURATION_S} s runs; revocation measured ${REVOCATIONS} times`);
  console.log(formatTable([['figure', 'Specbase', 'baseline', 'ratio', 'target', 'met'], ...rows.map((r) => [r.figure, r.specbase, r.baseline, r.ratio, r.target, r.met ? 'met' : 'NOT met'])]));
}

runIfMain(import.meta.url, 'token bench', benchTokens, reportTokens);
