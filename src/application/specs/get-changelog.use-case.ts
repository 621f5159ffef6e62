import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseId } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { Changelog, RecordedChangelogEntry } from '../releases/changelog.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/** An API's releases newest first, each with what it changed since the release before it. */
export class GetChangelog {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly changelog: Changelog,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly page: PageRequest<ReleaseId> },
  ): Promise<Result<Page<RecordedChangelogEntry, ReleaseId>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    return ok(await this.changelog.page(api.accountId, api.id, input.page));
  }
}
