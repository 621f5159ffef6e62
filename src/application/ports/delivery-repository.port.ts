import type { Delivery, DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/**
 * A claim's lease: until when its deliveries are held, and the token that fences the run's writes.
 * Every claim gets a fresh token; a run's recording reads, saves and releases only the deliveries
 * that still hold its token, so a run recorded after its lease ran out and another claim took its
 * deliveries (a stalled worker, a slow recording) changes nothing.
 */
export interface Lease {
  readonly token: string;
  readonly until: Date;
}

export interface DeliveryRepository {
  /**
   * Stores a new delivery. With a `dispatchKey` (the event id, for fan-out) a second delivery of the
   * same event to the same webhook is refused (`false`), which makes dispatching idempotent.
   */
  add(delivery: Delivery, dispatchKey: string | null): Promise<boolean>;
  /** `add` for the fan-out of events, keyed by each delivery's event id, in a few statements; returns how many were stored. */
  addFanOut(deliveries: readonly Delivery[]): Promise<number>;
  /** undefined when the webhook has no such delivery. */
  get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined>;
  /** Like `get`, locking the row until the transaction ends. Inside `UnitOfWork.run` only. */
  getForUpdate(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined>;
  /** A webhook's deliveries, newest first. */
  list(webhookId: WebhookId, page: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>>;
  /** Stores the attempts and state of a delivery and releases its lease. */
  save(delivery: Delivery): Promise<void>;
  /**
   * Like `getForUpdate` for many deliveries at once: those of `ids` that are pending and still held
   * by the lease `leaseToken` (not taken by a later claim, not recorded since), in no particular order.
   */
  getLeasedForUpdate(ids: readonly DeliveryId[], leaseToken: string): Promise<Delivery[]>;
  /**
   * Like `save` for each of `deliveries` that still holds the lease `leaseToken`, in a few
   * statements; returns how many were written (the others were taken over: nothing changes).
   */
  saveAll(deliveries: readonly Delivery[], leaseToken: string): Promise<number>;
  /**
   * Ends the lease `leaseToken` of claimed deliveries that were not attempted, so they can be claimed
   * again at once; a delivery another claim holds keeps its lease. Returns how many were released.
   */
  release(ids: readonly DeliveryId[], leaseToken: string): Promise<number>;
  /**
   * Leases up to `limit` due pending deliveries under `lease`, in event order: of each webhook
   * none of whose deliveries is leased, its `perWebhook` (default 1) oldest due ones (by event, then
   * id), so a webhook's first attempts can go out in order of occurrence; one in backoff is not due
   * and holds nothing back. A webhook with a leased delivery gets nothing, so two workers never hold
   * deliveries of one webhook at once. Inside `UnitOfWork.run` only; the lease outlives the transaction.
   */
  claimDue(now: Date, lease: Lease, limit: number, perWebhook?: number): Promise<Delivery[]>;
  /**
   * Leases under `lease` the next up to `limit` due pending deliveries of one webhook, in event
   * order, for the lane that holds it: call it in the transaction that records the lane's last run,
   * after those leases were ended or released, so the webhook stays leased from one run to the next.
   * Nothing when another claimer holds a lease of the webhook. Call it holding the webhook's lock
   * (`WebhookRepository.getForUpdate` in the same transaction, as the recording does), so that
   * claimers of one webhook take turns. Inside `UnitOfWork.run` only.
   */
  claimNext(webhookId: WebhookId, now: Date, lease: Lease, limit: number): Promise<Delivery[]>;
}
export const DeliveryRepository = token<DeliveryRepository>('DeliveryRepository');
