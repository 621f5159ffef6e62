import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { Release, ReleaseId } from '../../domain/release/release.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';
import type { StoredSpec } from './spec-repository.port.js';

export interface ReleaseRepository {
  /** undefined when the API has no release with this version. */
  get(apiId: ApiId, version: string): Promise<Release | undefined>;
  /** Like `get`, holding the row for writing until the transaction ends. Inside `UnitOfWork.run` only. */
  getForUpdate(apiId: ApiId, version: string): Promise<Release | undefined>;
  /** The API's releases by release date. */
  list(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<Release, ReleaseId>>;
  /** Stores a new release with its frozen spec. `DuplicateVersion` when the API has one with this label. */
  add(release: Release, snapshot: StoredSpec): Promise<Result<void, { readonly kind: 'DuplicateVersion' }>>;
  /** Stores a status change. */
  save(release: Release): Promise<void>;
  /** Removes the release and its snapshot; its label may be used again. */
  delete(apiId: ApiId, id: ReleaseId): Promise<void>;
  /** The frozen spec of a release; undefined when there is no such release. */
  snapshot(apiId: ApiId, version: string): Promise<StoredSpec | undefined>;
}
export const ReleaseRepository = token<ReleaseRepository>('ReleaseRepository');
