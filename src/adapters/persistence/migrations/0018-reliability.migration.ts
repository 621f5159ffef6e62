import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * Issue 14: the token of the lease that holds a delivery (fenced leases: a run's writes go to the
 * deliveries still holding its claim's token), and the indexes the retention cleanup deletes by,
 * so each of its batches reads an index range instead of a whole table.
 */
export class Reliability1763950000000 implements MigrationInterface {
  readonly name = 'Reliability1763950000000';

  private readonly indexes: readonly (readonly [string, string, readonly string[], string?])[] = [
    ['webhook_deliveries', 'webhook_deliveries_finished_idx', ['creation_date'], "state <> 'pending'"],
    ['outbox_events', 'outbox_events_dispatched_idx', ['dispatched_at'], 'dispatched_at IS NOT NULL'],
    ['rate_limits', 'rate_limits_window_end_idx', ['window_end']],
  ];

  async up(q: QueryRunner): Promise<void> {
    // ADD COLUMN in place on both databases (TypeORM's addColumn copies the table on SQLite).
    await q.query(`ALTER TABLE ${qualified(q, 'webhook_deliveries')} ADD COLUMN lease_token text`);
    // The revision each revision's changes were recorded against: the one before it, until the
    // retention cleanup may delete that one.
    const revisions = qualified(q, 'api_revisions');
    await q.query(`ALTER TABLE ${revisions} ADD COLUMN changes_from integer`);
    await q.query(`UPDATE ${revisions} SET changes_from = (SELECT max(p.revision) FROM ${revisions} p WHERE p.api_id = api_revisions.api_id AND p.revision < api_revisions.revision)`);
    for (const [table, name, columns, where] of this.indexes) await q.createIndex(table, new TableIndex({ name, columnNames: [...columns], ...(where ? { where } : {}) }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, name] of [...this.indexes].reverse()) await q.dropIndex(table, name);
    await q.dropColumn('webhook_deliveries', 'lease_token');
    await q.dropColumn('api_revisions', 'changes_from');
  }
}
