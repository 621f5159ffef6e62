import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { ChangeCounts, Change } from '../../domain/spec/changes/change.js';
import type { Release, ReleaseId } from '../../domain/release/release.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';
import type { StoredSpec } from './spec-repository.port.js';

/** What a release changed since the release before it (by release date), as the changelog shows it. */
export interface ReleaseChanges {
  /** The previous release's version; null for the first release. */
  readonly since: string | null;
  readonly counts: ChangeCounts;
  readonly items: readonly Change[];
  /** Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`). */
  readonly truncated?: true;
}

/** A release as the changelog lists it. */
export interface ChangelogEntry {
  readonly release: Release;
  /** The API revision whose spec it froze; null for releases made before spec history was kept. */
  readonly revision: number | null;
  /** null for a release made before spec history was kept, until the changelog first compares it with the one before. */
  readonly changes: ReleaseChanges | null;
}

export interface ReleaseRepository {
  /** undefined when the API has no release with this version. */
  get(apiId: ApiId, version: string): Promise<Release | undefined>;
  /** Like `get`, holding the row for writing until the transaction ends. Inside `UnitOfWork.run` only. */
  getForUpdate(apiId: ApiId, version: string): Promise<Release | undefined>;
  /** The API's releases by release date. */
  list(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<Release, ReleaseId>>;
  /**
   * Stores a new release with its frozen spec, the API revision of that spec and what it changed
   * since the previous release. `DuplicateVersion` when the API has one with this label.
   */
  add(release: Release, snapshot: StoredSpec, revision: number, changes: ReleaseChanges): Promise<Result<void, { readonly kind: 'DuplicateVersion' }>>;
  /** Replaces what a release changed (when the release before it was deleted). */
  setChanges(apiId: ApiId, id: ReleaseId, changes: ReleaseChanges): Promise<void>;
  /** The newest release, if any; inside a transaction, the one a new release follows. */
  latest(apiId: ApiId): Promise<Release | undefined>;
  /** The releases just before and just after `id`, by release date. */
  neighbours(apiId: ApiId, id: ReleaseId): Promise<{ readonly previous: Release | undefined; readonly next: Release | undefined }>;
  /** The API revision a release froze; null for releases made before spec history was kept, undefined when there is no such release. */
  revisionOf(apiId: ApiId, version: string): Promise<number | null | undefined>;
  /** Newest first, with what each changed; `page.after` is a release id (the page then holds older ones). */
  changelog(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<ChangelogEntry, ReleaseId>>;
  /** Stores a status change. */
  save(release: Release): Promise<void>;
  /** Removes the release and its snapshot; its label may be used again. */
  delete(apiId: ApiId, id: ReleaseId): Promise<void>;
  /** The frozen spec of a release; undefined when there is no such release. */
  snapshot(apiId: ApiId, version: string): Promise<StoredSpec | undefined>;
}
export const ReleaseRepository = token<ReleaseRepository>('ReleaseRepository');
