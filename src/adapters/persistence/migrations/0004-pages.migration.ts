import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/** The Markdown pages (guides) of an API, ordered by position, slug unique per API. */
export class Pages1763810000000 implements MigrationInterface {
  readonly name = 'Pages1763810000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: String(t.uuid), ...(t.uuidLength ? { length: String(t.uuidLength) } : {}), isPrimary });
    const timestamp = (name: string): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}) });
    const text = (name: string): TableColumnOptions => ({ name, type: 'text' });
    await q.createTable(
      new Table({
        name: 'api_pages',
        columns: [
          uuid('id', true),
          uuid('api_id'),
          { name: 'account_id', type: 'integer' },
          text('title'),
          text('slug'),
          text('body'),
          { name: 'position', type: 'integer' },
          timestamp('creation_date'),
          timestamp('update_date'),
        ],
        indices: [
          new TableIndex({ name: 'api_pages_api_slug_key', columnNames: ['api_id', 'slug'], isUnique: true }),
          new TableIndex({ name: 'api_pages_order_idx', columnNames: ['api_id', 'position', 'id'] }),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['api_id'], referencedTableName: 'apis', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_pages');
  }
}
