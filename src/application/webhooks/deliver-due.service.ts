import { ok } from '../../domain/shared/result.js';
import { isSuccess, type Delivery, type DeliveryStatus } from '../../domain/webhook/delivery.aggregate.js';
import type { Webhook } from '../../domain/webhook/webhook.aggregate.js';
import { retrySpanMs, type RetryPolicy } from '../../domain/webhook/retry-policy.js';
import type { Clock } from '../ports/clock.port.js';
import type { Random } from '../ports/random.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { DeliveryOutcome, WebhookSender } from '../ports/webhook-sender.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';
import { NO_METRICS, type DeliveryOutcomeKind, type Metrics } from '../ports/metrics.port.js';

export interface DeliverySettings {
  readonly retry: RetryPolicy;
  /** How long a claimed delivery stays leased: longer than one attempt can take. */
  readonly leaseMs: number;
  /** The longest one attempt can take (the sender's timeout): no attempt starts later than this before the lease ends. */
  readonly attemptTimeoutMs: number;
  /** Deliveries claimed per round, all webhooks together. */
  readonly batchSize: number;
  /** Deliveries claimed per webhook and round, sent one after the other (default 1). */
  readonly perWebhook?: number;
}

/** What became of one claimed delivery in its lane. */
type Step =
  | { readonly kind: 'attempted'; readonly delivery: Delivery; readonly outcome: DeliveryOutcome; readonly attemptDate: Date }
  | { readonly kind: 'abandoned'; readonly delivery: Delivery; readonly reason: string };

/** A lane's work, to be recorded: what it attempted or abandoned, in order, and what it left unsent. */
interface LaneResult {
  readonly accountId: number;
  readonly webhookId: string;
  readonly steps: readonly Step[];
  readonly unsent: readonly string[];
}

/**
 * Sends the due deliveries. A round leases a batch: of each webhook with nothing in flight, its
 * oldest due deliveries (by event, up to `perWebhook`), so a webhook's first attempts go out in
 * order of occurrence; a retry waiting out its backoff is not due and does not hold newer events
 * back. Each webhook's deliveries go out one after the other in a lane, the lanes in parallel. A
 * lane starts no attempt that could outlast the lease and stops after an attempt that may
 * deactivate its webhook. Then one transaction records the round: each delivery with its outcome,
 * each webhook's last response and failure streak applied in order, and the lease of what was not
 * sent released. A webhook whose delivery ran out of attempts without any success since that
 * delivery began is deactivated, with the reason its owner sees. A worker killed mid-round leaves
 * leases that expire, and those deliveries are sent again (at least once).
 */
export class DeliverDue {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly webhooks: WebhookRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly settings: DeliverySettings,
    private readonly metrics: Metrics = NO_METRICS,
  ) {}

  /** One round; returns how many deliveries it attempted or abandoned. */
  async execute(): Promise<number> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.settings.leaseMs);
    const claimed = await this.uow.run(async (tx) => ok(await tx.deliveries.claimDue(now, leaseUntil, this.settings.batchSize, this.settings.perWebhook ?? 1)));
    const lanes = new Map<string, Delivery[]>();
    for (const delivery of claimed.ok ? claimed.value : []) {
      const lane = lanes.get(delivery.webhookId);
      if (lane) lane.push(delivery);
      else lanes.set(delivery.webhookId, [delivery]);
    }
    if (lanes.size === 0) return 0;
    const results = await Promise.all([...lanes.values()].map((lane) => this.lane(lane, leaseUntil)));
    await this.record(results);
    return results.reduce((sum, lane) => sum + lane.steps.length, 0);
  }

  /** Sends one webhook's claimed deliveries, in order, one at a time. */
  private async lane(claimed: readonly Delivery[], leaseUntil: Date): Promise<LaneResult> {
    const head = claimed[0]!.snapshot();
    // A plain read: the attempts are recorded, and the webhook re-read under lock, afterwards.
    const target = await this.webhooks.get(head.accountId, head.webhookId);
    const steps: Step[] = [];
    for (const delivery of claimed) {
      // A ping goes out whatever the webhook's state; events only to active webhooks.
      if (!target || (!target.active && delivery.snapshot().event !== 'ping')) {
        steps.push({ kind: 'abandoned', delivery, reason: target ? 'the webhook is inactive' : 'the webhook was deleted' });
        continue;
      }
      const attemptDate = this.clock.now();
      if (attemptDate.getTime() + this.settings.attemptTimeoutMs > leaseUntil.getTime()) break;
      const outcome = await this.sender.send({ targetUrl: target.targetUrl, secret: target.secret, eventId: delivery.eventId, body: delivery.payload, attemptDate });
      steps.push({ kind: 'attempted', delivery, outcome, attemptDate });
      // Its last attempt failing may deactivate the webhook: what follows waits for that to be recorded.
      if (!isSuccess(outcome) && delivery.snapshot().attempts.length + 1 >= this.settings.retry.maxAttempts) break;
    }
    return { accountId: head.accountId, webhookId: head.webhookId, steps, unsent: claimed.slice(steps.length).map((d) => d.id) };
  }

  /** Records a round in one transaction; webhooks are locked in id order, then the deliveries. */
  private async record(lanes: readonly LaneResult[]): Promise<void> {
    const ordered = [...lanes].sort((a, b) => (a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : 0));
    const recorded = await this.uow.run(async (tx) => {
      const webhooks: (Webhook | undefined)[] = [];
      for (const lane of ordered) webhooks.push(await tx.webhooks.getForUpdate(lane.accountId, lane.webhookId));
      const current = new Map((await tx.deliveries.getManyForUpdate(ordered.flatMap((lane) => lane.steps.map((step) => step.delivery.id)))).map((d) => [d.id, d]));
      const now = this.clock.now();
      const changed: Delivery[] = [];
      const kinds: DeliveryOutcomeKind[] = [];
      const responded: Webhook[] = [];
      ordered.forEach((lane, i) => {
        const webhook = webhooks[i];
        for (const step of lane.steps) {
          const delivery = current.get(step.delivery.id);
          if (delivery?.status !== 'pending') continue;
          changed.push(delivery);
          if (step.kind === 'abandoned') {
            delivery.abandon(step.reason, now);
            kinds.push('abandoned');
            continue;
          }
          const { outcome, attemptDate } = step;
          delivery.recordAttempt(outcome, attemptDate, this.settings.retry, this.random.next());
          kinds.push(outcomeKind(delivery.snapshot().state));
          if (!webhook) continue;
          if (responded.at(-1) !== webhook) responded.push(webhook);
          // Dated like the attempt, so a streak and the delivery's first attempt compare exactly.
          webhook.recordResponse({ status: outcome.status, body: outcome.error ?? outcome.responseBody, durationMs: outcome.durationMs }, attemptDate);
          const since = webhook.failingSince;
          const first = delivery.firstAttemptDate;
          const gaveUp = delivery.snapshot().state === 'failed' && !isSuccess(outcome);
          if (gaveUp && webhook.active && since !== null && first !== null && since.getTime() <= first.getTime()) {
            webhook.deactivate(`deactivated after ${delivery.snapshot().attempts.length} failed attempts over about ${describeSpan(retrySpanMs(this.settings.retry))} without a successful delivery; last: ${outcome.error ?? `HTTP ${outcome.status}`}`, now);
          }
        }
      });
      await tx.deliveries.saveAll(changed);
      await tx.deliveries.release(ordered.flatMap((lane) => lane.unsent));
      for (const webhook of responded) await tx.webhooks.save(webhook);
      return ok(kinds);
    });
    // Counted once committed: a rolled-back recording is attempted again and counted then.
    if (recorded.ok) for (const kind of recorded.value) this.metrics.deliveryRecorded(kind);
  }
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
