import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { changesSinceRelease } from '../specs/spec-helpers.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from '../specs/change-settings.js';

/**
 * Deletes a release of any state with its snapshot, recording `release.deleted`; the next release's
 * changes are counted again from the release before the deleted one.
 */
export class DeleteRelease {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly version: string },
  ): Promise<Result<void, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_release', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      // The API's lock: releases made or deleted at once must not each count from a release the other removes.
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const release = await tx.releases.getForUpdate(api.id, input.version);
      if (!release) return err(notFound('release'));
      release.delete(api.asReleased(), actorOf(principal), this.clock.now());
      // The release after it now follows the one before it: what it changed is counted from there.
      const { previous, next } = await tx.releases.neighbours(api.id, release.id);
      await tx.releases.delete(api.id, release.id);
      const nextSnapshot = next && (await tx.releases.snapshot(api.id, next.version));
      if (next && nextSnapshot) await tx.releases.setChanges(api.id, next.id, await changesSinceRelease(tx, api.id, previous, nextSnapshot, this.changeSettings, next.snapshot().releaseDate));
      await tx.outbox.append(release.pullEvents());
      return ok();
    });
  }
}
