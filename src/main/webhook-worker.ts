import type { Logger } from '../adapters/logging/pino-logger.js';
import type { DeliverDue, DeliveryPass, PassOptions } from '../application/webhooks/deliver-due.service.js';
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

/** Scheduled work the worker's loop also runs, every `everyMs` at most (as often as the loop turns, when that is less often). */
export interface Chore {
  readonly name: string;
  readonly everyMs: number;
  run(): Promise<unknown>;
}

/**
 * The other webhook workers sharing the database, as far as this one can tell
 * (PostgresWorkerPeers on PostgreSQL; SQLite has one worker).
 */
export interface WorkerPeers {
  /** Starts listening for the others; `wake` is called when one hands a webhook over. */
  start(wake: () => void): void;
  stop(): void;
  /** Whether another worker was heard from lately. */
  othersActive(): boolean;
  /** Tells the others a webhook was given back at the end of its turn, so that one claims it. */
  handOver(): void;
}

/** How long a worker that handed a webhook over leaves it to the others before it claims again. */
export const HAND_OVER_MS = 50;

export interface WorkerOptions {
  /** How often to look for work when nothing wakes the worker (events from other instances, retries due). */
  readonly pollMs: number;
  /** Events dispatched per round. */
  readonly dispatchBatch: number;
  /** Scheduled work beside the webhooks (the trial reminders): no process of its own. */
  readonly chores?: readonly Chore[];
  /** The other workers on the database, to hand webhooks over to at the end of a lane's turn. */
  readonly peers?: WorkerPeers;
  /** How long a handed-over webhook is left to the others (default HAND_OVER_MS). */
  readonly handOverMs?: number;
}

/**
 * The webhook worker's loop: dispatch outbox events into deliveries, and start delivery lanes for
 * webhooks with due deliveries (DeliverDue), which then run on their own, run after run; repeat
 * while there was work, otherwise sleep until woken or the poll interval passes. Between rounds it
 * runs the chores that are due (the trial reminders). Runs in the
 * server process (`serve`) or alone (`specbase worker`); on PostgreSQL any number may run.
 */
export class WebhookWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private lanes = new AbortController();
  /** The passes whose lanes still run, each settled (failures logged). */
  private readonly passes = new Set<Promise<void>>();
  /** A claim made because a lane gave its webhook back, while it runs; and whether another was asked for meanwhile. */
  private reclaiming: Promise<void> | undefined;
  private reclaimAgain = false;
  /** The claims waiting out a hand-over (handOver). */
  private readonly handOvers = new Set<NodeJS.Timeout>();
  /** When each chore is next due (ms since the epoch, by the process clock). */
  private readonly choresDue = new Map<Chore, number>();

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
    this.lanes = new AbortController();
    this.options.peers?.start(() => this.signal.notify());
    this.loop = this.run();
  }

  /**
   * Stops once every lane has ended: each finishes its attempt in flight, records what it did and
   * releases the rest, so nothing is sent twice and nothing waits for its lease to expire.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.lanes.abort();
    this.options.peers?.stop();
    for (const timer of this.handOvers) clearTimeout(timer);
    this.handOvers.clear();
    this.signal.notify();
    await this.loop;
    await this.reclaiming;
    await this.settled();
  }

  /** One full pass: everything due now is dispatched and attempted, lanes included. */
  async drain(): Promise<void> {
    for (;;) {
      const work = await this.round({});
      await this.settled();
      if (work === 0) return;
    }
  }

  /**
   * Dispatching (database work) overlaps with the lanes' POSTs (network waits). A pass that started
   * lanes is tracked even when dispatching failed, so `stop()` still waits for its lanes.
   */
  private async round(options: PassOptions): Promise<number> {
    const [dispatched, pass] = await Promise.allSettled([this.dispatch.execute(this.options.dispatchBatch), this.deliver.execute(options)]);
    if (pass.status === 'fulfilled') this.track(pass.value);
    if (dispatched.status === 'rejected') throw dispatched.reason;
    if (pass.status === 'rejected') throw pass.reason;
    return dispatched.value.events + pass.value.claimed;
  }

  /** Runs the chores that are due, one after another; a failure is logged and the chore is due again after its interval. */
  private async chores(): Promise<void> {
    for (const chore of this.options.chores ?? []) {
      const now = Date.now();
      if ((this.choresDue.get(chore) ?? 0) > now) continue;
      this.choresDue.set(chore, now + chore.everyMs);
      try {
        await chore.run();
      } catch (error) {
        this.log.error({ err: error, chore: chore.name }, 'scheduled work failed');
      }
    }
  }

  private track(pass: DeliveryPass): void {
    if (pass.claimed === 0) return;
    const settled: Promise<void> = pass.done.then(
      () => undefined,
      (error: unknown) => this.log.error({ err: error }, 'webhook delivery lane failed'),
    );
    this.passes.add(settled);
    void settled.finally(() => this.passes.delete(settled));
  }

  private async settled(): Promise<void> {
    while (this.passes.size > 0) await Promise.all([...this.passes]);
  }

  /**
   * A lane gave its webhook back (its turn ended, or every slot is taken): claim again now, not
   * once the round in progress has dispatched its batch. One such claim at a time; asked for
   * meanwhile, it runs once more.
   */
  private reclaim(options: PassOptions): void {
    if (!this.running) return;
    if (this.reclaiming !== undefined) {
      this.reclaimAgain = true;
      return;
    }
    this.reclaiming = (async () => {
      do {
        this.reclaimAgain = false;
        try {
          this.track(await this.deliver.execute(options));
        } catch (error) {
          // The loop's next round tries again, after its back-off.
          this.log.error({ err: error }, 'webhook worker round failed');
          this.signal.notify();
          return;
        }
      } while (this.reclaimAgain && this.running);
    })().finally(() => (this.reclaiming = undefined));
  }

  /**
   * A lane's turn at a webhook ended while other workers are there: tell them, so that one claims
   * it (they sleep between polls otherwise, and this worker, claiming at once, would take it back
   * nearly every time), and claim again only after `handOverMs`, the webhook included if nobody
   * took it.
   */
  private handOver(options: PassOptions): void {
    // A lane that was recording when the worker stopped still tells of its give-back.
    if (!this.running) return;
    this.options.peers?.handOver();
    const timer = setTimeout(() => {
      this.handOvers.delete(timer);
      this.reclaim(options);
    }, this.options.handOverMs ?? HAND_OVER_MS);
    this.handOvers.add(timer);
  }

  private async run(): Promise<void> {
    let failures = 0;
    const options: PassOptions = {
      stop: this.lanes.signal,
      gaveBack: (turnEnded) => (turnEnded && this.options.peers?.othersActive() === true ? this.handOver(options) : this.reclaim(options)),
      // Alone (SQLite, or no other worker heard from lately), a lane keeps its webhook while work is due.
      turnsShared: () => this.options.peers?.othersActive() === true,
    };
    while (this.running) {
      await this.chores();
      try {
        const work = await this.round(options);
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
