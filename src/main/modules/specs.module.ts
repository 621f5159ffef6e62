import { ContainerModule } from 'inversify';
import { ChangeSettings } from '../../application/specs/change-settings.js';
import { Plans } from '../../application/accounts/plans.js';
import { ApiAccess } from '../../application/auth/api-access.js';
import { ApiRepository } from '../../application/ports/api-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { ReleaseRepository } from '../../application/ports/release-repository.port.js';
import { SpecCodec } from '../../application/ports/spec-codec.port.js';
import { SpecRepository } from '../../application/ports/spec-repository.port.js';
import { SpecRevisionRepository } from '../../application/ports/spec-revision-repository.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { Changelog } from '../../application/releases/changelog.js';
import { ExportSpec } from '../../application/specs/export-spec.use-case.js';
import { GetChangelog } from '../../application/specs/get-changelog.use-case.js';
import { GetChanges } from '../../application/specs/get-changes.use-case.js';
import { ImportApi } from '../../application/specs/import-api.use-case.js';
import { ListDerived } from '../../application/specs/list-derived.use-case.js';
import { ListRevisions } from '../../application/specs/list-revisions.use-case.js';
import { ReplaceSpec } from '../../application/specs/replace-spec.use-case.js';
import type { SpecUseCases } from '../../adapters/http/specs.routes.js';
import { token } from '../../application/shared/token.js';
import { construct } from './wiring.js';

/** What this feature's router needs. */
export const SpecUseCasesToken = token<SpecUseCases>('SpecUseCases');

/** Specs: import, update, export, derived resources, the history, changes and the changelog. */
export const specsModule = new ContainerModule(({ bind }) => {
  construct(bind, ImportApi, [UnitOfWork, Plans, SpecCodec, IdGenerator, Clock, ChangeSettings]);
  construct(bind, ReplaceSpec, [ApiAccess, UnitOfWork, ApiRepository, SpecRepository, Plans, SpecCodec, IdGenerator, Clock, ChangeSettings]);
  construct(bind, ExportSpec, [ApiAccess, ApiRepository, SpecRepository, ReleaseRepository, SpecRevisionRepository, SpecCodec]);
  construct(bind, ListDerived, [ApiAccess, ApiRepository, SpecRepository]);
  construct(bind, ListRevisions, [ApiAccess, ApiRepository, SpecRevisionRepository]);
  construct(bind, GetChanges, [ApiAccess, ApiRepository, SpecRevisionRepository, ReleaseRepository, ChangeSettings]);
  construct(bind, Changelog, [UnitOfWork, ReleaseRepository, ChangeSettings]);
  construct(bind, GetChangelog, [ApiAccess, ApiRepository, Changelog]);
  bind(SpecUseCasesToken).toResolvedValue((importApi: ImportApi, replaceSpec: ReplaceSpec, exportSpec: ExportSpec, listDerived: ListDerived, listRevisions: ListRevisions, getChanges: GetChanges, getChangelog: GetChangelog) => ({ import: importApi, replace: replaceSpec, export: exportSpec, listDerived: listDerived, revisions: listRevisions, changes: getChanges, changelog: getChangelog }), [ImportApi, ReplaceSpec, ExportSpec, ListDerived, ListRevisions, GetChanges, GetChangelog]);
});
