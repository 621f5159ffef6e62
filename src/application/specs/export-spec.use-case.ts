import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { JsonObject, SpecSyntax } from '../../domain/spec/spec-document.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import type { SpecCodec } from '../ports/spec-codec.port.js';
import type { SpecRepository, StoredSpec } from '../ports/spec-repository.port.js';
import type { SpecRevisionRepository } from '../ports/spec-revision-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

export interface ExportedSpec {
  readonly syntax: SpecSyntax;
  readonly text: string;
  /** For a download name: the API's nickname and the release, if any. */
  readonly nickname: string;
  readonly release: string | null;
  readonly revision: number | null;
}

/**
 * The stored document, a release's frozen snapshot or a revision of the spec history, as YAML or
 * JSON (default: as uploaded).
 * In its own syntax the text comes back exactly as uploaded; in the other it is re-serialised.
 */
export class ExportSpec {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly specs: SpecRepository,
    private readonly releases: ReleaseRepository,
    private readonly revisions: SpecRevisionRepository,
    private readonly codec: SpecCodec,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly syntax?: SpecSyntax | undefined; readonly release?: string | undefined; readonly revision?: number | undefined },
  ): Promise<Result<ExportedSpec, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    const stored =
      input.revision !== undefined
        ? (await this.revisions.get(api.id, input.revision))?.spec
        : input.release === undefined
          ? await this.specs.get(api.id)
          : await this.releases.snapshot(api.id, input.release);
    if (!stored) return err(notFound(input.revision !== undefined ? 'revision' : input.release === undefined ? 'spec: the API has none yet' : 'release'));
    const syntax = input.syntax ?? stored.syntax;
    return ok({ syntax, text: this.render(stored, syntax), nickname: api.nickname, release: input.release ?? null, revision: input.revision ?? null });
  }

  private render(stored: StoredSpec, syntax: SpecSyntax): string {
    if (syntax === stored.syntax) return stored.source;
    if (syntax === 'json') return stored.documentJson;
    return this.codec.render(JSON.parse(stored.documentJson) as JsonObject, syntax);
  }
}
