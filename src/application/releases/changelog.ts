import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ReleaseId } from '../../domain/release/release.aggregate.js';
import { ok } from '../../domain/shared/result.js';
import type { ChangelogEntry, ReleaseChanges, ReleaseRepository } from '../ports/release-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { Page, PageRequest } from '../shared/page.js';
import { capped, changesSinceRelease } from '../specs/spec-helpers.js';
import { DEFAULT_CHANGE_SETTINGS, type ChangeSettings } from '../specs/change-settings.js';

/** A changelog entry with what its release changed. */
export type RecordedChangelogEntry = ChangelogEntry & { readonly changes: ReleaseChanges };

/**
 * An API's releases newest first, each with what it changed since the release before it. Releases
 * made before the spec history was kept have nothing recorded: the first read compares each with
 * the release before it (both snapshots are kept) and stores the answer, so it is done once.
 */
export class Changelog {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly releases: ReleaseRepository,
    private readonly changeSettings: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
  ) {}

  async page(accountId: AccountId, apiId: ApiId, request: PageRequest<ReleaseId>): Promise<Page<RecordedChangelogEntry, ReleaseId>> {
    const page = await this.releases.changelog(apiId, request);
    const items: RecordedChangelogEntry[] = [];
    for (const entry of page.items) items.push(entry.changes === null ? { ...entry, changes: await this.record(accountId, apiId, entry) } : { ...entry, changes: capped(entry.changes, this.changeSettings) });
    return { items, next: page.next };
  }

  private async record(accountId: AccountId, apiId: ApiId, entry: ChangelogEntry): Promise<ReleaseChanges> {
    const recorded = await this.uow.run(async (tx) => {
      // The API's lock, as for creating and deleting releases: the neighbours stay what they are.
      await tx.apis.getForUpdate(accountId, apiId);
      const release = entry.release;
      const snapshot = await tx.releases.snapshot(apiId, release.version);
      if (!snapshot) return ok(undefined);
      const { previous } = await tx.releases.neighbours(apiId, release.id);
      const changes = await changesSinceRelease(tx, apiId, previous, snapshot, this.changeSettings, release.snapshot().releaseDate);
      await tx.releases.setChanges(apiId, release.id, changes);
      return ok(changes);
    });
    // Deleted meanwhile: it changed nothing worth showing.
    return (recorded.ok ? recorded.value : undefined) ?? { since: null, counts: { breaking: 0, warning: 0, info: 0 }, items: [] };
  }
}
