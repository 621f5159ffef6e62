import { IsNull, type EntityManager } from 'typeorm';
import type { AccountRepository } from '../../application/ports/account-repository.port.js';
import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { ApiTokenRepository, TokenHolder } from '../../application/ports/api-token-repository.port.js';
import type { EventOutbox, OutboxBacklog, OutboxEvent } from '../../application/ports/event-outbox.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Api, type ApiId, type ApiState, type ApiType } from '../../domain/api/api.aggregate.js';
import type { Scope } from '../../domain/token/scope.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { BreakingChangePolicy } from '../../domain/spec/changes/policy.js';
import { eventPayload, type DomainEvent, type EventPayload } from '../../domain/events/domain-event.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { User, type NewUser } from '../../domain/user/user.aggregate.js';
import { Account, type NewAccount, type PlanName } from '../../domain/account/account.aggregate.js';
import type { Dialect } from './dialect.js';
import { dateOf, dialectOf, forDialect, nullableDateOf, placeholderList, tableOf } from './raw-sql.js';
import { remembered, type ReadCache } from './read-cache.js';
import type { OutboxRow, Schemas, UserRow } from './schema.js';
import { isIntegerKey, isStorableText, isUniqueViolation, isUuid, type Run } from './typeorm-database.js';

export class TypeOrmAccountRepository implements AccountRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  create(account: NewAccount): Promise<number> {
    return this.run(async (m) => {
      const inserted = await m.getRepository(this.s.accounts).insert({ creationDate: account.creationDate, plan: account.plan, trialEndDate: account.trialEndDate, trialReminderDate: null });
      return Number(inserted.identifiers[0]?.['id']);
    });
  }

  exists(id: number): Promise<boolean> {
    if (!isIntegerKey(id)) return Promise.resolve(false);
    return this.run((m) => m.getRepository(this.s.accounts).existsBy({ id }));
  }

  get(id: number): Promise<Account | undefined> {
    return this.find(id, false);
  }

  getForUpdate(id: number): Promise<Account | undefined> {
    return this.find(id, this.dialect === 'postgres');
  }

  private find(id: number, lock: boolean): Promise<Account | undefined> {
    if (!isIntegerKey(id)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const rows = await m.query<{ id: number; creation_date: Date | string; plan: PlanName; trial_end_date: Date | string | null; trial_reminder_date: Date | string | null }[]>(
        forDialect(this.dialect, `SELECT id, creation_date, plan, trial_end_date, trial_reminder_date FROM ${tableOf(m, this.s.accounts)} WHERE id = ?${lock ? ' FOR UPDATE' : ''}`),
        [id],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      return Account.rehydrate({
        id: Number(row.id),
        creationDate: dateOf(row.creation_date),
        plan: row.plan,
        trialEndDate: nullableDateOf(row.trial_end_date),
        trialReminderDate: nullableDateOf(row.trial_reminder_date),
      });
    });
  }

  save(account: Account): Promise<void> {
    const { id, plan, trialEndDate, trialReminderDate } = account.snapshot();
    return this.run(async (m) => {
      await m.getRepository(this.s.accounts).update({ id }, { plan, trialEndDate, trialReminderDate });
    });
  }

  trialsEnding(now: Date, by: Date, limit: number): Promise<number[]> {
    return this.run(async (m) => {
      const rows = await m
        .createQueryBuilder(this.s.accounts, 'a')
        .select(['a.id'])
        // ISO 8601 text compares as time on SQLite (how timestamps are stored there) and casts on PostgreSQL.
        .where("a.plan = 'private' AND a.trial_end_date > :now AND a.trial_end_date <= :by AND a.trial_reminder_date IS NULL", { now: now.toISOString(), by: by.toISOString() })
        .orderBy('a.trial_end_date', 'ASC')
        .limit(limit)
        .getMany();
      return rows.map((row) => Number(row.id));
    });
  }

  claimTrialReminder(id: number, trialEndDate: Date, at: Date): Promise<boolean> {
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.accounts).update({ id, trialEndDate, trialReminderDate: IsNull() }, { trialReminderDate: at });
      return (result.affected ?? 0) === 1;
    });
  }

  releaseTrialReminder(id: number): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.accounts).update({ id }, { trialReminderDate: null });
    });
  }
}

function userFromRow(row: UserRow): User {
  return User.rehydrate({ ...row, id: Number(row.id), accountId: Number(row.accountId), emailVerified: Boolean(row.emailVerified) });
}

export class TypeOrmUserRepository implements UserRepository {
  /** @param cache outside transactions: `get` remembered until the database changes (each call gets an aggregate of its own) */
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly cache?: ReadCache,
  ) {}

  add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>> {
    return this.run(async (m) => {
      try {
        const inserted = await m.getRepository(this.s.users).insert({ ...user });
        return ok(User.rehydrate({ ...user, id: Number(inserted.identifiers[0]?.['id']) }));
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateEmail' as const });
        throw error;
      }
    });
  }

  async get(id: number): Promise<User | undefined> {
    if (!isIntegerKey(id)) return undefined;
    const key = `user:${id}`;
    const cached = this.cache?.get<UserRow | null>(key);
    if (cached !== undefined) return cached === null ? undefined : userFromRow(cached);
    const row = await this.run((m) =>
      remembered(this.cache, key, async () => {
        // Plain SQL: read on every userinfo and tokeninfo request (docs/performance.md).
        const sql =
          'SELECT id, account_id AS "accountId", email, email_verified AS "emailVerified", password_hash AS "passwordHash", nickname, name, ' +
          `given_name AS "givenName", family_name AS "familyName", picture, locale, creation_date AS "creationDate" FROM ${tableOf(m, this.s.users)} WHERE id = ?`;
        const [read] = await m.query<(Omit<UserRow, 'creationDate'> & { creationDate: Date | string })[]>(forDialect(dialectOf(m), sql), [id]);
        const found: UserRow | undefined = read && { ...read, creationDate: dateOf(read.creationDate) };
        return found;
      }),
    );
    return row && userFromRow(row);
  }

  getByEmail(email: string): Promise<User | undefined> {
    if (!isStorableText(email)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOneBy({ email });
      return row ? userFromRow(row) : undefined;
    });
  }

  ownerOf(accountId: number): Promise<User | undefined> {
    if (!isIntegerKey(accountId)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOne({ where: { accountId }, order: { id: 'ASC' } });
      return row ? userFromRow(row) : undefined;
    });
  }

  save(user: User): Promise<void> {
    return this.run(async (m) => {
      const { id, ...fields } = user.snapshot();
      await m.getRepository(this.s.users).update({ id }, fields);
    });
  }

  any(): Promise<boolean> {
    return this.run((m) => m.getRepository(this.s.users).exists());
  }
}

/** api_tokens joined with users, as `findHolders` reads them. */
interface HolderRow {
  id: string;
  user_id: number;
  name: string;
  scopes: string;
  token_hash: string;
  creation_date: Date | string;
  last_use_date: Date | string | null;
  account_id: number;
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
      return row ? ApiToken.rehydrate({ ...row, userId: Number(row.userId) }) : undefined;
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
          userId: Number(row.user_id),
          name: row.name,
          scopes: JSON.parse(row.scopes) as Scope[],
          tokenHash: row.token_hash,
          creationDate: dateOf(row.creation_date),
          lastUseDate: nullableDateOf(row.last_use_date),
        }),
        user: { id: Number(row.user_id), accountId: Number(row.account_id), nickname: row.nickname },
      }));
    });
  }

  listByUser(userId: number): Promise<ApiToken[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.apiTokens).find({ where: { userId }, order: { id: 'ASC' } });
      return rows.map((row) => ApiToken.rehydrate({ ...row, userId: Number(row.userId) }));
    });
  }

  countInAccount(accountId: number): Promise<number> {
    if (!isIntegerKey(accountId)) return Promise.resolve(0);
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

  delete(userId: number, id: ApiTokenId): Promise<boolean> {
    if (!isUuid(id)) return Promise.resolve(false);
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.apiTokens).delete({ id, userId });
      return (result.affected ?? 0) > 0;
    });
  }
}

/** An apis row with its owner's nickname, as the reads below select it. */
interface ApiReadRow {
  id: string;
  account_id: number;
  user_id: number;
  owner_nickname: string | null;
  nickname: string;
  name: string;
  type: ApiType;
  revision: number;
  description: string | null;
  version: string | null;
  spec_format: SpecFormat | null;
  breaking_change_policy: BreakingChangePolicy;
  creation_date: Date | string;
  update_date: Date | string;
}

function apiStateOf(row: ApiReadRow): ApiState {
  return {
    id: row.id,
    accountId: Number(row.account_id),
    owner: { id: Number(row.user_id), nickname: row.owner_nickname ?? '' },
    nickname: row.nickname,
    name: row.name,
    type: row.type,
    revision: Number(row.revision),
    description: row.description,
    version: row.version,
    specFormat: row.spec_format,
    breakingChangePolicy: row.breaking_change_policy,
    creationDate: dateOf(row.creation_date),
    updateDate: dateOf(row.update_date),
  };
}

export class TypeOrmApiRepository implements ApiRepository {
  /**
   * @param cache outside transactions: `get` and `list` remembered until the database
   *   changes (states are immutable, each call gets aggregates of its own)
   */
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
    private readonly cache?: ReadCache,
  ) {}

  async get(accountId: number, id: ApiId): Promise<Api | undefined> {
    const key = `api:${accountId}:${id}`;
    const cached = this.cache?.get<ApiState | null>(key);
    if (cached !== undefined) return cached === null ? undefined : Api.rehydrate(cached);
    if (!isUuid(id) || !isIntegerKey(accountId)) return undefined;
    const state = await this.one('a.id = ? AND a.account_id = ?', [id, accountId], false, key);
    return state && Api.rehydrate(state);
  }

  /** PostgreSQL: `FOR UPDATE OF a`. SQLite has no row locks and needs none: its transactions run one at a time. */
  getForUpdate(accountId: number, id: ApiId): Promise<Api | undefined> {
    return this.find(accountId, id, this.dialect === 'postgres');
  }

  async findByNickname(accountId: number, nickname: string): Promise<Api | undefined> {
    if (!isIntegerKey(accountId) || !isStorableText(nickname)) return undefined;
    const state = await this.one('a.account_id = ? AND a.nickname = ?', [accountId, nickname], false);
    return state && Api.rehydrate(state);
  }

  private async find(accountId: number, id: ApiId, lock: boolean): Promise<Api | undefined> {
    if (!isUuid(id) || !isIntegerKey(accountId)) return undefined;
    const state = await this.one('a.id = ? AND a.account_id = ?', [id, accountId], lock);
    return state && Api.rehydrate(state);
  }

  /** One API's state; remembered under `cacheKey` (also when there is none) if the repository caches. */
  private one(where: string, parameters: unknown[], lock: boolean, cacheKey?: string): Promise<ApiState | undefined> {
    return this.run((m) =>
      remembered(this.cache, cacheKey, async () => {
        const rows = await m.query<ApiReadRow[]>(forDialect(this.dialect, `${this.select(m)} WHERE ${where}${lock ? ' FOR UPDATE OF a' : ''}`), parameters);
        return rows[0] && apiStateOf(rows[0]);
      }),
    );
  }

  list(accountId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    if (!isIntegerKey(accountId)) return Promise.resolve({ items: [], next: null });
    return this.page(page, () => ({ from: '', where: 'a.account_id = ?', parameters: [accountId] }), `apis:${accountId}:${page.after ?? ''}:${page.limit}`);
  }

  listSharedWith(accountId: number, userId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    if (!isIntegerKey(accountId) || !isIntegerKey(userId)) return Promise.resolve({ items: [], next: null });
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
    cacheKey?: string,
  ): Promise<Page<Api, ApiId>> {
    if (page.after !== undefined && !isUuid(page.after)) return { items: [], next: null };
    const cached = cacheKey === undefined ? undefined : this.cache?.get<Page<ApiState, ApiId>>(cacheKey);
    const states =
      cached ??
      (await this.run((m) =>
        remembered(this.cache, cacheKey, async () => {
          const { from, where, parameters } = filter(m);
          const after = page.after === undefined ? '' : ' AND a.id > ?';
          const sql = `${this.select(m)}${from} WHERE ${where}${after} ORDER BY a.id LIMIT ?`;
          const values = [...parameters, ...(page.after === undefined ? [] : [page.after]), page.limit + 1];
          const rows = await m.query<ApiReadRow[]>(forDialect(this.dialect, sql), values);
          const items = rows.slice(0, page.limit).map(apiStateOf);
          return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
        }),
      ));
    return { items: states.items.map((state) => Api.rehydrate(state)), next: states.next };
  }

  /** APIs with just the owner's nickname joined: one query, no password hash or e-mail read. */
  private select(m: EntityManager): string {
    return (
      'SELECT a.id, a.account_id, a.user_id, o.nickname AS owner_nickname, a.nickname, a.name, a.type, a.revision, a.description, ' +
      `a.version, a.spec_format, a.breaking_change_policy, a.creation_date, a.update_date FROM ${tableOf(m, this.s.apis)} a LEFT JOIN ${tableOf(m, this.s.users)} o ON o.id = a.user_id`
    );
  }

  save(api: Api): Promise<Result<void, ApiSaveError>> {
    return this.run(async (m) => {
      const { owner, ...state } = api.snapshot();
      const row = { ...state, userId: owner.id };
      try {
        if (api.storedRevision === undefined) {
          // Plain SQL: TypeORM's insert building was about a tenth of a create's CPU.
          const sql = `INSERT INTO ${tableOf(m, this.s.apis)} ("id", "account_id", "user_id", "nickname", "name", "type", "revision", "description", "version", "spec_format", "breaking_change_policy", "creation_date", "update_date") VALUES (${placeholderList(13)})`;
          await m.query(forDialect(this.dialect, sql), [row.id, row.accountId, row.userId, row.nickname, row.name, row.type, row.revision, row.description, row.version, row.specFormat, row.breakingChangePolicy, row.creationDate.toISOString(), row.updateDate.toISOString()]);
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

  countInAccount(accountId: number): Promise<{ readonly all: number; readonly private: number }> {
    if (!isIntegerKey(accountId)) return Promise.resolve({ all: 0, private: 0 });
    return this.run(async (m) => {
      const rows = await m.query<{ all_apis: number | string; private_apis: number | string | null }[]>(
        forDialect(this.dialect, `SELECT count(*) AS all_apis, sum(CASE WHEN type = 'private' THEN 1 ELSE 0 END) AS private_apis FROM ${tableOf(m, this.s.apis)} WHERE account_id = ?`),
        [accountId],
      );
      return { all: Number(rows[0]?.all_apis ?? 0), private: Number(rows[0]?.private_apis ?? 0) };
    });
  }

  delete(accountId: number, id: ApiId): Promise<void> {
    if (!isUuid(id)) return Promise.resolve();
    return this.run(async (m) => {
      await m.getRepository(this.s.apis).delete({ id, accountId });
    });
  }
}

/** Any 32-bit key of our own, distinct from the migration lock's. */
const DISPATCH_LOCK_KEY = 0x0d15_7a7c;

function outboxEvent(row: OutboxRow): OutboxEvent {
  return { id: row.id, accountId: Number(row.accountId), payload: JSON.parse(row.payload) as EventPayload, dispatched: row.dispatchedAt !== null };
}

export class TypeOrmEventOutbox implements EventOutbox {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly ids: IdGenerator,
    private readonly dialect: Dialect,
    private readonly work: { value: boolean } = { value: false },
  ) {}

  append(events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return this.run(async (m) => {
      const values = events.flatMap((event) => {
        const id = this.ids.next();
        return [id, event.accountId, event.name, JSON.stringify(eventPayload(id, event)), event.occurredAt.toISOString()];
      });
      const tuples = events.map(() => `(${placeholderList(5)}, NULL)`).join(', ');
      const sql = `INSERT INTO ${tableOf(m, this.s.outbox)} ("id", "account_id", "name", "payload", "occurred_at", "dispatched_at") VALUES ${tuples}`;
      await m.query(forDialect(this.dialect, sql), values);
      this.work.value = true;
    });
  }

  pending(limit: number): Promise<OutboxEvent[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.outbox).find({ where: { dispatchedAt: IsNull() }, order: { id: 'ASC' }, take: limit });
      return rows.map(outboxEvent);
    });
  }

  /**
   * PostgreSQL: one dispatcher at a time (a transaction-scoped advisory lock), so deliveries are
   * created in the order of their events even with several workers; fan-out is only inserts, the
   * sending stays parallel. SQLite transactions run one at a time anyway.
   */
  claimPending(limit: number): Promise<OutboxEvent[]> {
    return this.run(async (m) => {
      if (this.dialect === 'postgres') await m.query('SELECT pg_advisory_xact_lock($1)', [DISPATCH_LOCK_KEY]);
      const rows = await m.createQueryBuilder(this.s.outbox, 'o').where('o.dispatched_at IS NULL').orderBy('o.id', 'ASC').limit(limit).getMany();
      return rows.map(outboxEvent);
    });
  }

  markDispatched(ids: readonly string[], at: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.run(async (m) => {
      await m.createQueryBuilder().update(this.s.outbox).set({ dispatchedAt: at }).whereInIds([...ids]).execute();
    });
  }

  /** Both queries read the partial index of undispatched events (`outbox_events_pending_idx`). */
  backlog(): Promise<OutboxBacklog> {
    return this.run(async (m) => {
      const outbox = m.getRepository(this.s.outbox);
      const pending = await outbox.count({ where: { dispatchedAt: IsNull() } });
      const oldest = pending === 0 ? null : await outbox.findOne({ where: { dispatchedAt: IsNull() }, order: { id: 'ASC' } });
      return { pending, oldestOccurredAt: oldest?.occurredAt ?? null };
    });
  }
}

