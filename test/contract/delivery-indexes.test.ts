import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { MIGRATIONS } from '../../src/adapters/persistence/migrations/index.js';
import { DropDueIndex1764200000000 } from '../../src/adapters/persistence/migrations/0021-drop-due-index.migration.js';
import { forEachDatabase } from '../support/databases.js';

/**
 * The deliveries table keeps the indexes its statements read by, and no other: every delivery
 * enters each index at its insert and, on PostgreSQL, at every update of an indexed column
 * (migration 0021 dropped the due index no statement used). Down restores it.
 */
forEachDatabase('the deliveries table indexes', (target) => {
  it('has the log, dispatch key, queue, lease and retention indexes, not the due index; 0021 down brings it back', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    const indexes = async (): Promise<string[]> => {
      const rows =
        db.dialect === 'postgres'
          ? await db.read((m) => m.query<{ name: string }[]>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = 'webhook_deliveries'`, [db.schemaName]))
          : await db.read((m) => m.query<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries' AND sql IS NOT NULL`));
      return rows.map((row) => row.name).filter((name) => name.startsWith('webhook_deliveries_')).sort();
    };
    try {
      await db.open();
      await db.migrate();
      expect(await indexes()).to.deep.equal(['webhook_deliveries_dispatch_key', 'webhook_deliveries_finished_idx', 'webhook_deliveries_lease_idx', 'webhook_deliveries_queue_idx', 'webhook_deliveries_webhook_idx']);
      for (let i = MIGRATIONS.length; i > MIGRATIONS.indexOf(DropDueIndex1764200000000); i -= 1) await db.dataSource.undoLastMigration({ transaction: 'all' });
      expect(await indexes()).to.include('webhook_deliveries_due_idx');
      await db.migrate();
      expect(await indexes()).to.not.include('webhook_deliveries_due_idx');
    } finally {
      await db.close();
      await dispose();
    }
  });
});
