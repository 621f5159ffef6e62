import type { Page, PageRequest } from '../../application/shared/page.js';
import type { PageCursor, PageRepository } from '../../application/ports/page-repository.port.js';
import { Page as ApiPage, type PageId, type PageState } from '../../domain/page/page.aggregate.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { StateSource } from './in-memory-state.js';

function pageOrder(a: PageState, b: PageState): number {
  return a.position !== b.position ? a.position - b.position : a.id < b.id ? -1 : 1;
}

export class InMemoryPageRepository implements PageRepository {
  constructor(private readonly state: StateSource) {}

  async get(apiId: ApiId, id: PageId): Promise<ApiPage | undefined> {
    const row = this.state().pages.get(id);
    return row && row.apiId === apiId ? ApiPage.rehydrate(row) : undefined;
  }

  async findBySlug(apiId: ApiId, slug: string): Promise<ApiPage | undefined> {
    const row = [...this.state().pages.values()].find((p) => p.apiId === apiId && p.slug === slug);
    return row ? ApiPage.rehydrate(row) : undefined;
  }

  async list(apiId: ApiId, request: PageRequest<PageCursor>): Promise<Page<ApiPage, PageCursor>> {
    const after = request.after;
    const rows = [...this.state().pages.values()]
      .filter((p) => p.apiId === apiId && (after === undefined || p.position > after.position || (p.position === after.position && p.id > after.id)))
      .sort(pageOrder);
    const kept = rows.slice(0, request.limit);
    const last = kept.at(-1);
    return { items: kept.map((row) => ApiPage.rehydrate(row)), next: rows.length > request.limit && last ? { position: last.position, id: last.id } : null };
  }

  async count(apiId: ApiId): Promise<number> {
    return [...this.state().pages.values()].filter((p) => p.apiId === apiId).length;
  }

  async nextPosition(apiId: ApiId): Promise<number> {
    const positions = [...this.state().pages.values()].filter((p) => p.apiId === apiId).map((p) => p.position);
    return positions.length === 0 ? 0 : Math.max(...positions) + 1;
  }

  async save(page: ApiPage): Promise<Result<void, { readonly kind: 'DuplicateSlug' }>> {
    const s = this.state();
    const row = page.snapshot();
    if ([...s.pages.values()].some((p) => p.apiId === row.apiId && p.slug === row.slug && p.id !== row.id)) return err({ kind: 'DuplicateSlug' });
    s.pages.set(row.id, row);
    return ok();
  }

  async delete(apiId: ApiId, id: PageId): Promise<void> {
    const s = this.state();
    if (s.pages.get(id)?.apiId === apiId) s.pages.delete(id);
  }
}
