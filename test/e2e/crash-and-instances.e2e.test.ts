import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { ensureBuilt } from '../support/built-cli.js';
import {
  type Child,
  command,
  countBy,
  describePostgres,
  dropSchema,
  environment,
  kill,
  logged,
  logLines,
  printChildren,
  start,
  stopAll,
  waitUntil,
  withDatabase,
} from '../support/cli-processes.js';
import { WebhookReceiver, type Received } from '../support/webhook-receiver.js';

/*
 * Crash safety and several instances, with the built command against PostgreSQL:
 *
 * 1. `specbase serve` (with its own webhook worker) SIGKILLed at random points of a burst of
 *    writes, restarted on the same schema: every acknowledged write is in the database, nothing
 *    unacknowledged is except writes in flight at a kill (the database says which landed), every
 *    committed change's event reaches the webhook at least once, and no event announces a change
 *    that is not committed.
 * 2. The same with a separate `specbase worker` SIGKILLed instead: every event at least once.
 * 3. Three `serve` processes on one schema, concurrent PATCHes with If-Match spread over them: no
 *    lost update, every refusal a 412, every event delivered exactly once per webhook.
 *
 * The random choices (what each client lane writes, when a process is killed) come from a seed
 * printed with each test; SPECBASE_CRASH_SEED=<n> repeats them (timing still varies).
 */

const SUITE = 'e2e: crash safety and several instances on PostgreSQL';
const BASE_SEED = Number(process.env['SPECBASE_CRASH_SEED'] || randomBytes(4).readUInt32BE(0)) >>> 0;

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
const between = (random: () => number, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Fast settling: a quick poll, short retries, and a lease (WEBHOOK_TIMEOUT_MS + 5 s) of 5.5 s. */
const FAST_WEBHOOKS = { WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_TIMEOUT_MS: '500', LOG_LEVEL: 'info' };

// ---------------------------------------------------------------------------------------------
// HTTP as a client sees it: an answer, or no answer.

type Outcome =
  | { readonly kind: 'response'; readonly status: number; readonly etag: string | null; readonly body: Record<string, unknown> | undefined }
  /** The connection was refused: the request never reached a server. */
  | { readonly kind: 'unsent'; readonly error: string }
  /** Sent, but no (complete) answer: it may or may not have been carried out. */
  | { readonly kind: 'lost'; readonly error: string };

async function call(base: string, token: string, method: string, path: string, body?: unknown, ifMatch?: number): Promise<Outcome> {
  try {
    const response = await fetch(base + path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      json = { text };
    }
    return { kind: 'response', status: response.status, etag: response.headers.get('etag'), body: json };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.name : String(error);
    return code === 'ECONNREFUSED' ? { kind: 'unsent', error: code } : { kind: 'lost', error: code };
  }
}

/**
 * Where the client sends requests: the current server, or nowhere while it is being restarted
 * (requests wait for the next one). `generation` counts the servers.
 */
class Gate {
  generation = 0;
  private closed: Promise<void> | undefined;
  private open: (() => void) | undefined;

  constructor(public url: string) {}

  close(): void {
    this.closed = new Promise((resolve) => (this.open = resolve));
  }

  reopen(url: string): void {
    this.url = url;
    this.generation += 1;
    this.closed = undefined;
    this.open?.();
  }

  async ready(): Promise<void> {
    while (this.closed) await this.closed;
  }
}

// ---------------------------------------------------------------------------------------------
// The write burst: lanes that each create an API, PATCH it a few times (If-Match, each on the
// revision before) and sometimes delete it, one request at a time per lane, several lanes at once.

interface WriteOp {
  readonly lane: number;
  readonly kind: 'create' | 'patch' | 'delete';
  readonly nickname: string;
  apiId: string | undefined;
  /** The name the request sets (create, patch). */
  readonly name: string | undefined;
  readonly ifMatch: number | undefined;
  generation: number;
  outcome: 'pending' | 'ack' | 'refused' | 'lost' | 'unsent';
  status?: number;
  error?: string;
  /** For a patch or delete without an answer: whether the database showed it carried out. */
  landed?: boolean;
  anomaly?: string;
}

interface BurstOptions {
  readonly gate: Gate;
  readonly token: string;
  readonly accountId: number;
  readonly seed: number;
  readonly lanes: number;
  /** Checked before each new API: true stops the lane. */
  readonly done: () => boolean;
  /** Called once each request has been handed to the network. */
  readonly onRequest?: () => void;
}

interface Burst {
  readonly ops: WriteOp[];
  inFlight: number;
}

async function writeBurst(options: BurstOptions, burst: Burst): Promise<void> {
  const { gate, token, accountId } = options;
  const record = (op: Omit<WriteOp, 'generation' | 'outcome'>): WriteOp => {
    const full: WriteOp = { ...op, generation: -1, outcome: 'pending' };
    burst.ops.push(full);
    return full;
  };

  /** Sends `op`'s request to the current server; resolves to the body of a 2xx, else undefined. */
  const send = async (op: WriteOp, method: string, path: string, body?: unknown, ifMatch?: number): Promise<Record<string, unknown> | undefined> => {
    await gate.ready();
    op.generation = gate.generation;
    burst.inFlight += 1;
    const pending = call(gate.url, token, method, path, body, ifMatch);
    options.onRequest?.();
    const outcome = await pending;
    burst.inFlight -= 1;
    if (outcome.kind !== 'response') {
      op.outcome = outcome.kind;
      op.error = outcome.error;
      return undefined;
    }
    op.status = outcome.status;
    op.outcome = outcome.status >= 200 && outcome.status < 300 ? 'ack' : 'refused';
    if (op.outcome === 'refused') op.error = JSON.stringify(outcome.body);
    return op.outcome === 'ack' ? (outcome.body ?? {}) : undefined;
  };

  /** The API as the database has it now (through the current server, waiting out restarts). */
  const reread = async (apiId: string): Promise<{ status: number; revision?: number; name?: string }> => {
    for (;;) {
      await gate.ready();
      const outcome = await call(gate.url, token, 'GET', `/api/${accountId}/${apiId}`);
      if (outcome.kind === 'response') {
        return { status: outcome.status, revision: outcome.body?.['revision'] as number, name: outcome.body?.['name'] as string };
      }
      await sleep(20);
    }
  };

  const lane = async (l: number): Promise<void> => {
    const random = seeded(options.seed + 7919 * (l + 1));
    for (let n = 0; !options.done(); n++) {
      const nickname = `l${l}-${n}`;
      const name = `API ${nickname}`;
      const create = record({ lane: l, kind: 'create', nickname, apiId: undefined, name, ifMatch: undefined });
      const created = await send(create, 'POST', `/api/${accountId}`, { name, nickname });
      // Not acknowledged: the database tells at the end whether it landed.
      if (!created) continue;
      const api = { id: created['id'] as string, revision: 1, name };
      create.apiId = api.id;
      if (created['revision'] !== 1) create.anomaly = `created with revision ${String(created['revision'])}`;

      const patches = between(random, 1, 3);
      let usable = true;
      for (let p = 0; p < patches && usable; p++) {
        const newName = `${nickname} r${api.revision + 1}`;
        const op = record({ lane: l, kind: 'patch', nickname, apiId: api.id, name: newName, ifMatch: api.revision });
        const patched = await send(op, 'PATCH', `/api/${accountId}/${api.id}`, { name: newName }, api.revision);
        if (patched) {
          if (patched['revision'] !== api.revision + 1) op.anomaly = `If-Match "${api.revision}" answered revision ${String(patched['revision'])}`;
          api.revision += 1;
          api.name = newName;
        } else if (op.outcome === 'refused') {
          usable = false;
        } else {
          // No answer: look at what the database holds now.
          const now = await reread(api.id);
          if (now.status === 200 && now.revision === api.revision + 1 && now.name === newName) {
            op.landed = true;
            api.revision += 1;
            api.name = newName;
          } else if (now.status === 200 && now.revision === api.revision && now.name === api.name) {
            op.landed = false;
          } else {
            op.anomaly = `after the kill the API reads ${now.status} revision ${now.revision} name ${now.name}; before it: revision ${api.revision} name ${api.name}`;
            usable = false;
          }
        }
      }
      if (usable && random() < 0.3) {
        const op = record({ lane: l, kind: 'delete', nickname, apiId: api.id, name: undefined, ifMatch: undefined });
        if (!(await send(op, 'DELETE', `/api/${accountId}/${api.id}`)) && op.outcome !== 'refused') {
          const now = await reread(api.id);
          if (now.status === 404) op.landed = true;
          else if (now.status === 200 && now.revision === api.revision) op.landed = false;
          else op.anomaly = `after the kill the API reads ${now.status} revision ${now.revision}`;
        }
      }
    }
  };

  await Promise.all(Array.from({ length: options.lanes }, (_, l) => lane(l)));
}

// ---------------------------------------------------------------------------------------------
// The database's view, the expected state, and the receiver's view.

interface ApiRow {
  id: string;
  nickname: string;
  name: string;
  revision: number;
}
interface EventRow {
  id: string;
  name: string;
  resourceId: string;
  /** The API's revision the event announces (api.updated). */
  revision: number | undefined;
  dispatched: boolean;
}

/** What makes an event one of a kind: an API's creation or deletion, or one revision of it (api.updated, once per PATCH). */
function eventKey(name: string, resourceId: string, revision: number | undefined): string {
  return name === 'api.updated' ? `${name} ${resourceId} r${revision}` : `${name} ${resourceId}`;
}

async function databaseState(schema: string, accountId: number): Promise<{ apis: ApiRow[]; events: EventRow[]; pendingDeliveries: number }> {
  return withDatabase(async (c) => {
    const s = c.escapeIdentifier(schema);
    const apis = (await c.query<ApiRow>(`SELECT id, nickname, name, revision FROM ${s}.apis WHERE account_id = $1`, [accountId])).rows;
    const events = (
      await c.query<{ id: string; name: string; payload: string; dispatched_at: Date | null }>(
        `SELECT id, name, payload, dispatched_at FROM ${s}.outbox_events WHERE account_id = $1`,
        [accountId],
      )
    ).rows.map((row) => ({
      id: row.id,
      name: row.name,
      resourceId: (JSON.parse(row.payload) as { resource: { id: string } }).resource.id,
      revision: (JSON.parse(row.payload) as { resource: { revision?: number } }).resource.revision,
      dispatched: row.dispatched_at !== null,
    }));
    const pending = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${s}.webhook_deliveries WHERE state = 'pending'`);
    return { apis, events, pendingDeliveries: Number(pending.rows[0]!.n) };
  });
}

/** Webhooks leased now: claimed by a worker that has not recorded its run (or was killed before it could). */
async function leased(schema: string): Promise<number> {
  return withDatabase(async (c) => {
    const result = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${c.escapeIdentifier(schema)}.webhooks WHERE lease_until > now()`);
    return Number(result.rows[0]!.n);
  });
}

interface Expected {
  /** API id -> what the database must hold. */
  readonly apis: Map<string, { nickname: string; name: string; revision: number }>;
  /** `<event name> <api id>` of every committed change. */
  readonly events: Set<string>;
  /** Numbers for the report. */
  readonly counts: Record<string, number>;
  readonly problems: string[];
}

/**
 * What the database must hold after `ops`: acknowledged writes, plus writes without an answer
 * that the database shows carried out (creates looked up by nickname in `rows`; patches and
 * deletes were checked by the lanes when they went on).
 */
function expectedState(ops: readonly WriteOp[], rows: readonly ApiRow[]): Expected {
  const byNickname = new Map(rows.map((r) => [r.nickname, r]));
  const apis = new Map<string, { nickname: string; name: string; revision: number }>();
  const events = new Set<string>();
  const problems: string[] = [];
  const counts: Record<string, number> = {};
  const count = (key: string): void => void (counts[key] = (counts[key] ?? 0) + 1);
  for (const op of ops) {
    if (op.kind !== 'create' || op.outcome === 'ack') count(`${op.kind} ${op.outcome}${op.landed === undefined ? '' : op.landed ? ' landed' : ' not landed'}`);
    if (op.anomaly) problems.push(`${op.kind} ${op.nickname}: ${op.anomaly}`);
    if (op.outcome === 'refused') problems.push(`${op.kind} ${op.nickname} refused with ${op.status}: ${op.error}`);
    if (op.outcome === 'pending') problems.push(`${op.kind} ${op.nickname} never finished`);
    if (op.kind === 'create') {
      const row = byNickname.get(op.nickname);
      let landed: boolean;
      if (op.outcome === 'ack') {
        landed = true;
        // Whether it is still there (it may have been deleted since) is checked against the end state.
        if (row && row.id !== op.apiId) problems.push(`create ${op.nickname}: the database has id ${row.id}, the client was told ${op.apiId}`);
      } else {
        // No answer (or a refusal): the database says whether it landed.
        landed = row !== undefined;
        count(`create ${op.outcome} ${landed ? 'landed' : 'not landed'}`);
        if (landed && op.outcome !== 'lost') problems.push(`create ${op.nickname} (${op.outcome}${op.error ? ` ${op.error}` : ''}) is in the database though it never reached a server or was refused`);
        if (landed) op.apiId = row!.id;
      }
      if (landed && op.apiId !== undefined) {
        apis.set(op.apiId, { nickname: op.nickname, name: op.name!, revision: 1 });
        events.add(`api.created ${op.apiId}`);
      }
    } else {
      const api = apis.get(op.apiId!);
      const landed = op.outcome === 'ack' || op.landed === true;
      if (op.outcome === 'unsent' && op.landed === true) problems.push(`${op.kind} ${op.nickname} landed though its connection was refused`);
      if (!landed) continue;
      if (!api) {
        problems.push(`${op.kind} ${op.nickname} landed on an API the client does not know`);
        continue;
      }
      if (op.kind === 'patch') {
        api.revision += 1;
        events.add(eventKey('api.updated', op.apiId!, api.revision));
        api.name = op.name!;
      } else {
        apis.delete(op.apiId!);
        events.add(`api.deleted ${op.apiId}`);
      }
    }
  }
  return { apis, events, counts, problems };
}

/** Both signatures of a delivery, as docs/webhooks.md tells a receiver to check them; the problem, or null. */
function signatureProblem(r: Received, secret: string, targetUrl: string): string | null {
  const key = Buffer.from(secret, 'utf8');
  const raw = Buffer.from(r.body, 'utf8');
  const service = createHmac('sha256', key).update(Buffer.concat([Buffer.from(targetUrl, 'utf8'), raw])).digest('hex');
  if (r.headers['x-service-signature'] !== service) return `X-Service-Signature ${String(r.headers['x-service-signature'])} != ${service}`;
  const id = r.headers['webhook-id'];
  const timestamp = r.headers['webhook-timestamp'];
  const standard = createHmac('sha256', key).update(Buffer.concat([Buffer.from(`${String(id)}.${String(timestamp)}.`, 'utf8'), raw])).digest('base64');
  const offered = String(r.headers['webhook-signature'] ?? '').split(' ');
  if (!offered.includes(`v1,${standard}`)) return `webhook-signature ${offered.join(' ')} != v1,${standard}`;
  if (typeof timestamp !== 'string' || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return `webhook-timestamp ${String(timestamp)}`;
  if (id !== r.eventId) return `webhook-id ${String(id)} != body id ${String(r.eventId)}`;
  return null;
}

/** Error and fatal log lines (pino levels 50 and 60) of the given processes. */
function errorLines(processes: readonly Child[]): string[] {
  return processes.flatMap((child) =>
    logLines(child)
      .filter((line) => typeof line['level'] === 'number' && line['level'] >= 50)
      .map((line) => `${child.name}: ${JSON.stringify(line).slice(0, 400)}`),
  );
}

// ---------------------------------------------------------------------------------------------

describePostgres(SUITE, 'several server and worker processes share one PostgreSQL database', function () {
  this.timeout(60_000);
  let receiver: WebhookReceiver | undefined;
  let seed = BASE_SEED;

  interface Prepared {
    readonly schema: string;
    readonly env: (extra?: Record<string, string>) => NodeJS.ProcessEnv;
    readonly accountId: number;
    readonly token: string;
  }
  interface Setup extends Prepared {
    readonly receiver: WebhookReceiver;
    readonly receiverUrl: string;
  }
  let setup: Setup | undefined;
  /** One schema per test with a user and its token, made together up front (each command takes a second or two). */
  let prepared: Prepared[] = [];
  const schemas: string[] = [];

  async function prepare(): Promise<Prepared> {
    const schema = `specbase_e2e_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => environment(schema, extra);
    // Every command runs the migrations first.
    const email = 'ops@example.com';
    const user = await command(['user', 'create', '--email', email, '--password', 'a long passphrase', '--nickname', 'ops', '--verified'], env());
    const issued = await command(['token', 'create', '--email', email, '--name', 'e2e', '--scopes', 'api,webhook'], env());
    return { schema, env, accountId: user['accountId'] as number, token: issued['token'] as string };
  }

  before(async function () {
    this.timeout(180_000);
    ensureBuilt();
    prepared = await Promise.all([1, 2, 3].map(() => prepare()));
  });

  beforeEach(async function () {
    this.timeout(30_000);
    const next = prepared.shift() ?? (await prepare());
    receiver = new WebhookReceiver();
    const receiverUrl = await receiver.start();
    setup = { ...next, receiver, receiverUrl };
  });

  async function cleanUp(): Promise<void> {
    await stopAll();
    await receiver?.stop();
    receiver = undefined;
    setup = undefined;
  }

  afterEach(async function () {
    this.timeout(30_000);
    if (this.currentTest?.state === 'failed') {
      console.log(`      seed ${seed}: SPECBASE_CRASH_SEED=${BASE_SEED} repeats this run's choices`);
      printChildren();
    }
    const used = setup?.schema;
    await cleanUp();
    if (used !== undefined) {
      schemas.splice(schemas.indexOf(used), 1);
      await dropSchema(used);
    }
  });

  after(async function () {
    this.timeout(30_000);
    await cleanUp();
    await Promise.all(schemas.splice(0).map((schema) => dropSchema(schema)));
  });

  async function startServer(name: string, env: NodeJS.ProcessEnv): Promise<{ child: Child; url: string }> {
    const child = start(name, ['serve'], env);
    const listening = await logged(child, 'listening');
    return { child, url: listening['url'] as string };
  }

  /** A webhook on `path` of the receiver for api.created, api.updated and api.deleted, with a secret of ours. */
  async function createWebhook(s: Setup, base: string, path: string): Promise<{ id: string; targetUrl: string; secret: string }> {
    const targetUrl = `${s.receiverUrl}${path}`;
    const secret = randomBytes(24).toString('hex');
    const outcome = await call(base, s.token, 'POST', `/webhooks/${s.accountId}`, { targetUrl, events: ['api.created', 'api.updated', 'api.deleted'], secret, active: true });
    expect(outcome.kind === 'response' && outcome.status, JSON.stringify(outcome)).to.equal(201);
    return { id: (outcome as { body: Record<string, unknown> }).body['id'] as string, targetUrl, secret };
  }

  /**
   * Waits until every committed event reached the receiver and no delivery is pending, then checks
   * the database against the client's record and the deliveries against the database.
   */
  async function verifyBurst(
    s: Setup,
    ops: readonly WriteOp[],
    hook: { targetUrl: string; secret: string },
  ): Promise<{ expected: Expected; events: EventRow[]; received: Received[]; settledMs: number }> {
    const settleStarted = Date.now();
    let state = await databaseState(s.schema, s.accountId);
    const receivedIds = (): Set<string> => new Set(s.receiver.received.map((r) => r.webhookId ?? ''));
    await s.receiver.until(() => state.events.every((e) => receivedIds().has(e.id)), 45_000, `all ${state.events.length} committed events`);
    await waitUntil(
      async () => {
        state = await databaseState(s.schema, s.accountId);
        return state.pendingDeliveries === 0 && state.events.every((e) => e.dispatched);
      },
      15_000,
      'no pending delivery',
    );
    const settledMs = Date.now() - settleStarted;
    await sleep(300); // a few poll intervals, for any late second delivery

    const expected = expectedState(ops, state.apis);
    expect(expected.problems, 'the client saw something wrong').to.deep.equal([]);

    // The database holds exactly the committed changes.
    const rows = new Map(state.apis.map((r) => [r.id, r]));
    const missing = [...expected.apis.entries()].filter(([id]) => !rows.has(id)).map(([id, e]) => `${e.nickname} ${id}`);
    const extra = state.apis.filter((r) => !expected.apis.has(r.id)).map((r) => `${r.nickname} ${r.id}`);
    const wrong = [...expected.apis.entries()]
      .filter(([id, e]) => rows.has(id) && (rows.get(id)!.revision !== e.revision || rows.get(id)!.name !== e.name))
      .map(([id, e]) => `${e.nickname}: expected revision ${e.revision} "${e.name}", database has ${rows.get(id)!.revision} "${rows.get(id)!.name}"`);
    expect(missing, 'committed APIs missing from the database').to.deep.equal([]);
    expect(extra, 'APIs in the database that no write accounts for').to.deep.equal([]);
    expect(wrong, 'APIs whose state differs from the writes that landed').to.deep.equal([]);

    // The outbox holds one event per committed change, and nothing else.
    const outboxKeys = state.events.map((e) => eventKey(e.name, e.resourceId, e.revision));
    expect([...countBy(outboxKeys, (k) => k).entries()].filter(([, n]) => n > 1), 'changes with more than one event').to.deep.equal([]);
    expect(outboxKeys.filter((k) => !expected.events.has(k)), 'events for changes that were not committed').to.deep.equal([]);
    expect([...expected.events].filter((k) => !outboxKeys.includes(k)), 'committed changes without an event').to.deep.equal([]);

    // Every event delivered at least once; nothing delivered that is not a committed event.
    const received = s.receiver.received;
    const byId = new Map(state.events.map((e) => [e.id, e]));
    const strangers = received.filter((r) => !byId.has(r.webhookId ?? '')).map((r) => `${r.webhookId} ${r.event} ${r.resourceId}`);
    expect(strangers, 'deliveries of events that are not committed').to.deep.equal([]);
    const mismatched = received.filter((r) => {
      const e = byId.get(r.webhookId!)!;
      return r.event !== e.name || r.resourceId !== e.resourceId || r.eventId !== e.id;
    });
    expect(mismatched.map((r) => r.body.slice(0, 200)), 'deliveries whose body differs from the event').to.deep.equal([]);
    const ids = new Set(received.map((r) => r.webhookId));
    expect(state.events.filter((e) => !ids.has(e.id)).map((e) => `${e.name} ${e.resourceId}`), 'events never delivered').to.deep.equal([]);
    const badSignatures = received.map((r) => signatureProblem(r, hook.secret, hook.targetUrl)).filter((p) => p !== null);
    expect(badSignatures, 'deliveries with a bad signature').to.deep.equal([]);
    expect(received.every((r) => r.path === new URL(hook.targetUrl).pathname)).to.equal(true);
    return { expected, events: state.events, received, settledMs };
  }

  it('a server SIGKILLed at random points of a write burst loses no committed change and announces each at least once', async function () {
    const s = setup!;
    seed = (BASE_SEED + 1) >>> 0;
    const random = seeded(seed);
    const KILLS = 3; // during the burst, and one more after it
    const LANES = 6;
    const TAIL = 40; // requests after the last restart
    const env = s.env({ PORT: '0', ...FAST_WEBHOOKS });
    const servers: Child[] = [];
    const first = await startServer('serve 1', env);
    servers.push(first.child);
    const hook = await createWebhook(s, first.url, '/crash');
    const gate = new Gate(first.url);
    let current = first.child;

    const burst: Burst = { ops: [], inFlight: 0 };
    const kills: { afterRequests: number; jitterMs: number; inFlight: number; received: number; stranded: number; restartMs: number }[] = [];
    let failure: Error | undefined;
    let killing = false;
    let requests = 0;
    let threshold = between(random, 20, 80);
    const started = Date.now();

    const crash = async (jitterMs: number): Promise<void> => {
      gate.close();
      const inFlight = burst.inFlight;
      const received = s.receiver.received.length;
      await kill(current);
      const restarting = Date.now();
      const [stranded, next] = await Promise.all([leased(s.schema), startServer(`serve ${servers.length + 1}`, env)]);
      servers.push(next.child);
      current = next.child;
      kills.push({ afterRequests: requests, jitterMs, inFlight, received, stranded, restartMs: Date.now() - restarting });
      requests = 0;
      threshold = between(random, 20, 80);
      killing = false;
      gate.reopen(next.url);
    };

    await writeBurst(
      {
        gate,
        token: s.token,
        accountId: s.accountId,
        seed,
        lanes: LANES,
        done: () => failure !== undefined || (kills.length >= KILLS && requests >= TAIL),
        onRequest: () => {
          requests += 1;
          if (killing || kills.length >= KILLS || requests < threshold) return;
          killing = true;
          // A moment later, so that the request just sent, and others, are in flight.
          const jitterMs = between(random, 0, 15);
          setTimeout(() => crash(jitterMs).catch((error: unknown) => (failure = error instanceof Error ? error : new Error(String(error)))), jitterMs);
        },
      },
      burst,
    );
    if (failure !== undefined) throw failure;
    const wrote = Date.now();
    expect(kills, 'kills').to.have.length(KILLS);
    for (const op of burst.ops) {
      if (op.outcome === 'lost' || op.outcome === 'unsent') {
        expect(op.generation, `${op.kind} ${op.nickname} got no answer from a server that was not killed (${op.error})`).to.be.below(KILLS);
      }
    }

    // During the burst the server's worker is mostly dispatching (it sends one delivery per webhook
    // per round, after dispatching every new event), so one more kill while it works off the
    // backlog, answers held 20 ms: that one often catches a delivery sent but not yet recorded.
    s.receiver.delayMs = 20;
    const afterPosts = between(random, 3, 25);
    const finalJitterMs = between(random, 0, 30);
    const base = s.receiver.received.length;
    await s.receiver.until(() => s.receiver.received.length >= base + afterPosts, 30_000, `${afterPosts} POSTs after the burst`);
    await sleep(finalJitterMs);
    await crash(finalJitterMs);
    s.receiver.delayMs = 0;
    kills[KILLS]!.afterRequests = -afterPosts;

    const { expected, events, received, settledMs } = await verifyBurst(s, burst.ops, hook);
    expect(errorLines(servers), 'error log lines').to.deep.equal([]);
    const counts = countBy(received, (r) => r.webhookId!);
    console.log(
      `      SPECBASE_CRASH_SEED=${BASE_SEED} (this test: seed ${seed}); kills after ${kills.map((k) => `${k.afterRequests >= 0 ? `${k.afterRequests} requests` : `the burst and ${-k.afterRequests} more POSTs`} +${k.jitterMs} ms (${k.inFlight} requests in flight, ${k.received} POSTs received, ${k.stranded} webhook(s) leased at the kill; restart ${k.restartMs} ms)`).join(', ')}; ` +
        `${burst.ops.length} writes in ${((wrote - started) / 1000).toFixed(1)} s: ${JSON.stringify(expected.counts)}; ` +
        `${expected.apis.size} APIs at the end; ${events.length} events, ${received.length} POSTs (${received.length - counts.size} duplicates), all delivered ${(settledMs / 1000).toFixed(1)} s after the last restart`,
    );
  });

  it('a delivery worker SIGKILLed at random points still delivers every committed event at least once', async function () {
    const s = setup!;
    seed = (BASE_SEED + 2) >>> 0;
    const random = seeded(seed);
    const KILLS = 3;
    const server = await startServer('serve', s.env({ PORT: '0', ...FAST_WEBHOOKS, WEBHOOK_WORKER: 'false' }));
    const hook = await createWebhook(s, server.url, '/worker-crash');
    const workerEnv = s.env(FAST_WEBHOOKS);
    const workers: Child[] = [];
    const startWorker = async (): Promise<Child> => {
      const worker = start(`worker ${workers.length + 1}`, ['worker'], workerEnv);
      workers.push(worker);
      await logged(worker, 'webhook worker started');
      return worker;
    };
    let worker = await startWorker();
    // Each answer 25 ms away: a kill soon after a POST arrives often catches the next one in flight
    // (sent, its attempt not yet recorded), which must then be sent again.
    s.receiver.delayMs = 25;

    // The writes, all acknowledged (the server stays up), while the worker is killed and restarted.
    const gate = new Gate(server.url);
    const burst: Burst = { ops: [], inFlight: 0 };
    const CYCLES = 60; // APIs created
    let creates = 0;
    const started = Date.now();
    let wrote = 0;
    const writing = writeBurst({ gate, token: s.token, accountId: s.accountId, seed, lanes: 4, done: () => creates++ >= CYCLES }, burst).then(
      () => void (wrote = Date.now()),
    );

    // Each kill comes after a few more POSTs (the worker busy sending) or after a random time
    // (perhaps while it waits out the lease a killed predecessor left), whichever is first.
    const kills: { trigger: string; jitterMs: number; receivedAtKill: number; stranded: number }[] = [];
    for (let k = 0; k < KILLS; k++) {
      const afterPosts = between(random, 1, 10);
      const deadlineMs = between(random, 300, 3_000);
      const jitterMs = between(random, 0, 40);
      const base = s.receiver.received.length;
      const trigger = await s.receiver.until(() => s.receiver.received.length >= base + afterPosts, deadlineMs, 'posts').then(
        () => `${afterPosts} POSTs`,
        () => `${deadlineMs} ms`,
      );
      await sleep(jitterMs);
      const receivedAtKill = s.receiver.received.length;
      await kill(worker);
      const [stranded] = await Promise.all([leased(s.schema), startWorker().then((w) => (worker = w))]);
      kills.push({ trigger, jitterMs, receivedAtKill, stranded });
    }
    s.receiver.delayMs = 0;
    await writing;
    const killed = Date.now();
    expect(burst.ops.filter((op) => op.outcome !== 'ack'), 'writes not acknowledged').to.deep.equal([]);

    const { expected, events, received, settledMs } = await verifyBurst(s, burst.ops, hook);
    expect(errorLines([server.child, ...workers]), 'error log lines').to.deep.equal([]);
    const counts = countBy(received, (r) => r.webhookId!);
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    console.log(
      `      SPECBASE_CRASH_SEED=${BASE_SEED} (this test: seed ${seed}); worker kills after ${kills.map((k) => `${k.trigger} +${k.jitterMs} ms (${k.receivedAtKill} received, ${k.stranded} webhook(s) leased at the kill)`).join(', ')}; ` +
        `${burst.ops.length} writes in ${((wrote - started) / 1000).toFixed(1)} s (${expected.apis.size} APIs at the end); ` +
        `${events.length} events, ${received.length} POSTs (${duplicated} event(s) twice or more); kills done ${((killed - started) / 1000).toFixed(1)} s after the first write, all delivered ${(settledMs / 1000).toFixed(1)} s later`,
    );
  });

  it('three servers on one database: concurrent If-Match PATCHes lose no update, refusals are 412, each event delivered once per webhook', async function () {
    const s = setup!;
    seed = (BASE_SEED + 3) >>> 0;
    const random = seeded(seed);
    const env = s.env({ PORT: '0', WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_BASE_MS: '50', LOG_LEVEL: 'info' });
    const servers = await Promise.all([1, 2, 3].map((n) => startServer(`serve ${n}`, env)));
    const urls = servers.map((x) => x.url);
    const hooks = [await createWebhook(s, urls[0]!, '/a'), await createWebhook(s, urls[1]!, '/b')];
    const patchesPerServer = urls.map(() => 0);
    const pick = (): number => between(random, 0, urls.length - 1);

    const HOT = 4;
    const LANES = 8;
    const PER_LANE = 12;
    const hot: { id: string; nickname: string }[] = [];
    for (let i = 0; i < HOT; i++) {
      const outcome = await call(urls[i % 3]!, s.token, 'POST', `/api/${s.accountId}`, { name: `hot ${i}`, nickname: `hot-${i}` });
      expect(outcome.kind === 'response' && outcome.status).to.equal(201);
      hot.push({ id: (outcome as { body: Record<string, unknown> }).body['id'] as string, nickname: `hot-${i}` });
    }

    const successes: { api: number; ifMatch: number; revision: number; etag: string | null; name: string }[] = [];
    const refusals: { status: number; body: string }[] = [];
    let conflicts = 0;
    const patchLane = async (l: number): Promise<void> => {
      for (let step = 0; step < PER_LANE; step++) {
        const target = between(random, 0, HOT - 1);
        const api = hot[target]!;
        for (let attempt = 0; ; attempt++) {
          if (attempt > 500) throw new Error(`lane ${l}: no PATCH of ${api.nickname} went through in 500 attempts`);
          const read = await call(urls[pick()]!, s.token, 'GET', `/api/${s.accountId}/${api.id}`);
          if (read.kind !== 'response' || read.status !== 200) throw new Error(`GET ${api.nickname}: ${JSON.stringify(read)}`);
          const revision = Number(/^"(\d+)"$/.exec(read.etag ?? '')?.[1]);
          const name = `hot ${target} by lane ${l} step ${step} attempt ${attempt}`;
          const via = pick();
          patchesPerServer[via]! += 1;
          const write = await call(urls[via]!, s.token, 'PATCH', `/api/${s.accountId}/${api.id}`, { name }, revision);
          if (write.kind !== 'response') throw new Error(`PATCH ${api.nickname}: ${JSON.stringify(write)}`);
          if (write.status === 200) {
            successes.push({ api: target, ifMatch: revision, revision: write.body?.['revision'] as number, etag: write.etag, name });
            break;
          }
          if (write.status === 412) {
            conflicts += 1;
            continue;
          }
          refusals.push({ status: write.status, body: JSON.stringify(write.body) });
          break;
        }
      }
    };

    // Meanwhile, events: APIs created and some deleted, spread over the three servers.
    const CREATED = 20;
    const DELETED = 10;
    const writeFailures: string[] = [];
    const eventLane = async (): Promise<void> => {
      const ids: string[] = [];
      for (let i = 0; i < CREATED; i++) {
        const outcome = await call(urls[i % 3]!, s.token, 'POST', `/api/${s.accountId}`, { name: `event ${i}`, nickname: `event-${i}` });
        if (outcome.kind !== 'response' || outcome.status !== 201) writeFailures.push(`create event-${i}: ${JSON.stringify(outcome)}`);
        else ids.push(outcome.body!['id'] as string);
      }
      for (let i = 0; i < DELETED && i < ids.length; i++) {
        const outcome = await call(urls[(i + 1) % 3]!, s.token, 'DELETE', `/api/${s.accountId}/${ids[i]!}`);
        if (outcome.kind !== 'response' || outcome.status !== 204) writeFailures.push(`delete ${ids[i]}: ${JSON.stringify(outcome)}`);
      }
    };

    const started = Date.now();
    await Promise.all([...Array.from({ length: LANES }, (_, l) => patchLane(l)), eventLane()]);
    const wrote = Date.now();

    expect(writeFailures, 'creates and deletes not acknowledged').to.deep.equal([]);
    expect(refusals, 'refusals other than 412').to.deep.equal([]);
    expect(successes, '2xx PATCHes').to.have.length(LANES * PER_LANE);

    // No lost update: each API's revision is 1 + its successful PATCHes, each success moved it by
    // exactly one from the revision it named, and the last success is what the API holds.
    const state = await databaseState(s.schema, s.accountId);
    for (let i = 0; i < HOT; i++) {
      const mine = successes.filter((x) => x.api === i);
      const row = state.apis.find((r) => r.id === hot[i]!.id)!;
      expect(row.revision, `revision of ${hot[i]!.nickname}`).to.equal(1 + mine.length);
      expect(mine.filter((x) => x.revision !== x.ifMatch + 1 || x.etag !== `"${x.revision}"`), 'PATCHes that did not land on If-Match + 1').to.deep.equal([]);
      expect(
        mine.map((x) => x.revision).sort((a, b) => a - b),
        `revisions answered for ${hot[i]!.nickname}`,
      ).to.deep.equal(Array.from({ length: mine.length }, (_, k) => k + 2));
      const last = mine.find((x) => x.revision === row.revision);
      expect(row.name, `name of ${hot[i]!.nickname}`).to.equal(last?.name ?? `hot ${i}`);
    }

    // Exactly once per event and webhook.
    // The hot APIs' and the event lane's creations and deletions, and an api.updated per PATCH that landed.
    const EVENTS = HOT + CREATED + DELETED + successes.length;
    expect(state.events, 'outbox events').to.have.length(EVENTS);
    const expectedPosts = EVENTS * hooks.length;
    await s.receiver.until(() => s.receiver.received.length >= expectedPosts, 30_000, `${expectedPosts} POSTs`);
    const delivered = Date.now();
    await waitUntil(async () => (await databaseState(s.schema, s.accountId)).pendingDeliveries === 0, 10_000, 'no pending delivery');
    await sleep(1_000); // ten poll intervals of three workers, for any second delivery
    const received = s.receiver.received;
    const pairs = countBy(received, (r) => `${r.path} ${r.webhookId}`);
    expect([...pairs.entries()].filter(([, n]) => n > 1), 'deliveries received more than once').to.deep.equal([]);
    expect(received, 'POSTs').to.have.length(expectedPosts);
    const eventIds = new Set(state.events.map((e) => e.id));
    for (const hook of hooks) {
      const path = new URL(hook.targetUrl).pathname;
      const mine = received.filter((r) => r.path === path);
      expect(new Set(mine.map((r) => r.webhookId)), `event ids at ${path}`).to.deep.equal(eventIds);
      expect(mine.map((r) => signatureProblem(r, hook.secret, hook.targetUrl)).filter((p) => p !== null), `bad signatures at ${path}`).to.deep.equal([]);
    }
    expect(errorLines(servers.map((x) => x.child)), 'error log lines').to.deep.equal([]);
    console.log(
      `      SPECBASE_CRASH_SEED=${BASE_SEED} (this test: seed ${seed}); ${successes.length} PATCHes with 2xx and ${conflicts} with 412 (${patchesPerServer.join(' / ')} PATCHes per server) in ${((wrote - started) / 1000).toFixed(1)} s; ` +
        `revisions ${hot.map((h) => state.apis.find((r) => r.id === h.id)!.revision).join(', ')}; ` +
        `${EVENTS} events x ${hooks.length} webhooks = ${received.length} POSTs, each once, ${((delivered - started) / 1000).toFixed(1)} s after the first write`,
    );
  });
});
