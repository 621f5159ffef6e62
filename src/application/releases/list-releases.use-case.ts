import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseId, ReleaseRecord } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/** An API's releases by release date. */
export class ListReleases {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly releases: ReleaseRepository,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly page: PageRequest<ReleaseId> },
  ): Promise<Result<Page<ReleaseRecord, ReleaseId>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_release', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    const page = await this.releases.list(api.id, input.page);
    return ok({ items: page.items.map((r) => r.toRecord()), next: page.next });
  }
}
