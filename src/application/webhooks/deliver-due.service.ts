import { ok, type Result } from '../../domain/shared/result.js';
import type { AccountId } from '../../domain/account/account.js';
import { isSuccess, type Delivery, type DeliveryStatus } from '../../domain/webhook/delivery.aggregate.js';
import type { Webhook, WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import { retrySpanMs, type RetryPolicy } from '../../domain/webhook/retry-policy.js';
import type { Clock } from '../ports/clock.port.js';
import type { Lease } from '../ports/delivery-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Random } from '../ports/random.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { DeliveryOutcome, WebhookSender } from '../ports/webhook-sender.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';
import { NO_METRICS, type DeliveryOutcomeKind, type Metrics } from '../ports/metrics.port.js';

export interface DeliverySettings {
  readonly retry: RetryPolicy;
  /** How long a claimed run stays leased: longer than one attempt can take. */
  readonly leaseMs: number;
  /** The longest one attempt can take (the sender's timeout): no attempt starts later than this before the lease ends. */
  readonly attemptTimeoutMs: number;
  /** Lanes at once, every pass together: each holds one webhook and has one attempt in flight. */
  readonly lanes: number;
  /** Deliveries a lane claims at a time (a run) at most, sent one after the other (default 1). */
  readonly perRun?: number;
  /**
   * Deliveries all lanes may hold at once, claimed (or being claimed) and not yet recorded (default
   * `lanes` x `perRun`): what bounds the bodies a process holds for its runs. A lane's next run is
   * its share, this divided by the lanes running, never more than the other lanes hold or have
   * reserved, and at least one delivery; so a few busy webhooks get long runs (fewer recordings a
   * delivery) and many get shorter ones. Beyond it: at most one delivery a lane (a run is never
   * empty) and a pass's first runs (at most one delivery a free lane slot).
   */
  readonly inFlight?: number;
  /**
   * Runs a lane makes before it gives its webhook back (default: no limit), so that other workers
   * sharing the database get a turn at it instead of one worker holding it while work remains.
   */
  readonly runsPerLane?: number;
}

export interface PassOptions {
  /** When it aborts, each lane ends after the attempt in flight: it records what it did and releases the rest. */
  readonly stop?: AbortSignal;
  /**
   * Called when a lane gave its webhook back with work perhaps left (every lane slot was taken, its
   * turn ended, or it found nothing more due, while claims made meanwhile passed its webhook over):
   * time to claim again. `turnEnded`: it made its `runsPerLane` runs, and another worker sharing
   * the database should have the webhook next, if one is there to take it.
   */
  readonly gaveBack?: (turnEnded: boolean) => void;
  /**
   * Whether other workers share the database now (asked at the end of each run; by default they
   * may). A lane's turn ends after `runsPerLane` runs only while they do: a worker alone would
   * only give its webhook back to claim it again, and its lanes would stop sending meanwhile.
   */
  readonly turnsShared?: () => boolean;
}

/** A pass that has claimed its first runs and runs its lanes. */
export interface DeliveryPass {
  /** Deliveries claimed to start the lanes (0: no webhook had anything due and no lane). */
  readonly claimed: number;
  /**
   * Once every lane of the pass has ended: how many deliveries they attempted or abandoned. Rejects
   * with the first failure (a lane whose recording failed leaves its leases to expire: its
   * deliveries are sent again, at least once) after the other lanes have ended.
   */
  readonly done: Promise<number>;
}

/** What became of one claimed delivery in its lane. */
type Step =
  | { readonly kind: 'attempted'; readonly delivery: Delivery; readonly outcome: DeliveryOutcome; readonly attemptDate: Date }
  | { readonly kind: 'abandoned'; readonly delivery: Delivery; readonly reason: string };

/** A lane's run, to be recorded: what it attempted or abandoned, in order (what it left unsent waits for the next claim). */
interface RunResult {
  /** The claim that leased the run's webhook: its writes are made only while the webhook still holds it. */
  readonly lease: Lease;
  readonly accountId: AccountId;
  readonly webhookId: WebhookId;
  readonly steps: readonly Step[];
}

/** A lane's next run, claimed in the transaction that recorded the last one. */
interface NextRun {
  readonly run: readonly Delivery[];
  readonly lease: Lease;
  /** The webhook as that transaction read it, under lock: its URL, secret and state now. */
  readonly target: Webhook | undefined;
}

/**
 * Sends the due deliveries in lanes, one per webhook. A pass claims, of each webhook no lane holds
 * (not leased), its oldest due deliveries (a run, by event, up to `perRun`; one webhook
 * per free lane slot), so a webhook's first attempts go out in order of occurrence; a retry
 * waiting out its backoff is not due and does not hold newer events back. A lane sends its run one
 * delivery after the other; it starts no attempt that could outlast the run's lease and stops
 * after an attempt that may deactivate its webhook. Then one transaction records the run (each
 * delivery's outcome, the webhook's last response and failure streak applied in order, the
 * webhook's lease ended; what was not sent is due again) and claims the webhook's next run, so the webhook stays leased from
 * one run to the next and the lane goes on until nothing is due, without waiting for other lanes.
 * While every lane slot is taken, a lane gives its webhook back after each run, so webhooks beyond
 * the limit get their turn, oldest due event first; and it gives it back after `runsPerLane` runs
 * in any case, so that workers sharing a database take turns. A webhook whose delivery ran out of attempts
 * without any success since that delivery began is deactivated, with the reason its owner sees. A
 * worker killed mid-run leaves a lease that runs out, and that run's deliveries are sent again (at
 * least once).
 */
export class DeliverDue {
  private lanes = 0;
  /** Deliveries in the lanes' runs: claimed, not yet recorded (`DeliverySettings.inFlight`). */
  private held = 0;
  /** The claim in flight, if any: settles (never rejects) when it has. */
  private claiming: Promise<void> | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly ids: IdGenerator,
    private readonly settings: DeliverySettings,
    private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /**
   * Claims the first runs of webhooks with due deliveries and no lane, and starts a lane for each.
   * One claim at a time: a pass that comes while another claims waits for it and then claims on its
   * own. (It used to answer "nothing claimed" at once, the free slots being held by the claim in
   * flight; when that claim's query had run before a delivery was committed, nobody looked again
   * until the poll interval: on PostgreSQL about one event in a hundred waited a second.)
   */
  async execute(options: PassOptions = {}): Promise<DeliveryPass> {
    while (this.claiming !== undefined) await this.claiming;
    const free = this.settings.lanes - this.lanes;
    if (free <= 0 || options.stop?.aborted) return { claimed: 0, done: Promise.resolve(0) };
    const now = this.clock.now();
    const lease = this.newLease(now);
    // No other claim runs until this one has counted its lanes, so `free` slots are never exceeded.
    const runs = new Map<string, Delivery[]>();
    let claimed: Result<Delivery[], never>;
    const claim = this.uow.run(async (tx): Promise<Result<Delivery[], never>> => ok(await tx.deliveries.claimDue(now, lease, free, this.perRun)));
    this.claiming = claim.then(
      () => undefined,
      () => undefined,
    );
    try {
      // At most `free` deliveries in all, so at most `free` webhooks; a lane's later runs are full ones.
      claimed = await claim;
      for (const delivery of claimed.ok ? claimed.value : []) {
        const run = runs.get(delivery.webhookId);
        if (run) run.push(delivery);
        else runs.set(delivery.webhookId, [delivery]);
      }
    } finally {
      this.claiming = undefined;
      this.lanes += runs.size;
      for (const run of runs.values()) this.held += run.length;
    }
    const lanes = [...runs.values()].map((run) =>
      this.lane(run, lease, options).then(
        ({ handled, gaveBack, turnEnded }) => {
          // Its slot free first: a claim made when told finds room.
          this.lanes -= 1;
          if (gaveBack) options.gaveBack?.(turnEnded);
          return handled;
        },
        (error: unknown) => {
          this.lanes -= 1;
          throw error;
        },
      ),
    );
    return { claimed: claimed.ok ? claimed.value.length : 0, done: settle(lanes) };
  }

  /** A lease from `now` with a token of its own: the claim's fence. */
  private newLease(now: Date): Lease {
    return { token: this.ids.next(), until: new Date(now.getTime() + this.settings.leaseMs) };
  }

  private get perRun(): number {
    return this.settings.perRun ?? 1;
  }

  /**
   * The size of a lane's next run, claimed as its current one (`current` deliveries, of which it
   * attempted or abandoned `handled`) is recorded: its share of the in-flight budget among the
   * lanes running, within what the others hold or have reserved for the runs their recordings are
   * claiming, and at most twice what the current run got through: a slow receiver, whose runs end
   * at their lease after a few attempts, holds and re-reads a few deliveries rather than a full
   * run each time, while a fast one doubles up to `perRun`.
   */
  private nextRunSize(current: number, handled: number): number {
    const budget = this.settings.inFlight ?? this.settings.lanes * this.perRun;
    const share = Math.floor(budget / Math.max(1, this.lanes));
    const left = budget - (this.held - current);
    return Math.max(1, Math.min(this.perRun, share, left, 2 * handled));
  }

  /**
   * One webhook's lane: run after run until nothing is due, it is stopped, or it gives the webhook
   * back (then `gaveBack`: work may be left).
   */
  private async lane(first: readonly Delivery[], firstLease: Lease, options: PassOptions): Promise<{ handled: number; gaveBack: boolean; turnEnded: boolean }> {
    // The deliveries of this lane counted in `held`: its run, and while a recording claims, the
    // next run's size reserved, so that other lanes' shares count it before it is claimed.
    let holding = first.length;
    try {
      const head = first[0]!.snapshot();
      // A plain read: the attempts are recorded, and the webhook re-read under lock, afterwards.
      let next: NextRun | undefined = { run: first, lease: firstLease, target: await this.webhooks.get(head.accountId, head.webhookId) };
      let handled = 0;
      let runs = 0;
      let gaveBack = false;
      let turnEnded = false;
      while (next !== undefined && next.run.length > 0) {
        const result = await this.send(next, options.stop);
        handled += result.steps.length;
        runs += 1;
        const stopped = options.stop?.aborted === true;
        turnEnded = runs >= (this.settings.runsPerLane ?? Infinity) && (options.turnsShared?.() ?? true);
        const giveBack = this.lanes >= this.settings.lanes || turnEnded;
        const claimMore = !stopped && !giveBack;
        const size = claimMore ? this.nextRunSize(next.run.length, result.steps.length) : 0;
        this.held += size;
        holding += size;
        next = await this.record(result, claimMore, size);
        // The recorded run is released, the reservation becomes the run claimed (if any).
        const claimed = next?.run.length ?? 0;
        this.held += claimed - holding;
        holding = claimed;
        // Given back, or no next run claimed (the lease ran out, the recording failed), or none due
        // when it looked: work may be left. A claim made while this lane held the webhook passed it
        // over (on PostgreSQL it skips the row the recording locks), and with it a delivery committed
        // after this recording's claim looked: so the worker claims once more, now it is free.
        gaveBack = !stopped && (giveBack || next === undefined || next.run.length === 0);
      }
      return { handled, gaveBack, turnEnded: gaveBack && turnEnded };
    } finally {
      // A lane that failed (its webhook read, its run, its recording) holds nothing any more.
      this.held -= holding;
    }
  }

  /**
   * Sends one run through the sender, in order. A run to a webhook that is gone or inactive is
   * abandoned instead, but for its pings (they go out whatever the webhook's state): those are sent
   * as a run of their own.
   */
  private async send({ run, lease, target }: NextRun, stop: AbortSignal | undefined): Promise<RunResult> {
    const head = run[0]!.snapshot();
    const steps: Step[] = [];
    const result = (): RunResult => ({ lease, accountId: head.accountId, webhookId: head.webhookId, steps });
    if (stop?.aborted) return result();
    const live = target?.active === true;
    const outgoing = live ? [...run] : target ? run.filter((delivery) => delivery.snapshot().event === 'ping') : [];
    if (!live) {
      for (const delivery of run) {
        if (!outgoing.includes(delivery)) steps.push({ kind: 'abandoned', delivery, reason: target ? 'the webhook is inactive' : 'the webhook was deleted' });
      }
    }
    if (target === undefined || outgoing.length === 0) return result();
    const attempts = await this.sender.sendRun(
      {
        targetUrl: target.targetUrl,
        secret: target.secret,
        // A ping is attempted once, whatever it answers; a delivery's last attempt, failed, ends the run.
        deliveries: outgoing.map((delivery) => ({ eventId: delivery.eventId, body: delivery.payload, lastAttempt: live && delivery.snapshot().attempts.length + 1 >= this.settings.retry.maxAttempts })),
        // No attempt starts that could outlast the lease.
        startBy: new Date(lease.until.getTime() - this.settings.attemptTimeoutMs),
        now: this.clock.now(),
      },
      stop,
    );
    attempts.forEach(({ outcome, attemptDate }, i) => steps.push({ kind: 'attempted', delivery: outgoing[i]!, outcome, attemptDate }));
    return result();
  }

  /**
   * Records a run in one transaction (the webhook locked, then the deliveries) and, with `claimMore`,
   * claims the webhook's next run (up to `nextSize` deliveries) in the same one.
   */
  private async record(result: RunResult, claimMore: boolean, nextSize: number): Promise<NextRun | undefined> {
    const { token } = result.lease;
    const recorded = await this.uow.run(async (tx): Promise<Result<{ kinds: DeliveryOutcomeKind[]; stale: number; next: NextRun | undefined }, never>> => {
      const webhook = await tx.webhooks.getForUpdate(result.accountId, result.webhookId);
      // Only while the webhook still holds this run's lease, and then its deliveries are as the
      // claim read them (nothing else writes them meanwhile): once another claim took the webhook
      // after the lease ran out, they are theirs, and this run's outcomes are refused. Deliveries
      // of a deleted webhook went with it: nothing was taken over.
      const holder = webhook !== undefined && (await tx.deliveries.holds(result.webhookId, token)) ? webhook : undefined;
      const now = this.clock.now();
      const kinds: DeliveryOutcomeKind[] = [];
      const stale = webhook !== undefined && holder === undefined ? result.steps.length : 0;
      if (holder) {
        const changed: Delivery[] = [];
        let responded = false;
        for (const step of result.steps) {
          const { delivery } = step;
          changed.push(delivery);
          if (step.kind === 'abandoned') {
            delivery.abandon(step.reason, now);
            kinds.push('abandoned');
            continue;
          }
          const { outcome, attemptDate } = step;
          delivery.recordAttempt(outcome, attemptDate, this.settings.retry, this.random.next());
          kinds.push(outcomeKind(delivery.snapshot().state));
          responded = true;
          // Dated like the attempt, so a streak and the delivery's first attempt compare exactly.
          holder.recordResponse({ status: outcome.status, body: outcome.error ?? outcome.responseBody, durationMs: outcome.durationMs }, attemptDate);
          const since = holder.failingSince;
          const first = delivery.firstAttemptDate;
          const gaveUp = delivery.snapshot().state === 'failed' && !isSuccess(outcome);
          if (gaveUp && holder.active && since !== null && first !== null && since.getTime() <= first.getTime()) {
            holder.deactivate(`deactivated after ${delivery.snapshot().attempts.length} failed attempts over about ${describeSpan(retrySpanMs(this.settings.retry))} without a successful delivery; last: ${outcome.error ?? `HTTP ${outcome.status}`}`, now);
          }
        }
        // Under the webhook's lock, held by this run's lease, nothing else writes these rows: every one is written.
        await tx.deliveries.saveAll(result.webhookId, changed, token);
        await tx.deliveries.release(result.webhookId, token);
        if (responded) await tx.webhooks.save(holder);
      }
      // A run that no longer holds its webhook, or recorded after its lease ran out (it may have been
      // claimed again elsewhere meanwhile), ends its lane rather than claim on (the claims that
      // follow sort it out).
      if (!claimMore || holder === undefined || now.getTime() >= result.lease.until.getTime()) return ok({ kinds, stale, next: undefined });
      const lease = this.newLease(now);
      const run = await tx.deliveries.claimNext(result.webhookId, now, lease, nextSize);
      return ok({ kinds, stale, next: { run, lease, target: holder } });
    });
    // Counted once committed: a rolled-back recording is attempted again and counted then.
    if (!recorded.ok) return undefined;
    for (const kind of recorded.value.kinds) this.metrics.deliveryRecorded(kind);
    if (recorded.value.stale > 0) this.metrics.staleRunWrites(recorded.value.stale);
    return recorded.value.next;
  }
}

/** Resolves with the sum once every lane has ended; rejects with the first failure, after all have ended. */
async function settle(lanes: readonly Promise<number>[]): Promise<number> {
  const ended = await Promise.allSettled(lanes);
  const failed = ended.find((lane): lane is PromiseRejectedResult => lane.status === 'rejected');
  if (failed) throw failed.reason;
  return ended.reduce((sum, lane) => sum + (lane.status === 'fulfilled' ? lane.value : 0), 0);
}

/** A delivery's state right after an attempt was recorded says how the attempt ended. */
function outcomeKind(state: DeliveryStatus): DeliveryOutcomeKind {
  switch (state) {
    case 'succeeded':
      return 'success';
    case 'pending':
      return 'failure';
    case 'failed':
      return 'gave_up';
  }
}

function describeSpan(ms: number): string {
  return ms >= 3600_000 ? `${Math.round(ms / 3600_000)} h` : `${Math.max(1, Math.round(ms / 60_000))} min`;
}
