import type { EntityManager } from 'typeorm';
import type { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { forDialect, tableOf } from '../../src/adapters/persistence/raw-sql.js';
import type { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';

/**
 * Stores `delivery` as the versions before migration 0024 did, its payload in its own row (the
 * repository of today writes the payload apart): for the tests that migrate such rows.
 */
export async function insertBefore0024(db: TypeOrmDatabase, delivery: Delivery, dispatchKey: string | null): Promise<void> {
  const s = delivery.snapshot();
  const attempts = JSON.stringify(s.attempts.map((a) => ({ ...a, date: a.date.toISOString() })));
  await db.read((m: EntityManager) =>
    m.query(
      forDialect(
        db.dialect,
        `INSERT INTO ${tableOf(m, db.schemas.deliveries)} (id, webhook_id, account_id, event_id, event, dispatch_key, payload, state, attempts, next_attempt_date, creation_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      [s.id, s.webhookId, s.accountId, s.eventId, s.event, dispatchKey, s.payload, s.state, attempts, s.nextAttemptDate?.toISOString() ?? null, s.creationDate.toISOString()],
    ),
  );
}
