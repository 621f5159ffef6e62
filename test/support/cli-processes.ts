import type { ChildProcess } from 'node:child_process';
import { spawnTracked } from './processes.js';
import pg from 'pg';
import { BIN, ROOT } from './built-cli.js';
import { TEST_SECRETS_KEY } from './databases.js';

/*
 * The built command (`specbase serve`, `specbase worker`, one-shot commands) run as child
 * processes against a PostgreSQL schema of their own, for the multi-process e2e suites.
 */

export const postgresUrl = process.env['TEST_DATABASE_URL'] ?? '';
const requirePostgres = process.env['SPECBASE_REQUIRE_POSTGRES'] === 'true';

/**
 * Registers the suite on PostgreSQL only, as forEachDatabase does for its PostgreSQL variant:
 * skipped (with `why` in its title) without TEST_DATABASE_URL, failing when SPECBASE_REQUIRE_POSTGRES=true.
 */
export function describePostgres(title: string, why: string, body: (this: Mocha.Suite) => void): void {
  if (postgresUrl !== '') {
    describe(title, body);
  } else if (requirePostgres) {
    describe(title, () => {
      it('needs PostgreSQL: TEST_DATABASE_URL is required when SPECBASE_REQUIRE_POSTGRES=true', () => {
        throw new Error('TEST_DATABASE_URL is not set');
      });
    });
  } else {
    describe.skip(`${title} (skipped: TEST_DATABASE_URL not set; ${why})`, () => {
      it('runs several processes against PostgreSQL');
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes: every one is tracked, so a suite can stop them all after each test.

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  output(): string;
  /** Its warning and error log lines (level 40 and above), all of them, however long the output. */
  warnings(): string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Those still running; spawnTracked (test/support/processes.ts) stops them if a suite does not. */
export const children = new Set<Child>();

export function alive(child: Child): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/** Starts `specbase <args>`; its stdout and stderr are kept (the last 32-64 KB). */
export function start(name: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawnTracked(process.execPath, [BIN, ...args], { cwd: ROOT, env });
  let output = '';
  const warnings: string[] = [];
  const keep = (chunk: Buffer): void => {
    const text = chunk.toString();
    output += text;
    if (output.length > 64_000) output = output.slice(-32_000);
    for (const line of text.split('\n')) if (/"level":(4|5|6)0/.test(line)) warnings.push(line);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) =>
    proc.once('exit', (code, signal) => resolvePromise({ code, signal })),
  );
  const child: Child = { name, process: proc, output: () => output, warnings: () => warnings, exited };
  children.add(child);
  void exited.then(() => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  if (!alive(child)) return;
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** SIGKILL; resolves once it is gone. */
export async function kill(child: Child): Promise<void> {
  if (alive(child)) child.process.kill('SIGKILL');
  await child.exited;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child)));
}

/** Prints the tail of every running child's output (for a failed test). */
export function printChildren(chars = 4_000): void {
  for (const child of children) console.log(`--- output of ${child.name} (pid ${child.process.pid}):\n${child.output().slice(-chars)}`);
}

/** The child's output parsed as JSON log lines (other lines left out). */
export function logLines(child: Child): Record<string, unknown>[] {
  return child
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown> | null;
        return entry !== null && typeof entry === 'object' ? [entry] : [];
      } catch {
        return [];
      }
    });
}

/** Resolves once the child prints a JSON log line with this `msg`. */
export function logged(child: Child, msg: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const check = (): void => {
      const entry = logLines(child).find((line) => line['msg'] === msg);
      if (!entry) return;
      done();
      resolvePromise(entry);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${child.name} did not log "${msg}" within ${timeoutMs} ms:\n${child.output()}`));
    }, timeoutMs);
    const onExit = (code: number | null): void => {
      done();
      reject(new Error(`${child.name} exited with ${code} before logging "${msg}":\n${child.output()}`));
    };
    const done = (): void => {
      clearTimeout(timer);
      child.process.stdout!.off('data', check);
      child.process.stderr!.off('data', check);
      child.process.off('exit', onExit);
    };
    child.process.stdout!.on('data', check);
    child.process.stderr!.on('data', check);
    child.process.once('exit', onExit);
    check();
  });
}

/** Runs a one-shot command; resolves to its stdout parsed as JSON, or rejects with its output. */
export async function command(args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const child = start(args.slice(0, 2).join(' '), args, env);
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`specbase ${args.join(' ')} exited with ${code}:\n${child.output()}`);
  return JSON.parse(child.output().trim().split('\n').at(-1)!) as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Configuration and the database.

/** The children's environment: the caller's, minus its own Specbase settings, on `schema`. */
export function environment(schema: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Nothing of the caller's own configuration leaks into the children.
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(WEBHOOK_|DATABASE_|SQLITE_|SPECBASE_|SECRETS_|PORT$|HOST$|PUBLIC_URL$|LOG_LEVEL$|SCOPE_BASE$)/.test(key)) env[key] = value;
  }
  return {
    ...env,
    DATABASE_URL: postgresUrl,
    DATABASE_SCHEMA: schema,
    DATABASE_POOL_SIZE: '5',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SPECBASE_NO_BOOTSTRAP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...extra,
  };
}

export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await withDatabase((c) => c.query(`DROP SCHEMA IF EXISTS ${c.escapeIdentifier(schema)} CASCADE`));
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `task(0..count-1)` with at most `limit` in flight. */
export async function bounded(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
