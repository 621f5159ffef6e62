import type { AccountId } from '../../domain/account/account.js';
import type { ApiChanges, ApiId, ApiRecord } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { authorize, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from './api-errors.js';

export interface UpdateApiInput {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
  readonly changes: ApiChanges;
  /** From `If-Match`: the revision the client last saw; absent means "whatever is current". */
  readonly expectedRevision?: number | undefined;
}

/** A writer without `If-Match` that loses a race is retried on the fresh state this many times. */
const ATTEMPTS = 3;

/**
 * Changes name, nickname or type. With `expectedRevision`, a stale revision is a RevisionConflict
 * and nothing changes; the store's revision check makes that hold across instances as well.
 */
export class UpdateApi {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: UpdateApiInput): Promise<Result<ApiRecord, ApplicationError>> {
    const allowed = authorize(principal, 'api', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    let result = await this.attempt(input);
    for (let attempt = 2; attempt <= ATTEMPTS && input.expectedRevision === undefined && lostRace(result); attempt++) {
      result = await this.attempt(input);
    }
    return result;
  }

  private attempt(input: UpdateApiInput): Promise<Result<ApiRecord, ApplicationError>> {
    return this.uow.run(async (tx): Promise<Result<ApiRecord, ApplicationError>> => {
      const api = await tx.apis.get(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const updated = api.update(input.changes, input.expectedRevision, this.clock.now());
      if (!updated.ok) return err(apiErrorToApplication(updated.error));
      const saved = await tx.apis.save(api);
      if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
      await tx.outbox.append(api.pullEvents());
      return ok(api.toRecord());
    });
  }
}

function lostRace(result: Result<unknown, ApplicationError>): boolean {
  return !result.ok && result.error.kind === 'RevisionConflict' && result.error.actual === null;
}
