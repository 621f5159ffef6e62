import type { AccountId } from '../../domain/account/account.js';
import type { ApiChanges, ApiId, ApiRecord } from '../../domain/api/api.aggregate.js';
import { ownerOnlyFieldsOf } from '../../domain/share/share.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from './api-errors.js';
import type { Plans } from '../accounts/plans.js';

export interface UpdateApiInput {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
  readonly changes: ApiChanges;
  /** From `If-Match`: the revision the client last saw; absent means "whatever is current". */
  readonly expectedRevision?: number | undefined;
}

/**
 * Changes name, nickname, type or breaking-change policy (with `allowRemovalAfterSunset`),
 * recording `api.updated` when anything changed; making an API private needs a plan that has private APIs. A grantee of a share, even an
 * editor, may send `name` only: the other fields are the owner's account's (`OwnerOnlyField`,
 * decided before the API is read, and nothing of the change is made). The API is read for update, so concurrent writers take turns:
 * each lands on a new revision. With `expectedRevision`, a stale revision is a RevisionConflict
 * and nothing changes; the store's conditional update backs that up across instances.
 */
export class UpdateApi {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: UpdateApiInput): Promise<Result<ApiRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'write', input, { fields: ownerOnlyFieldsOf(input.changes) });
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<ApiRecord, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const wasPrivate = api.toRecord().type === 'private';
      const updated = api.update(input.changes, input.expectedRevision, actorOf(principal), this.clock.now());
      if (!updated.ok) return err(apiErrorToApplication(updated.error));
      if (!wasPrivate && api.toRecord().type === 'private') {
        const admitted = await this.plans.admitPrivate(tx, api.accountId);
        if (!admitted.ok) return admitted;
      }
      const saved = await tx.apis.save(api);
      if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
      await tx.outbox.append(api.pullEvents());
      return ok(api.toRecord());
    });
  }
}
