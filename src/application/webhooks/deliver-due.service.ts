import { ok } from '../../domain/shared/result.js';
import { isSuccess, type Delivery, type DeliveryStatus } from '../../domain/webhook/delivery.aggregate.js';
import { retrySpanMs, type RetryPolicy } from '../../domain/webhook/retry-policy.js';
import type { Clock } from '../ports/clock.port.js';
import type { Random } from '../ports/random.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { WebhookSender } from '../ports/webhook-sender.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';
import { NO_METRICS, type DeliveryOutcomeKind, type Metrics } from '../ports/metrics.port.js';

export interface DeliverySettings {
  readonly retry: RetryPolicy;
  /** How long a claimed delivery stays leased: longer than one attempt can take. */
  readonly leaseMs: number;
  /** Deliveries claimed per round. */
  readonly batchSize: number;
}

/**
 * Sends the due deliveries: leases a batch (each webhook's oldest due delivery at most, so a
 * webhook's first attempts go out in order of occurrence; a retry waiting out its backoff does not
 * hold newer events back), sends them in parallel, then records each attempt with the webhook's
 * last response. A webhook whose delivery ran out of attempts without any success since that
 * delivery began is deactivated, with the reason its owner sees. A worker killed mid-delivery
 * leaves a lease that expires, and the delivery is sent again (at least once).
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

  /** One round; returns how many deliveries it attempted. */
  async execute(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.uow.run(async (tx) =>
      ok(await tx.deliveries.claimDue(now, new Date(now.getTime() + this.settings.leaseMs), this.settings.batchSize)),
    );
    const deliveries = claimed.ok ? claimed.value : [];
    await Promise.all(deliveries.map((delivery) => this.attempt(delivery)));
    return deliveries.length;
  }

  private async attempt(claimed: Delivery): Promise<void> {
    // A plain read: the attempt is recorded, and the webhook re-read under lock, afterwards.
    const target = await this.webhooks.get(claimed.snapshot().accountId, claimed.webhookId);
    // A ping goes out whatever the webhook's state; events only to active webhooks.
    if (!target || (!target.active && claimed.snapshot().event !== 'ping')) {
      const abandoned = await this.uow.run(async (tx) => {
        const delivery = await tx.deliveries.getForUpdate(claimed.webhookId, claimed.id);
        if (delivery?.status !== 'pending') return ok(false);
        delivery.abandon(target ? 'the webhook is inactive' : 'the webhook was deleted', this.clock.now());
        await tx.deliveries.save(delivery);
        return ok(true);
      });
      if (abandoned.ok && abandoned.value) this.metrics.deliveryRecorded('abandoned');
      return;
    }
    const attemptDate = this.clock.now();
    const outcome = await this.sender.send({ targetUrl: target.targetUrl, secret: target.secret, eventId: claimed.eventId, body: claimed.payload, attemptDate });
    const recorded = await this.uow.run(async (tx) => {
      const delivery = await tx.deliveries.getForUpdate(claimed.webhookId, claimed.id);
      const webhook = await tx.webhooks.getForUpdate(claimed.snapshot().accountId, claimed.webhookId);
      if (!delivery || delivery.status !== 'pending') return ok<DeliveryOutcomeKind | null>(null);
      const now = this.clock.now();
      delivery.recordAttempt(outcome, attemptDate, this.settings.retry, this.random.next());
      await tx.deliveries.save(delivery);
      if (webhook) {
        // Dated like the attempt, so a streak and the delivery's first attempt compare exactly.
        webhook.recordResponse({ status: outcome.status, body: outcome.error ?? outcome.responseBody, durationMs: outcome.durationMs }, attemptDate);
        const since = webhook.failingSince;
        const first = delivery.firstAttemptDate;
        const gaveUp = delivery.snapshot().state === 'failed' && !isSuccess(outcome);
        if (gaveUp && webhook.active && since !== null && first !== null && since.getTime() <= first.getTime()) {
          webhook.deactivate(`deactivated after ${delivery.snapshot().attempts.length} failed attempts over about ${describeSpan(retrySpanMs(this.settings.retry))} without a successful delivery; last: ${outcome.error ?? `HTTP ${outcome.status}`}`, now);
        }
        await tx.webhooks.save(webhook);
      }
      return ok<DeliveryOutcomeKind | null>(outcomeKind(delivery.snapshot().state));
    });
    // Counted once committed: a rolled-back recording is attempted again and counted then.
    if (recorded.ok && recorded.value !== null) this.metrics.deliveryRecorded(recorded.value);
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
