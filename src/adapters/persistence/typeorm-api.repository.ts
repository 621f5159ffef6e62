import type { AccountId, UserId } from '../../domain/account/account.js';
import type { EntityManager } from 'typeorm';
import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Api, type ApiId, type ApiState, type ApiType } from '../../domain/api/api.aggregate.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { BreakingChangePolicy } from '../../domain/spec/changes/policy.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Dialect } from './dialect.js';
import { dateOf, forDialect, placeholderList, storedKey, tableOf } from './raw-sql.js';
import type { Schemas } from './schema.js';
import { isStorableText, isUniqueViolation, type Run } from './typeorm-database.js';

/** An apis row with its owner's nickname, as the reads below select it. */
interface ApiReadRow {
  id: ApiId;
  account_id: AccountId;
  user_id: UserId;
  owner_nickname: string | null;
  nickname: string;
  name: string;
  type: ApiType;
  revision: number;
  description: string | null;
  version: string | null;
  spec_format: SpecFormat | null;
  breaking_change_policy: BreakingChangePolicy;
  /** 0 or 1 on SQLite. */
  allow_removal_after_sunset: boolean | number;
  creation_date: Date | string;
  update_date: Date | string;
}

function apiStateOf(row: ApiReadRow): ApiState {
  return {
    id: row.id,
    accountId: storedKey(row.account_id),
    owner: { id: storedKey(row.user_id), nickname: row.owner_nickname ?? '' },
    nickname: row.nickname,
    name: row.name,
    type: row.type,
    revision: Number(row.revision),
    description: row.description,
    version: row.version,
    specFormat: row.spec_format,
    breakingChangePolicy: row.breaking_change_policy,
    allowRemovalAfterSunset: Boolean(row.allow_removal_after_sunset),
    creationDate: dateOf(row.creation_date),
    updateDate: dateOf(row.update_date),
  };
}

export class TypeOrmApiRepository implements ApiRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  get(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    return this.find(accountId, id, false);
  }

  /** PostgreSQL: `FOR UPDATE OF a`. SQLite has no row locks and needs none: its transactions run one at a time. */
  getForUpdate(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    return this.find(accountId, id, this.dialect === 'postgres');
  }

  async findByNickname(accountId: AccountId, nickname: string): Promise<Api | undefined> {
    if (!isStorableText(nickname)) return undefined;
    const state = await this.one('a.account_id = ? AND a.nickname = ?', [accountId, nickname], false);
    return state && Api.rehydrate(state);
  }

  private async find(accountId: AccountId, id: ApiId, lock: boolean): Promise<Api | undefined> {
    const state = await this.one('a.id = ? AND a.account_id = ?', [id, accountId], lock);
    return state && Api.rehydrate(state);
  }

  private one(where: string, parameters: unknown[], lock: boolean): Promise<ApiState | undefined> {
    return this.run(async (m) => {
      const rows = await m.query<ApiReadRow[]>(forDialect(this.dialect, `${this.select(m)} WHERE ${where}${lock ? ' FOR UPDATE OF a' : ''}`), parameters);
      return rows[0] && apiStateOf(rows[0]);
    });
  }

  list(accountId: AccountId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    return this.page(page, () => ({ from: '', where: 'a.account_id = ?', parameters: [accountId] }));
  }

  listSharedWith(accountId: AccountId, userId: UserId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    return this.page(page, (m) => ({
      from: ` JOIN ${tableOf(m, this.s.shares)} s ON s.api_id = a.id AND s.user_id = ?`,
      where: 'a.account_id = ?',
      parameters: [userId, accountId],
    }));
  }

  /** A page in id (creation) order after the cursor: an index range scan, never OFFSET. */
  private async page(
    page: PageRequest<ApiId>,
    filter: (m: EntityManager) => { readonly from: string; readonly where: string; readonly parameters: unknown[] },
  ): Promise<Page<Api, ApiId>> {
    return this.run(async (m) => {
      const { from, where, parameters } = filter(m);
      const after = page.after === undefined ? '' : ' AND a.id > ?';
      const sql = `${this.select(m)}${from} WHERE ${where}${after} ORDER BY a.id LIMIT ?`;
      const values = [...parameters, ...(page.after === undefined ? [] : [page.after]), page.limit + 1];
      const rows = await m.query<ApiReadRow[]>(forDialect(this.dialect, sql), values);
      const items = rows.slice(0, page.limit).map((row) => Api.rehydrate(apiStateOf(row)));
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  /** APIs with just the owner's nickname joined: one query, no password hash or e-mail read. */
  private select(m: EntityManager): string {
    return (
      'SELECT a.id, a.account_id, a.user_id, o.nickname AS owner_nickname, a.nickname, a.name, a.type, a.revision, a.description, ' +
      `a.version, a.spec_format, a.breaking_change_policy, a.allow_removal_after_sunset, a.creation_date, a.update_date FROM ${tableOf(m, this.s.apis)} a LEFT JOIN ${tableOf(m, this.s.users)} o ON o.id = a.user_id`
    );
  }

  save(api: Api): Promise<Result<void, ApiSaveError>> {
    return this.run(async (m) => {
      const { owner, ...state } = api.snapshot();
      const row = { ...state, userId: owner.id };
      try {
        if (api.storedRevision === undefined) {
          // Plain SQL: TypeORM's insert building was about a tenth of a create's CPU.
          const sql = `INSERT INTO ${tableOf(m, this.s.apis)} ("id", "account_id", "user_id", "nickname", "name", "type", "revision", "description", "version", "spec_format", "breaking_change_policy", "allow_removal_after_sunset", "creation_date", "update_date") VALUES (${placeholderList(14)})`;
          await m.query(forDialect(this.dialect, sql), [row.id, row.accountId, row.userId, row.nickname, row.name, row.type, row.revision, row.description, row.version, row.specFormat, row.breakingChangePolicy, this.flag(row.allowRemovalAfterSunset), row.creationDate.toISOString(), row.updateDate.toISOString()]);
          return ok();
        }
        const { id, ...fields } = row;
        const updated = await m
          .createQueryBuilder()
          .update(this.s.apis)
          .set(fields)
          .where('id = :id AND revision = :revision', { id, revision: api.storedRevision })
          .execute();
        return updated.affected === 1 ? ok() : err({ kind: 'ConcurrentModification' as const });
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateNickname' as const });
        throw error;
      }
    });
  }

  /** A boolean as the driver binds it: better-sqlite3 takes numbers only. */
  private flag(value: boolean): boolean | number {
    return this.dialect === 'postgres' ? value : Number(value);
  }

  countInAccount(accountId: AccountId): Promise<{ readonly all: number; readonly private: number }> {
    return this.run(async (m) => {
      const rows = await m.query<{ all_apis: number | string; private_apis: number | string | null }[]>(
        forDialect(this.dialect, `SELECT count(*) AS all_apis, sum(CASE WHEN type = 'private' THEN 1 ELSE 0 END) AS private_apis FROM ${tableOf(m, this.s.apis)} WHERE account_id = ?`),
        [accountId],
      );
      return { all: Number(rows[0]?.all_apis ?? 0), private: Number(rows[0]?.private_apis ?? 0) };
    });
  }

  delete(accountId: AccountId, id: ApiId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.apis).delete({ id, accountId });
    });
  }
}
