import type { AccountId } from '../../domain/account/account.js';
import type { EventName } from '../../domain/events/domain-event.js';
import type { Webhook, WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

export interface WebhookRepository {
  /** undefined when absent or of another account. */
  get(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined>;
  /** Like `get`, locking the row until the transaction ends. Inside `UnitOfWork.run` only. */
  getForUpdate(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined>;
  /** The account's webhooks in creation order. */
  list(accountId: AccountId, page: PageRequest<WebhookId>): Promise<Page<Webhook, WebhookId>>;
  /** The account's active webhooks subscribed to `event`. */
  subscribers(accountId: AccountId, event: EventName): Promise<Webhook[]>;
  /** Active webhooks in every account: an operator's figure, never shown to an account. */
  countActive(): Promise<number>;
  /** How many webhooks the account has (active or not): what its plan counts. */
  countInAccount(accountId: AccountId): Promise<number>;
  /** Inserts or updates. */
  save(webhook: Webhook): Promise<void>;
  /** Removes the webhook and its delivery log; a no-op when absent. */
  delete(accountId: AccountId, id: WebhookId): Promise<void>;
}
export const WebhookRepository = token<WebhookRepository>('WebhookRepository');
