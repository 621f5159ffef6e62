import { ContainerModule } from 'inversify';
import { ApiAccess } from '../../application/auth/api-access.js';
import { ReadableApis } from '../../application/docs/readable-api.js';
import { ViewApiChangelog } from '../../application/docs/view-api-changelog.use-case.js';
import { ViewApiDocs } from '../../application/docs/view-api-docs.use-case.js';
import { ViewApiGuide } from '../../application/docs/view-api-guide.use-case.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { PageRepository } from '../../application/ports/page-repository.port.js';
import { ReleaseRepository } from '../../application/ports/release-repository.port.js';
import { SpecRepository } from '../../application/ports/spec-repository.port.js';
import { UserRepository } from '../../application/ports/user-repository.port.js';
import { Changelog } from '../../application/releases/changelog.js';
import type { DocsUseCases } from '../../adapters/http/docs/docs.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const DocsUseCasesToken = token<DocsUseCases>('DocsUseCases');

/** The documentation pages. */
export const docsModule = new ContainerModule(({ bind }) => {
  construct(bind, ReadableApis, [ApiRepository, UserRepository, ApiAccess, ReleaseRepository, PageRepository]);
  construct(bind, ViewApiDocs, [ReadableApis, SpecRepository, ReleaseRepository]);
  construct(bind, ViewApiGuide, [ReadableApis, PageRepository]);
  construct(bind, ViewApiChangelog, [ReadableApis, Changelog]);
  bind(DocsUseCasesToken).toResolvedValue((viewApiDocs: ViewApiDocs, viewApiGuide: ViewApiGuide, viewApiChangelog: ViewApiChangelog) => ({ view: viewApiDocs, guide: viewApiGuide, changelog: viewApiChangelog }), [ViewApiDocs, ViewApiGuide, ViewApiChangelog]);
});
