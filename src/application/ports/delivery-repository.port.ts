import type { Delivery, DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/**
 * A claim's lease of a webhook: until when the lane holds the webhook's queue, and the token that
 * fences the run's writes. Every claim gets a fresh token; a run's recording reads, saves and
 * ends the lease only while the webhook is still held by its token, so a run recorded after its
 * lease ran out and another claim took the webhook (a stalled worker, a slow recording) changes
 * nothing.
 */
export interface Lease {
  readonly token: string;
  readonly until: Date;
}

export interface DeliveryRepository {
  /**
   * Stores a new delivery. With a `dispatchKey` (its event id, for fan-out; never anything else) a
   * second delivery of the same event to the same webhook is refused (`false`), which makes
   * dispatching idempotent. Every delivery of an event carries the event's payload, the same
   * text: a store may keep it once an event (the SQL stores do, keeping the first one stored).
   */
  add(delivery: Delivery, dispatchKey: string | null): Promise<boolean>;
  /** `add` for the fan-out of events, keyed by each delivery's event id, in a few statements; returns how many were stored. */
  addFanOut(deliveries: readonly Delivery[]): Promise<number>;
  /** undefined when the webhook has no such delivery. */
  get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined>;
  /** A webhook's deliveries, newest first. */
  list(webhookId: WebhookId, page: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>>;
  /** Stores the attempts and state of a delivery. */
  save(delivery: Delivery): Promise<void>;
  /**
   * Whether `webhookId` is leased under `leaseToken`: no later claim took it and the lease was not
   * ended since (a lease that ran out untaken still holds). While it does, the run's deliveries are
   * as its claim read them: only the lease's holder writes a leased webhook's pending deliveries.
   * Call it holding the webhook's lock (`WebhookRepository.getForUpdate` in the same transaction,
   * as the recording does), which keeps a second recording of the webhook out until this one
   * commits.
   */
  holds(webhookId: WebhookId, leaseToken: string): Promise<boolean>;
  /**
   * Like `save` for each of `deliveries` of `webhookId` while the webhook is leased under
   * `leaseToken`, in a few statements; returns how many were written (none when another claim
   * took the webhook). The lease goes on: `release` ends it.
   */
  saveAll(webhookId: WebhookId, deliveries: readonly Delivery[], leaseToken: string): Promise<number>;
  /**
   * Ends the lease `leaseToken` of `webhookId`, so its deliveries can be claimed again at once;
   * a lease another claim holds stays. Returns whether it ended one.
   */
  release(webhookId: WebhookId, leaseToken: string): Promise<boolean>;
  /**
   * Claims up to `limit` due pending deliveries, in event order: of each webhook not leased (never,
   * or its lease ended or ran out), its `perWebhook` (default 1) oldest due ones (by event, then
   * id), so a webhook's first attempts can go out in order of occurrence; one in backoff is not due
   * and holds nothing back. Each webhook they belong to is leased under `lease`; a leased webhook
   * gets nothing, so two workers never hold deliveries of one webhook at once. Inside
   * `UnitOfWork.run` only; the lease outlives the transaction.
   */
  claimDue(now: Date, lease: Lease, limit: number, perWebhook?: number): Promise<Delivery[]>;
  /**
   * Claims the next up to `limit` due pending deliveries of one webhook, in event order, and leases
   * the webhook under `lease` if there are any, for the lane that held it: call it in the
   * transaction that records the lane's last run, after its lease was released, so the webhook
   * stays leased from one run to the next. Nothing while the webhook is leased (by another claim).
   * Call it holding the webhook's lock (`WebhookRepository.getForUpdate` in the same transaction,
   * as the recording does), so that claimers of one webhook take turns. Inside `UnitOfWork.run` only.
   */
  claimNext(webhookId: WebhookId, now: Date, lease: Lease, limit: number): Promise<Delivery[]>;
}
export const DeliveryRepository = token<DeliveryRepository>('DeliveryRepository');
