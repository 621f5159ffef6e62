import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { WebhookLeases1764300000000 } from '../../src/adapters/persistence/migrations/0022-webhook-leases.migration.js';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { forDialect, tableOf } from '../../src/adapters/persistence/raw-sql.js';
import { TypeOrmUnitOfWork } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { ok } from '../../src/domain/shared/result.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { FixedClock, SequentialIds } from '../support/fakes.js';
import { seedWebhooks, undoThrough } from './migration-steps.js';
import { insertBefore0024 } from './deliveries-before-0024.js';

/**
 * The deliveries table keeps the indexes its statements read by, and no other: every delivery
 * enters each index at its insert and, on PostgreSQL, at every update of an indexed column
 * (migration 0021 dropped the due index no statement used; 0022 moved the lease to the webhook,
 * with the lease index; 0024 made the log's index the primary key). Down restores them.
 */
forEachDatabase('the deliveries table indexes', (target) => {
  it('has the dispatch key, queue and retention indexes (the log reads by the primary key), not the due or lease index; the lease is on the webhook; 0024, 0022 and 0021 down bring them back', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    const indexes = async (): Promise<string[]> => {
      const rows =
        db.dialect === 'postgres'
          ? await db.read((m) =>
              m.query<{ name: string }[]>(
                `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace ` +
                  `WHERE n.nspname = $1 AND t.relname = 'webhook_deliveries' AND NOT x.indisprimary`,
                [db.schemaName],
              ),
            )
          : await db.read((m) => m.query<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries' AND sql IS NOT NULL`));
      return rows.map((row) => row.name).filter((name) => name.startsWith('webhook_deliveries_')).sort();
    };
    const primaryKey = async (): Promise<string[]> => {
      const rows =
        db.dialect === 'postgres'
          ? await db.read((m) =>
              m.query<{ name: string }[]>(
                `SELECT a.attname AS name FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k(attnum, position) ` +
                  `JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum WHERE n.nspname = $1 AND t.relname = 'webhook_deliveries' AND x.indisprimary ORDER BY k.position`,
                [db.schemaName],
              ),
            )
          : await db.read((m) => m.query<{ name: string }[]>(`SELECT name FROM pragma_table_info('webhook_deliveries') WHERE pk > 0 ORDER BY pk`));
      return rows.map((row) => row.name);
    };
    const leaseColumns = async (table: string): Promise<string[]> => {
      const rows =
        db.dialect === 'postgres'
          ? await db.read((m) => m.query<{ name: string }[]>(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`, [db.schemaName, table]))
          : await db.read((m) => m.query<{ name: string }[]>(`SELECT name FROM pragma_table_info('${table}')`));
      return rows.map((row) => row.name).filter((name) => name.startsWith('lease_')).sort();
    };
    try {
      await db.open();
      await db.migrate();
      // The log reads by the primary key (webhook_id, id) since 0024, which dropped the log's index.
      const now = ['webhook_deliveries_dispatch_key', 'webhook_deliveries_finished_idx', 'webhook_deliveries_queue_idx'];
      expect(await indexes()).to.deep.equal(now);
      expect(await primaryKey()).to.deep.equal(['webhook_id', 'id']);
      expect(await leaseColumns('webhooks')).to.deep.equal(['lease_token', 'lease_until']);
      expect(await leaseColumns('webhook_deliveries')).to.deep.equal([]);
      await undoThrough(db, WebhookLeases1764300000000);
      expect(await indexes()).to.deep.equal([...now, 'webhook_deliveries_lease_idx', 'webhook_deliveries_webhook_idx'].sort());
      expect(await primaryKey()).to.deep.equal(['id']);
      expect(await leaseColumns('webhooks')).to.deep.equal([]);
      expect(await leaseColumns('webhook_deliveries')).to.deep.equal(['lease_token', 'lease_until']);
      await db.dataSource.undoLastMigration({ transaction: 'all' });
      expect(await indexes()).to.include('webhook_deliveries_due_idx');
      await db.migrate();
      expect(await indexes()).to.deep.equal(now);
      expect(await primaryKey()).to.deep.equal(['webhook_id', 'id']);
      expect(await leaseColumns('webhooks')).to.deep.equal(['lease_token', 'lease_until']);
    } finally {
      await db.close();
      await dispose();
    }
  });

  it('keeps every webhook and delivery through 0022; a delivery leased before it is claimable at once', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    const clock = new FixedClock();
    const ids = new UuidV7IdGenerator();
    try {
      await db.open();
      await db.migrate();
      await undoThrough(db, WebhookLeases1764300000000);
      const uow = new TypeOrmUnitOfWork(db, new SequentialIds());
      // Rows as the version before 0022 left them: a pending delivery leased for an hour, a finished one.
      const { accountId, webhooks } = await seedWebhooks(db, clock.now(), ids, ['in']);
      const webhook = webhooks[0]!;
      const schedule = () => Delivery.schedule({ id: ids.next(), webhookId: webhook.id, accountId, eventId: ids.next(), event: 'api.created', payload: '{}' }, clock.now());
      const [leased, done] = [schedule(), schedule()];
      done.recordAttempt({ status: 204, durationMs: 1, responseBody: '', error: null }, clock.now(), { baseMs: 1000, capMs: 60_000, maxAttempts: 3 }, 0.5);
      for (const delivery of [leased, done]) await insertBefore0024(db, delivery, delivery.eventId);
      const snapshots = [leased.snapshot(), done.snapshot()];
      const until = new Date(clock.now().getTime() + 3600_000).toISOString();
      await db.read((m) => m.query(forDialect(db.dialect, `UPDATE ${tableOf(m, db.schemas.deliveries)} SET lease_until = ?, lease_token = 'old' WHERE id = ?`), [until, snapshots[0]!.id]));
      await db.migrate();
      const kept = await uow.run(async (tx) => ok((await tx.webhooks.get(webhook.accountId, webhook.id))?.snapshot()));
      expect(kept).to.deep.equal({ ok: true, value: webhook.snapshot() });
      const log = await uow.run(async (tx) => ok((await tx.deliveries.list(webhook.id, { limit: 10 })).items.map((d) => d.snapshot())));
      expect(log).to.deep.equal({ ok: true, value: [...snapshots].reverse() });
      const claimed = await uow.run(async (tx) => ok((await tx.deliveries.claimDue(clock.now(), { token: 'new', until: new Date(clock.now().getTime() + 60_000) }, 10, 10)).map((d) => d.id)));
      expect(claimed, 'the pending one, its old lease dropped').to.deep.equal({ ok: true, value: [snapshots[0]!.id] });
    } finally {
      await db.close();
      await dispose();
    }
  });
});
