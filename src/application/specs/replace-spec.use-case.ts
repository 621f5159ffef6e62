import type { AccountId } from '../../domain/account/account.js';
import type { Api, ApiId } from '../../domain/api/api.aggregate.js';
import { isValidVersion, type ReleaseId } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { checkBreakingChangePolicy } from '../../domain/spec/changes/policy.js';
import { countsOf, deriveResources } from '../../domain/spec/derived-resources.js';
import { summarizeSpec } from '../../domain/spec/spec-document.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from '../apis/api-errors.js';
import type { ApiAccess } from '../auth/api-access.js';
import { actorOf, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { ParsedSpec, SpecCodec } from '../ports/spec-codec.port.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { Plans } from '../accounts/plans.js';
import type { SpecRepository, StoredChanges } from '../ports/spec-repository.port.js';
import type { Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';
import { MAX_PAGE_LIMIT } from '../shared/page.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { SpecChanges, SpecResult } from './import-api.use-case.js';
import { changesBetween, releaseLabelError, releaseSpec, specErrorToApplication, storedOf } from './spec-helpers.js';
import type { DerivedCounts, DerivedResources } from '../../domain/spec/derived-resources.js';
import type { ApiRecord } from '../../domain/api/api.aggregate.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from './change-settings.js';

export interface ReplaceSpecInput {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
  readonly spec: Uint8Array;
  /** A version label: also release the new spec as this version. */
  readonly release?: string | undefined;
  /** From `If-Match`. */
  readonly expectedRevision?: number | undefined;
  /** Why breaking changes are let through whatever the API's policy (1-200 characters); kept on the revision. */
  readonly allowBreaking?: string | undefined;
  /** Validate and compare, write nothing. */
  readonly dryRun?: boolean | undefined;
}

/** What a dry run answers: the API as it is, the derived counts of the new document, and the changes. */
export interface DryRunResult {
  readonly dryRun: true;
  readonly api: ApiRecord;
  readonly counts: DerivedCounts;
  readonly changes: SpecChanges;
}

const REASON_MAX = 200;

/** An `allowBreaking` reason: 1-200 characters, not all blank, no control characters (a NUL cannot be stored on PostgreSQL). */
function isReason(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return text.trim() !== '' && text.length <= REASON_MAX && !/[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/**
 * Replaces an API's spec (the CI/CD update): name, description, version and format follow the new
 * document, the derived resources are rebuilt, the revision grows, the spec is kept in the API's
 * history with what it changed against the one before, and `api.updated` carries a summary. The
 * API's breaking-change policy is applied first (`allowBreaking` overrides it; operations removed
 * after their sunset, judged by today, pass it when the API has `allowRemovalAfterSunset`). Sending
 * the very same text again changes nothing (the revision stays), though a requested release is
 * still made.
 * With `dryRun` everything is checked and compared and nothing is written.
 */
export class ReplaceSpec {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly apis: ApiRepository,
    private readonly specs: SpecRepository,
    private readonly plans: Plans,
    private readonly codec: SpecCodec,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async execute(principal: Principal, input: ReplaceSpecInput): Promise<Result<SpecResult | DryRunResult, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'write', input);
    if (!allowed.ok) return allowed;
    if (input.release !== undefined) {
      const releases = await this.access.check(principal, 'api_release', 'write', input);
      if (!releases.ok) return releases;
    }
    if (input.allowBreaking !== undefined && !isReason(input.allowBreaking)) {
      return err({ kind: 'Validation', errors: [{ field: 'allowBreaking', message: `must be a reason of 1-${REASON_MAX} characters on one line, without control characters` }] });
    }
    const sized = await this.plans.admitImportSize(input.accountId, input.spec.byteLength);
    if (!sized.ok) return sized;
    const parsed = await this.codec.parse(input.spec);
    if (!parsed.ok) return err(specErrorToApplication(parsed.error));
    const spec = parsed.value;
    const derived = deriveResources(spec.document);
    const now = this.clock.now();
    // Compared before the transaction, as parsing is, so the write lock is not held meanwhile; used
    // when the API is still at the revision it was compared at.
    const early = await this.compareWithCurrent(input, spec, now);
    return this.uow.run(async (tx): Promise<Result<SpecResult | DryRunResult, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      if (input.expectedRevision !== undefined && input.expectedRevision !== api.revision) {
        return err({ kind: 'RevisionConflict', expected: input.expectedRevision, actual: api.revision });
      }
      const current = await tx.specs.get(api.id);
      const unchanged = current?.source === spec.source;
      const changes: StoredChanges | null =
        current === undefined ? null : unchanged ? { counts: { breaking: 0, warning: 0, info: 0 }, items: [] } : early?.revision === api.revision ? early.changes : changesBetween(current, spec, this.changeSettings, now);
      const breaking = (changes?.counts.breaking ?? 0) > 0;
      if (!unchanged && changes !== null) {
        const policy = checkBreakingChangePolicy({
          policy: api.breakingChangePolicy,
          allowRemovalAfterSunset: api.allowRemovalAfterSunset,
          changes,
          release: input.release,
          releases: await this.releaseLabels(tx, api),
          override: input.allowBreaking,
        });
        if (!policy.ok) return err({ kind: 'BreakingChange', refusal: policy.error, counts: changes.counts, items: changes.items, ...(changes.truncated ? { truncated: true } : {}) });
      }
      const summary: SpecChanges = { breaking, counts: changes?.counts ?? { breaking: 0, warning: 0, info: 0 }, items: changes?.items ?? [], ...(changes?.truncated ? { truncated: true } : {}) };
      if (input.dryRun) {
        const release = await this.checkRelease(tx, api, input.release);
        if (!release.ok) return release;
        return ok({ dryRun: true, api: api.toRecord(), counts: countsOf(derived), changes: summary });
      }
      if (!unchanged) {
        const stored = await this.store(tx, api, spec, derived, changes, input, principal, now);
        if (!stored.ok) return stored;
      }
      let release = null;
      if (input.release !== undefined) {
        const revision = (await tx.revisions.previous(api.id, api.revision + 1)) ?? api.revision;
        const released = await releaseSpec(
          tx,
          { releaseId: this.ids.next(), api, version: input.release, actor: actorOf(principal), snapshot: storedOf(spec), document: spec.document, revision, field: 'release' },
          now,
          this.changeSettings,
        );
        if (!released.ok) return released;
        release = released.value.toRecord();
      }
      return ok({ api: api.toRecord(), release, counts: countsOf(derived), changes: current === undefined ? null : summary });
    });
  }

  /** The changes from the API's current spec to `spec` on `now`, with the API revision they were computed at; undefined when there is nothing to compare. */
  private async compareWithCurrent(input: ReplaceSpecInput, spec: ParsedSpec, now: Date): Promise<{ readonly revision: number; readonly changes: StoredChanges } | undefined> {
    const api = await this.apis.get(input.accountId, input.apiId);
    const current = api && (await this.specs.get(api.id));
    if (!api || !current || current.source === spec.source) return undefined;
    // The spec read may be newer than the API record read: then the revision will not match and the transaction compares again.
    return { revision: api.revision, changes: changesBetween(current, spec, this.changeSettings, now) };
  }

  /** The API's new state and its event, the spec with its derived resources and its revision of the history. */
  private async store(
    tx: Transaction,
    api: Api,
    spec: ParsedSpec,
    derived: DerivedResources,
    changes: StoredChanges | null,
    input: ReplaceSpecInput,
    principal: Principal,
    now: Date,
  ): Promise<Result<void, ApplicationError>> {
    const fromRevision = (await tx.revisions.previous(api.id, api.revision + 1)) ?? null;
    // An API's first spec (it was created empty) changed nothing against a spec before it.
    const counts = changes?.counts ?? { breaking: 0, warning: 0, info: 0 };
    const summary = { fromRevision, breaking: counts.breaking > 0, counts };
    const replaced = api.replaceSpec(summarizeSpec(spec.document), undefined, actorOf(principal), summary, now);
    if (!replaced.ok) return err(apiErrorToApplication(replaced.error));
    const saved = await tx.apis.save(api);
    if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
    await tx.outbox.append(api.pullEvents());
    await tx.specs.save(api.id, storedOf(spec), derived, { revision: api.revision, creationDate: now, actor: actorOf(principal), specFormat: spec.format, changes, reason: input.allowBreaking ?? null });
    return ok();
  }

  /** A dry run refuses the release a real update would: a label the rules refuse, or one the API has. */
  private async checkRelease(tx: Transaction, api: Api, version: string | undefined): Promise<Result<void, ApplicationError>> {
    if (version === undefined) return ok();
    if (!isValidVersion(version)) return err(releaseLabelError('release'));
    if (await tx.releases.get(api.id, version)) return err({ kind: 'DuplicateVersion', version });
    return ok();
  }

  private async releaseLabels(tx: Transaction, api: Api): Promise<string[]> {
    if (api.breakingChangePolicy !== 'requireMajor') return [];
    const labels: string[] = [];
    let after: ReleaseId | undefined;
    do {
      const page = await tx.releases.list(api.id, { limit: MAX_PAGE_LIMIT, after });
      labels.push(...page.items.map((r) => r.version));
      after = page.next ?? undefined;
    } while (after !== undefined);
    return labels;
  }
}
