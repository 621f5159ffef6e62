import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * The claim's lease moves from each delivery to its webhook (ADR 0021, "The lease on the
 * webhook"): `webhooks.lease_until` and `webhooks.lease_token` hold the lane's claim, and the
 * deliveries lose their lease columns and the lease index. A claim wrote every delivery it leased
 * (on PostgreSQL a non-HOT update entering every index of the row) and the recording wrote it
 * again; now a run writes its webhook's row twice (lease, end of lease) and each delivery once,
 * with its outcome (performance.md, section 4).
 *
 * Leases held when it runs are not carried over: a worker of the version before cannot record
 * against the new columns, so what it had claimed is claimed again at once and sent again (at
 * least once). Stop every old process that runs a worker before migrating (operations.md).
 */
export class WebhookLeases1764300000000 implements MigrationInterface {
  readonly name = 'WebhookLeases1764300000000';

  async up(q: QueryRunner): Promise<void> {
    const webhooks = qualified(q, 'webhooks');
    const deliveries = qualified(q, 'webhook_deliveries');
    // Plain ALTER TABLE on both databases (TypeORM's addColumn and dropColumn copy the table on
    // SQLite). ADD COLUMN is in place; on SQLite each DROP COLUMN rewrites the table's rows once.
    await q.query(`ALTER TABLE ${webhooks} ADD COLUMN lease_until ${timestampType(q)}`);
    await q.query(`ALTER TABLE ${webhooks} ADD COLUMN lease_token text`);
    await q.dropIndex('webhook_deliveries', 'webhook_deliveries_lease_idx');
    await q.query(`ALTER TABLE ${deliveries} DROP COLUMN lease_token`);
    await q.query(`ALTER TABLE ${deliveries} DROP COLUMN lease_until`);
    await forgetTables(q);
  }

  async down(q: QueryRunner): Promise<void> {
    const webhooks = qualified(q, 'webhooks');
    const deliveries = qualified(q, 'webhook_deliveries');
    await q.query(`ALTER TABLE ${deliveries} ADD COLUMN lease_until ${timestampType(q)}`);
    await q.query(`ALTER TABLE ${deliveries} ADD COLUMN lease_token text`);
    await q.createIndex('webhook_deliveries', new TableIndex({ name: 'webhook_deliveries_lease_idx', columnNames: ['webhook_id', 'lease_until'], where: 'lease_until IS NOT NULL' }));
    await q.query(`ALTER TABLE ${webhooks} DROP COLUMN lease_token`);
    await q.query(`ALTER TABLE ${webhooks} DROP COLUMN lease_until`);
    await forgetTables(q);
  }
}

/**
 * Reloads the query runner's cached tables: `dropIndex` and `createIndex` cached them as they were
 * before the plain ALTERs, and a later migration of the same run rebuilding one of them on SQLite
 * (`addColumn`, `dropColumn`) would otherwise work from the stale columns.
 */
async function forgetTables(q: QueryRunner): Promise<void> {
  await q.getTables(['webhooks', 'webhook_deliveries']);
}

/** The column type of a nullable date, as migration 0003 made `lease_until` (dialect.ts). */
function timestampType(q: QueryRunner): string {
  return q.connection.options.type === 'postgres' ? 'timestamptz' : 'varchar(30)';
}
