import { ContainerModule } from 'inversify';
import { Plans } from '../../application/accounts/plans.js';
import { CreateApi } from '../../application/apis/create-api.use-case.js';
import { DeleteApi } from '../../application/apis/delete-api.use-case.js';
import { GetApi } from '../../application/apis/get-api.use-case.js';
import { ListApis } from '../../application/apis/list-apis.use-case.js';
import { UpdateApi } from '../../application/apis/update-api.use-case.js';
import { ApiAccess } from '../../application/auth/api-access.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { ApiUseCases } from '../../adapters/http/apis.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const ApiUseCasesToken = token<ApiUseCases>('ApiUseCases');

/** The Core-API’s APIs. */
export const apisModule = new ContainerModule(({ bind }) => {
  construct(bind, CreateApi, [UnitOfWork, Plans, IdGenerator, Clock]);
  construct(bind, ListApis, [ApiAccess, ApiRepository]);
  construct(bind, GetApi, [ApiAccess, ApiRepository]);
  construct(bind, UpdateApi, [ApiAccess, UnitOfWork, Plans, Clock]);
  construct(bind, DeleteApi, [ApiAccess, UnitOfWork, Clock]);
  bind(ApiUseCasesToken).toResolvedValue((createApi: CreateApi, listApis: ListApis, getApi: GetApi, updateApi: UpdateApi, deleteApi: DeleteApi) => ({ create: createApi, list: listApis, get: getApi, update: updateApi, delete: deleteApi }), [CreateApi, ListApis, GetApi, UpdateApi, DeleteApi]);
});
