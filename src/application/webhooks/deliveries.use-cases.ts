import type { AccountId } from '../../domain/account/account.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import { Delivery, type DeliveryId, type DeliveryRecord } from '../../domain/webhook/delivery.aggregate.js';
import type { Webhook, WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import { actorOf, authorize, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { DeliveryRepository } from '../ports/delivery-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/** The caller's webhook whose log is read: `webhook.readonly` on its account, and the webhook there. */
async function webhookToRead(webhooks: WebhookRepository, principal: Principal, accountId: AccountId, webhookId: WebhookId): Promise<Result<Webhook, ApplicationError>> {
  const allowed = authorize(principal, 'webhook', 'read', accountId);
  if (!allowed.ok) return allowed;
  const webhook = await webhooks.get(accountId, webhookId);
  return webhook ? ok(webhook) : err(notFound('webhook'));
}

/** The delivery log of a webhook, newest first. */
export class ListDeliveries {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly webhookId: WebhookId; readonly page: PageRequest<DeliveryId> },
  ): Promise<Result<Page<DeliveryRecord, DeliveryId>, ApplicationError>> {
    const webhook = await webhookToRead(this.webhooks, principal, input.accountId, input.webhookId);
    if (!webhook.ok) return webhook;
    const page = await this.deliveries.list(webhook.value.id, input.page);
    return ok({ items: page.items.map((d) => d.toRecord()), next: page.next });
  }
}

/** One delivery of a webhook's log, with every attempt. */
export class GetDelivery {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly webhookId: WebhookId; readonly deliveryId: DeliveryId },
  ): Promise<Result<DeliveryRecord, ApplicationError>> {
    const webhook = await webhookToRead(this.webhooks, principal, input.accountId, input.webhookId);
    if (!webhook.ok) return webhook;
    const delivery = await this.deliveries.get(webhook.value.id, input.deliveryId);
    if (!delivery) return err(notFound('delivery'));
    return ok(delivery.toRecord());
  }
}

/** Sends a `ping` event to the webhook at once (active or not), as a delivery of its own. */
export class PingWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: { readonly accountId: AccountId; readonly webhookId: WebhookId }): Promise<Result<DeliveryRecord, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<DeliveryRecord, ApplicationError>> => {
      const webhook = await tx.webhooks.get(input.accountId, input.webhookId);
      if (!webhook) return err(notFound('webhook'));
      const now = this.clock.now();
      const eventId = this.ids.next();
      const payload = { id: eventId, name: 'ping', timestamp: formatTimestamp(now), user: actorOf(principal), resourceType: 'Webhook', resource: webhook.toRecord() };
      const delivery = Delivery.schedule(
        { id: this.ids.next(), webhookId: webhook.id, accountId: webhook.accountId, eventId, event: 'ping', payload: JSON.stringify(payload) },
        now,
      );
      await tx.deliveries.add(delivery, null);
      return ok(delivery.toRecord());
    });
  }
}

/** Sends a delivery's event again, same event id and body, as a new delivery. */
export class Redeliver {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly webhookId: WebhookId; readonly deliveryId: DeliveryId },
  ): Promise<Result<DeliveryRecord, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<DeliveryRecord, ApplicationError>> => {
      const webhook = await tx.webhooks.get(input.accountId, input.webhookId);
      if (!webhook) return err(notFound('webhook'));
      if (!webhook.active) return err({ kind: 'WebhookInactive' });
      const original = await tx.deliveries.get(webhook.id, input.deliveryId);
      if (!original) return err(notFound('delivery'));
      const { eventId, event, payload } = original.snapshot();
      const delivery = Delivery.schedule({ id: this.ids.next(), webhookId: webhook.id, accountId: webhook.accountId, eventId, event, payload }, this.clock.now());
      await tx.deliveries.add(delivery, null);
      return ok(delivery.toRecord());
    });
  }
}
