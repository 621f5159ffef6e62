import { IsNull } from 'typeorm';
import type { EventOutbox, OutboxBacklog, OutboxEvent } from '../../application/ports/event-outbox.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import { eventPayload, type DomainEvent, type EventPayload } from '../../domain/events/domain-event.js';
import type { Dialect } from './dialect.js';
import { forDialect, placeholderList, storedKey, tableOf } from './raw-sql.js';
import type { OutboxRow } from './rows.js';
import type { Schemas } from './schema.js';
import type { Run } from './typeorm-database.js';

/** Any 32-bit key of our own, distinct from the migration lock's. */
const DISPATCH_LOCK_KEY = 0x0d15_7a7c;

function outboxEvent(row: OutboxRow): OutboxEvent {
  return { id: row.id, accountId: storedKey(row.accountId), payload: JSON.parse(row.payload) as EventPayload, dispatched: row.dispatchedAt !== null };
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
