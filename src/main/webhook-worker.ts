import type { Logger } from '../adapters/logging/pino-logger.js';
import type { DeliverDue } from '../application/webhooks/deliver-due.service.js';
import type { DispatchEvents } from '../application/webhooks/dispatch-events.service.js';

/** Wakes a waiting worker; many notifications before it looks count as one. */
export class WorkSignal {
  private waiter: (() => void) | undefined;
  private pending = false;

  notify(): void {
    this.pending = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Resolves at the next notification (at once if one came since the last wait) or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        this.pending = false;
        resolve();
      };
    });
  }
}

export interface WorkerOptions {
  /** How often to look for work when nothing wakes the worker (events from other instances, retries due). */
  readonly pollMs: number;
  /** Events dispatched per round. */
  readonly dispatchBatch: number;
}

/**
 * The webhook worker's loop: dispatch outbox events into deliveries while sending the due ones, and
 * repeat while there was work; otherwise sleep until woken or the poll interval passes. Runs in
 * the server process (`serve`) or alone (`specbase worker`); on PostgreSQL any number may run.
 */
export class WebhookWorker {
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly dispatch: DispatchEvents,
    private readonly deliver: DeliverDue,
    private readonly signal: WorkSignal,
    private readonly log: Logger,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the round in progress (its attempts are recorded, so none is sent twice). */
  async stop(): Promise<void> {
    this.running = false;
    this.signal.notify();
    await this.loop;
  }

  /** One full pass: everything due now is dispatched and attempted. */
  async drain(): Promise<void> {
    while ((await this.round()) > 0);
  }

  /** Dispatching (database work) overlaps with the round's POSTs (network waits). */
  private async round(): Promise<number> {
    const [dispatched, delivered] = await Promise.all([this.dispatch.execute(this.options.dispatchBatch), this.deliver.execute()]);
    return dispatched.events + delivered;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const work = await this.round();
        failures = 0;
        if (work > 0) continue;
      } catch (error) {
        failures += 1;
        this.log.error({ err: error }, 'webhook worker round failed');
      }
      await this.signal.wait(failures > 0 ? Math.min(30_000, this.options.pollMs * 2 ** failures) : this.options.pollMs);
    }
  }
}
