import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { Share, ShareGrantee, ShareId } from '../../domain/share/share.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/** A share with the grantee's current nickname and e-mail, as lists and reads show it. */
export interface ShareView {
  readonly share: Share;
  readonly grantee: ShareGrantee;
}

export interface ShareRepository {
  /** undefined when the API has no such share. */
  get(apiId: ApiId, id: ShareId): Promise<ShareView | undefined>;
  /** The API's shares in creation order. */
  list(apiId: ApiId, request: PageRequest<ShareId>): Promise<Page<ShareView, ShareId>>;
  /**
   * The share that gives `userId` access to the API, if the API belongs to `accountId`: what every
   * access check of a grantee reads, so a revoked share stops working with the next request.
   */
  findForGrantee(accountId: AccountId, apiId: ApiId, userId: UserId): Promise<Share | undefined>;
  /** Whether `userId` holds a share of any API of the account. */
  anyInAccount(accountId: AccountId, userId: UserId): Promise<boolean>;
  /** Inserts or updates. `DuplicateShare` when the API is already shared with that user. */
  save(share: Share): Promise<Result<void, { readonly kind: 'DuplicateShare' }>>;
  /** Removes the share; a no-op when absent. */
  delete(apiId: ApiId, id: ShareId): Promise<void>;
}
export const ShareRepository = token<ShareRepository>('ShareRepository');
