import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/** Webhooks and their delivery log; deliveries are also the delivery workers' queue. */
export class Webhooks1763800000000 implements MigrationInterface {
  readonly name = 'Webhooks1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false, isNullable = false): TableColumnOptions => ({
      name,
      type: String(t.uuid),
      ...(t.uuidLength ? { length: String(t.uuidLength) } : {}),
      isPrimary,
      isNullable,
    });
    const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
      name,
      type: String(t.timestamp),
      ...(t.timestampLength ? { length: String(t.timestampLength) } : {}),
      isNullable,
    });
    const text = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'text', isNullable });
    const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });

    await q.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          uuid('id', true),
          int('account_id'),
          text('target_url'),
          text('events'),
          text('secret'),
          { name: 'active', type: 'boolean', default: false },
          timestamp('creation_date'),
          timestamp('update_date'),
          text('last_response', true),
          timestamp('failing_since', true),
          text('deactivation_reason', true),
        ],
        indices: [new TableIndex({ name: 'webhooks_account_id_idx', columnNames: ['account_id', 'id'] })],
        foreignKeys: [new TableForeignKey({ columnNames: ['account_id'], referencedTableName: 'accounts', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          uuid('id', true),
          uuid('webhook_id'),
          int('account_id'),
          uuid('event_id'),
          text('event'),
          uuid('dispatch_key', false, true),
          text('payload'),
          text('state'),
          text('attempts'),
          timestamp('next_attempt_date', true),
          timestamp('lease_until', true),
          timestamp('creation_date'),
        ],
        indices: [
          // One fan-out per event and webhook: a repeated dispatch inserts nothing.
          new TableIndex({ name: 'webhook_deliveries_dispatch_key', columnNames: ['webhook_id', 'dispatch_key'], isUnique: true }),
          new TableIndex({ name: 'webhook_deliveries_webhook_idx', columnNames: ['webhook_id', 'id'] }),
          new TableIndex({ name: 'webhook_deliveries_due_idx', columnNames: ['next_attempt_date', 'id'], where: "state = 'pending'" }),
          // Each webhook's queue in event order: keeps claimDue's "oldest due of its webhook" check
          // from reading the whole delivery log.
          new TableIndex({ name: 'webhook_deliveries_queue_idx', columnNames: ['webhook_id', 'event_id', 'id'], where: "state = 'pending'" }),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['webhook_id'], referencedTableName: 'webhooks', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_deliveries', 'webhooks']) await q.dropTable(table);
  }
}
