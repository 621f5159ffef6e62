import { Delivery } from '../../domain/webhook/delivery.aggregate.js';
import type { Webhook, WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { OutboxEvent } from '../ports/event-outbox.port.js';
import { ok } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';

/**
 * Fans outbox events out, oldest first, to the active webhooks of their account that subscribe to them: one
 * delivery per webhook, and the event marked dispatched, in one transaction. A crash before the
 * commit leaves the event undispatched for the next run; deliveries keyed by event id make a
 * repeated fan-out impossible, so nothing is lost or doubled.
 */
export class DispatchEvents {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Dispatches up to `limit` events; returns how many deliveries it scheduled and events it took. */
  async execute(limit: number): Promise<{ readonly events: number; readonly deliveries: number }> {
    const result = await this.uow.run(async (tx) => {
      const events = await tx.outbox.claimPending(limit);
      const now = this.clock.now();
      // Read once per account and event name: a batch is mostly a few accounts' events.
      const subscribers = new Map<string, Promise<readonly Webhook[]>>();
      // Grouped by webhook, each in event order: a webhook's deliveries are then stored side by
      // side (SQLite's rowid order, PostgreSQL's heap), so a lane's run reads and rewrites a few
      // pages instead of one page per delivery.
      const byWebhook = new Map<WebhookId, { readonly event: OutboxEvent; readonly body: string }[]>();
      for (const event of events) {
        const { payload } = event;
        const key = `${event.accountId} ${payload.name}`;
        let webhooks = subscribers.get(key);
        if (webhooks === undefined) {
          webhooks = tx.webhooks.subscribers(event.accountId, payload.name);
          subscribers.set(key, webhooks);
        }
        const body = JSON.stringify(payload);
        for (const webhook of await webhooks) {
          const list = byWebhook.get(webhook.id);
          if (list) list.push({ event, body });
          else byWebhook.set(webhook.id, [{ event, body }]);
        }
      }
      const scheduled: Delivery[] = [];
      for (const [webhookId, list] of byWebhook) {
        for (const { event, body } of list) {
          scheduled.push(Delivery.schedule({ id: this.ids.next(), webhookId, accountId: event.accountId, eventId: event.id, event: event.payload.name, payload: body }, now));
        }
      }
      const deliveries = await tx.deliveries.addFanOut(scheduled);
      await tx.outbox.markDispatched(
        events.map((e) => e.id),
        now,
      );
      return ok({ events: events.length, deliveries });
    });
    return result.ok ? result.value : { events: 0, deliveries: 0 };
  }
}
