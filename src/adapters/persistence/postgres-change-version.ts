import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { importPg, loadedPg } from './pg-driver.js';

/** The channel the triggers of migration 0009 notify on, with `schema.table` as the payload. */
export const CHANGES_CHANNEL = 'specbase_changes';

/** Payloads of the listener's own round trips; no trigger sends one (a table name has no colon before its dot). */
const PROBE_PREFIX = 'probe:';
/** Payloads of `signal`: messages between instances, which change no row. */
const SIGNAL_PREFIX = 'signal:';

export interface PostgresChangeVersionOptions {
  /** First reconnection delay; doubles per failure up to `maxBackoffMs`. */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /**
   * How often the listening connection proves it still receives notifications (it sends one to
   * itself and waits for it, at most as long again), to notice a silently dead link.
   */
  readonly heartbeatMs?: number;
  /** Told when the listening connection fails; it is reconnected either way. */
  readonly onError?: (error: unknown) => void;
}

/**
 * PostgreSQL's equivalent of SQLite's change counter, for ReadCache: a local counter that moves
 *
 * - at once, when this process commits a write (`bump`, called by TypeOrmDatabase after COMMIT or
 *   an autocommit write statement returns, before the writer answers): read-your-writes is exact;
 * - when a NOTIFY from the triggers of migration 0009 arrives on a dedicated connection (not one
 *   of TypeORM's pool) that LISTENs: another instance's commit is seen a few milliseconds after
 *   it committed (NOTIFY is delivered at commit, to idle listeners at once);
 * - once on every (re)connection, since notifications sent while not listening are lost.
 *
 * While not listening (starting, failed, reconnecting) every call returns a new value, so nothing
 * is served from the cache. Listening counts only once a notification the listener sent itself has
 * come back, and the heartbeat repeats that round trip: a link that silently stopped delivering
 * (a dead peer, a transaction-mode pooler that accepts LISTEN and delivers nothing) is noticed
 * within `heartbeatMs` plus its timeout, the worst case of staleness, not the usual one.
 */
export class PostgresChangeVersion {
  private counter = 0;
  private unique = 0;
  private listening = false;
  private client: pg.Client | undefined;
  private stopped = false;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(payload: string) => void>();
  private readonly signalListeners = new Set<(message: string) => void>();
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly heartbeatMs: number;

  constructor(
    private readonly url: string,
    private readonly options: PostgresChangeVersionOptions = {},
  ) {
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
  }

  /** The version to key cached reads on; a fresh value on each call while not listening. */
  version(): string {
    return this.listening ? String(this.counter) : `unlistened:${++this.unique}`;
  }

  /** Whether notifications are being received (what makes the version cacheable). */
  get isListening(): boolean {
    return this.listening;
  }

  /** The server process of the listening connection, while there is one (to test its loss). */
  get backendPid(): number | undefined {
    return this.listening ? (this.client as { processID?: number } | undefined)?.processID : undefined;
  }

  /** Something changed (or may have): every value handed out before is no longer current. */
  bump(): void {
    this.counter += 1;
  }

  /** Calls `listener` with the payload (`schema.table`) of each notification, after the bump; returns the unsubscribe. */
  onNotification(listener: (payload: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends `message` to every instance listening on the database, this one included (its
   * `onSignal` listeners), without moving anyone's version: for messages that change no row (the
   * webhook workers' hand-over). Dropped while not listening, and if sending fails.
   */
  signal(message: string): void {
    const client = this.listening ? this.client : undefined;
    client?.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `${SIGNAL_PREFIX}${message}`]).catch(() => undefined);
  }

  /** Calls `listener` with each message sent by `signal`, from any instance; returns the unsubscribe. */
  onSignal(listener: (message: string) => void): () => void {
    this.signalListeners.add(listener);
    return () => this.signalListeners.delete(listener);
  }

  /** Makes the first attempt to listen; on failure keeps trying in the background. */
  async start(): Promise<void> {
    this.stopped = false;
    await importPg();
    await this.connect();
  }

  /** Stops listening and reconnecting; the version stays uncacheable. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.drop();
  }

  private async connect(): Promise<void> {
    const client = new (loadedPg().Client)({ connectionString: this.url, keepAlive: true });
    this.client = client;
    client.on('error', (error) => this.fail(client, error));
    client.on('end', () => this.fail(client, new Error('the listening connection ended')));
    client.on('notification', (message) => {
      if (client !== this.client) return;
      const payload = message.payload ?? '';
      if (payload.startsWith(PROBE_PREFIX)) {
        this.probes.get(payload)?.();
        return;
      }
      if (payload.startsWith(SIGNAL_PREFIX)) {
        const signalled = payload.slice(SIGNAL_PREFIX.length);
        for (const listener of this.signalListeners) listener(signalled);
        return;
      }
      this.bump();
      for (const listener of this.listeners) listener(payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      await this.probe(client);
    } catch (error) {
      this.fail(client, error);
      return;
    }
    if (client !== this.client || this.stopped) return;
    // Whatever was committed while not listening: entries read before the link broke are old.
    this.bump();
    this.listening = true;
    this.failures = 0;
    this.heartbeat = setInterval(() => this.check(client), this.heartbeatMs);
    this.heartbeat.unref();
  }

  private check(client: pg.Client): void {
    this.probe(client).catch((error: unknown) => this.fail(client, error));
  }

  private readonly probes = new Map<string, () => void>();

  /** Sends a notification on `client` and waits for it to come back to `client`. */
  private async probe(client: pg.Client): Promise<void> {
    const payload = `${PROBE_PREFIX}${randomUUID()}`;
    let timeout: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.probes.set(payload, resolve);
      timeout = setTimeout(() => reject(new Error('the listening connection delivered no notification')), this.heartbeatMs);
    });
    try {
      await Promise.all([client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]), heard]);
    } finally {
      clearTimeout(timeout);
      this.probes.delete(payload);
    }
  }

  /** Stops trusting `client` at once, then reconnects after a backoff unless stopped. */
  private fail(client: pg.Client, error: unknown): void {
    if (client !== this.client) return;
    this.listening = false;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.options.onError?.(error);
    const delay = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.failures);
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, delay);
    this.retry.unref();
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.listening = false;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (client !== undefined) await client.end().catch(() => undefined);
  }
}
