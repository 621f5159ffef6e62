import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

/** Deletes an API with its releases, shares and pages and records `api.deleted`; the owner's account only. */
export class DeleteApi {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, accountId: AccountId, apiId: ApiId): Promise<Result<void, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'write', { accountId, apiId }, { action: 'deleteApi' });
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(accountId, apiId);
      if (!api) return err(notFound('api'));
      api.delete(actorOf(principal), this.clock.now());
      await tx.apis.delete(accountId, apiId);
      await tx.outbox.append(api.pullEvents());
      return ok();
    });
  }
}
