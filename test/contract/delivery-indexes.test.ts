import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { MIGRATIONS } from '../../src/adapters/persistence/migrations/index.js';
import { WebhookLeases1764300000000 } from '../../src/adapters/persistence/migrations/0022-webhook-leases.migration.js';
import { forEachDatabase } from '../support/databases.js';

/**
 * The deliveries table keeps the indexes its statements read by, and no other: every delivery
 * enters each index at its insert and, on PostgreSQL, at every update of an indexed column
 * (migration 0021 dropped the due index no statement used; 0022 moved the lease to the webhook,
 * with the lease index). Down restores them.
 */
forEachDatabase('the deliveries table indexes', (target) => {
  it('has the log, dispatch key, queue and retention indexes, not the due or lease index; the lease is on the webhook; 0022 and 0021 down bring them back', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    const indexes = async (): Promise<string[]> => {
      const rows =
        db.dialect === 'postgres'
          ? await db.read((m) => m.query<{ name: string }[]>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = 'webhook_deliveries'`, [db.schemaName]))
          : await db.read((m) => m.query<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries' AND sql IS NOT NULL`));
      return rows.map((row) => row.name).filter((name) => name.startsWith('webhook_deliveries_')).sort();
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
      const now = ['webhook_deliveries_dispatch_key', 'webhook_deliveries_finished_idx', 'webhook_deliveries_queue_idx', 'webhook_deliveries_webhook_idx'];
      expect(await indexes()).to.deep.equal(now);
      expect(await leaseColumns('webhooks')).to.deep.equal(['lease_token', 'lease_until']);
      expect(await leaseColumns('webhook_deliveries')).to.deep.equal([]);
      for (let i = MIGRATIONS.length; i > MIGRATIONS.indexOf(WebhookLeases1764300000000); i -= 1) await db.dataSource.undoLastMigration({ transaction: 'all' });
      expect(await indexes()).to.deep.equal([...now, 'webhook_deliveries_lease_idx'].sort());
      expect(await leaseColumns('webhooks')).to.deep.equal([]);
      expect(await leaseColumns('webhook_deliveries')).to.deep.equal(['lease_token', 'lease_until']);
      await db.dataSource.undoLastMigration({ transaction: 'all' });
      expect(await indexes()).to.include('webhook_deliveries_due_idx');
      await db.migrate();
      expect(await indexes()).to.deep.equal(now);
      expect(await leaseColumns('webhooks')).to.deep.equal(['lease_token', 'lease_until']);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
