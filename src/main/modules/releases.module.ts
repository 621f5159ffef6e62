import { ContainerModule } from 'inversify';
import { ChangeSettings } from '../../application/specs/change-settings.js';
import { ApiAccess } from '../../application/auth/api-access.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { ReleaseRepository } from '../../application/ports/release-repository.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { ChangeReleaseStatus } from '../../application/releases/change-release-status.use-case.js';
import { CreateRelease } from '../../application/releases/create-release.use-case.js';
import { DeleteRelease } from '../../application/releases/delete-release.use-case.js';
import { GetRelease } from '../../application/releases/get-release.use-case.js';
import { ListReleases } from '../../application/releases/list-releases.use-case.js';
import type { ReleaseUseCases } from '../../adapters/http/releases.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const ReleaseUseCasesToken = token<ReleaseUseCases>('ReleaseUseCases');

/** Releases and their state machine. */
export const releasesModule = new ContainerModule(({ bind }) => {
  construct(bind, CreateRelease, [ApiAccess, UnitOfWork, IdGenerator, Clock, ChangeSettings]);
  construct(bind, ListReleases, [ApiAccess, ApiRepository, ReleaseRepository]);
  construct(bind, GetRelease, [ApiAccess, ApiRepository, ReleaseRepository]);
  construct(bind, ChangeReleaseStatus, [ApiAccess, UnitOfWork, Clock]);
  construct(bind, DeleteRelease, [ApiAccess, UnitOfWork, Clock, ChangeSettings]);
  bind(ReleaseUseCasesToken).toResolvedValue((createRelease: CreateRelease, listReleases: ListReleases, getRelease: GetRelease, changeReleaseStatus: ChangeReleaseStatus, deleteRelease: DeleteRelease) => ({ create: createRelease, list: listReleases, get: getRelease, changeStatus: changeReleaseStatus, delete: deleteRelease }), [CreateRelease, ListReleases, GetRelease, ChangeReleaseStatus, DeleteRelease]);
});
