/**
 * The startup benchmark (issue 9): how long the built server takes from process start to serving.
 *
 * Target (issue 15): from spawn to the first 200 from /healthz at most 4x a bare node:http script spawned the same way, in the same run (issue 9 had it under 1 s, which held on one machine and not on another).
 *
 * - Specbase: `node dist/main/cli.bundle.js serve` (the build `npm run start` runs; this benchmark
 *   runs `npm run build` first when dist/ is older than src/), NODE_ENV=production, the default
 *   log level with stdout read by the benchmark (the baselines' too), SQLite, on 127.0.0.1 and a free port:
 *   - fresh: on a new SQLite file, so the start runs every migration, then, once it listens,
 *     bootstraps the demo user and token (scrypt) and makes a signing key; the time to the demo
 *     token's line on stdout is reported beside the target's figure;
 *   - restart: again on the file the fresh start of the same round left;
 *   - the same restart with SPECBASE_COMPILE_CACHE=off (reported, no target): the start before
 *     V8's code cache is made (ADR 0027). The others use a cache directory of this run's, made by
 *     the warm-up round.
 * - The CLI commands (issue 15: each at most 4x its baseline): `specbase token create`, `user
 *   create` and `client list`, from spawn to exit, on the file the round's fresh start left, each
 *   beside the bare command script spawned the same way (node, better-sqlite3 opening the same file,
 *   one statement, one line printed; for `user create` also its password's scrypt).
 * - Baselines, spawned the same way (child_process.spawn of process.execPath, same environment):
 *   a bare node:http script answering 200 on every path (so the table has a ratio), and
 *   `node -e 0`, to its exit (what starting node itself costs).
 * - Time to healthy: from just before spawn() until a GET /healthz answers 200, polled every
 *   2 ms on a new connection (a refused connection answers at once); then until /readyz answers
 *   200. One untimed warm-up round (the OS file cache), then BENCH_STARTUP_RUNS (default 5)
 *   rounds of fresh, restart, bare node:http, node -e 0; medians. Next to each, the CPU time the
 *   process had used when /healthz answered (bench/proc-cpu.ts): on a busy machine the wall
 *   time grows with the other work, the CPU time hardly.
 *
 * Where the time goes, two ways:
 * - phases: the steps startServer takes (src/main/server.ts), timed one by one in a plain node
 *   process that imports dist/index.js, bundled as the command is, and runs them in the same
 *   order (import, container, open, migrate, app + listen, then the webhook worker, the demo
 *   bootstrap and the signing key), fresh and restart, 3 runs each,
 *   medians; with the number of CommonJS modules loaded. A mirror of startServer, so it drifts if
 *   startServer changes: the spawn figures above are the measurement, this only splits them;
 * - a V8 CPU profile (`node --cpu-prof`) of one fresh `serve`, cut where /healthz first answered:
 *   node's own start before the profiler runs, loading modules (by kind: compiling, resolving,
 *   reading files, parsing CommonJS exports for ESM imports, running module bodies) and which
 *   packages' loading costs most, garbage collection, waiting (idle: I/O, the thread pool), and
 *   the app's own start-up code.
 *
 * SQLite only: a PostgreSQL start adds connecting to a database server, which measures the server.
 * `node --import tsx bench/startup.ts` runs it alone.
 *
 * A report, not a test: exits 0 whether or not the target is met; non-zero only when something
 * crashed (or was interrupted).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { cpuMs } from './proc-cpu.js';
import {
  type Backend,
  BUILT_CLI,
  builtServer,
  checkInterrupted,
  formatTable,
  median,
  onInterrupt,
  positiveIntegerFromEnv,
  sized,
  ROOT,
  runIfMain,
  stopChild,
  type SummaryRow,
} from './common.js';

const RUNS = positiveIntegerFromEnv('BENCH_STARTUP_RUNS', sized(5, 2));
const PHASE_RUNS = sized(3, 1);
/** Issue 15: spawn to healthy at most this many times the bare node:http script's, spawned the same way in the same run (an absolute time differs 2-3x between these machines). */
const TARGET_RATIO = 4;
const POLL_MS = 2;
const START_TIMEOUT_MS = 30_000;
const CLI = BUILT_CLI;
/** dist/index.js bundled as the command is (scripts/bundle.mjs), for the phases; made by this benchmark. */
const INDEX = join(ROOT, 'dist', 'main', 'index.bench-bundle.js');

// ---------------------------------------------------------------------------------------------
// Processes

const running = new Set<ChildProcess>();
onInterrupt(() => {
  for (const child of running) child.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function statusOf(port: number, path: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path, agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
  });
}

function spawnNode(args: readonly string[], env: NodeJS.ProcessEnv, stdout: 'ignore' | 'pipe'): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { child, output: () => text };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function until200(port: number, path: string, child: ChildProcess, output: () => string, t0: number): Promise<number> {
  for (;;) {
    checkInterrupted();
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited before ${path} answered 200:\n${output().slice(-2_000)}`);
    if ((await statusOf(port, path)) === 200) return performance.now();
    if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error(`${path} did not answer 200 within ${START_TIMEOUT_MS} ms:\n${output().slice(-2_000)}`);
    await sleep(POLL_MS);
  }
}

export interface Start {
  /** ms from spawn to the first 200 from /healthz, then from /readyz. */
  readonly healthyMs: number;
  readonly readyMs: number;
  /** A fresh start: ms from spawn to the demo token's line on stdout (the bootstrap runs once the server listens). */
  readonly printedMs?: number;
  /** CPU ms the process had used when /healthz answered (Linux; its live threads). */
  readonly cpuMs: number | undefined;
}

/** When `output()` (what spawnNode collected) first holds `pattern` (performance.now()); rejects if the child exits first. */
function printed(child: ChildProcess, pattern: RegExp, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    // spawnNode's own listener ran first, so output() already holds the chunk.
    const onData = (): void => {
      if (!pattern.test(output())) return;
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      resolve(performance.now());
    };
    const onExit = (): void => reject(new Error(`the server exited before printing ${String(pattern)}:\n${output().slice(-2_000)}`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Spawns `node <args>` with PORT set, times it to healthy and ready, and stops it. `hrtimeUs` gets
 * the spawn and healthy instants on the clock V8's profiles use. Every start's stdout is read the
 * same way (piped to this process); with `demo` the time to the demo token's line is taken too.
 */
async function timeStart(args: readonly string[], env: NodeJS.ProcessEnv, hrtimeUs?: { spawn: number; healthy: number }, demo = false): Promise<Start> {
  const port = await freePort();
  const spawnUs = Number(process.hrtime.bigint() / 1_000n);
  const t0 = performance.now();
  const { child, output } = spawnNode(args, { ...env, PORT: String(port) }, 'pipe');
  const token = demo ? printed(child, /^API token: /m, output) : undefined;
  token?.catch(() => undefined);
  try {
    const healthy = await until200(port, '/healthz', child, output, t0);
    const healthyUs = Number(process.hrtime.bigint() / 1_000n);
    const cpu = cpuMs(child.pid);
    const ready = await until200(port, '/readyz', child, output, t0);
    if (hrtimeUs) Object.assign(hrtimeUs, { spawn: spawnUs, healthy: healthyUs });
    const printedAt = token === undefined ? undefined : await token;
    return { healthyMs: healthy - t0, readyMs: ready - t0, cpuMs: cpu, ...(printedAt === undefined ? {} : { printedMs: printedAt - t0 }) };
  } finally {
    await stopChild(child);
  }
}

async function timeNodeExit(env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const { child, output } = spawnNode(['-e', '0'], env, 'pipe');
  const code = await exited(child);
  if (code !== 0) throw new Error(`node -e 0 exited with ${code}: ${output()}`);
  return performance.now() - t0;
}

/**
 * The CLI commands timed (issue 15: each at most TARGET_RATIO x its baseline), on the SQLite file
 * the round's fresh start left (the demo user is there), from spawn to exit, stdout read. Each
 * baseline is the bare command script doing the least such a command does: open the same file with
 * better-sqlite3, run one statement, print one line, exit; for `user create` also the password's
 * scrypt with the parameters the command uses (src/adapters/crypto/scrypt-password-hasher.ts).
 */
const COMMANDS: readonly { readonly name: string; readonly args: (n: number) => string[]; readonly scrypt: boolean }[] = [
  { name: 'specbase token create', args: (n) => ['token', 'create', '--email', 'demo@specbase.example', '--name', `bench ${n}`, '--scopes', 'api'], scrypt: false },
  { name: 'specbase user create', args: (n) => ['user', 'create', '--email', `bench${n}@example.com`, '--password', 'correct horse battery staple 9'], scrypt: true },
  { name: 'specbase client list', args: () => ['client', 'list'], scrypt: false },
];

const BARE_COMMAND = `import { createRequire } from 'node:module';
import { randomBytes, scryptSync } from 'node:crypto';
const Database = createRequire(process.env.SPECBASE_ROOT + '/package.json')('better-sqlite3');
const db = new Database(process.env.SQLITE_PATH);
const users = db.prepare('SELECT count(*) AS n FROM users').get().n;
const hash = process.argv[2] === 'scrypt' ? scryptSync('correct horse battery staple 9', randomBytes(16), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 256 * 2 ** 15 * 8 }).toString('base64') : undefined;
db.close();
process.stdout.write(JSON.stringify({ users, hash }) + '\\n');
`;

/** Spawns `node <args>` and times it to its exit, which must be 0. */
async function timeCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const { child, output } = spawnNode(args, env, 'pipe');
  const code = await exited(child);
  const elapsed = performance.now() - t0;
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}: ${output().slice(-2_000)}`);
  return elapsed;
}

/** A command's times and its baseline's, one pair a round. */
export interface CommandTimes {
  readonly name: string;
  readonly specbase: number[];
  readonly baseline: number[];
}

const BARE_SERVER = `import { createServer } from 'node:http';
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"status":"ok"}');
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

// ---------------------------------------------------------------------------------------------
// Phases: startServer's steps one by one (see the header)

const PHASES_SCRIPT = `
import { once } from 'node:events';
import { createRequire } from 'node:module';
const phases = [['node starts (before the first line of a script)', performance.now()]];
let last = performance.now();
const mark = (name) => { const now = performance.now(); phases.push([name, now - last]); last = now; };
const lib = await import(process.env.SPECBASE_INDEX_URL);
mark('import the bundle (every module the server loads)');
const container = lib.buildContainer(lib.loadConfig(process.env));
mark('loadConfig + buildContainer');
const storage = container.get(lib.StorageToken);
await storage.open();
mark('open the database');
await storage.migrate();
mark('migrate');
const server = lib.createApp(container).listen(0, '127.0.0.1');
await once(server, 'listening');
mark('createApp + listen');
const worker = container.get(lib.WebhookWorker);
worker.start();
await new Promise((resolve) => setImmediate(resolve));
mark('after listening: the webhook worker started (its first pass runs on)');
const demo = await container.get(lib.BootstrapDemo).execute();
if (!demo.ok) throw new Error('bootstrap failed: ' + demo.error.kind);
mark('after listening: the demo bootstrap (made on first start: the password hash)');
await container.get(lib.SigningKeys).ensure();
mark('after listening: the signing key (made on first start)');
const cjs = Object.keys(createRequire(process.cwd() + '/').cache);
const byPackage = {};
for (const file of cjs) {
  const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1] ?? '(other)';
  byPackage[name] = (byPackage[name] ?? 0) + 1;
}
process.stdout.write('PHASES ' + JSON.stringify({ phases, cjsModules: cjs.length, byPackage, bootstrapped: demo.value !== null }) + '\\n');
await worker.stop();
await new Promise((resolve) => server.close(resolve));
await storage.close();
process.exit(0);
`;

export interface PhaseRun {
  readonly phases: readonly (readonly [string, number])[];
  readonly cjsModules: number;
  readonly byPackage: Readonly<Record<string, number>>;
}

async function phaseRun(env: NodeJS.ProcessEnv, fresh: boolean): Promise<PhaseRun> {
  const { child, output } = spawnNode(['--input-type=module', '-e', PHASES_SCRIPT], { ...env, SPECBASE_INDEX_URL: pathToFileURL(INDEX).href }, 'pipe');
  const code = await exited(child);
  const line = output().split('\n').find((l) => l.startsWith('PHASES '))?.slice('PHASES '.length);
  if (code !== 0 || line === undefined) throw new Error(`the phase script failed (exit ${code}):\n${output().slice(-2_000)}`);
  const run = JSON.parse(line) as PhaseRun & { bootstrapped: boolean };
  if (run.bootstrapped !== fresh) throw new Error(`the phase script ${fresh ? 'did not bootstrap a fresh' : 'bootstrapped an existing'} database`);
  return { phases: run.phases, cjsModules: run.cjsModules, byPackage: run.byPackage };
}

// ---------------------------------------------------------------------------------------------
// The CPU profile of one fresh start

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileSummary {
  /** spawn -> /healthz 200 in this (profiled) run. */
  readonly healthyMs: number;
  /** spawn -> the profiler's first sample: node's own start. */
  readonly beforeProfilerMs: number;
  /** ms by what the main thread did, until /healthz answered. */
  readonly kinds: readonly (readonly [string, number])[];
  /** ms of module loading by the package being loaded (the innermost package frame on the stack). */
  readonly loadingByPackage: readonly (readonly [string, number])[];
}

const packageOf = (url: string): string | undefined =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/dist/') ? 'specbase and its bundled packages (dist/)' : undefined);

const COMPILING = new Set(['wrapSafe', 'compileSourceTextModule', 'compileFunction', 'compileFunctionForCJSLoader', 'compileForInternalLoader', 'ModuleWrap']);
const RESOLVING = new Set(['tryFile', 'tryExtensions', 'tryPackage', 'internalModuleStat', 'realpathSync', 'internalModuleReadJSON', 'URL', 'getPathFromURLPosix', 'stat']);
const READING = new Set(['openFileHandle', 'read', 'readFileUtf8', 'readFileSync', 'fstat', 'close', 'assertEncoding', 'getSource']);

/** What a sample taken while a module loads is spent on, by its innermost frame. */
function loadingKind(leaf: ProfileNode['callFrame']): string {
  const { functionName: fn, url } = leaf;
  if (COMPILING.has(fn)) return 'loading modules: compiling';
  if (url.includes('cjs-module-lexer')) return 'loading modules: parsing CommonJS exports (ESM imports of CommonJS)';
  if (RESOLVING.has(fn) || url.includes('modules/esm/resolve') || url.includes('package_json_reader') || url === 'node:path' || /^Module\._(findPath|resolveFilename|resolveLookupPaths|nodeModulePaths)$/.test(fn)) {
    return 'loading modules: resolving (stat, realpath, package.json)';
  }
  if (READING.has(fn) || url === 'node:fs' || url.startsWith('node:internal/fs')) return 'loading modules: reading files';
  if (fn === 'parse' && url === '') return 'loading modules: JSON.parse (package.json, .json modules)';
  if (packageOf(url) !== undefined) return 'loading modules: running module bodies';
  return 'loading modules: other loader work';
}

function summarizeProfile(profile: CpuProfile, spawnUs: number, healthyUs: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const kinds = new Map<string, number>();
  const packages = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t > healthyUs) break;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    const name = leaf.callFrame.functionName;
    if (name === '(idle)') add(kinds, 'idle (waiting: I/O, the thread pool, timers)', us);
    else if (name === '(garbage collector)') add(kinds, 'garbage collection', us);
    else if (name === '(program)') add(kinds, 'V8 and native code outside JavaScript', us);
    else {
      let loading = false;
      let pkg: string | undefined;
      for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id)!.callFrame;
        pkg ??= packageOf(frame.url);
        if (frame.url.startsWith('node:internal/modules/')) loading = true;
      }
      if (loading) {
        add(kinds, loadingKind(leaf.callFrame), us);
        add(packages, pkg ?? '(node internals)', us);
      } else add(kinds, "the app's start-up code (config, container, database, keys, bootstrap, listen)", us);
    }
  }
  const sorted = (map: Map<string, number>) => [...map].map(([k, us]) => [k, us / 1_000] as const).sort((a, b) => b[1] - a[1]);
  return { healthyMs: (healthyUs - spawnUs) / 1_000, beforeProfilerMs: (profile.startTime - spawnUs) / 1_000, kinds: sorted(kinds), loadingByPackage: sorted(packages) };
}

async function profiledStart(env: NodeJS.ProcessEnv, dir: string): Promise<ProfileSummary> {
  await mkdir(dir, { recursive: true });
  const at = { spawn: 0, healthy: 0 };
  await timeStart(['--cpu-prof', `--cpu-prof-dir=${dir}`, CLI, 'serve'], env, at);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`no CPU profile was written into ${dir}`);
  return summarizeProfile(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, at.spawn, at.healthy);
}

// ---------------------------------------------------------------------------------------------
// The benchmark

export interface StartupResult {
  readonly backend: string;
  readonly fresh: readonly Start[];
  readonly restart: readonly Start[];
  /** Restarts with SPECBASE_COMPILE_CACHE=off: what a start costs before the code cache is made. */
  readonly uncached: readonly Start[];
  readonly bare: readonly Start[];
  readonly nodeExit: readonly number[];
  /** The CLI commands against their bare command script, per round. */
  readonly commands: readonly CommandTimes[];
  readonly phases: { readonly fresh: readonly PhaseRun[]; readonly restart: readonly PhaseRun[] };
  readonly profile: ProfileSummary;
  /** The 1-minute load average before and after. */
  readonly load: readonly [number, number];
}

/** Builds when dist/ is missing or stale (builtServer); bundles dist/index.js for the phases as the command is bundled. */
async function checkBuild(): Promise<void> {
  await builtServer();
  const { build } = await import('esbuild');
  const { bundleOptions } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)) as { bundleOptions: (entry: string, outfile: string) => object };
  await build({ ...bundleOptions(join(ROOT, 'dist', 'index.js'), INDEX), sourcemap: false, legalComments: 'none' });
}

/** Runs the startup benchmark (on SQLite whatever `backends` holds); returns what it measured, and the error that stopped it, if any. */
export async function benchStartup(backends: readonly Backend[]): Promise<{ results: StartupResult[]; failure?: Error }> {
  if (backends.some((b) => b.databaseUrl !== undefined)) console.log('(startup is measured on SQLite only)');
  const tmp = await mkdtemp(join(tmpdir(), 'specbase-startup-'));
  try {
    await checkBuild();
    // The code cache (ADR 0027) in a directory of this run's: the warm-up round makes it.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATABASE_URL: '', DATABASE_SCHEMA: '', HOST: '127.0.0.1', LOG_LEVEL: '', SPECBASE_COMPILE_CACHE: join(tmp, 'code-cache') };
    const bareScript = join(tmp, 'bare-http-server.mjs');
    await writeFile(bareScript, BARE_SERVER);
    const bareCommand = join(tmp, 'bare-command.mjs');
    await writeFile(bareCommand, BARE_COMMAND);
    const commands: CommandTimes[] = COMMANDS.map(({ name }) => ({ name, specbase: [], baseline: [] }));
    const load0 = loadavg()[0]!;
    let files = 0;
    const sqlite = () => ({ ...env, SQLITE_PATH: join(tmp, `specbase-${++files}.sqlite`) });

    const fresh: Start[] = [];
    const restart: Start[] = [];
    const uncached: Start[] = [];
    const bare: Start[] = [];
    const nodeExit: number[] = [];
    const line = (s: Start) => `${Math.round(s.healthyMs)}/${Math.round(s.readyMs)} ms${s.printedMs === undefined ? '' : ` (demo token printed at ${Math.round(s.printedMs)} ms)`}`;
    for (let round = 0; round <= RUNS; round++) {
      const dbEnv = sqlite();
      const f = await timeStart([CLI, 'serve'], dbEnv, undefined, true);
      const r = await timeStart([CLI, 'serve'], dbEnv);
      const u = await timeStart([CLI, 'serve'], { ...dbEnv, SPECBASE_COMPILE_CACHE: 'off' });
      const b = await timeStart([bareScript], env);
      const n = await timeNodeExit(env);
      const label = round === 0 ? 'warm-up' : `round ${round}/${RUNS}`;
      console.log(`[startup] ${label} (healthy/ready): fresh ${line(f)}, restart ${line(r)}, restart without the code cache ${line(u)}, bare node:http ${line(b)}, node -e 0 ${Math.round(n)} ms`);
      // The commands on the file this round's fresh start left, each beside its baseline.
      const timed: string[] = [];
      for (const [i, command] of COMMANDS.entries()) {
        const own = await timeCommand([CLI, ...command.args(round)], dbEnv);
        const base = await timeCommand([bareCommand, ...(command.scrypt ? ['scrypt'] : [])], { ...dbEnv, SPECBASE_ROOT: ROOT });
        timed.push(`${command.name} ${Math.round(own)} ms (bare ${Math.round(base)} ms)`);
        if (round === 0) continue;
        commands[i]!.specbase.push(own);
        commands[i]!.baseline.push(base);
      }
      console.log(`[startup] ${label} commands: ${timed.join(', ')}`);
      if (round === 0) continue;
      fresh.push(f);
      restart.push(r);
      uncached.push(u);
      bare.push(b);
      nodeExit.push(n);
    }

    const phases = { fresh: [] as PhaseRun[], restart: [] as PhaseRun[] };
    for (let run = 0; run < PHASE_RUNS; run++) {
      const dbEnv = sqlite();
      phases.fresh.push(await phaseRun(dbEnv, true));
      phases.restart.push(await phaseRun(dbEnv, false));
    }
    console.log(`[startup] phases timed (${PHASE_RUNS} fresh, ${PHASE_RUNS} restart)`);
    const profile = await profiledStart(sqlite(), join(tmp, 'profile'));
    console.log(`[startup] CPU profile of a fresh start: ${Math.round(profile.healthyMs)} ms to healthy under the profiler`);
    return { results: [{ backend: 'SQLite', fresh, restart, uncached, bare, nodeExit, commands, phases, profile, load: [load0, loadavg()[0]!] }] };
  } catch (error) {
    return { results: [], failure: error instanceof Error ? error : new Error('startup bench failed', { cause: error }) };
  } finally {
    for (const child of running) child.kill('SIGKILL');
    await rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Figures and the report

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

interface Medians {
  readonly healthy: number;
  readonly ready: number;
  readonly min: number;
  readonly max: number;
  readonly cpu: number | undefined;
  /** The demo token's line on stdout, when every start printed one. */
  readonly printed: number | undefined;
}

function medians(starts: readonly Start[]): Medians {
  const healthy = starts.map((s) => s.healthyMs);
  const cpu = starts.map((s) => s.cpuMs).filter((v) => v !== undefined);
  const printed = starts.map((s) => s.printedMs).filter((v) => v !== undefined);
  return {
    printed: printed.length === starts.length ? median(printed) : undefined,
    healthy: median(healthy),
    ready: median(starts.map((s) => s.readyMs)),
    min: Math.min(...healthy),
    max: Math.max(...healthy),
    cpu: cpu.length === starts.length ? median(cpu) : undefined,
  };
}

/** The lines of the table `npm run bench` ends with. */
export function summarizeStartup(results: readonly StartupResult[]): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const result of results) {
    const bare = medians(result.bare);
    for (const [name, starts] of [
      ['fresh database (migrations; the demo bootstrap follows)', result.fresh],
      ['restart on an existing database', result.restart],
    ] as const) {
      const m = medians(starts);
      for (const [probe, value, baseline] of [
        ['healthy (/healthz 200)', m.healthy, bare.healthy],
        ['ready (/readyz 200)', m.ready, bare.ready],
      ] as const) {
        rows.push({
          figure: `startup to ${probe}, ${name} [${result.backend}]`,
          specbase: ms(value),
          baseline: `${ms(baseline)} (bare node:http script)`,
          ratio: (value / baseline).toFixed(1),
          target: `<= ${TARGET_RATIO}x`,
          met: value / baseline <= TARGET_RATIO,
        });
      }
      if (m.printed !== undefined) {
        rows.push({
          figure: `  the same to the demo token printed (the bootstrap's password hash, after listening) [${result.backend}]`,
          specbase: ms(m.printed),
          baseline: `${ms(bare.healthy)} (bare node:http script, healthy)`,
          ratio: (m.printed / bare.healthy).toFixed(1),
          target: '-',
          met: 'reported',
        });
      }
    }
    for (const command of result.commands) {
      const own = median(command.specbase);
      const base = median(command.baseline);
      rows.push({
        figure: `\`${command.name}\`, spawn to exit [${result.backend}]`,
        specbase: ms(own),
        baseline: `${ms(base)} (bare command script: open, one statement${command.name.endsWith('user create') ? ', the scrypt' : ''}, exit)`,
        ratio: (own / base).toFixed(1),
        target: `<= ${TARGET_RATIO}x`,
        met: own / base <= TARGET_RATIO,
      });
    }
  }
  return rows;
}

function phaseMedians(runs: readonly PhaseRun[]): Map<string, number> {
  const names = runs[0]?.phases.map(([name]) => name) ?? [];
  return new Map(names.map((name) => [name, median(runs.map((run) => run.phases.find(([n]) => n === name)?.[1] ?? 0))]));
}

export function reportStartup(results: readonly StartupResult[]): void {
  for (const result of results) {
    const fresh = medians(result.fresh);
    const restart = medians(result.restart);
    const bare = medians(result.bare);
    const nodeExit = median(result.nodeExit);
    console.log('');
    console.log(
      `Startup: spawn to the first 200 from /healthz (then /readyz), polled every ${POLL_MS} ms; median of ${RUNS} rounds after a warm-up ` +
        `[${result.backend}; load average ${result.load[0].toFixed(1)} -> ${result.load[1].toFixed(1)} on ${availableParallelism()} cores]`,
    );
    console.log('');
    const rows: string[][] = [['figure', 'to healthy', 'min-max', 'to ready', 'CPU to healthy', 'x bare node:http', 'target']];
    const verdict = (value: number) => `<= ${TARGET_RATIO}x: ${value / bare.healthy <= TARGET_RATIO ? 'met' : 'NOT met'}`;
    const line = (name: string, m: Medians, target: string): string[] => [
      name,
      ms(m.healthy),
      `${Math.round(m.min)}-${Math.round(m.max)}`,
      ms(m.ready),
      m.cpu === undefined ? '-' : ms(m.cpu),
      (m.healthy / bare.healthy).toFixed(1),
      target,
    ];
    rows.push(line('node dist/main/cli.bundle.js serve, fresh SQLite file', fresh, verdict(fresh.healthy)));
    if (fresh.printed !== undefined) {
      rows.push(['  the same to the demo token printed (bootstrap after listening)', ms(fresh.printed), '-', '-', '-', (fresh.printed / bare.healthy).toFixed(1), 'reported']);
    }
    rows.push(line('node dist/main/cli.bundle.js serve, restart', restart, verdict(restart.healthy)));
    rows.push(line('  the same without the code cache (SPECBASE_COMPILE_CACHE=off)', medians(result.uncached), 'reported'));
    rows.push(line('bare node:http script (baseline)', bare, '-'));
    rows.push(['node -e 0, to its exit', ms(nodeExit), `${Math.round(Math.min(...result.nodeExit))}-${Math.round(Math.max(...result.nodeExit))}`, '-', '-', '-', '-']);
    console.log(formatTable(rows));
    console.log('(CPU time counts every thread: the garbage collector, and the thread pool making the signing key and hashing the demo password, so it can exceed the wall time)');

    console.log('');
    console.log(`The CLI commands, spawn to exit, on the file the round's fresh start left; median of ${RUNS} rounds, each beside its bare command script`);
    console.log('');
    const commandRows: string[][] = [['command', 'specbase', 'min-max', 'bare command script', 'min-max', 'ratio', 'target']];
    for (const command of result.commands) {
      const own = median(command.specbase);
      const base = median(command.baseline);
      const range = (values: readonly number[]) => `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;
      commandRows.push([command.name, ms(own), range(command.specbase), ms(base), range(command.baseline), (own / base).toFixed(1), `<= ${TARGET_RATIO}x: ${own / base <= TARGET_RATIO ? 'met' : 'NOT met'}`]);
    }
    console.log(formatTable(commandRows));
    console.log('(the bare command script: node, better-sqlite3 opening the same file, one statement, one line printed; for user create also the scrypt of its password)');

    console.log('');
    console.log(`Where the time goes: startServer's steps timed one by one in a plain node process (median of ${PHASE_RUNS} each)`);
    console.log('');
    const freshPhases = phaseMedians(result.phases.fresh);
    const restartPhases = phaseMedians(result.phases.restart);
    const phaseRows: string[][] = [['phase', 'fresh', 'restart']];
    for (const [name, value] of freshPhases) phaseRows.push([name, ms(value), ms(restartPhases.get(name) ?? 0)]);
    // The phases before listening: what the server is up after (the signing key is made after it).
    const sum = (m: Map<string, number>) => [...m].filter(([name]) => !name.startsWith('after listening')).reduce((a, [, value]) => a + value, 0);
    phaseRows.push(['total (to listening)', ms(sum(freshPhases)), ms(sum(restartPhases))]);
    console.log(formatTable(phaseRows));
    const modules = result.phases.fresh[0];
    if (modules) {
      const top = Object.entries(modules.byPackage)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ');
      console.log(`CommonJS modules loaded: ${modules.cjsModules} (${top}); the ES modules of dist/ and the ESM-only packages come on top`);
    }

    const profile = result.profile;
    console.log('');
    console.log(`CPU profile of one fresh start (node --cpu-prof, which slows it): ${ms(profile.healthyMs)} from spawn to healthy`);
    console.log('');
    const profileRows: string[][] = [['main thread, spawn to healthy', 'ms', 'share']];
    profileRows.push(["node's own start, before the profiler runs", ms(profile.beforeProfilerMs), `${Math.round((100 * profile.beforeProfilerMs) / profile.healthyMs)}%`]);
    for (const [kind, value] of profile.kinds) profileRows.push([kind, ms(value), `${Math.round((100 * value) / profile.healthyMs)}%`]);
    console.log(formatTable(profileRows));
    console.log(
      `Module loading by package (the innermost package on the stack; its requires of other packages count to them): ` +
        profile.loadingByPackage
          .slice(0, 10)
          .map(([name, value]) => `${name} ${ms(value)}`)
          .join(', '),
    );
    console.log('');
    console.log(
      `Target (spawn to healthy <= ${TARGET_RATIO}x the bare node:http script on SQLite): fresh ${(fresh.healthy / bare.healthy).toFixed(1)}x ${fresh.healthy / bare.healthy <= TARGET_RATIO ? 'met' : 'NOT met'}, ` +
        `restart ${(restart.healthy / bare.healthy).toFixed(1)}x ${restart.healthy / bare.healthy <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    );
  }
  console.log('(a report, not a test: the exit code does not depend on the target)');
}

// ---------------------------------------------------------------------------------------------
// `node --import tsx bench/startup.ts`

runIfMain(import.meta.url, 'startup bench', benchStartup, reportStartup);
