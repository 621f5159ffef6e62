import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseId, ReleaseRecord } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { releaseSpec } from '../specs/spec-helpers.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from '../specs/change-settings.js';

/**
 * Releases the API's current spec as `version` (409 when the API has no spec or the label is
 * taken), with what it changed since the previous release (in `release.released` and the changelog).
 */
export class CreateRelease {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly version: unknown },
  ): Promise<Result<ReleaseRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_release', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<ReleaseRecord, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const snapshot = await tx.specs.get(api.id);
      if (!snapshot) return err({ kind: 'NoSpec' });
      // The current spec is the newest revision at or below the API's revision.
      const revision = (await tx.revisions.previous(api.id, api.revision + 1)) ?? api.revision;
      const input2 = { releaseId: this.ids.next<ReleaseId>(), api, version: input.version, actor: actorOf(principal), snapshot, revision, field: 'version' };
      const released = await releaseSpec(tx, input2, this.clock.now(), this.changeSettings);
      return released.ok ? ok(released.value.toRecord()) : released;
    });
  }
}
