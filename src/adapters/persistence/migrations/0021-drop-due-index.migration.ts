import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Drops `webhook_deliveries_due_idx` (`next_attempt_date, id` over pending deliveries, migration
 * 0003). No statement reads by it: every query of pending deliveries is per webhook (the claim's
 * probe, `claimNext`, the lease check) and goes through `webhook_deliveries_queue_idx` or the
 * lease index; the worker polls and is signalled instead of asking for the next due time. Yet
 * each delivery entered it twice, at the fan-out's insert and at the claim's lease update (an
 * update that changes an indexed column is not HOT on PostgreSQL, so it enters every index whose
 * predicate holds): 2 of the 15 index entries a delivery makes on PostgreSQL (performance.md, section 4).
 */
export class DropDueIndex1764200000000 implements MigrationInterface {
  readonly name = 'DropDueIndex1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.dropIndex('webhook_deliveries', 'webhook_deliveries_due_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createIndex('webhook_deliveries', new TableIndex({ name: 'webhook_deliveries_due_idx', columnNames: ['next_attempt_date', 'id'], where: "state = 'pending'" }));
  }
}
