/**
 * Load run (issue 7, "Done when" 2): a fixed-rate, open-loop mix of reads and writes against a
 * real Specbase server for several minutes, on SQLite and on PostgreSQL, checking that it ends
 * with zero errors and with the server's resident memory flat.
 *
 *   node --import tsx bench/load.ts [--minutes N] [--rate R] [--database sqlite|postgres|both]
 *
 * Defaults: 5 minutes, 200 requests/s, every database configured: SQLite always, PostgreSQL too
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (in a throw-away schema, dropped at the
 * end). `--database postgres` without either URL is refused.
 *
 * What runs, all on 127.0.0.1:
 * - the server, a child process (bench/serve-specbase.ts on a fresh database, NODE_ENV=production,
 *   the in-process webhook worker on, WEBHOOK_ALLOW_PRIVATE_TARGETS=true), so the load generator
 *   never shares its event loop;
 * - in this process, a loopback webhook receiver (node:http, answers 204) with one active webhook
 *   subscribed to the api.* events (api.created, api.deleted), so deliveries are part of the load;
 * - in this process, the load: 50 APIs with a small Swagger 2.0 spec and a page each are seeded,
 *   then requests are sent on a fixed schedule (request n at n/R s, whatever the answers do: an
 *   open loop), over keep-alive connections, in this mix (percent):
 *     14 list APIs, 14 get one API, 10 export (yaml or json), 10 list endpoints, 10 list releases,
 *     10 PATCH with If-Match (the ETag last seen), 7 PUT a small spec, 5 create a release,
 *     5 create an API, 4 delete an API, 6 create a page, 5 delete a page.
 *   The generator never sends a request that is meant to fail: no operation goes to an API being
 *   deleted, releases/exports/endpoints only to APIs with a spec, versions and slugs are unique,
 *   and the API count stays between 20 and 200 (a create becomes a delete above, and back).
 *
 * Every answer's status is recorded. A 412 to a PATCH is an expected answer (another write changed
 * the revision first) and is counted apart. Errors: any 5xx, any network error or timeout (30 s),
 * any other status than the operation's expected one (e.g. an unexpected 4xx).
 *
 * The server child's VmRSS (from /proc/<pid>/status, with its RssAnon/RssFile parts) and CPU time
 * are sampled every 5 s; per 30 s window the requests' p99 latency is reported (the event loop's
 * health: a blocked loop shows there first). Latency is measured from the moment a request is sent
 * (the generator's own lag behind the schedule is reported apart).
 *
 * Targets, per database: (1) zero errors; (2) RSS flat: (max - min) / min < 10% over the last 4
 * minutes (the last 80% of a run shorter than 5 minutes). The webhook deliveries received (unique
 * event ids) are reported against the api.* events the run committed. Exits 1 when a target is
 * missed on any database, 130 when interrupted.
 *
 * Reading the RSS figures: RSS also holds bounded caches that fill during the first minutes, and
 * V8's heap sizing. On SQLite the page cache (better-sqlite3's default cache_size, 16 MB) sits in
 * the malloc arena and fills as the database grows, for about 6 minutes at 200 req/s; V8 grows its
 * heap until its first full GCs and may shrink it once after (its memory reducer). So the report
 * also gives the V8 heap total and the malloc arena (`[heap]` in /proc/<pid>/smaps) at minute 1 and
 * at the end, and the lowest V8 heap used per minute (close to the live heap: a JS leak shows there
 * as a rise). `--minutes 9` measures the last 4 minutes after 5 of warm-up. On PostgreSQL the RSS
 * also swings between full GCs: request state held across database round trips outlives the young
 * generation (about 1.6 MB/s promoted at 200 req/s), which the per-minute floor tells apart from a
 * leak.
 *
 * BENCH_LOAD_HEAP_SNAPSHOTS=<dir>: the child runs with --heapsnapshot-signal=SIGUSR2 and writes a
 * heap snapshot into <dir> after the first minute and at the end (to compare what grows; each
 * snapshot pauses the server for a moment). BENCH_LOAD_NODE_OPTIONS="--trace-gc ..." adds node
 * options to the child (for investigation only: the figures are of the server as configured).
 * BENCH_LOAD_ALLOC_PROFILE=<file.heapprofile>: V8's sampling heap profiler in the child from minute 1
 * (or mid-run) to the end, keeping objects that full GCs collected, i.e. what was promoted to the
 * old generation and then died (the usual cause of an RSS sawtooth). BENCH_CPU_PROF=<dir> profiles
 * the child as in bench/run.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Backend,
  backendsFromEnv,
  checkInterrupted,
  formatTable,
  installSignalHandlers,
  Interrupted,
  isInterrupted,
  onInterrupt,
  prepareBackend,
  profileOptions,
  startChild,
  stopAllChildren,
  stopChild,
  type SummaryRow,
} from './common.js';

const SEEDED_APIS = 50;
const MIN_APIS = 20;
const MAX_APIS = 200;
const SAMPLE_MS = 5_000;
const WINDOW_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;
const TICK_MS = 5;
const RSS_TARGET = 0.1;
/** Issue 9's ceiling on the resident memory after the run. */
const RSS_LIMIT_MB = 200;
/** The flat-memory window: the last 4 minutes, or the last 80% of a shorter run. */
const FLAT_WINDOW_MS = 4 * 60_000;
const DELIVERY_WAIT_MS = 60_000;
const SLOWEST = 5;

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  readonly minutes: number;
  readonly rate: number;
  readonly database: 'sqlite' | 'postgres' | 'both';
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      rate: { type: 'string', default: '200' },
      database: { type: 'string', default: 'both' },
    },
    strict: true,
  });
  const minutes = Number(values.minutes);
  const rate = Number(values.rate);
  if (!(minutes > 0 && minutes <= 120)) throw new Error(`--minutes must be a number in (0, 120], not ${values.minutes}`);
  if (!(rate > 0 && rate <= 10_000)) throw new Error(`--rate must be a number in (0, 10000], not ${values.rate}`);
  const database = values.database;
  if (database !== 'sqlite' && database !== 'postgres' && database !== 'both') throw new Error(`--database must be sqlite, postgres or both, not ${database}`);
  return { minutes, rate, database };
}

function chooseBackends(database: Options['database']): Backend[] {
  const configured = backendsFromEnv();
  const postgres = configured.find((b) => b.databaseUrl !== undefined);
  const sqlite = configured.find((b) => b.databaseUrl === undefined)!;
  if (database === 'sqlite') return [sqlite];
  if (database === 'postgres') {
    if (postgres === undefined) throw new Error('--database postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
    return [postgres];
  }
  if (postgres === undefined) console.log('(no BENCH_DATABASE_URL or TEST_DATABASE_URL: SQLite only; set one to also run on PostgreSQL)');
  return configured;
}

// ---------------------------------------------------------------------------------------------
// HTTP client: keep-alive, every answer recorded

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * The server closes a connection idle for 5 s (keepAliveTimeout) and says so (`Keep-Alive:
 * timeout=5`). An agent only heeds that hint when it has a `timeout` of its own; without one it
 * may send on a connection the server is closing at that moment, and get ECONNRESET (the usual
 * keep-alive race, not a server error). So idle sockets are dropped after 4 s.
 */
const IDLE_SOCKET_MS = 4_000;

class Client {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: IDLE_SOCKET_MS });
  private readonly base: URL;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    this.base = new URL(url);
  }

  send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(body);
      const req = httpRequest(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          // From the moment the request is sent, waiting for a free socket included: under
          // overload a request queued in the agent for minutes is a timeout, not a slow success.
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The loopback webhook receiver (in this process)

class Receiver {
  readonly ids = new Set<string>();
  posts = 0;
  private readonly server: HttpServer;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(204).end();
        if (request.method !== 'POST') return;
        this.posts += 1;
        const id = request.headers['webhook-id'];
        if (typeof id === 'string') this.ids.add(id);
      });
    });
    this.server.keepAliveTimeout = 5_000;
  }

  listen(): Promise<string> {
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}`));
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------
// Process sampling

interface Sample {
  /** ms since the load started. */
  readonly t: number;
  readonly rssKb: number;
  readonly anonKb: number;
  readonly fileKb: number;
  /** The resident part of the main thread's malloc arena (the `[heap]` mapping): native memory such as SQLite's page cache. */
  readonly brkKb: number;
  /** CPU seconds (user + system) of the child so far. */
  readonly cpuS: number;
  /** The child's V8 heap (used, total) and external memory, when it answered the sample's question in time. */
  heap?: { readonly usedKb: number; readonly totalKb: number; readonly externalKb: number };
}

interface MemoryReply {
  readonly type: 'memory';
  readonly usage: NodeJS.MemoryUsage;
}

function isMemoryReply(message: unknown): message is MemoryReply {
  const m = message as Partial<MemoryReply> | null;
  return typeof m === 'object' && m !== null && m.type === 'memory' && typeof m.usage === 'object';
}

const CLOCK_TICKS = 100;

/** Rss of the `[heap]` mapping in /proc/<pid>/smaps (NaN if there is none). */
function brkRss(pid: number): number {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const at = smaps.search(/ \[heap\]\n/);
  if (at === -1) return NaN;
  return Number(/^Rss:\s+([0-9]+) kB/m.exec(smaps.slice(at))?.[1] ?? NaN);
}

function sampleProcess(pid: number, t: number): Sample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+([0-9]+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuS = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    return { t, rssKb: kb('VmRSS'), anonKb: kb('RssAnon'), fileKb: kb('RssFile'), brkKb: brkRss(pid), cpuS };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The workload

type OpKind =
  | 'list APIs'
  | 'get API'
  | 'export'
  | 'list endpoints'
  | 'list releases'
  | 'PATCH If-Match'
  | 'PUT spec'
  | 'create release'
  | 'create API'
  | 'delete API'
  | 'create page'
  | 'delete page';

const MIX: readonly (readonly [OpKind, number])[] = [
  ['list APIs', 14],
  ['get API', 14],
  ['export', 10],
  ['list endpoints', 10],
  ['list releases', 10],
  ['PATCH If-Match', 10],
  ['PUT spec', 7],
  ['create release', 5],
  ['create API', 5],
  ['delete API', 4],
  ['create page', 6],
  ['delete page', 5],
];
const MIX_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0);

interface ApiState {
  readonly id: string;
  etag: string | undefined;
  hasSpec: boolean;
  releases: number;
  pageSerial: number;
  readonly pages: string[];
  inflight: number;
}

interface Planned {
  readonly kind: OpKind;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly expected: readonly number[];
  readonly api?: ApiState;
  /** Applies a successful answer to the generator's picture of the server. */
  readonly onReply?: (reply: Reply) => void;
}

interface OpStats {
  count: number;
  errors: number;
  conflicts: number;
  readonly latencies: number[];
}

interface WindowStats {
  count: number;
  errors: number;
  readonly latencies: number[];
}

interface SlowRequest {
  readonly at: number;
  readonly ms: number;
  readonly what: string;
}

interface ErrorSample {
  readonly at: number;
  readonly what: string;
  readonly detail: string;
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function smallSpec(serial: number): string {
  return [
    'swagger: "2.0"',
    'info:',
    `  title: Load spec ${serial}`,
    `  version: "1.${serial}"`,
    'host: api.example.com',
    'basePath: /v1',
    'schemes: [https]',
    'securityDefinitions:',
    '  key:',
    '    type: apiKey',
    '    in: header',
    '    name: X-Key',
    'paths:',
    '  /items:',
    '    get:',
    '      operationId: listItems',
    '      responses:',
    '        "200":',
    '          description: The items',
    '          schema:',
    '            type: array',
    '            items:',
    '              $ref: "#/definitions/Item"',
    '    post:',
    '      operationId: createItem',
    '      parameters:',
    '        - in: body',
    '          name: item',
    '          required: true',
    '          schema:',
    '            $ref: "#/definitions/Item"',
    '      responses:',
    '        "201":',
    '          description: Created',
    '  /items/{id}:',
    '    get:',
    '      operationId: getItem',
    '      parameters:',
    '        - in: path',
    '          name: id',
    '          required: true',
    '          type: string',
    '      responses:',
    '        "200":',
    '          description: One item',
    '          schema:',
    '            $ref: "#/definitions/Item"',
    'definitions:',
    '  Item:',
    '    type: object',
    '    required: [id]',
    '    properties:',
    '      id:',
    '        type: string',
    `      note${serial % 7}:`,
    '        type: string',
    '',
  ].join('\n');
}

const YAML = { 'content-type': 'application/yaml' };

class Workload {
  readonly apis: ApiState[] = [];
  readonly byKind = new Map<OpKind, OpStats>(MIX.map(([kind]) => [kind, { count: 0, errors: 0, conflicts: 0, latencies: [] }]));
  readonly windows: WindowStats[] = [];
  readonly statuses = new Map<string, number>();
  readonly errorSamples: ErrorSample[] = [];
  /** The slowest requests (at most SLOWEST), slowest first. */
  readonly slowest: SlowRequest[] = [];
  sent = 0;
  answered = 0;
  errors = 0;
  conflicts = 0;
  /** api.created + api.deleted events committed (answers 201/204 to create/delete API). */
  apiEvents = 0;
  private serial = 0;
  private readonly tag = Date.now().toString(36);

  constructor(
    private readonly client: Client,
    private readonly accountId: number,
  ) {}

  private get base(): string {
    return `/api/${this.accountId}`;
  }

  private random<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(Math.random() * items.length)];
  }

  private usable(filter: (api: ApiState) => boolean = () => true): ApiState | undefined {
    // A few random probes first (cheap), then a scan.
    for (let i = 0; i < 8; i++) {
      const api = this.random(this.apis);
      if (api !== undefined && filter(api)) return api;
    }
    return this.random(this.apis.filter(filter));
  }

  private createApi(): Planned {
    const nickname = `load-${this.tag}-${++this.serial}`;
    return {
      kind: 'create API',
      method: 'POST',
      path: this.base,
      body: JSON.stringify({ name: `Load ${this.serial}`, nickname }),
      expected: [201],
      onReply: (reply) => {
        this.apiEvents += 1;
        const id = (JSON.parse(reply.body) as { id: string }).id;
        this.apis.push({ id, etag: etagOf(reply), hasSpec: false, releases: 0, pageSerial: 0, pages: [], inflight: 0 });
      },
    };
  }

  private deleteApi(): Planned | undefined {
    const candidates = this.apis.filter((a) => a.inflight === 0);
    const api = this.random(candidates);
    if (api === undefined) return undefined;
    // Out of the pool at once: nothing else is sent to it.
    this.apis.splice(this.apis.indexOf(api), 1);
    return {
      kind: 'delete API',
      method: 'DELETE',
      path: `${this.base}/${api.id}`,
      expected: [204],
      onReply: () => {
        this.apiEvents += 1;
      },
    };
  }

  putSpec(api: ApiState): Planned {
    return {
      kind: 'PUT spec',
      method: 'PUT',
      path: `${this.base}/${api.id}/spec`,
      body: smallSpec(++this.serial),
      headers: YAML,
      expected: [200],
      api,
      onReply: (reply) => {
        api.hasSpec = true;
        api.etag = etagOf(reply) ?? api.etag;
      },
    };
  }

  createPage(api: ApiState): Planned {
    const slug = `page-${++api.pageSerial}`;
    return {
      kind: 'create page',
      method: 'POST',
      path: `${this.base}/${api.id}/pages`,
      body: JSON.stringify({ title: `Page ${api.pageSerial}`, slug, body: `# Page ${api.pageSerial}\n\nSome *Markdown* for the load run.\n` }),
      expected: [201],
      api,
      onReply: (reply) => {
        api.pages.push((JSON.parse(reply.body) as { id: string }).id);
      },
    };
  }

  /** The next operation of the mix (falling back to another when its preconditions do not hold). */
  plan(): Planned {
    let pick = Math.random() * MIX_TOTAL;
    let kind: OpKind = MIX[0]![0];
    for (const [k, weight] of MIX) {
      if ((pick -= weight) < 0) {
        kind = k;
        break;
      }
    }
    if (kind === 'create API' && this.apis.length >= MAX_APIS) kind = 'delete API';
    else if (kind === 'delete API' && this.apis.length <= MIN_APIS) kind = 'create API';
    switch (kind) {
      case 'list APIs':
        return { kind, method: 'GET', path: `${this.base}?limit=${Math.random() < 0.5 ? 20 : 50}`, expected: [200] };
      case 'create API':
        return this.createApi();
      case 'delete API':
        return this.deleteApi() ?? this.createApi();
      default:
        break;
    }
    const withSpec = kind === 'export' || kind === 'list endpoints' || kind === 'list releases' || kind === 'create release';
    const api = this.usable(withSpec ? (a) => a.hasSpec : undefined);
    if (api === undefined) return { kind: 'list APIs', method: 'GET', path: this.base, expected: [200] };
    const path = `${this.base}/${api.id}`;
    switch (kind) {
      case 'get API':
        return { kind, method: 'GET', path, expected: [200], api, onReply: (reply) => (api.etag = etagOf(reply) ?? api.etag) };
      case 'export':
        return { kind, method: 'GET', path: `${path}/export${Math.random() < 0.5 ? '' : '?format=json'}`, expected: [200], api };
      case 'list endpoints':
        return { kind, method: 'GET', path: `${path}/endpoints`, expected: [200], api };
      case 'list releases':
        return { kind, method: 'GET', path: `${path}/releases`, expected: [200], api };
      case 'PATCH If-Match':
        if (api.etag === undefined) {
          return { kind: 'get API', method: 'GET', path, expected: [200], api, onReply: (reply) => (api.etag = etagOf(reply)) };
        }
        return {
          kind,
          method: 'PATCH',
          path,
          body: JSON.stringify({ name: `Load renamed ${++this.serial}` }),
          headers: { 'if-match': api.etag },
          expected: [200, 412],
          api,
          onReply: (reply) => {
            // After a 412 the tag is stale: the next PATCH on this API reads it first.
            api.etag = reply.status === 200 ? etagOf(reply) : undefined;
          },
        };
      case 'PUT spec':
        return this.putSpec(api);
      case 'create release':
        return {
          kind,
          method: 'POST',
          path: `${path}/releases`,
          body: JSON.stringify({ version: `1.0.${++api.releases}` }),
          expected: [201],
          api,
        };
      case 'create page':
        return this.createPage(api);
      case 'delete page': {
        const pageId = api.pages.pop();
        if (pageId === undefined) return this.createPage(api);
        return { kind, method: 'DELETE', path: `${path}/pages/${pageId}`, expected: [204], api };
      }
    }
  }

  /** Sends one planned request and records its answer; never rejects. */
  async run(planned: Planned, start: number): Promise<void> {
    const api = planned.api;
    if (api !== undefined) api.inflight += 1;
    this.sent += 1;
    const sentAt = performance.now();
    let status: number | 'network';
    let detail: string;
    let reply: Reply | undefined;
    try {
      reply = await this.client.send(planned.method, planned.path, planned.body, planned.headers);
      status = reply.status;
      detail = reply.body.slice(0, 300);
    } catch (error) {
      status = 'network';
      detail = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` : String(error);
    } finally {
      if (api !== undefined) api.inflight -= 1;
    }
    const latency = performance.now() - sentAt;
    this.answered += 1;
    const stats = this.byKind.get(planned.kind)!;
    stats.count += 1;
    stats.latencies.push(latency);
    if (this.slowest.length < SLOWEST || latency > this.slowest.at(-1)!.ms) {
      this.slowest.push({ at: sentAt - start, ms: latency, what: `${planned.kind} -> ${status}` });
      this.slowest.sort((a, b) => b.ms - a.ms);
      this.slowest.length = Math.min(this.slowest.length, SLOWEST);
    }
    const index = Math.max(0, Math.floor((sentAt - start) / WINDOW_MS));
    const window = (this.windows[index] ??= { count: 0, errors: 0, latencies: [] });
    window.count += 1;
    window.latencies.push(latency);
    const expected = typeof status === 'number' && planned.expected.includes(status);
    const klass = status === 'network' ? 'network' : status === 412 && expected ? '412 (expected)' : `${Math.floor(status / 100)}xx`;
    this.statuses.set(klass, (this.statuses.get(klass) ?? 0) + 1);
    if (!expected) {
      this.errors += 1;
      stats.errors += 1;
      window.errors += 1;
      if (this.errorSamples.length < 20) {
        this.errorSamples.push({ at: sentAt - start, what: `${planned.kind}: ${planned.method} ${planned.path} -> ${status}`, detail });
      }
      return;
    }
    if (status === 412) {
      this.conflicts += 1;
      stats.conflicts += 1;
    }
    if (reply !== undefined) planned.onReply?.(reply);
  }

  /** Setup: `count` APIs, each with a spec and a page (not counted as load). */
  async seed(count: number): Promise<void> {
    const must = async (planned: Planned, status: number): Promise<Reply> => {
      const reply = await this.client.send(planned.method, planned.path, planned.body, planned.headers);
      if (reply.status !== status) throw new Error(`seed ${planned.kind}: HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
      planned.onReply?.(reply);
      return reply;
    };
    for (let i = 0; i < count; i++) {
      checkInterrupted();
      await must(this.createApi(), 201);
      const api = this.apis.at(-1)!;
      await must(this.putSpec(api), 200);
      await must(this.createPage(api), 201);
    }
  }
}

function etagOf(reply: Reply): string | undefined {
  const etag = reply.headers.etag;
  return typeof etag === 'string' ? etag : undefined;
}

// ---------------------------------------------------------------------------------------------
// One database

interface LoadResult {
  readonly backend: string;
  readonly minutes: number;
  readonly rate: number;
  readonly durationMs: number;
  readonly workload: Workload;
  readonly samples: readonly Sample[];
  readonly maxLagMs: number;
  readonly deliveries: number;
  readonly deliveryPosts: number;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly benchCpuS: number;
}


let stopLoad: (() => void) | undefined;
onInterrupt(() => stopLoad?.());

async function loadBackend(backend: Backend, options: Options): Promise<LoadResult> {
  const log = (line: string): void => console.log(`[load ${backend.name}] ${line}`);
  const prepared = await prepareBackend(backend, 'specbase-load');
  const receiver = new Receiver();
  let child: ChildProcess | undefined;
  let client: Client | undefined;
  let stopping = false;
  try {
    const receiverUrl = await receiver.listen();
    const snapshots = process.env['BENCH_LOAD_HEAP_SNAPSHOTS'];
    const extra = (process.env['BENCH_LOAD_NODE_OPTIONS'] ?? '').split(/\s+/).filter((o) => o !== '');
    const nodeOptions = [...profileOptions(`load-${backend.name}`), ...extra];
    if (snapshots) {
      mkdirSync(snapshots, { recursive: true });
      nodeOptions.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`);
    }
    const env: NodeJS.ProcessEnv = { ...prepared.specbaseEnv, WEBHOOK_WORKER: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    const server = await startChild('serve-specbase.ts', env, nodeOptions, true);
    child = server.child;
    const pid = child.pid!;
    child.once('exit', (code, signal) => {
      if (!stopping && !isInterrupted()) log(`the server exited during the run (${signal ?? `exit code ${code}`}): every request from now on fails`);
    });
    const { token, accountId } = server.ready;
    if (token === undefined || accountId === undefined) throw new Error('serve-specbase.ts reported no token or account');
    client = new Client(server.url, token);

    const hook = await client.send('POST', `/webhooks/${accountId}`, JSON.stringify({ targetUrl: `${receiverUrl}/hook`, events: ['api.created', 'api.deleted'], active: true }));
    if (hook.status !== 201) throw new Error(`creating the webhook: HTTP ${hook.status}: ${hook.body.slice(0, 300)}`);

    const workload = new Workload(client, accountId);
    await workload.seed(SEEDED_APIS);
    log(`server pid ${pid}; seeded ${SEEDED_APIS} APIs (spec + page each); webhook -> ${receiverUrl}/hook; ${options.rate} req/s for ${options.minutes} min`);

    const durationMs = options.minutes * 60_000;
    const loadBefore = loadavg();
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const samples: Sample[] = [];
    const first = sampleProcess(pid, 0);
    if (first !== undefined) samples.push(first);
    let snapshotAfterMinute = snapshots !== undefined && options.minutes > 1;
    const allocProfile = process.env['BENCH_LOAD_ALLOC_PROFILE'];
    const allocFrom = Math.min(60_000, durationMs / 2);
    let allocStarted = false;
    let asked: Sample | undefined;
    child.on('message', (message: unknown) => {
      if (!isMemoryReply(message) || asked === undefined) return;
      const { heapUsed, heapTotal, external } = message.usage;
      asked.heap = { usedKb: heapUsed / 1024, totalKb: heapTotal / 1024, externalKb: external / 1024 };
      asked = undefined;
    });
    const sampler = setInterval(() => {
      const t = performance.now() - start;
      const sample = sampleProcess(pid, t);
      if (sample !== undefined) {
        samples.push(sample);
        asked = sample;
        if (child?.connected) child.send({ type: 'memory' });
      }
      const index = Math.floor(t / WINDOW_MS) - 1;
      if (Math.round(t) % WINDOW_MS < SAMPLE_MS / 2 && index >= 0) {
        const w = workload.windows[index];
        const cpu = samples.length > 6 ? ((sample?.cpuS ?? NaN) - samples.at(-7)!.cpuS) / ((t - samples.at(-7)!.t) / 1000) : NaN;
        log(
          `${Math.round(t / 1000)} s: ${workload.sent} sent, ${workload.errors} errors, ${workload.conflicts} x 412; last 30 s p99 ` +
            `${w === undefined ? '-' : percentile(w.latencies, 99).toFixed(1)} ms; RSS ${sample === undefined ? '-' : mb(sample.rssKb)}; ` +
            `server CPU ${Number.isNaN(cpu) ? '-' : `${Math.round(cpu * 100)}%`}; ${workload.apis.length} APIs; deliveries ${receiver.ids.size}/${workload.apiEvents}; load ${loadavg()[0]!.toFixed(2)}`,
        );
      }
      if (allocProfile && !allocStarted && t >= allocFrom) {
        allocStarted = true;
        if (child?.connected) child.send({ type: 'alloc-profile', action: 'start' });
        log(`allocation profile (objects collected by full GCs) from ${Math.round(t / 1000)} s`);
      }
      if (snapshotAfterMinute && t >= 60_000) {
        snapshotAfterMinute = false;
        child?.kill('SIGUSR2');
        log(`heap snapshot after minute 1 -> ${snapshots}`);
      }
    }, SAMPLE_MS);

    // The open loop: request n is due at n / rate seconds; the answers never hold it back.
    let maxLagMs = 0;
    const inflight = new Set<Promise<void>>();
    await new Promise<void>((done) => {
      let stopped = false;
      stopLoad = () => {
        stopped = true;
      };
      const tick = (): void => {
        const now = performance.now();
        const elapsed = now - start;
        if (stopped || elapsed >= durationMs) {
          done();
          return;
        }
        const due = Math.floor((elapsed / 1000) * options.rate);
        while (workload.sent < due) {
          maxLagMs = Math.max(maxLagMs, elapsed - (workload.sent / options.rate) * 1000);
          const p = workload.run(workload.plan(), start);
          inflight.add(p);
          void p.finally(() => inflight.delete(p));
        }
        setTimeout(tick, TICK_MS);
      };
      tick();
    });
    stopLoad = undefined;
    await Promise.all(inflight);
    const actualMs = performance.now() - start;
    clearInterval(sampler);
    const last = sampleProcess(pid, actualMs);
    if (last !== undefined) samples.push(last);
    const cpu = process.cpuUsage(cpuBefore);
    if (allocProfile && allocStarted) {
      const written = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        child?.on('message', (message: unknown) => {
          if ((message as { type?: unknown } | null)?.type !== 'alloc-profile') return;
          clearTimeout(timer);
          resolve();
        });
      });
      if (child.connected) child.send({ type: 'alloc-profile', action: 'stop', file: allocProfile });
      await written;
      log(`allocation profile -> ${allocProfile}`);
    }
    const loadAfter = loadavg();
    checkInterrupted();

    // The deliveries of the api.* events the run committed.
    const waitUntil = Date.now() + DELIVERY_WAIT_MS;
    while (receiver.ids.size < workload.apiEvents && Date.now() < waitUntil) await sleep(200);
    log(`done: ${workload.sent} requests in ${(actualMs / 1000).toFixed(1)} s; ${receiver.ids.size} of ${workload.apiEvents} deliveries`);
    if (snapshots !== undefined) {
      child.kill('SIGUSR2');
      await sleep(5_000);
      log(`heap snapshot at the end -> ${snapshots}`);
    }
    return {
      backend: backend.name,
      minutes: options.minutes,
      rate: options.rate,
      durationMs: actualMs,
      workload,
      samples,
      maxLagMs,
      deliveries: receiver.ids.size,
      deliveryPosts: receiver.posts,
      loadBefore,
      loadAfter,
      benchCpuS: (cpu.user + cpu.system) / 1e6,
    };
  } finally {
    stopping = true;
    client?.close();
    if (child !== undefined) await stopChild(child);
    await receiver.close();
    await prepared.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;
const msText = (value: number): string => (Number.isNaN(value) ? '-' : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`);

interface Verdict {
  readonly errorsOk: boolean;
  readonly rssOk: boolean;
  readonly errors: number;
  readonly minutes: number;
  /** Lowest and highest RSS in the flat window (the last 4 minutes, or 80% of a shorter run), KB. */
  readonly rssMinKb: number;
  readonly rssMaxKb: number;
  readonly spread: number;
}

function heapText(sample: Sample | undefined, pick: (h: NonNullable<Sample['heap']>) => number): string {
  return sample?.heap === undefined ? '-' : mb(pick(sample.heap));
}

/** The lowest V8 heap used sampled in each minute: close to the live heap, so a leak shows as a rise. */
function lowestPerMinute(samples: readonly Sample[]): string {
  const minutes: number[] = [];
  for (const s of samples) {
    if (s.heap === undefined) continue;
    const m = Math.floor(s.t / 60_000);
    minutes[m] = Math.min(minutes[m] ?? Infinity, s.heap.usedKb);
  }
  return minutes.map((kb) => (kb === undefined ? '-' : (kb / 1024).toFixed(0))).join(' / ') + ' MB';
}

function rssAt(samples: readonly Sample[], t: number): Sample | undefined {
  return samples.reduce<Sample | undefined>((best, s) => (best === undefined || Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best), undefined);
}

function report(result: LoadResult): Verdict {
  const w = result.workload;
  const all = [...w.byKind.values()].flatMap((s) => s.latencies);
  const flatFrom = result.durationMs - Math.min(FLAT_WINDOW_MS, result.durationMs * 0.8);
  const flat = result.samples.filter((s) => s.t >= flatFrom - 1);
  const min = flat.reduce((a, s) => (a === undefined || s.rssKb < a.rssKb ? s : a), flat[0]);
  const max = flat.reduce((a, s) => (a === undefined || s.rssKb > a.rssKb ? s : a), flat[0]);
  const spread = min === undefined || max === undefined ? NaN : (max.rssKb - min.rssKb) / min.rssKb;
  const atMinute = rssAt(result.samples, 60_000);
  const end = result.samples.at(-1);
  const lastHeap = result.samples.findLast((s) => s.heap !== undefined);
  const worstWindow = Math.max(...w.windows.filter((x) => x !== undefined).map((x) => percentile(x.latencies, 99)));
  const errorsOk = w.errors === 0;
  const rssOk = spread < RSS_TARGET;
  const flatLabel = flatFrom >= 60_000 - 1 && result.durationMs - flatFrom >= FLAT_WINDOW_MS - 1 ? 'last 4 min' : `last ${((result.durationMs - flatFrom) / 1000).toFixed(0)} s`;
  const serverCpu = end !== undefined && result.samples[0] !== undefined ? (end.cpuS - result.samples[0].cpuS) / (result.durationMs / 1000) : NaN;
  const statuses = ['2xx', '3xx', '412 (expected)', '4xx', '5xx', 'network'].map((k) => `${k} ${w.statuses.get(k) ?? 0}`).join(', ');
  const rows: string[][] = [
    ['figure', 'value'],
    ['duration, target rate', `${(result.durationMs / 1000).toFixed(1)} s at ${result.rate} req/s (open loop)`],
    ['requests sent (answered)', `${w.sent} (${w.answered}), ${(w.sent / (result.durationMs / 1000)).toFixed(1)} req/s`],
    ['by status class', statuses],
    ['errors (5xx, network, unexpected status)', `${w.errors}`],
    ['412 on PATCH If-Match (expected)', `${w.conflicts}`],
    ['latency p50 / p99 / max', `${msText(percentile(all, 50))} / ${msText(percentile(all, 99))} / ${msText(Math.max(...all))}`],
    ['worst 30 s window p99', msText(worstWindow)],
    ['generator lag behind schedule, max', msText(result.maxLagMs)],
    ['RSS at minute 1', atMinute === undefined ? '-' : `${mb(atMinute.rssKb)} (at ${(atMinute.t / 1000).toFixed(0)} s)`],
    ['RSS at the end', end === undefined ? '-' : `${mb(end.rssKb)} (anon ${mb(end.anonKb)}, file ${mb(end.fileKb)})`],
    [`RSS min / max, ${flatLabel}`, min === undefined || max === undefined ? '-' : `${mb(min.rssKb)} (${(min.t / 1000).toFixed(0)} s) / ${mb(max.rssKb)} (${(max.t / 1000).toFixed(0)} s)`],
    ['RSS spread (max-min)/min', `${(spread * 100).toFixed(1)}% (target < ${RSS_TARGET * 100}%)`],
    ['  V8 heap total, minute 1 / end', `${heapText(atMinute, (h) => h.totalKb)} / ${heapText(lastHeap, (h) => h.totalKb)}`],
    ['  malloc arena [heap], minute 1 / end', `${atMinute === undefined ? '-' : mb(atMinute.brkKb)} / ${end === undefined ? '-' : mb(end.brkKb)}`],
    ['  V8 heap used, lowest per minute', lowestPerMinute(result.samples)],
    ['webhook deliveries received', `${result.deliveries} unique of ${w.apiEvents} api.* events committed (${result.deliveryPosts} POSTs)`],
    ['server CPU (mean), bench CPU', `${Math.round(serverCpu * 100)}% of a core, bench ${Math.round((result.benchCpuS / (result.durationMs / 1000)) * 100)}%`],
    ['load average before / after', `${result.loadBefore.map((x) => x.toFixed(2)).join(' ')} / ${result.loadAfter.map((x) => x.toFixed(2)).join(' ')}`],
    ['APIs at the end', `${w.apis.length}`],
    ['zero errors', errorsOk ? 'PASS' : 'FAIL'],
    [`RSS flat within ${RSS_TARGET * 100}%`, rssOk ? 'PASS' : 'FAIL'],
  ];
  console.log('');
  console.log(`== Load run on ${result.backend} ==`);
  console.log(formatTable(rows));

  const ops: string[][] = [['operation', 'count', 'errors', '412', 'p50', 'p99']];
  for (const [kind, stats] of w.byKind) {
    ops.push([kind, `${stats.count}`, `${stats.errors}`, `${stats.conflicts}`, msText(percentile(stats.latencies, 50)), msText(percentile(stats.latencies, 99))]);
  }
  console.log('');
  console.log(formatTable(ops));

  const windows: string[][] = [['window', 'requests', 'errors', 'p50', 'p99', 'RSS at end', 'server CPU']];
  w.windows.forEach((window, i) => {
    if (window === undefined) return;
    const s = rssAt(result.samples, (i + 1) * WINDOW_MS);
    const before = rssAt(result.samples, i * WINDOW_MS);
    const cpu = s !== undefined && before !== undefined && s.t > before.t ? (s.cpuS - before.cpuS) / ((s.t - before.t) / 1000) : NaN;
    windows.push([
      `${(i * WINDOW_MS) / 1000}-${((i + 1) * WINDOW_MS) / 1000} s`,
      `${window.count}`,
      `${window.errors}`,
      msText(percentile(window.latencies, 50)),
      msText(percentile(window.latencies, 99)),
      s === undefined ? '-' : mb(s.rssKb),
      Number.isNaN(cpu) ? '-' : `${Math.round(cpu * 100)}%`,
    ]);
  });
  console.log('');
  console.log(formatTable(windows));
  console.log(`RSS samples every ${SAMPLE_MS / 1000} s (MB): ${result.samples.map((s) => (s.rssKb / 1024).toFixed(0)).join(' ')}`);
  const heap = (pick: (h: NonNullable<Sample['heap']>) => number): string => result.samples.map((s) => (s.heap === undefined ? '-' : (pick(s.heap) / 1024).toFixed(0))).join(' ');
  console.log(`V8 heap used, same samples (MB):  ${heap((h) => h.usedKb)}`);
  console.log(`V8 heap total, same samples (MB): ${heap((h) => h.totalKb)}`);
  console.log(`external, same samples (MB):      ${heap((h) => h.externalKb)}`);
  console.log(`malloc [heap], same samples (MB):  ${result.samples.map((s) => (s.brkKb / 1024).toFixed(0)).join(' ')}`);
  console.log(`Slowest requests: ${w.slowest.map((r) => `${msText(r.ms)} (${r.what}, sent at ${(r.at / 1000).toFixed(1)} s)`).join('; ')}`);
  if (w.errorSamples.length > 0) {
    console.log('First errors:');
    for (const e of w.errorSamples) console.log(`  at ${(e.at / 1000).toFixed(1)} s ${e.what}: ${e.detail}`);
  }
  return { errorsOk, rssOk, errors: w.errors, minutes: result.minutes, rssMinKb: min?.rssKb ?? NaN, rssMaxKb: max?.rssKb ?? NaN, spread };
}

// ---------------------------------------------------------------------------------------------
// Main

export type LoadVerdict = { readonly backend: string } & Verdict;

/** Runs the mixed load on each backend, printing each report as its run ends. */
export async function benchLoad(backends: readonly Backend[], options: Pick<Options, 'minutes' | 'rate'>): Promise<{ results: LoadVerdict[]; failure?: Error }> {
  const results: LoadVerdict[] = [];
  try {
    // Each report as soon as its run ends: a later failure must not lose it.
    for (const backend of backends) {
      const result = await loadBackend(backend, { ...options, database: 'both' });
      results.push({ backend: result.backend, ...report(result) });
    }
    return { results };
  } catch (error) {
    return { results, failure: error instanceof Error ? error : new Error('load run failed', { cause: error }) };
  } finally {
    await stopAllChildren();
  }
}

/** Figure 7's memory rows: RSS below 200 MB and flat within 10% after the run. */
export function summarizeLoad(results: readonly LoadVerdict[]): SummaryRow[] {
  return results.map((r) => ({
    figure: `RSS after ${r.minutes} min of mixed load at 200 req/s, ${r.errors} errors [${r.backend}]`,
    specbase: `${mb(r.rssMinKb)}-${mb(r.rssMaxKb)} (spread ${(r.spread * 100).toFixed(1)}%)`,
    baseline: '-',
    ratio: '-',
    target: `< ${RSS_LIMIT_MB} MB, flat < ${RSS_TARGET * 100}%`,
    met: r.errorsOk && r.rssOk && r.rssMaxKb / 1024 < RSS_LIMIT_MB,
  }));
}

async function main(): Promise<void> {
  installSignalHandlers();
  const options = parseOptions();
  const { results: verdicts, failure } = await benchLoad(chooseBackends(options.database), options);
  if (failure !== undefined) throw failure;
  console.log('');
  for (const v of verdicts) console.log(`${v.backend}: zero errors ${v.errorsOk ? 'PASS' : 'FAIL'}; RSS flat ${v.rssOk ? 'PASS' : 'FAIL'}`);
  const pass = verdicts.every((v) => v.errorsOk && v.rssOk);
  console.log(pass ? 'PASS' : 'FAIL');
  if (!pass) process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof Interrupted || isInterrupted()) {
      process.exitCode = 130;
      return;
    }
    console.error('load run failed:', error);
    process.exitCode = 1;
  });
}
