import type { AccountId, UserId } from '../../domain/account/account.js';
import type { Api, ApiId } from '../../domain/api/api.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

export type ApiSaveError =
  /** Another API of the account has this nickname. */
  | { readonly kind: 'DuplicateNickname' }
  /** The stored revision is no longer `api.storedRevision`: someone changed it meanwhile. */
  | { readonly kind: 'ConcurrentModification' };

export interface ApiRepository {
  /** undefined when absent or when it belongs to another account. */
  get(accountId: AccountId, id: ApiId): Promise<Api | undefined>;
  /**
   * Like `get`, and the row stays locked for writing until the transaction ends, so concurrent
   * writers of one API take turns instead of failing. Call inside `UnitOfWork.run` only.
   */
  getForUpdate(accountId: AccountId, id: ApiId): Promise<Api | undefined>;
  /** The account's API with this nickname; undefined when absent, also for keys no API can have. */
  findByNickname(accountId: AccountId, nickname: string): Promise<Api | undefined>;
  /** The account's APIs in creation order. */
  list(accountId: AccountId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>>;
  /** The account's APIs shared with `userId`, in creation order: what a grantee's list shows. */
  listSharedWith(accountId: AccountId, userId: UserId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>>;
  /** Inserts a new API or updates a stored one if its stored revision is unchanged. */
  save(api: Api): Promise<Result<void, ApiSaveError>>;
  /** How many APIs the account has, and how many of them are private: what its plan counts. */
  countInAccount(accountId: AccountId): Promise<{ readonly all: number; readonly private: number }>;
  /** Removes the API; a no-op when absent. */
  delete(accountId: AccountId, id: ApiId): Promise<void>;
}
export const ApiRepository = token<ApiRepository>('ApiRepository');
