/**
 * `npm run bench`: every figure of docs/performance.md, each against a baseline measured in the
 * same run, ending with one table (figure, Specbase, baseline, ratio, target, met):
 * 1. the read path here, each figure against a bare Koa 3 server sending the very same body;
 * 2. token checking (bench/tokens.ts): database reads per request with a hot token, the revocation bound;
 * 3. import (bench/import.ts): import time against parse + validate alone;
 * 4. webhooks (bench/webhooks.ts): deliveries/s against a plain loop of signed POSTs, event-to-delivery latency;
 * 5. identity (bench/identity.ts): tokeninfo and userinfo against node-oidc-provider's token introspection;
 * 6. growth (bench/growth.ts): list latency with 100,000 APIs against 100, import time against document size;
 * 7. startup (bench/startup.ts): spawn to healthy on SQLite, against a bare node:http script;
 * 7. memory (bench/load.ts): RSS after BENCH_LOAD_MINUTES (default 5, 0 leaves it out) of mixed load.
 * Each module also runs alone: `node --import tsx bench/<module>.ts`.
 *
 * The read path's target (issue 15): req/s at least 0.6x a bare Koa 3 server sending the same
 * body (the list's for the list, the single API's for the single API), at 16 and at 50
 * connections, with p99 latency reported. Every server runs in its own child process (so the load
 * generator never shares an event loop with it) on 127.0.0.1. Each figure is the median of 3
 * interleaved 4 s autocannon runs after a 1 s warm-up. Runs on SQLite always, and a second
 * time on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a throw-away schema).
 *
 * For reference (no target), at 16 connections: a bare node:http server with the list body, and
 * the least Koa application doing the contract's per-request work (serve-baseline-koa-contract.ts:
 * request id, security headers, the token by its hash, rate-limit headers, ETag) at Specbase's
 * paths, which shows how much of the gap to bare Koa any application answering this contract has;
 * and bare Koa sending Specbase's whole answer, its own headers (request id, the security headers,
 * rate limit, ETag) as well as the body: what those bytes alone cost the server and the load
 * generator, which share the machine's two cores. The references run in the first round only
 * (BENCH_READ_REFERENCE_ROUNDS=3 for all three), so each is one run, not a median.
 *
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each Specbase child into <dir> (when it stops).
 * Shared helpers (child processes, backends, the table) are in bench/common.ts.
 *
 * A report, not a test: exits 0 whether or not the target is met; non-zero only when something
 * crashed (or was interrupted).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Backend,
  backendsFromEnv,
  cannon,
  checkInterrupted,
  eachBackend,
  expectStatus,
  formatTable,
  installSignalHandlers,
  Interrupted,
  isInterrupted,
  median,
  positiveIntegerFromEnv,
  prepareBackend,
  profileOptions,
  QUICK,
  rate,
  sized,
  startChild,
  stopChild,
  type SummaryRow,
} from './common.js';
import { benchImports, reportImports, summarizeImports } from './import.js';
import { benchChanges, reportChanges, summarizeChanges } from './changes.js';
import { benchGrowth, reportGrowth, summarizeGrowth } from './growth.js';
import { benchIdentity, reportIdentity, summarizeIdentity } from './identity.js';
import { benchLoad, summarizeLoad } from './load.js';
import { benchStartup, reportStartup, summarizeStartup } from './startup.js';
import { benchTokens, reportTokens, summarizeTokens } from './tokens.js';
import { benchWebhooks, reportWebhooks, summarizeWebhooks } from './webhooks.js';

/** Both the issue's loads: 16 connections (one core's worth from the other core) and 50. */
const CONNECTION_COUNTS = [16, 50] as const;
const DURATION_S = sized(4, 2);
const WARMUP_S = 1;
const ROUNDS = sized(3, 1);
/**
 * Rounds of the five references (no target): one by default, which keeps `npm run bench` under
 * 30 minutes (three took 2 more minutes for both databases); each is then one run, not a median.
 */
const REFERENCE_ROUNDS = Math.min(ROUNDS, positiveIntegerFromEnv('BENCH_READ_REFERENCE_ROUNDS', 1));
const SEEDED_APIS = 20;
const TARGET_RATIO = 0.6;
/** Headers node:http and Koa set on every answer themselves, the baselines' as Specbase's. */
const NODE_OR_KOA_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'transfer-encoding']);

// ---------------------------------------------------------------------------------------------
// Load

interface Run {
  readonly reqPerSec: number;
  readonly p99Ms: number;
  /** Non-2xx responses, connection errors and timeouts: a run with any is not a valid figure. */
  readonly failures: number;
}

/** What is measured: a Specbase read, or its same-body baseline, or the node:http reference. */
type TargetKey = 'list' | 'single' | 'koa-list' | 'koa-single' | 'http' | 'contract-list' | 'contract-single' | 'answer-list' | 'answer-single';

interface Target {
  readonly key: TargetKey;
  readonly label: string;
  readonly url: string;
  readonly connections: number;
  readonly runs: Run[];
  /** A reference without a target: measured in the first round only (BENCH_READ_REFERENCE_ROUNDS for more). */
  readonly reference?: true;
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

/** One read figure at one load: Specbase and the bare Koa 3 server sending the very same body. */
interface ReadPair {
  readonly name: string;
  readonly connections: number;
  readonly specbase: Figure;
  readonly koa: Figure;
  /** At 16 connections: the least Koa application doing the contract's per-request work (serve-baseline-koa-contract.ts), for reference. */
  readonly contract?: Figure;
  /** At 16 connections: bare Koa sending Specbase's whole answer, its headers as well as its body, for reference. */
  readonly answer?: Figure;
  readonly bodyBytes: number;
}

interface BackendResult {
  readonly backend: string;
  readonly pairs: readonly ReadPair[];
  /** The node:http reference with the list body, at 16 connections: what Koa itself costs. */
  readonly http: Figure;
  readonly koaListAt16: Figure;
}

async function benchReadBackend(backend: Backend): Promise<BackendResult> {
  const prepared = await prepareBackend(backend, 'specbase-bench');
  const { tmp, schema, specbaseEnv } = prepared;
  const started = new Set<ChildProcess>();
  try {
    const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    const specbase = await startChild('serve-specbase.ts', specbaseEnv, profileOptions(), true);
    started.add(specbase.child);
    const { url } = specbase;
    const { token, accountId } = specbase.ready;
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

    // A bare Koa 3 server per figure, sending that figure's very body: the same work but Specbase's own.
    const baseline = async (script: string, name: string, body: string): Promise<string> => {
      const file = join(tmp, `${name}.json`);
      await writeFile(file, body);
      const child = await startChild(script, { ...baseEnv, BENCH_BODY_FILE: file }, [], true);
      started.add(child.child);
      const text = await expectStatus(await fetch(child.url, { headers }), 200, name);
      if (text !== body) throw new Error(`${name} does not answer the captured body`);
      return child.url;
    };
    const koaList = await baseline('serve-baseline-koa.ts', 'koa-list', listBody);
    const koaSingle = await baseline('serve-baseline-koa.ts', 'koa-single', singleBody);
    // Bare Koa sending the whole answer: Specbase's own headers (those Node and Koa do not set) with the body.
    const wholeAnswer = async (name: string, url: string, body: string): Promise<string> => {
      const response = await fetch(url, { headers });
      if ((await expectStatus(response, 200, `${name}: GET ${url}`)) !== body) throw new Error(`${name}: ${url} answered another body than the one captured`);
      const own = [...response.headers].filter(([header]) => !NODE_OR_KOA_HEADERS.has(header));
      const file = join(tmp, `${name}.headers.json`);
      await writeFile(file, JSON.stringify(own));
      const bodyFile = join(tmp, `${name}.json`);
      await writeFile(bodyFile, body);
      const child = await startChild('serve-baseline-koa.ts', { ...baseEnv, BENCH_BODY_FILE: bodyFile, BENCH_HEADERS_FILE: file }, [], true);
      started.add(child.child);
      const check = await fetch(child.url, { headers });
      if ((await check.text()) !== body || own.some(([header, value]) => check.headers.get(header) !== value)) throw new Error(`${name} does not answer the captured headers and body`);
      return child.url;
    };
    const answerList = await wholeAnswer('answer-list', listUrl, listBody);
    const answerSingle = await wholeAnswer('answer-single', singleUrl, singleBody);
    // The least Koa application doing the contract's per-request work, at Specbase's own paths.
    const contract = async (name: string, body: string, path: string): Promise<string> => {
      const file = join(tmp, `${name}.json`);
      await writeFile(file, body);
      const child = await startChild('serve-baseline-koa-contract.ts', { ...baseEnv, BENCH_BODY_FILE: file, BENCH_TOKEN: token }, [], true);
      started.add(child.child);
      const url = `${child.url}${path}`;
      if ((await expectStatus(await fetch(url, { headers }), 200, name)) !== body) throw new Error(`${name} does not answer the captured body`);
      return url;
    };
    const contractList = await contract('contract-list', listBody, `/api/${accountId}`);
    const contractSingle = await contract('contract-single', singleBody, `/api/${accountId}/${apiId}`);
    const http = await baseline('serve-baseline-http.ts', 'http-list', listBody);
    console.log(`[${backend.name}] list body ${Buffer.byteLength(listBody)} B, single-API body ${Buffer.byteLength(singleBody)} B; baselines with the same bodies started`);

    const targets: Target[] = CONNECTION_COUNTS.flatMap((connections) => [
      { key: 'list' as const, label: `Specbase list @${connections}`, url: listUrl, connections, runs: [] },
      { key: 'koa-list' as const, label: `Koa list @${connections}`, url: koaList, connections, runs: [] },
      { key: 'single' as const, label: `Specbase single @${connections}`, url: singleUrl, connections, runs: [] },
      { key: 'koa-single' as const, label: `Koa single @${connections}`, url: koaSingle, connections, runs: [] },
    ]);
    targets.push({ reference: true, key: 'http', label: 'node:http list @16', url: http, connections: 16, runs: [] });
    targets.push({ reference: true, key: 'contract-list', label: 'Koa+contract list @16', url: contractList, connections: 16, runs: [] });
    targets.push({ reference: true, key: 'contract-single', label: 'Koa+contract single @16', url: contractSingle, connections: 16, runs: [] });
    targets.push({ reference: true, key: 'answer-list', label: 'Koa+headers list @16', url: answerList, connections: 16, runs: [] });
    targets.push({ reference: true, key: 'answer-single', label: 'Koa+headers single @16', url: answerSingle, connections: 16, runs: [] });
    for (const target of targets) {
      const warm = await cannon({ url: target.url, connections: target.connections, duration: WARMUP_S, headers });
      const failures = warm.non2xx + warm.errors + warm.timeouts;
      if (failures > 0) console.log(`[${backend.name}] warm-up ${target.label}: ${failures} failed requests`);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const line: string[] = [];
      for (const target of targets) {
        if (target.reference && round > REFERENCE_ROUNDS) continue;
        checkInterrupted();
        const result = await cannon({ url: target.url, connections: target.connections, duration: DURATION_S, headers });
        const run: Run = { reqPerSec: result.requests.average, p99Ms: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
        target.runs.push(run);
        line.push(`${target.label} ${Math.round(run.reqPerSec)}${run.failures ? ` (${run.failures} FAILED)` : ''}`);
      }
      console.log(`[${backend.name}] round ${round}/${ROUNDS} req/s: ${line.join('; ')}`);
    }

    const at = (key: TargetKey, connections: number): Figure => figure(targets.find((t) => t.key === key && t.connections === connections)!);
    const pairs = CONNECTION_COUNTS.flatMap((connections) => [
      { name: 'list, page of 20 (GET /api/:accountId)', connections, specbase: at('list', connections), koa: at('koa-list', connections), ...(connections === 16 ? { contract: at('contract-list', 16), answer: at('answer-list', 16) } : {}), bodyBytes: Buffer.byteLength(listBody) },
      { name: 'single API (GET /api/:accountId/:apiId)', connections, specbase: at('single', connections), koa: at('koa-single', connections), ...(connections === 16 ? { contract: at('contract-single', 16), answer: at('answer-single', 16) } : {}), bodyBytes: Buffer.byteLength(singleBody) },
    ]);
    return { backend: backend.name, pairs, http: at('http', 16), koaListAt16: at('koa-list', 16) };
  } finally {
    await Promise.all([...started].map((child) => stopChild(child)));
    await prepared.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const pairRatio = (pair: ReadPair): number => pair.specbase.reqPerSec / pair.koa.reqPerSec;
const pairMet = (pair: ReadPair): boolean => pair.specbase.failures === 0 && pair.koa.failures === 0 && pairRatio(pair) >= TARGET_RATIO;

function report(results: readonly BackendResult[]): void {
  const rows: string[][] = [['figure', 'Specbase req/s', 'bare Koa, same body', 'ratio', 'p99 ms', 'spread (Specbase, Koa)', 'target']];
  const verdicts: string[] = [];
  const spread = (f: Figure): string => `${rate(f.min)}-${rate(f.max)}`;
  for (const result of results) {
    for (const pair of result.pairs) {
      const valid = pair.specbase.failures === 0 && pair.koa.failures === 0;
      rows.push([
        `${pair.name} @${pair.connections} [${result.backend}]`,
        rate(pair.specbase.reqPerSec),
        rate(pair.koa.reqPerSec),
        pairRatio(pair).toFixed(2),
        String(pair.specbase.p99Ms),
        `${spread(pair.specbase)}, ${spread(pair.koa)}`,
        `>= ${TARGET_RATIO}: ${pairMet(pair) ? 'met' : 'NOT met'}${valid ? '' : ' (failed requests)'}`,
      ]);
      verdicts.push(`${result.backend} ${pair.name.split(' (')[0]} @${pair.connections}: ${pairMet(pair) ? 'met' : 'NOT met'}`);
    }
  }
  console.log('');
  console.log(`Specbase vs a bare Koa 3 server sending the same body, 127.0.0.1, median of ${ROUNDS} x ${DURATION_S} s runs (interleaved, ${WARMUP_S} s warm-up each)`);
  console.log('');
  console.log(formatTable(rows));
  console.log('');
  if (REFERENCE_ROUNDS < ROUNDS) console.log(`(the references below: ${REFERENCE_ROUNDS === 1 ? 'one run each, in the first round' : `the first ${REFERENCE_ROUNDS} rounds`}; BENCH_READ_REFERENCE_ROUNDS=${ROUNDS} for every round)`);
  for (const result of results) {
    console.log(
      `[${result.backend}] reference: bare node:http with the list body ${rate(result.http.reqPerSec)} req/s at 16 connections ` +
        `(Koa = ${(result.koaListAt16.reqPerSec / result.http.reqPerSec).toFixed(2)}x node:http)`,
    );
    for (const pair of result.pairs) {
      if (pair.contract === undefined) continue;
      console.log(
        `[${result.backend}] reference: ${pair.name.split(' (')[0]} @16 from the least Koa app doing the contract's per-request work (request id, security headers, ` +
          `token by hash, rate-limit headers, ETag) ${rate(pair.contract.reqPerSec)} req/s: ${(pair.contract.reqPerSec / pair.koa.reqPerSec).toFixed(2)}x bare Koa; ` +
          `Specbase ${(pair.specbase.reqPerSec / pair.contract.reqPerSec).toFixed(2)}x of it`,
      );
    }
    for (const pair of result.pairs) {
      if (pair.answer === undefined) continue;
      console.log(
        `[${result.backend}] reference: ${pair.name.split(' (')[0]} @16 from bare Koa sending Specbase's whole answer (its headers too) ` +
          `${rate(pair.answer.reqPerSec)} req/s: ${(pair.answer.reqPerSec / pair.koa.reqPerSec).toFixed(2)}x bare Koa; Specbase ${(pair.specbase.reqPerSec / pair.answer.reqPerSec).toFixed(2)}x of it`,
      );
    }
    const failures = result.pairs.reduce((sum, p) => sum + p.specbase.failures + p.koa.failures + (p.contract?.failures ?? 0) + (p.answer?.failures ?? 0), 0) + result.http.failures;
    if (failures > 0) console.log(`[${result.backend}] WARNING: ${failures} non-2xx responses, errors or timeouts during measured runs`);
  }
  console.log('');
  console.log(`Target (req/s >= ${TARGET_RATIO}x bare Koa 3 with the same body): ${verdicts.join('; ')}`);
  console.log('(a report, not a test: the exit code does not depend on the target)');
}

// ---------------------------------------------------------------------------------------------

export function summarizeRead(results: readonly BackendResult[]): SummaryRow[] {
  return results.flatMap((result) =>
    result.pairs.map((pair) => ({
      figure: `authenticated ${pair.name} @${pair.connections} connections [${result.backend}]`,
      specbase: `${rate(pair.specbase.reqPerSec)} req/s, p99 ${pair.specbase.p99Ms} ms`,
      baseline: `${rate(pair.koa.reqPerSec)} req/s, p99 ${pair.koa.p99Ms} ms (bare Koa 3, same body)`,
      ratio: pairRatio(pair).toFixed(2),
      target: `>= ${TARGET_RATIO}x`,
      met: pairMet(pair),
    })).flatMap((row, i) => {
      const pair = result.pairs[i]!;
      const references: SummaryRow[] = [];
      if (pair.contract !== undefined) {
        references.push({
          figure: `  the same against the least Koa app doing the contract's per-request work @16 [${result.backend}]`,
          specbase: row.specbase,
          baseline: `${rate(pair.contract.reqPerSec)} req/s (${(pair.contract.reqPerSec / pair.koa.reqPerSec).toFixed(2)}x bare Koa)`,
          ratio: (pair.specbase.reqPerSec / pair.contract.reqPerSec).toFixed(2),
          target: '-',
          met: 'reported' as const,
        });
      }
      if (pair.answer !== undefined) {
        references.push({
          figure: `  the same against bare Koa sending Specbase's whole answer (headers and body) @16 [${result.backend}]`,
          specbase: row.specbase,
          baseline: `${rate(pair.answer.reqPerSec)} req/s (${(pair.answer.reqPerSec / pair.koa.reqPerSec).toFixed(2)}x bare Koa)`,
          ratio: (pair.specbase.reqPerSec / pair.answer.reqPerSec).toFixed(2),
          target: '-',
          met: 'reported' as const,
        });
      }
      return [row, ...references];
    }),
  );
}

/** A benchmark of the suite: runs on the backends, prints its own report, and gives its rows of the final table. */
interface Step<R> {
  readonly name: string;
  readonly run: (backends: Backend[]) => Promise<{ results: R[]; failure?: Error }>;
  readonly report: (results: R[]) => void;
  readonly summarize: (results: R[]) => SummaryRow[];
}

const step = <R>(s: Step<R>): Step<unknown> => s as Step<unknown>;

/** BENCH_LOAD_MINUTES: the length of figure 7's mixed-load run per database (default 5; 0 leaves it out). */
function loadMinutes(): number {
  const raw = process.env['BENCH_LOAD_MINUTES'] ?? (QUICK ? '0' : '5');
  const minutes = Number(raw);
  if (!(minutes >= 0 && minutes <= 120)) throw new Error(`BENCH_LOAD_MINUTES must be a number from 0 to 120, not ${raw}`);
  return minutes;
}

async function main(): Promise<void> {
  installSignalHandlers();
  if (QUICK) console.log('(--quick: every figure once, small and short; rough figures, not the ones docs/performance.md quotes)');
  const backends = backendsFromEnv();
  if (backends.length === 1) console.log('(set BENCH_DATABASE_URL or TEST_DATABASE_URL to also run on PostgreSQL)');
  const minutes = loadMinutes();
  const steps: Step<unknown>[] = [
    step({ name: 'read', run: (backends: Backend[]) => eachBackend(backends, 'read bench', benchReadBackend), report, summarize: summarizeRead }),
    step({ name: 'tokens', run: benchTokens, report: reportTokens, summarize: summarizeTokens }),
    step({ name: 'import', run: benchImports, report: reportImports, summarize: summarizeImports }),
    step({ name: 'changes', run: benchChanges, report: reportChanges, summarize: summarizeChanges }),
    step({ name: 'webhooks', run: benchWebhooks, report: reportWebhooks, summarize: summarizeWebhooks }),
    step({ name: 'identity', run: benchIdentity, report: reportIdentity, summarize: summarizeIdentity }),
    step({ name: 'growth', run: benchGrowth, report: reportGrowth, summarize: summarizeGrowth }),
    step({ name: 'startup', run: benchStartup, report: reportStartup, summarize: summarizeStartup }),
    ...(minutes > 0 ? [step({ name: 'load', run: (b: Backend[]) => benchLoad(b, { minutes, rate: 200 }), report: () => undefined, summarize: summarizeLoad })] : []),
  ];

  // BENCH_ONLY=read,tokens,...: only the steps named (by the names above).
  const only = (process.env['BENCH_ONLY'] ?? '').split(',').filter((name) => name !== '');
  const chosen = only.length === 0 ? steps : steps.filter((s) => only.includes(s.name));
  if (chosen.length === 0) throw new Error(`BENCH_ONLY names no step of: ${steps.map((s) => s.name).join(', ')}`);
  const rows: SummaryRow[] = [];
  const started = Date.now();
  let failure: Error | undefined;
  for (const { name, run, report: print, summarize } of chosen) {
    if (isInterrupted()) break;
    console.log('');
    console.log(`== ${name} ==`);
    const began = Date.now();
    const outcome = await run(backends);
    console.log(`(${name}: ${minutesSeconds(Date.now() - began)})`);
    if (outcome.results.length > 0) {
      print(outcome.results);
      rows.push(...summarize(outcome.results));
    }
    if (outcome.failure !== undefined) console.error(`${name} failed:`, outcome.failure);
    failure ??= outcome.failure;
  }
  if (minutes === 0) console.log('(BENCH_LOAD_MINUTES=0: the memory figure was left out)');
  console.log(`(every step: ${minutesSeconds(Date.now() - started)})`);

  console.log('');
  console.log('== Specbase against same-run baselines (medians; 127.0.0.1; see each report above for how) ==');
  console.log(formatTable([['figure', 'Specbase', 'baseline', 'ratio', 'target', 'met'], ...rows.map((r) => [r.figure, r.specbase, r.baseline, r.ratio, r.target, r.met === 'reported' ? 'reported' : r.met ? 'met' : 'NOT met'])]));
  const targeted = rows.filter((r) => r.met !== 'reported');
  const missed = targeted.filter((r) => r.met === false);
  console.log(`${targeted.length - missed.length} of ${targeted.length} targets met${missed.length > 0 ? `; NOT met: ${missed.map((r) => r.figure).join('; ')}` : ''}`);
  console.log('(a report, not a test: the exit code does not depend on the targets)');
  if (failure !== undefined) throw failure;
}

/** A duration as "12 min 5 s". */
function minutesSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

main().catch((error: unknown) => {
  if (error instanceof Interrupted || isInterrupted()) {
    process.exitCode = 130;
    return;
  }
  console.error('bench failed:', error);
  process.exitCode = 1;
});
