import type { AccountId } from '../../domain/account/account.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { DeliveryRepository, Lease } from '../../application/ports/delivery-repository.port.js';
import type { WebhookRepository } from '../../application/ports/webhook-repository.port.js';
import type { EventName } from '../../domain/events/domain-event.js';
import { Delivery, type DeliveryId, type DeliveryState } from '../../domain/webhook/delivery.aggregate.js';
import { Webhook, type WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { StateSource } from './in-memory-state.js';
import { page } from './in-memory-paging.js';

export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(private readonly state: StateSource) {}

  async get(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined> {
    const row = this.state().webhooks.get(id);
    return row && row.accountId === accountId ? Webhook.rehydrate(row) : undefined;
  }

  getForUpdate(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined> {
    return this.get(accountId, id);
  }

  async list(accountId: AccountId, request: PageRequest<WebhookId>): Promise<Page<Webhook, WebhookId>> {
    const { rows, next } = page([...this.state().webhooks.values()].filter((w) => w.accountId === accountId), request);
    return { items: rows.map((row) => Webhook.rehydrate(row)), next };
  }

  async subscribers(accountId: AccountId, event: EventName): Promise<Webhook[]> {
    return [...this.state().webhooks.values()]
      .filter((w) => w.accountId === accountId && w.active && w.events.includes(event))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((row) => Webhook.rehydrate(row));
  }

  async countInAccount(accountId: AccountId): Promise<number> {
    return [...this.state().webhooks.values()].filter((w) => w.accountId === accountId).length;
  }

  async countActive(): Promise<number> {
    return [...this.state().webhooks.values()].filter((w) => w.active).length;
  }

  async save(webhook: Webhook): Promise<void> {
    this.state().webhooks.set(webhook.id, webhook.snapshot());
  }

  /** Removes the webhook and its delivery log, as the database's cascade does. */
  async delete(accountId: AccountId, id: WebhookId): Promise<void> {
    const s = this.state();
    if (s.webhooks.get(id)?.accountId !== accountId) return;
    s.webhooks.delete(id);
    s.webhookLeases.delete(id);
    for (const [deliveryId, row] of s.deliveries) if (row.state.webhookId === id) s.deliveries.delete(deliveryId);
  }
}

export class InMemoryDeliveryRepository implements DeliveryRepository {
  constructor(private readonly state: StateSource) {}

  async add(delivery: Delivery, dispatchKey: string | null): Promise<boolean> {
    const s = this.state();
    const state = delivery.snapshot();
    if (dispatchKey !== null && [...s.deliveries.values()].some((d) => d.state.webhookId === state.webhookId && d.dispatchKey === dispatchKey)) return false;
    s.deliveries.set(state.id, { state, dispatchKey });
    return true;
  }

  async addFanOut(deliveries: readonly Delivery[]): Promise<number> {
    let stored = 0;
    for (const delivery of deliveries) if (await this.add(delivery, delivery.eventId)) stored += 1;
    return stored;
  }

  async get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    const row = this.state().deliveries.get(id);
    return row && row.state.webhookId === webhookId ? Delivery.rehydrate(row.state) : undefined;
  }

  async list(webhookId: WebhookId, request: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>> {
    const mine = [...this.state().deliveries.values()].map((d) => d.state).filter((d) => d.webhookId === webhookId);
    const { rows, next } = page(mine, request, true);
    return { items: rows.map((row) => Delivery.rehydrate(row)), next };
  }

  async save(delivery: Delivery): Promise<void> {
    const s = this.state();
    const row = s.deliveries.get(delivery.id);
    if (row) s.deliveries.set(delivery.id, { ...row, state: delivery.snapshot() });
  }

  async holds(webhookId: WebhookId, leaseToken: string): Promise<boolean> {
    return this.state().webhookLeases.get(webhookId)?.token === leaseToken;
  }

  async saveAll(webhookId: WebhookId, deliveries: readonly Delivery[], leaseToken: string): Promise<number> {
    if (!(await this.holds(webhookId, leaseToken))) return 0;
    const s = this.state();
    const mine = deliveries.filter((d) => d.webhookId === webhookId && s.deliveries.has(d.id));
    for (const delivery of mine) await this.save(delivery);
    return mine.length;
  }

  async release(webhookId: WebhookId, leaseToken: string): Promise<boolean> {
    const s = this.state();
    if (s.webhookLeases.get(webhookId)?.token !== leaseToken) return false;
    s.webhookLeases.delete(webhookId);
    return true;
  }

  async claimDue(now: Date, lease: Lease, limit: number, perWebhook = 1): Promise<Delivery[]> {
    const due = this.dueUnleased(now, () => true);
    const taken = new Map<string, number>();
    const claimed = due
      .filter((d) => {
        const count = taken.get(d.state.webhookId) ?? 0;
        taken.set(d.state.webhookId, count + 1);
        return count < perWebhook;
      })
      .slice(0, limit);
    return this.lease(claimed, lease);
  }

  async claimNext(webhookId: WebhookId, now: Date, lease: Lease, limit: number): Promise<Delivery[]> {
    return this.lease(this.dueUnleased(now, (id) => id === webhookId).slice(0, limit), lease);
  }

  /** Leases the webhooks of `claimed` under `lease`. */
  private lease(claimed: readonly { readonly state: DeliveryState }[], lease: Lease): Delivery[] {
    const s = this.state();
    for (const d of claimed) s.webhookLeases.set(d.state.webhookId, { until: lease.until, token: lease.token });
    return claimed.map((d) => Delivery.rehydrate(d.state));
  }

  /** The due pending deliveries of the webhooks `wanted` accepts that are not leased, in event order. */
  private dueUnleased(now: Date, wanted: (webhookId: WebhookId) => boolean) {
    const leases = this.state().webhookLeases;
    const free = (webhookId: string): boolean => {
      const until = leases.get(webhookId)?.until;
      return until === undefined || until <= now;
    };
    return [...this.state().deliveries.values()]
      .filter((d) => d.state.state === 'pending' && wanted(d.state.webhookId) && free(d.state.webhookId))
      .filter((d) => d.state.nextAttemptDate !== null && d.state.nextAttemptDate <= now)
      .sort((a, b) => (a.state.eventId === b.state.eventId ? (a.state.id < b.state.id ? -1 : 1) : a.state.eventId < b.state.eventId ? -1 : 1));
  }
}
