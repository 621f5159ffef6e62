import type { PageCursor, PageRepository } from '../../application/ports/page-repository.port.js';
import type { Page as ListPage, PageRequest } from '../../application/shared/page.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { Page, type PageId } from '../../domain/page/page.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { PageRow } from './rows.js';
import type { Schemas } from './schema.js';
import { isStorableText, isUniqueViolation, type Run } from './typeorm-database.js';
import { storedKey } from './raw-sql.js';

function pageFromRow(row: PageRow): Page {
  return Page.rehydrate({ ...row, accountId: storedKey(row.accountId), position: Number(row.position) });
}

export class TypeOrmPageRepository implements PageRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  get(apiId: ApiId, id: PageId): Promise<Page | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.pages).findOneBy({ id, apiId });
      return row ? pageFromRow(row) : undefined;
    });
  }

  findBySlug(apiId: ApiId, slug: string): Promise<Page | undefined> {
    if (!isStorableText(slug)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.pages).findOneBy({ apiId, slug });
      return row ? pageFromRow(row) : undefined;
    });
  }

  list(apiId: ApiId, request: PageRequest<PageCursor>): Promise<ListPage<Page, PageCursor>> {
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.pages, 'p').where('p.api_id = :apiId', { apiId });
      const after = request.after;
      if (after !== undefined) query.andWhere('(p.position > :position OR (p.position = :position AND p.id > :id))', { position: after.position, id: after.id });
      const rows = await query.orderBy('p.position', 'ASC').addOrderBy('p.id', 'ASC').limit(request.limit + 1).getMany();
      const kept = rows.slice(0, request.limit).map(pageFromRow);
      const last = kept.at(-1)?.snapshot();
      return { items: kept, next: rows.length > request.limit && last ? { position: last.position, id: last.id } : null };
    });
  }

  count(apiId: ApiId): Promise<number> {
    return this.run((m) => m.getRepository(this.s.pages).count({ where: { apiId } }));
  }

  nextPosition(apiId: ApiId): Promise<number> {
    return this.run(async (m) => {
      const row = await m.createQueryBuilder(this.s.pages, 'p').select('MAX(p.position)', 'max').where('p.api_id = :apiId', { apiId }).getRawOne<{ max: number | string | null }>();
      return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
    });
  }

  save(page: Page): Promise<Result<void, { readonly kind: 'DuplicateSlug' }>> {
    return this.run(async (m) => {
      try {
        await m.getRepository(this.s.pages).upsert(page.snapshot(), ['id']);
        return ok();
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateSlug' as const });
        throw error;
      }
    });
  }

  delete(apiId: ApiId, id: PageId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.pages).delete({ id, apiId });
    });
  }
}
