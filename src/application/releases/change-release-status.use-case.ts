import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseRecord } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

export type ReleaseTransition = 'deprecate' | 'endOfLife';

/** Deprecates a release or marks it end-of-life; a move the state machine refuses is a 409. */
export class ChangeReleaseStatus {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly version: string; readonly transition: ReleaseTransition },
  ): Promise<Result<ReleaseRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_release', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<ReleaseRecord, ApplicationError>> => {
      const api = await tx.apis.get(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const release = await tx.releases.getForUpdate(api.id, input.version);
      if (!release) return err(notFound('release'));
      const now = this.clock.now();
      const moved =
        input.transition === 'deprecate'
          ? release.deprecate(api.asReleased(), actorOf(principal), now)
          : release.endOfLife(api.asReleased(), actorOf(principal), now);
      if (!moved.ok) {
        const { from, to } = moved.error;
        return err({ kind: 'InvalidTransition', from, to });
      }
      await tx.releases.save(release);
      await tx.outbox.append(release.pullEvents());
      return ok(release.toRecord());
    });
  }
}
