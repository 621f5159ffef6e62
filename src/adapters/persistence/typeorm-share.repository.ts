import type { ShareRepository, ShareView } from '../../application/ports/share-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { Share, type ShareId } from '../../domain/share/share.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ShareRow } from './rows.js';
import type { Schemas } from './schema.js';
import { isUniqueViolation, type Run } from './typeorm-database.js';
import { storedKey } from './raw-sql.js';

function shareFromRow(row: ShareRow): Share {
  return Share.rehydrate({
    id: row.id,
    apiId: row.apiId,
    accountId: storedKey(row.accountId),
    userId: storedKey(row.userId),
    role: row.role,
    creationDate: row.creationDate,
    updateDate: row.updateDate,
  });
}

function viewFromRow(row: ShareRow): ShareView {
  const grantee = row.grantee;
  if (!grantee) throw new Error(`share ${row.id} has no grantee row`);
  return { share: shareFromRow(row), grantee: { id: storedKey(grantee.id), nickname: grantee.nickname, email: grantee.email } };
}

export class TypeOrmShareRepository implements ShareRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  get(apiId: ApiId, id: ShareId): Promise<ShareView | undefined> {
    return this.run(async (m) => {
      const row = await this.withGrantee(m).where('s.id = :id AND s.api_id = :apiId', { id, apiId }).getOne();
      return row ? viewFromRow(row) : undefined;
    });
  }

  list(apiId: ApiId, request: PageRequest<ShareId>): Promise<Page<ShareView, ShareId>> {
    return this.run(async (m) => {
      const query = this.withGrantee(m).where('s.api_id = :apiId', { apiId });
      if (request.after !== undefined) query.andWhere('s.id > :after', { after: request.after });
      const rows = await query.orderBy('s.id', 'ASC').limit(request.limit + 1).getMany();
      const items = rows.slice(0, request.limit).map(viewFromRow);
      return { items, next: rows.length > request.limit ? (items.at(-1)?.share.id ?? null) : null };
    });
  }

  findForGrantee(accountId: AccountId, apiId: ApiId, userId: UserId): Promise<Share | undefined> {
    // The account id comes from a request path: any integer up to 16 digits.
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.shares).findOneBy({ apiId, userId, accountId });
      return row ? shareFromRow(row) : undefined;
    });
  }

  anyInAccount(accountId: AccountId, userId: UserId): Promise<boolean> {
    return this.run((m) => m.getRepository(this.s.shares).existsBy({ userId, accountId }));
  }

  save(share: Share): Promise<Result<void, { readonly kind: 'DuplicateShare' }>> {
    return this.run(async (m) => {
      try {
        await m.getRepository(this.s.shares).upsert(share.snapshot(), ['id']);
        return ok();
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateShare' as const });
        throw error;
      }
    });
  }

  delete(apiId: ApiId, id: ShareId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.shares).delete({ id, apiId });
    });
  }

  /** Shares with the grantee's id, nickname and e-mail joined; never the password hash. */
  private withGrantee(m: Parameters<Parameters<Run>[0]>[0]) {
    return m.createQueryBuilder(this.s.shares, 's').innerJoin('s.grantee', 'u').addSelect(['u.id', 'u.nickname', 'u.email']);
  }
}
