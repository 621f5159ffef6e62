import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseRecord } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

export class GetRelease {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly releases: ReleaseRepository,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly version: string },
  ): Promise<Result<ReleaseRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_release', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    const release = await this.releases.get(api.id, input.version);
    return release ? ok(release.toRecord()) : err(notFound('release'));
  }
}
