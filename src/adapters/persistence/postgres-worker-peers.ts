import { randomUUID } from 'node:crypto';
import type { PostgresChangeVersion } from './postgres-change-version.js';

/** How often a worker says it is there; another counts as there for three times as long. */
export const HELLO_EVERY_MS = 5_000;

const HELLO = 'webhook-worker:hello:';
const HAND_OVER = 'webhook-worker:handover:';

/**
 * The other webhook workers on one PostgreSQL database, through the change listener's signals
 * (PostgresChangeVersion.signal: NOTIFY, which changes no row): each worker says hello every
 * HELLO_EVERY_MS, and at once to a worker it had not heard from, so that a worker joining others
 * knows of them within a round trip; and it tells the others when a lane of its own gave a
 * webhook back at the end of its turn, which wakes them to claim it (the worker then waits before
 * it claims again: WebhookWorker). A worker that hears nobody claims its webhooks back at once,
 * as alone. Messages are `<kind><scope>/<id>`: the scope is the schema, since NOTIFY's channel
 * is the database's and workers of another schema (another deployment) are no peers.
 */
export class PostgresWorkerPeers {
  private readonly id = randomUUID();
  /** When each other worker was last heard from (ms). */
  private readonly heard = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

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
      const kind = message.startsWith(HAND_OVER) ? HAND_OVER : message.startsWith(HELLO) ? HELLO : undefined;
      if (kind === undefined) return;
      const rest = message.slice(kind.length);
      const slash = rest.lastIndexOf('/');
      if (slash < 0 || rest.slice(0, slash) !== this.scope) return;
      const from = rest.slice(slash + 1);
      if (from === this.id) return;
      const known = this.isThere(from);
      this.heard.set(from, this.now());
      if (kind === HAND_OVER) wake();
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
    this.heard.clear();
  }

  /** Whether another worker was heard from lately. */
  othersActive(): boolean {
    for (const from of this.heard.keys()) {
      if (this.isThere(from)) return true;
      this.heard.delete(from);
    }
    return false;
  }

  /** Tells the others that a webhook was given back at the end of its turn: one of them should claim it. */
  handOver(): void {
    this.changes.signal(`${HAND_OVER}${this.scope}/${this.id}`);
  }

  private isThere(from: string): boolean {
    const at = this.heard.get(from);
    return at !== undefined && this.now() - at < 3 * this.helloEveryMs;
  }

  private hello(): void {
    this.changes.signal(`${HELLO}${this.scope}/${this.id}`);
  }
}
