import type { AccountId } from '../../domain/account/account.js';
import { Api, nameFromTitle, nicknameFromTitle, type ApiRecord } from '../../domain/api/api.aggregate.js';
import type { ReleaseRecord } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { countsOf, deriveResources, type DerivedCounts } from '../../domain/spec/derived-resources.js';
import { summarizeSpec } from '../../domain/spec/spec-document.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from '../apis/api-errors.js';
import { actorOf, authorize, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { SpecCodec } from '../ports/spec-codec.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { Plans } from '../accounts/plans.js';
import { releaseSpec, specErrorToApplication, storedOf } from './spec-helpers.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from './change-settings.js';

/** The name of an API imported from a document with a blank `info.title` and no nickname given. */
const UNTITLED = 'Untitled API';

export interface ImportApiInput {
  readonly accountId: AccountId;
  /** The spec part's bytes: Swagger 2.0, OpenAPI 3.0 or 3.1, in YAML or JSON. */
  readonly spec: Uint8Array;
  /** Default: made from `info.title`. */
  readonly nickname?: string | undefined;
  /** Default: private. */
  readonly type?: string | undefined;
  readonly createRelease?: boolean | undefined;
  /** Default: `info.version`. */
  readonly releaseVersion?: string | undefined;
}

export interface SpecResult {
  readonly api: ApiRecord;
  readonly release: ReleaseRecord | null;
  readonly counts: DerivedCounts;
  /** What the spec changed against the one before it; null for an API's first spec. */
  readonly changes: SpecChanges | null;
}

/** Changes between two specs, as answers carry them. */
export interface SpecChanges {
  readonly breaking: boolean;
  readonly counts: ChangeCounts;
  readonly items: readonly Change[];
  /** Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`); `counts` counts them all. */
  readonly truncated?: true;
}

/**
 * Creates an API from a Swagger 2.0, OpenAPI 3.0 or 3.1 document: the API, its spec, its derived resources and, with
 * `createRelease`, its first release, all in one transaction with their events. The document is
 * parsed and validated before the transaction opens; a rejected request writes nothing.
 */
export class ImportApi {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly codec: SpecCodec,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async execute(principal: Principal, input: ImportApiInput): Promise<Result<SpecResult, ApplicationError>> {
    const allowed = authorize(principal, 'api', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    if (input.createRelease) {
      const releases = authorize(principal, 'api_release', 'write', input.accountId);
      if (!releases.ok) return releases;
    }
    const sized = await this.plans.admitImportSize(input.accountId, input.spec.byteLength);
    if (!sized.ok) return sized;
    const parsed = await this.codec.parse(input.spec);
    if (!parsed.ok) return err(specErrorToApplication(parsed.error));
    const spec = parsed.value;
    const summary = summarizeSpec(spec.document);
    const now = this.clock.now();
    const created = Api.create(
      {
        id: this.ids.next(),
        accountId: input.accountId,
        owner: actorOf(principal),
        name: nameFromTitle(summary.title, input.nickname ?? UNTITLED),
        nickname: input.nickname ?? nicknameFromTitle(summary.title),
        type: input.type,
        description: summary.description,
        version: summary.version,
        specFormat: summary.format,
      },
      now,
    );
    if (!created.ok) return err(apiErrorToApplication(created.error));
    const api = created.value;
    const derived = deriveResources(spec.document);
    return this.uow.run(async (tx): Promise<Result<SpecResult, ApplicationError>> => {
      const admitted = await this.plans.admitApi(tx, input.accountId, api.toRecord().type);
      if (!admitted.ok) return admitted;
      const saved = await tx.apis.save(api);
      if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
      await tx.outbox.append(api.pullEvents());
      await tx.specs.save(api.id, storedOf(spec), derived, { revision: api.revision, creationDate: now, actor: actorOf(principal), specFormat: spec.format, changes: null, reason: null });
      let release = null;
      if (input.createRelease) {
        const version = input.releaseVersion ?? summary.version;
        const field = input.releaseVersion === undefined ? 'info.version' : 'releaseVersion';
        const released = await releaseSpec(
          tx,
          { releaseId: this.ids.next(), api, version, actor: actorOf(principal), snapshot: storedOf(spec), document: spec.document, revision: api.revision, field },
          now,
          this.changeSettings,
        );
        if (!released.ok) return released;
        release = released.value.toRecord();
      }
      return ok({ api: api.toRecord(), release, counts: countsOf(derived), changes: null });
    });
  }
}
