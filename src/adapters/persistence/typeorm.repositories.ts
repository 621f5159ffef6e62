import { IsNull, type EntityManager } from 'typeorm';
import type { AccountRepository } from '../../application/ports/account-repository.port.js';
import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { ApiTokenRepository } from '../../application/ports/api-token-repository.port.js';
import type { EventOutbox, OutboxBacklog, OutboxEvent } from '../../application/ports/event-outbox.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Api, type ApiId } from '../../domain/api/api.aggregate.js';
import { eventPayload, type DomainEvent, type EventPayload } from '../../domain/events/domain-event.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { User, type NewUser } from '../../domain/user/user.aggregate.js';
import type { Dialect } from './dialect.js';
import type { ApiRow, OutboxRow, Schemas, UserRow } from './schema.js';
import { isIntegerKey, isStorableText, isUniqueViolation, isUuid, type Run } from './typeorm-database.js';

export class TypeOrmAccountRepository implements AccountRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  create(now: Date): Promise<number> {
    return this.run(async (m) => {
      const inserted = await m.getRepository(this.s.accounts).insert({ creationDate: now });
      return Number(inserted.identifiers[0]?.['id']);
    });
  }

  exists(id: number): Promise<boolean> {
    return this.run((m) => m.getRepository(this.s.accounts).existsBy({ id }));
  }
}

function userFromRow(row: UserRow): User {
  return User.rehydrate({ ...row, id: Number(row.id), accountId: Number(row.accountId), emailVerified: Boolean(row.emailVerified) });
}

export class TypeOrmUserRepository implements UserRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
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

  get(id: number): Promise<User | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOneBy({ id });
      return row ? userFromRow(row) : undefined;
    });
  }

  getByEmail(email: string): Promise<User | undefined> {
    if (!isStorableText(email)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOneBy({ email });
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

export class TypeOrmApiTokenRepository implements ApiTokenRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
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

  listByUser(userId: number): Promise<ApiToken[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.apiTokens).find({ where: { userId }, order: { id: 'ASC' } });
      return rows.map((row) => ApiToken.rehydrate({ ...row, userId: Number(row.userId) }));
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

function apiFromRow(row: ApiRow): Api {
  return Api.rehydrate({
    id: row.id,
    accountId: Number(row.accountId),
    owner: { id: Number(row.userId), nickname: row.owner?.nickname ?? '' },
    nickname: row.nickname,
    name: row.name,
    type: row.type,
    revision: Number(row.revision),
    description: row.description,
    version: row.version,
    creationDate: row.creationDate,
    updateDate: row.updateDate,
  });
}

export class TypeOrmApiRepository implements ApiRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  get(accountId: number, id: ApiId): Promise<Api | undefined> {
    return this.find(accountId, id, false);
  }

  /** PostgreSQL: `FOR UPDATE OF a`. SQLite has no row locks and needs none: its transactions run one at a time. */
  getForUpdate(accountId: number, id: ApiId): Promise<Api | undefined> {
    return this.find(accountId, id, this.dialect === 'postgres');
  }

  findByNickname(accountId: number, nickname: string): Promise<Api | undefined> {
    if (!isIntegerKey(accountId) || !isStorableText(nickname)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await this.withOwner(m).where('a.account_id = :accountId AND a.nickname = :nickname', { accountId, nickname }).getOne();
      return row ? apiFromRow(row) : undefined;
    });
  }

  private find(accountId: number, id: ApiId, lock: boolean): Promise<Api | undefined> {
    if (!isUuid(id)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const query = this.withOwner(m).where('a.id = :id AND a.account_id = :accountId', { id, accountId });
      if (lock) query.setLock('pessimistic_write', undefined, ['a']);
      const row = await query.getOne();
      return row ? apiFromRow(row) : undefined;
    });
  }

  list(accountId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    return this.run(async (m) => {
      const query = this.withOwner(m).where('a.account_id = :accountId', { accountId });
      if (page.after !== undefined) query.andWhere('a.id > :after', { after: page.after });
      // `limit`, not `take`: with a join, `take` makes TypeORM run a second DISTINCT query.
      const rows = await query.orderBy('a.id', 'ASC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(apiFromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  listSharedWith(accountId: number, userId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    return this.run(async (m) => {
      const query = this.withOwner(m)
        .innerJoin(this.s.shares.options.name, 's', 's.api_id = a.id AND s.user_id = :userId', { userId })
        .where('a.account_id = :accountId', { accountId });
      if (page.after !== undefined) query.andWhere('a.id > :after', { after: page.after });
      const rows = await query.orderBy('a.id', 'ASC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(apiFromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  /** APIs with just the owner's id and nickname joined: one query, no password hash or e-mail read. */
  private withOwner(m: EntityManager) {
    return m.createQueryBuilder(this.s.apis, 'a').leftJoin('a.owner', 'o').addSelect(['o.id', 'o.nickname']);
  }

  save(api: Api): Promise<Result<void, ApiSaveError>> {
    return this.run(async (m) => {
      const { owner, ...state } = api.snapshot();
      const row = { ...state, userId: owner.id };
      try {
        if (api.storedRevision === undefined) {
          await m.getRepository(this.s.apis).insert(row);
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
      const rows = events.map((event) => {
        const id = this.ids.next();
        return {
          id,
          accountId: event.accountId,
          name: event.name,
          payload: JSON.stringify(eventPayload(id, event)),
          occurredAt: event.occurredAt,
          dispatchedAt: null,
        };
      });
      await m.getRepository(this.s.outbox).insert(rows);
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

