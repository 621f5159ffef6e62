/**
 * `npm run bench`: Specbase's read path against a bare Koa 3 server answering a fixed JSON body.
 *
 * Target (from the issue): req/s at least 0.5x a bare Koa 3 server answering a fixed JSON body,
 * with p99 latency reported. Every server runs in its own child process (so the load generator
 * never shares an event loop with it) on 127.0.0.1. Each figure is the median of 3 interleaved
 * 5 s autocannon runs (16 connections) after a 1 s warm-up. Runs on SQLite always, and a second
 * time on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a throw-away schema).
 *
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each Specbase child into <dir> (when it stops).
 *
 * A report, not a test: exits 0 whether or not the target is met; non-zero only when something
 * crashed (or was interrupted).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const CONNECTIONS = 16;
const DURATION_S = 5;
const WARMUP_S = 1;
const ROUNDS = 3;
const SEEDED_APIS = 20;
const TARGET_RATIO = 0.5;
const CHILD_START_TIMEOUT_MS = 60_000;
const LOCAL = /^http:\/\/127\.0\.0\.1:[0-9]+$/;

// ---------------------------------------------------------------------------------------------
// Child processes

const children = new Set<ChildProcess>();

interface ReadyMessage {
  readonly type: 'ready';
  readonly url: string;
  readonly token?: string;
  readonly accountId?: number;
}

function isReadyMessage(message: unknown): message is ReadyMessage {
  const m = message as Partial<ReadyMessage> | null;
  return typeof m === 'object' && m !== null && m.type === 'ready' && typeof m.url === 'string';
}

/** Forks `bench/<script>` under `node --import tsx` and waits for its `ready` message. */
function startChild(script: string, env: NodeJS.ProcessEnv, nodeOptions: readonly string[] = []): Promise<{ child: ChildProcess; ready: ReadyMessage }> {
  const child = fork(join(BENCH_DIR, script), [], {
    cwd: ROOT,
    env,
    execArgv: [...nodeOptions, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not report ready within ${CHILD_START_TIMEOUT_MS} ms`)), CHILD_START_TIMEOUT_MS);
    const onMessage = (message: unknown): void => {
      if (!isReadyMessage(message)) return;
      cleanup();
      if (!LOCAL.test(message.url)) reject(new Error(`${script} listens on ${message.url}, not on 127.0.0.1`));
      else resolve({ child, ready: message });
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(new Error(`${script} exited before it was ready (${signal ?? `exit code ${code}`})`));
    const onError = (error: Error): void => fail(error);
    function cleanup(): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    }
    function fail(error: Error): void {
      cleanup();
      reject(error);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the child has exited. */
async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

// ---------------------------------------------------------------------------------------------
// Load

let interrupted = false;
let running: autocannon.Instance | undefined;

class Interrupted extends Error {}

function checkInterrupted(): void {
  if (interrupted) throw new Interrupted('interrupted');
}

function cannon(url: string, headers: Record<string, string>, duration: number): Promise<autocannon.Result> {
  checkInterrupted();
  return new Promise((resolve, reject) => {
    running = autocannon({ url, connections: CONNECTIONS, duration, headers }, (error: unknown, result: autocannon.Result) => {
      running = undefined;
      if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
      else resolve(result);
    });
  });
}

interface Run {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  /** Non-2xx responses, connection errors and timeouts: a run with any is not a valid figure. */
  readonly failures: number;
}

interface Target {
  readonly key: 'list' | 'single' | 'koa' | 'http';
  readonly label: string;
  readonly url: string;
  readonly runs: Run[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface Figure {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  readonly min: number;
  readonly max: number;
  readonly failures: number;
}

function figure(target: Target): Figure {
  const rates = target.runs.map((r) => r.reqPerSec);
  return {
    reqPerSec: median(rates),
    p99Ms: median(target.runs.map((r) => r.p99Ms)),
    min: Math.min(...rates),
    max: Math.max(...rates),
    failures: target.runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// One backend

interface Backend {
  readonly name: string;
  /** PostgreSQL only. */
  readonly databaseUrl?: string;
}

interface BackendResult {
  readonly backend: string;
  readonly bodyBytes: number;
  readonly list: Figure;
  readonly single: Figure;
  readonly koa: Figure;
  readonly http: Figure;
}

async function expectStatus(response: Response, status: number, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${text.slice(0, 500)}`);
  return text;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${client.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

async function benchBackend(backend: Backend): Promise<BackendResult> {
  const tmp = await mkdtemp(join(tmpdir(), 'specbase-bench-'));
  const schema = backend.databaseUrl === undefined ? undefined : `bench_${randomBytes(6).toString('hex')}`;
  const started = new Set<ChildProcess>();
  try {
    const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    const specbaseEnv: NodeJS.ProcessEnv =
      backend.databaseUrl === undefined
        ? { ...baseEnv, DATABASE_URL: '', DATABASE_SCHEMA: '', BENCH_SQLITE_PATH: join(tmp, 'specbase.sqlite') }
        : { ...baseEnv, DATABASE_URL: backend.databaseUrl, DATABASE_SCHEMA: schema };
    const profileDir = process.env['BENCH_CPU_PROF'];
    const specbase = await startChild('serve-specbase.ts', specbaseEnv, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    started.add(specbase.child);
    const { url, token, accountId } = specbase.ready;
    if (token === undefined || accountId === undefined) throw new Error('serve-specbase.ts reported no demo token');
    const headers = { authorization: `Bearer ${token}` };
    console.log(`[${backend.name}] Specbase at ${url}${schema ? ` (schema ${schema})` : ''}; seeding ${SEEDED_APIS} APIs`);

    for (let i = 1; i <= SEEDED_APIS; i++) {
      checkInterrupted();
      const response = await fetch(`${url}/api/${accountId}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Benchmark API ${i}`, nickname: `bench-api-${String(i).padStart(2, '0')}` }),
      });
      await expectStatus(response, 201, `POST /api/${accountId} #${i}`);
    }

    const listUrl = `${url}/api/${accountId}`;
    const listBody = await expectStatus(await fetch(listUrl, { headers }), 200, `GET /api/${accountId}`);
    const items = (JSON.parse(listBody) as { items?: { id?: unknown }[] }).items ?? [];
    if (items.length !== SEEDED_APIS) throw new Error(`GET /api/${accountId} listed ${items.length} APIs, expected ${SEEDED_APIS}`);
    const apiId = items[SEEDED_APIS / 2]?.id;
    if (typeof apiId !== 'string') throw new Error('the list has no API id');
    const singleUrl = `${url}/api/${accountId}/${apiId}`;
    const singleBody = await expectStatus(await fetch(singleUrl, { headers }), 200, `GET /api/${accountId}/${apiId}`);

    const bodyFile = join(tmp, 'body.json');
    await writeFile(bodyFile, listBody);
    const baselineEnv = { ...baseEnv, BENCH_BODY_FILE: bodyFile };
    const koa = await startChild('serve-baseline-koa.ts', baselineEnv);
    started.add(koa.child);
    const http = await startChild('serve-baseline-http.ts', baselineEnv);
    started.add(http.child);
    for (const [name, baselineUrl] of [['bare Koa', koa.ready.url], ['bare node:http', http.ready.url]] as const) {
      const text = await expectStatus(await fetch(baselineUrl, { headers }), 200, name);
      if (text !== listBody) throw new Error(`${name} does not answer the captured list body`);
    }
    const bodyBytes = Buffer.byteLength(listBody);
    console.log(
      `[${backend.name}] list body ${bodyBytes} B, single-API body ${Buffer.byteLength(singleBody)} B; ` +
        `baselines at ${koa.ready.url} (Koa), ${http.ready.url} (node:http)`,
    );

    const targets: Target[] = [
      { key: 'list', label: 'Specbase list', url: listUrl, runs: [] },
      { key: 'single', label: 'Specbase single', url: singleUrl, runs: [] },
      { key: 'koa', label: 'bare Koa', url: koa.ready.url, runs: [] },
      { key: 'http', label: 'bare node:http', url: http.ready.url, runs: [] },
    ];
    for (const target of targets) {
      const warm = await cannon(target.url, headers, WARMUP_S);
      const failures = warm.non2xx + warm.errors + warm.timeouts;
      if (failures > 0) console.log(`[${backend.name}] warm-up ${target.label}: ${failures} failed requests`);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const line: string[] = [];
      for (const target of targets) {
        const result = await cannon(target.url, headers, DURATION_S);
        const run: Run = { reqPerSec: result.requests.average, p99Ms: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
        target.runs.push(run);
        line.push(`${target.label} ${Math.round(run.reqPerSec)} req/s p99 ${run.p99Ms} ms${run.failures ? ` (${run.failures} FAILED)` : ''}`);
      }
      console.log(`[${backend.name}] round ${round}/${ROUNDS}: ${line.join('; ')}`);
    }

    const byKey = (key: Target['key']): Figure => figure(targets.find((t) => t.key === key)!);
    return { backend: backend.name, bodyBytes, list: byKey('list'), single: byKey('single'), koa: byKey('koa'), http: byKey('http') };
  } finally {
    await Promise.all([...started].map((child) => stopChild(child)));
    if (schema !== undefined && backend.databaseUrl !== undefined) {
      try {
        await dropSchema(backend.databaseUrl, schema);
      } catch (error) {
        console.error(`[${backend.name}] could not drop schema ${schema}:`, error);
        process.exitCode = 1;
      }
    }
    await rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]): string => row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

const rate = (value: number): string => Math.round(value).toLocaleString('en-US');

function report(results: readonly BackendResult[]): void {
  const rows: string[][] = [['figure', 'Specbase req/s', 'baseline req/s (bare Koa)', 'ratio', 'p99 ms', 'target']];
  const verdicts: string[] = [];
  for (const result of results) {
    for (const [name, fig] of [
      ['list, page of 20 (GET /api/:accountId)', result.list],
      ['single API (GET /api/:accountId/:apiId)', result.single],
    ] as const) {
      const ratio = fig.reqPerSec / result.koa.reqPerSec;
      const valid = fig.failures === 0 && result.koa.failures === 0;
      const met = valid && ratio >= TARGET_RATIO;
      const verdict = `ratio >= ${TARGET_RATIO}: ${met ? 'met' : 'NOT met'}${valid ? '' : ' (failed requests)'}`;
      rows.push([`${name} [${result.backend}]`, rate(fig.reqPerSec), rate(result.koa.reqPerSec), ratio.toFixed(2), String(fig.p99Ms), verdict]);
      verdicts.push(`${result.backend} ${name.split(' (')[0]}: ${met ? 'met' : 'NOT met'}`);
    }
  }
  console.log('');
  console.log(
    `Specbase vs bare Koa 3 (fixed JSON body), 127.0.0.1, ${CONNECTIONS} connections, median of ${ROUNDS} x ${DURATION_S} s runs ` +
      `(interleaved, ${WARMUP_S} s warm-up each)`,
  );
  console.log('');
  console.log(formatTable(rows));
  console.log('');
  for (const result of results) {
    const spread = (f: Figure): string => `${rate(f.min)}-${rate(f.max)}`;
    console.log(
      `[${result.backend}] bare Koa 3: ${rate(result.koa.reqPerSec)} req/s, p99 ${result.koa.p99Ms} ms; ` +
        `bare node:http (reference): ${rate(result.http.reqPerSec)} req/s, p99 ${result.http.p99Ms} ms ` +
        `(Koa = ${(result.koa.reqPerSec / result.http.reqPerSec).toFixed(2)}x node:http); body ${result.bodyBytes} B`,
    );
    console.log(
      `[${result.backend}] run-to-run req/s range: list ${spread(result.list)}, single ${spread(result.single)}, ` +
        `Koa ${spread(result.koa)}, node:http ${spread(result.http)}`,
    );
    const failures = result.list.failures + result.single.failures + result.koa.failures + result.http.failures;
    if (failures > 0) console.log(`[${result.backend}] WARNING: ${failures} non-2xx responses, errors or timeouts during measured runs`);
  }
  console.log('');
  console.log(`Target (req/s >= ${TARGET_RATIO}x bare Koa 3): ${verdicts.join('; ')}`);
  console.log('(a report, not a test: the exit code does not depend on the target)');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${signal}: stopping the servers`);
      running?.stop();
    });
  }

  const backends: Backend[] = [{ name: 'SQLite' }];
  const databaseUrl = process.env['BENCH_DATABASE_URL'] || process.env['TEST_DATABASE_URL'] || '';
  if (databaseUrl !== '') backends.push({ name: 'PostgreSQL', databaseUrl });
  else console.log('(set BENCH_DATABASE_URL or TEST_DATABASE_URL to also run on PostgreSQL)');

  const results: BackendResult[] = [];
  let failure: Error | undefined;
  try {
    for (const backend of backends) results.push(await benchBackend(backend));
  } catch (error) {
    failure = error instanceof Error ? error : new Error('bench failed', { cause: error });
  } finally {
    running?.stop();
    await stopAllChildren();
  }
  if (results.length > 0) report(results);
  if (failure !== undefined) throw failure;
}

main().catch((error: unknown) => {
  if (error instanceof Interrupted || interrupted) {
    process.exitCode = 130;
    return;
  }
  console.error('bench failed:', error);
  process.exitCode = 1;
});
