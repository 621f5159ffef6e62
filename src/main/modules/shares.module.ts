import { ContainerModule } from 'inversify';
import { ApiAccess } from '../../application/auth/api-access.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { ShareRepository } from '../../application/ports/share-repository.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { CreateShare, DeleteShare, GetShare, ListShares, UpdateShare } from '../../application/shares/shares.use-cases.js';
import type { ShareUseCases } from '../../adapters/http/shares.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const ShareUseCasesToken = token<ShareUseCases>('ShareUseCases');

/** Shares of an API with users of other accounts. */
export const sharesModule = new ContainerModule(({ bind }) => {
  construct(bind, ListShares, [ApiAccess, ApiRepository, ShareRepository]);
  construct(bind, GetShare, [ApiAccess, ApiRepository, ShareRepository]);
  construct(bind, CreateShare, [ApiAccess, UnitOfWork, IdGenerator, Clock]);
  construct(bind, UpdateShare, [ApiAccess, UnitOfWork, Clock]);
  construct(bind, DeleteShare, [ApiAccess, UnitOfWork]);
  bind(ShareUseCasesToken).toResolvedValue((listShares: ListShares, createShare: CreateShare, getShare: GetShare, updateShare: UpdateShare, deleteShare: DeleteShare) => ({ list: listShares, create: createShare, get: getShare, update: updateShare, delete: deleteShare }), [ListShares, CreateShare, GetShare, UpdateShare, DeleteShare]);
});
