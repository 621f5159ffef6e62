import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { SpecRevisionRepository, SpecRevisionSummary } from '../ports/spec-revision-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/** The specs an API has had, newest first, with who stored each, its format and its change counts. */
export class ListRevisions {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly revisions: SpecRevisionRepository,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly page: PageRequest<number> },
  ): Promise<Result<Page<SpecRevisionSummary, number>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    return ok(await this.revisions.list(api.id, input.page));
  }
}
