/**
 * What the benchmarks (bench/run.ts, bench/import.ts) share: child processes, interruption,
 * backends (SQLite, and PostgreSQL in a throw-away schema), medians and the report table.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import pg from 'pg';

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const CHILD_START_TIMEOUT_MS = 60_000;
const LOCAL = /^http:\/\/127\.0\.0\.1:[0-9]+$/;

// ---------------------------------------------------------------------------------------------
// Interruption

export class Interrupted extends Error {}

let interrupted = false;
const interruptHooks = new Set<() => void>();

export function isInterrupted(): boolean {
  return interrupted;
}

export function checkInterrupted(): void {
  if (interrupted) throw new Interrupted('interrupted');
}

/** Runs `hook` on SIGINT/SIGTERM (e.g. to stop a load generator); returns the unregistration. */
export function onInterrupt(hook: () => void): () => void {
  interruptHooks.add(hook);
  return () => interruptHooks.delete(hook);
}

export function installSignalHandlers(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${signal}: stopping the servers`);
      for (const hook of interruptHooks) hook();
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes

const children = new Set<ChildProcess>();

export interface ReadyMessage {
  readonly type: 'ready';
  readonly url?: string;
  readonly token?: string;
  readonly accountId?: number;
  /** The demo user's sign-in (serve-specbase.ts), for benchmarks that need HTTP Basic. */
  readonly email?: string;
  readonly password?: string;
}

function isReadyMessage(message: unknown): message is ReadyMessage {
  const m = message as Partial<ReadyMessage> | null;
  return typeof m === 'object' && m !== null && m.type === 'ready' && (m.url === undefined || typeof m.url === 'string');
}

export interface StartedChild {
  readonly child: ChildProcess;
  readonly ready: ReadyMessage;
}

export interface ServerChild extends StartedChild {
  readonly url: string;
}

/** The newest modification time of a file under `dir`. */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** What `npm start` runs: src/ compiled by tsc and bundled by scripts/bundle.mjs. */
export const BUILT_CLI = join(ROOT, 'dist', 'main', 'cli.bundle.js');

let built: Promise<string> | undefined;

/**
 * Runs `npm run build` when dist/ is missing or older than src/ (once per process), then bundles
 * bench/serve-specbase.ts as the command is bundled, with its import of src/index.js taken from
 * dist/index.js; returns the bundle's path. So every Specbase server a benchmark measures runs
 * the shipped code the way it ships: compiled, bundled, without tsx's loader (which compiles each
 * module at load and keeps source maps: 55 MB more resident memory at rest).
 */
export function builtServer(): Promise<string> {
  return (built ??= (async () => {
    if (!existsSync(BUILT_CLI) || statSync(BUILT_CLI).mtimeMs < newestMtime(join(ROOT, 'src'))) {
      console.log('[bench] dist/ is missing or older than src/: npm run build');
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const { bundleOptions, makeAscii } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)) as {
      bundleOptions: (entry: string, outfile: string) => object;
      makeAscii: (file: string) => Promise<void>;
    };
    const outfile = join(ROOT, 'dist', 'main', 'serve-specbase.bench.js');
    const fromDist = { name: 'src-from-dist', setup: (b: { onResolve: (o: { filter: RegExp }, f: () => { path: string }) => void }) => b.onResolve({ filter: /\/src\/index\.js$/ }, () => ({ path: join(ROOT, 'dist', 'index.js') })) };
    await build({ ...bundleOptions(join(BENCH_DIR, 'serve-specbase.ts'), outfile), sourcemap: false, legalComments: 'none', plugins: [fromDist] });
    await makeAscii(outfile);
    return outfile;
  })());
}

/**
 * Forks `bench/<script>` under `node --import tsx` (serve-specbase.ts: its bundle, see
 * builtServer) and waits for its `ready` message. With `listens`, the message must carry a
 * 127.0.0.1 url.
 */
export function startChild(script: string, env: NodeJS.ProcessEnv, nodeOptions: readonly string[], listens: true): Promise<ServerChild>;
export function startChild(script: string, env: NodeJS.ProcessEnv, nodeOptions: readonly string[], listens: false): Promise<StartedChild>;
export async function startChild(script: string, env: NodeJS.ProcessEnv, nodeOptions: readonly string[], listens: boolean): Promise<StartedChild> {
  const bundled = script === 'serve-specbase.ts';
  const child = fork(bundled ? await builtServer() : join(BENCH_DIR, script), [], {
    cwd: ROOT,
    env,
    execArgv: bundled ? [...nodeOptions] : [...nodeOptions, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not report ready within ${CHILD_START_TIMEOUT_MS} ms`)), CHILD_START_TIMEOUT_MS);
    const onMessage = (message: unknown): void => {
      if (!isReadyMessage(message)) return;
      cleanup();
      if (!listens) resolve({ child, ready: message });
      else if (message.url === undefined || !LOCAL.test(message.url)) reject(new Error(`${script} listens on ${message.url}, not on 127.0.0.1`));
      else {
        const started: ServerChild = { child, ready: message, url: message.url };
        resolve(started);
      }
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
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/**
 * `--cpu-prof` options when BENCH_CPU_PROF=<dir> is set (the profiles are written when the child
 * stops): into <dir>, or into <dir>/<subdir>. Node names each file CPU.<date>.<time>.<pid>.<tid>...;
 * the main thread is tid 0 (the tsx loader thread writes a profile of its own).
 */
export function profileOptions(subdir?: string): string[] {
  const base = process.env['BENCH_CPU_PROF'];
  if (!base) return [];
  const dir = subdir === undefined ? base : join(base, subdir);
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

// ---------------------------------------------------------------------------------------------
// Backends

export interface Backend {
  readonly name: string;
  /** PostgreSQL only. */
  readonly databaseUrl?: string;
}

/**
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL or TEST_DATABASE_URL is set.
 * BENCH_BACKENDS=sqlite or =postgresql keeps one of them (while working on one).
 */
export function backendsFromEnv(): Backend[] {
  const backends: Backend[] = [{ name: 'SQLite' }];
  const databaseUrl = process.env['BENCH_DATABASE_URL'] || process.env['TEST_DATABASE_URL'] || '';
  if (databaseUrl !== '') backends.push({ name: 'PostgreSQL', databaseUrl });
  const only = (process.env['BENCH_BACKENDS'] ?? '').toLowerCase().split(',').filter((name) => name !== '');
  if (only.length === 0) return backends;
  const kept = backends.filter((backend) => only.includes(backend.name.toLowerCase()));
  if (kept.length === 0) throw new Error(`BENCH_BACKENDS=${only.join(',')}: none of ${backends.map((b) => b.name.toLowerCase()).join(', ')}`);
  return kept;
}

export interface PreparedBackend {
  /** A fresh temporary directory, removed by `cleanup`. */
  readonly tmp: string;
  /** PostgreSQL only: the throw-away schema. */
  readonly schema: string | undefined;
  /** The environment of a serve-specbase.ts child on a fresh database. */
  readonly specbaseEnv: NodeJS.ProcessEnv;
  /** Removes the temporary directory and drops the schema (sets a failing exit code if it cannot). */
  cleanup(): Promise<void>;
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

export async function prepareBackend(backend: Backend, prefix: string): Promise<PreparedBackend> {
  const tmp = await mkdtemp(join(tmpdir(), `${prefix}-`));
  const schema = backend.databaseUrl === undefined ? undefined : `bench_${randomBytes(6).toString('hex')}`;
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  const specbaseEnv: NodeJS.ProcessEnv =
    backend.databaseUrl === undefined
      ? { ...baseEnv, DATABASE_URL: '', DATABASE_SCHEMA: '', BENCH_SQLITE_PATH: join(tmp, 'specbase.sqlite') }
      : // PostgreSQL needs an operator key for the secrets at rest: a throw-away one per run.
        { ...baseEnv, DATABASE_URL: backend.databaseUrl, DATABASE_SCHEMA: schema, SECRETS_KEY: randomBytes(32).toString('base64') };
  return {
    tmp,
    schema,
    specbaseEnv,
    async cleanup() {
      if (schema !== undefined && backend.databaseUrl !== undefined) {
        try {
          await dropSchema(backend.databaseUrl, schema);
        } catch (error) {
          console.error(`[${backend.name}] could not drop schema ${schema}:`, error);
          process.exitCode = 1;
        }
      }
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP, figures and the report

export async function expectStatus(response: Response, status: number, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${text.slice(0, 500)}`);
  return text;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]): string => row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ').trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

/**
 * Runs one benchmark on its own when its file is the script node was started with: on every
 * database configured, printing its report; exit code 130 when interrupted, 1 when it failed.
 */
export function runIfMain<R>(
  moduleUrl: string,
  label: string,
  bench: (backends: Backend[]) => Promise<{ results: R[]; failure?: Error }>,
  report: (results: R[]) => void,
): void {
  if (process.argv[1] === undefined || resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const main = async (): Promise<void> => {
    installSignalHandlers();
    const backends = backendsFromEnv();
    if (backends.length === 1) console.log('(set BENCH_DATABASE_URL or TEST_DATABASE_URL to also run on PostgreSQL)');
    const { results, failure } = await bench(backends);
    if (results.length > 0) report(results);
    if (failure !== undefined) throw failure;
  };
  main().catch((error: unknown) => {
    if (error instanceof Interrupted || isInterrupted()) {
      process.exitCode = 130;
      return;
    }
    console.error(`${label} failed:`, error);
    process.exitCode = 1;
  });
}

/**
 * One line of the table `npm run bench` ends with: every figure of every benchmark, next to its
 * same-run baseline and its target. Each benchmark module turns its results into these rows.
 */
export interface SummaryRow {
  /** What was measured, with the backend in brackets, e.g. `list, page of 20 [SQLite]`. */
  readonly figure: string;
  /** Specbase's figure with its unit, e.g. `9,812 req/s`. */
  readonly specbase: string;
  /** The baseline's figure and what it is, e.g. `19,400 req/s (bare Koa 3)`; `-` when the target is absolute. */
  readonly baseline: string;
  /** Specbase / baseline, e.g. `0.51`; `-` when the target is absolute. */
  readonly ratio: string;
  /** The target as the issue states it, e.g. `>= 0.5x` or `< 1 s`. */
  readonly target: string;
  /** Whether the target holds in this run (false also when the run had failures); `reported`: a figure shown beside another's, with no target of its own. */
  readonly met: boolean | 'reported';
}

// ---------------------------------------------------------------------------------------------
// Shared by the benchmark modules

/**
 * `npm run bench -- --quick` (or BENCH_QUICK=1): every figure once, small and short, for a
 * developer checking a change in a few minutes; its figures are rougher (one round, smaller
 * inputs) and never the ones docs/performance.md quotes.
 */
export const QUICK = process.argv.includes('--quick') || process.env['BENCH_QUICK'] === '1';

/** `full` in a real run, `quick` in a quick one. */
export const sized = (full: number, quick: number): number => (QUICK ? quick : full);

/** A positive integer from the environment variable `name`, or `fallback` when it is unset or empty. */
export function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return value;
}

/** req/s and the like, rounded, with thousands separators. */
export const rate = (value: number): string => Math.round(value).toLocaleString('en-US');

let running: autocannon.Instance | undefined;
onInterrupt(() => running?.stop());

/** One autocannon run from this process; stopped when the benchmark is interrupted. */
export function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  checkInterrupted();
  return new Promise((resolve, reject) => {
    running = autocannon(options, (error: unknown, result: autocannon.Result) => {
      running = undefined;
      if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
      else resolve(result);
    });
  });
}

/**
 * Runs `bench` on each backend in turn; returns what it measured and the error that stopped it,
 * if any (what `npm run bench` and runIfMain expect). Every child left running is stopped.
 */
export async function eachBackend<R>(backends: readonly Backend[], label: string, bench: (backend: Backend) => Promise<R>): Promise<{ results: R[]; failure?: Error }> {
  const results: R[] = [];
  try {
    for (const backend of backends) results.push(await bench(backend));
    return { results };
  } catch (error) {
    return { results, failure: error instanceof Error ? error : new Error(`${label} failed`, { cause: error }) };
  } finally {
    running?.stop();
    await stopAllChildren();
  }
}
