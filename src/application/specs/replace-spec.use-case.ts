import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { countsOf, deriveResources } from '../../domain/spec/derived-resources.js';
import { summarizeSpec } from '../../domain/spec/spec-document.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from '../apis/api-errors.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { SpecCodec } from '../ports/spec-codec.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { SpecResult } from './import-api.use-case.js';
import { releaseSpec, specErrorToApplication, storedOf } from './spec-helpers.js';

export interface ReplaceSpecInput {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
  readonly spec: Uint8Array;
  /** A version label: also release the new spec as this version. */
  readonly release?: string | undefined;
  /** From `If-Match`. */
  readonly expectedRevision?: number | undefined;
}

/**
 * Replaces an API's spec (the CI/CD update): name, description and version follow the new
 * document, the derived resources are rebuilt and the revision grows. Sending the very same text
 * again changes nothing (the revision stays), though a requested release is still made.
 */
export class ReplaceSpec {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly codec: SpecCodec,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: ReplaceSpecInput): Promise<Result<SpecResult, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'write', input);
    if (!allowed.ok) return allowed;
    if (input.release !== undefined) {
      const releases = await this.access.check(principal, 'api_release', 'write', input);
      if (!releases.ok) return releases;
    }
    const parsed = await this.codec.parse(input.spec);
    if (!parsed.ok) return err(specErrorToApplication(parsed.error));
    const spec = parsed.value;
    const derived = deriveResources(spec.document);
    const now = this.clock.now();
    return this.uow.run(async (tx): Promise<Result<SpecResult, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const current = await tx.specs.get(api.id);
      if (current?.source !== spec.source) {
        const replaced = api.replaceSpec(summarizeSpec(spec.document), input.expectedRevision, now);
        if (!replaced.ok) return err(apiErrorToApplication(replaced.error));
        const saved = await tx.apis.save(api);
        if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
        await tx.specs.save(api.id, storedOf(spec), derived);
      } else if (input.expectedRevision !== undefined && input.expectedRevision !== api.revision) {
        return err({ kind: 'RevisionConflict', expected: input.expectedRevision, actual: api.revision });
      }
      let release = null;
      if (input.release !== undefined) {
        const released = await releaseSpec(
          tx,
          { releaseId: this.ids.next(), api, version: input.release, actor: actorOf(principal), snapshot: storedOf(spec), field: 'release' },
          now,
        );
        if (!released.ok) return released;
        release = released.value.toRecord();
      }
      return ok({ api: api.toRecord(), release, counts: countsOf(derived) });
    });
  }
}
