import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { Page, PageId } from '../../domain/page/page.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import type { Page as ListPage, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/** Where a page list continues: after this position and id. */
export interface PageCursor {
  readonly position: number;
  readonly id: PageId;
}

export interface PageRepository {
  /** undefined when the API has no such page. */
  get(apiId: ApiId, id: PageId): Promise<Page | undefined>;
  /** The API's page with this slug; undefined when absent. */
  findBySlug(apiId: ApiId, slug: string): Promise<Page | undefined>;
  /** The API's pages by position (then creation). */
  list(apiId: ApiId, request: PageRequest<PageCursor>): Promise<ListPage<Page, PageCursor>>;
  /** How many pages the API has: what its account's plan counts. */
  count(apiId: ApiId): Promise<number>;
  /** The position after the API's last page (0 for the first). */
  nextPosition(apiId: ApiId): Promise<number>;
  /** Inserts or updates. `DuplicateSlug` when another page of the API has the slug. */
  save(page: Page): Promise<Result<void, { readonly kind: 'DuplicateSlug' }>>;
  /** Removes the page; a no-op when absent. */
  delete(apiId: ApiId, id: PageId): Promise<void>;
}
export const PageRepository = token<PageRepository>('PageRepository');
