import type { Delivery, DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

export interface DeliveryRepository {
  /**
   * Stores a new delivery. With a `dispatchKey` (the event id, for fan-out) a second delivery of the
   * same event to the same webhook is refused (`false`), which makes dispatching idempotent.
   */
  add(delivery: Delivery, dispatchKey: string | null): Promise<boolean>;
  /** undefined when the webhook has no such delivery. */
  get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined>;
  /** Like `get`, locking the row until the transaction ends. Inside `UnitOfWork.run` only. */
  getForUpdate(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined>;
  /** A webhook's deliveries, newest first. */
  list(webhookId: WebhookId, page: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>>;
  /** Stores the attempts and state of a delivery and releases its lease. */
  save(delivery: Delivery): Promise<void>;
  /**
   * Leases up to `limit` due pending deliveries until `leaseUntil`, in event order and at most the
   * oldest due one (by event) of each webhook (first attempts in order of occurrence; one in backoff is not
   * due and holds nothing back), skipping rows another worker holds. Inside `UnitOfWork.run` only; the lease outlives the transaction.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]>;
}
export const DeliveryRepository = token<DeliveryRepository>('DeliveryRepository');
