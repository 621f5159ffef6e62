import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiTokenRepository, TokenHolder } from '../../application/ports/api-token-repository.port.js';
import type { Scope } from '../../domain/token/scope.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import type { Dialect } from './dialect.js';
import { dateOf, forDialect, nullableDateOf, placeholderList, storedKey, tableOf } from './raw-sql.js';
import type { Schemas } from './schema.js';
import { isStorableText, type Run } from './typeorm-database.js';

/** api_tokens joined with users, as `findHolders` reads them. */
interface HolderRow {
  id: ApiTokenId;
  user_id: UserId;
  name: string;
  scopes: string;
  token_hash: string;
  creation_date: Date | string;
  last_use_date: Date | string | null;
  account_id: AccountId;
  nickname: string;
}

export class TypeOrmApiTokenRepository implements ApiTokenRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  add(apiToken: ApiToken): Promise<void> {
    return this.run(async (m) => {
      const state = apiToken.snapshot();
      await m.getRepository(this.s.apiTokens).insert({ ...state, scopes: [...state.scopes] });
    });
  }

  findByHash(tokenHash: string): Promise<ApiToken | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.apiTokens).findOneBy({ tokenHash });
      return row ? ApiToken.rehydrate({ ...row, userId: storedKey(row.userId) }) : undefined;
    });
  }

  findHolders(tokenHashes: readonly string[]): Promise<TokenHolder[]> {
    const hashes = tokenHashes.filter(isStorableText);
    if (hashes.length === 0) return Promise.resolve([]);
    return this.run(async (m) => {
      const sql =
        `SELECT t.id, t.user_id, t.name, t.scopes, t.token_hash, t.creation_date, t.last_use_date, u.account_id, u.nickname ` +
        `FROM ${tableOf(m, this.s.apiTokens)} t JOIN ${tableOf(m, this.s.users)} u ON u.id = t.user_id ` +
        `WHERE t.token_hash IN (${placeholderList(hashes.length)})`;
      const rows = await m.query<HolderRow[]>(forDialect(this.dialect, sql), hashes);
      return rows.map((row) => ({
        token: ApiToken.rehydrate({
          id: row.id,
          userId: storedKey(row.user_id),
          name: row.name,
          scopes: JSON.parse(row.scopes) as Scope[],
          tokenHash: row.token_hash,
          creationDate: dateOf(row.creation_date),
          lastUseDate: nullableDateOf(row.last_use_date),
        }),
        user: { id: storedKey(row.user_id), accountId: storedKey(row.account_id), nickname: row.nickname },
      }));
    });
  }

  listByUser(userId: UserId): Promise<ApiToken[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.apiTokens).find({ where: { userId }, order: { id: 'ASC' } });
      return rows.map((row) => ApiToken.rehydrate({ ...row, userId: storedKey(row.userId) }));
    });
  }

  countInAccount(accountId: AccountId): Promise<number> {
    return this.run(async (m) => {
      const rows = await m.query<{ n: number | string }[]>(
        forDialect(this.dialect, `SELECT count(*) AS n FROM ${tableOf(m, this.s.apiTokens)} t JOIN ${tableOf(m, this.s.users)} u ON u.id = t.user_id WHERE u.account_id = ?`),
        [accountId],
      );
      return Number(rows[0]?.n ?? 0);
    });
  }

  recordUse(id: ApiTokenId, at: Date): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.apiTokens).update({ id }, { lastUseDate: at });
    });
  }

  delete(userId: UserId, id: ApiTokenId): Promise<boolean> {
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.apiTokens).delete({ id, userId });
      return (result.affected ?? 0) > 0;
    });
  }
}
