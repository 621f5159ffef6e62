import { ContainerModule } from 'inversify';
import { Plans } from '../../application/accounts/plans.js';
import { ApiAccess } from '../../application/auth/api-access.js';
import { CreatePage, DeletePage, GetPage, ListPages, UpdatePage } from '../../application/pages/pages.use-cases.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { PageRepository } from '../../application/ports/page-repository.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { PageUseCases } from '../../adapters/http/pages.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const PageUseCasesToken = token<PageUseCases>('PageUseCases');

/** Pages and guides of an API. */
export const pagesModule = new ContainerModule(({ bind }) => {
  construct(bind, ListPages, [ApiAccess, ApiRepository, PageRepository]);
  construct(bind, GetPage, [ApiAccess, ApiRepository, PageRepository]);
  construct(bind, CreatePage, [ApiAccess, UnitOfWork, Plans, IdGenerator, Clock]);
  construct(bind, UpdatePage, [ApiAccess, UnitOfWork, Clock]);
  construct(bind, DeletePage, [ApiAccess, UnitOfWork]);
  bind(PageUseCasesToken).toResolvedValue((listPages: ListPages, createPage: CreatePage, getPage: GetPage, updatePage: UpdatePage, deletePage: DeletePage) => ({ list: listPages, create: createPage, get: getPage, update: updatePage, delete: deletePage }), [ListPages, CreatePage, GetPage, UpdatePage, DeletePage]);
});
