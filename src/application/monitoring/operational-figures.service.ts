import type { Clock } from '../ports/clock.port.js';
import type { EventOutbox } from '../ports/event-outbox.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';

/** What the database says about the delivery pipeline, read when the figures are asked for (a scrape). */
export interface Figures {
  /** Outbox events not yet dispatched into deliveries, in every account. */
  readonly outboxPending: number;
  /** How long the oldest of them has waited, in seconds; 0 when none waits. */
  readonly outboxOldestAgeSeconds: number;
  /** Active webhooks in every account. */
  readonly activeWebhooks: number;
}

/**
 * The figures an operator watches that live in the database rather than in the process, so every
 * instance reports the same values. Not authorised per account: it serves the operator's
 * monitoring endpoint, never an account's API. Throws when the database does not answer.
 */
export class OperationalFigures {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  async read(): Promise<Figures> {
    const backlog = await this.outbox.backlog();
    const activeWebhooks = await this.webhooks.countActive();
    const oldest = backlog.oldestOccurredAt;
    return {
      outboxPending: backlog.pending,
      // A clock behind the event's own (another instance's) must not make a negative age.
      outboxOldestAgeSeconds: oldest === null ? 0 : Math.max(0, (this.clock.now().getTime() - oldest.getTime()) / 1000),
      activeWebhooks,
    };
  }
}
