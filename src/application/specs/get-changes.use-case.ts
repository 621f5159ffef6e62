import type { AccountId } from '../../domain/account/account.js';
import type { Api, ApiId } from '../../domain/api/api.aggregate.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import type { StoredChanges, StoredSpec } from '../ports/spec-repository.port.js';
import type { SpecRevisionRepository } from '../ports/spec-revision-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { capped, changesBetween } from './spec-helpers.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from './change-settings.js';

/** One side of a comparison: a revision number or a release version; neither means the default. */
export interface ChangeSide {
  readonly revision?: number | undefined;
  readonly release?: string | undefined;
}

/** A side as the answer names it. */
export interface ResolvedSide {
  /** null for a release made before spec history was kept. */
  readonly revision: number | null;
  readonly release: string | null;
}

export interface ChangesView {
  /** null when `to` is the API's first spec: there is nothing before it. */
  readonly from: ResolvedSide | null;
  readonly to: ResolvedSide;
  readonly breaking: boolean;
  readonly counts: ChangeCounts;
  readonly items: readonly Change[];
  /** Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`); `counts` counts them all. */
  readonly truncated?: true;
}

interface Side extends ResolvedSide {
  /** Loads the spec when the comparison needs it, with when it took effect: the revision's storing, the release's date. */
  readonly spec: () => Promise<{ readonly spec: StoredSpec; readonly on: Date } | undefined>;
}

/**
 * What changed between two specs of an API: revisions or releases, `to` by default the current
 * spec, `from` by default the spec before `to`. Between a revision and the one before it the
 * answer is what was recorded when it was stored; anything else is classified now, as of when `to`
 * took effect (when its revision was stored, or its release made), as it would have been recorded
 * then: a removal is after its sunset or not by that day, not by today.
 */
export class GetChanges {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly revisions: SpecRevisionRepository,
    private readonly releases: ReleaseRepository,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly from: ChangeSide; readonly to: ChangeSide },
  ): Promise<Result<ChangesView, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    const to = await this.side(api, input.to, 'to');
    if (!to.ok) return to;
    let from: Side | null;
    if (input.from.revision !== undefined || input.from.release !== undefined) {
      const explicit = await this.side(api, input.from, 'from');
      if (!explicit.ok) return explicit;
      from = explicit.value;
    } else {
      const before = to.value.revision === null ? undefined : await this.revisions.previous(api.id, to.value.revision);
      from = before === undefined ? null : this.revisionSide(api, before);
    }
    const view = ({ counts, items, truncated }: StoredChanges): ChangesView => ({
      from: from && { revision: from.revision, release: from.release },
      to: { revision: to.value.revision, release: to.value.release },
      breaking: counts.breaking > 0,
      counts,
      items,
      ...(truncated ? { truncated } : {}),
    });
    if (from === null) return ok(view({ counts: { breaking: 0, warning: 0, info: 0 }, items: [] }));
    // Recorded when `to` was stored, against the revision before it.
    if (from.release === null && to.value.release === null && from.revision !== null && to.value.revision !== null && from.revision === (await this.revisions.previous(api.id, to.value.revision))) {
      const recorded = await this.revisions.changes(api.id, to.value.revision, from.revision);
      if (recorded) return ok(view(capped(recorded, this.changeSettings)));
    }
    const [older, newer] = [await from.spec(), await to.value.spec()];
    if (!older || !newer) return err(notFound('spec'));
    const changes = changesBetween(older.spec, newer.spec, this.changeSettings, newer.on);
    return ok(view(changes));
  }

  private revisionSide(api: Api, revision: number): Side {
    return {
      revision,
      release: null,
      spec: async () => {
        const stored = await this.revisions.get(api.id, revision);
        return stored && { spec: stored.spec, on: stored.summary.creationDate };
      },
    };
  }

  private async side(api: Api, side: ChangeSide, name: 'from' | 'to'): Promise<Result<Side, ApplicationError>> {
    if (side.release !== undefined) {
      const revision = await this.releases.revisionOf(api.id, side.release);
      if (revision === undefined) return err(notFound(`release (${name})`));
      const version = side.release;
      const spec = async () => {
        const [snapshot, release] = [await this.releases.snapshot(api.id, version), await this.releases.get(api.id, version)];
        return snapshot && release && { spec: snapshot, on: release.snapshot().releaseDate };
      };
      return ok({ revision, release: version, spec });
    }
    if (side.revision !== undefined) {
      const stored = await this.revisions.get(api.id, side.revision);
      if (!stored) return err(notFound(`revision (${name})`));
      return ok({ revision: side.revision, release: null, spec: async () => ({ spec: stored.spec, on: stored.summary.creationDate }) });
    }
    // The current spec: the newest revision (read as that revision, so a spec update meanwhile does not change what it is).
    const current = await this.revisions.previous(api.id, api.revision + 1);
    if (current === undefined) return err(notFound('spec: the API has none yet'));
    return ok(this.revisionSide(api, current));
  }
}
