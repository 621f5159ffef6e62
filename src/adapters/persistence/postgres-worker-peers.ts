import { randomUUID } from 'node:crypto';
import type { PostgresChangeVersion } from './postgres-change-version.js';

/** How often a worker says it is there; another counts as there for three times as long. */
export const HELLO_EVERY_MS = 5_000;

const HELLO = 'webhook-worker:hello:';
const HAND_OVER = 'webhook-worker:handover:';

/**
 * The other webhook workers on one PostgreSQL database, through the change listener's signals
 * (PostgresChangeVersion.signal: NOTIFY, which changes no row): each worker says hello every
 * HELLO_EVERY_MS, and at once to one it had not heard from, so that two workers know of each
 * other within a round trip; and it tells the others when a lane of its own gave a webhook back at
 * the end of its turn, which wakes them to claim it (the worker then waits before it claims
 * again: WebhookWorker). A worker that hears nobody claims its webhooks back at once, as alone.
 */
export class PostgresWorkerPeers {
  private readonly id = randomUUID();
  private othersHeardAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  /**
   * @param scope the schema the workers' tables are in: NOTIFY's channel is the database's, and
   *   workers of another schema (another deployment) are no peers
   */
  constructor(
    private readonly changes: Pick<PostgresChangeVersion, 'signal' | 'onSignal'>,
    private readonly scope: string,
    private readonly helloEveryMs = HELLO_EVERY_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Listens for the others (`wake` when one hands a webhook over) and says hello. */
  start(wake: () => void): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.changes.onSignal((message) => {
      const handOver = message.startsWith(`${HAND_OVER}${this.scope}/`);
      if ((!handOver && !message.startsWith(`${HELLO}${this.scope}/`)) || message.endsWith(`/${this.id}`)) return;
      const known = this.othersActive();
      this.othersHeardAt = this.now();
      if (handOver) wake();
      else if (!known) this.hello();
    });
    this.hello();
    this.timer = setInterval(() => this.hello(), this.helloEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Whether another worker was heard from lately. */
  othersActive(): boolean {
    return this.now() - this.othersHeardAt < 3 * this.helloEveryMs;
  }

  /** Tells the others that a webhook was given back at the end of its turn: one of them should claim it. */
  handOver(): void {
    this.changes.signal(`${HAND_OVER}${this.scope}/${this.id}`);
  }

  private hello(): void {
    this.changes.signal(`${HELLO}${this.scope}/${this.id}`);
  }
}
