import type { AccountId } from '../../domain/account/account.js';
import type { ApiId, ApiRecord } from '../../domain/api/api.aggregate.js';
import { ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/**
 * The account's APIs in creation order, a page at a time. A user of another account who holds
 * shares of some of them sees just those; anyone else gets a 404 for the account.
 */
export class ListApis {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
  ) {}

  async execute(
    principal: Principal,
    accountId: AccountId,
    page: PageRequest<ApiId>,
  ): Promise<Result<Page<ApiRecord, ApiId>, ApplicationError>> {
    const allowed = await this.access.checkAccount(principal, 'api', 'read', accountId);
    if (!allowed.ok) return allowed;
    const found = allowed.value === 'owner' ? await this.apis.list(accountId, page) : await this.apis.listSharedWith(accountId, principal.userId, page);
    return ok({ items: found.items.map((api) => api.toRecord()), next: found.next });
  }
}
