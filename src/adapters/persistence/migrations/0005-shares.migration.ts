import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * Shares of an API with users of other accounts: one per (API, user). The (user, account) index
 * serves what every request of a grantee asks: "does this user hold a share in this account?".
 */
export class Shares1763820000000 implements MigrationInterface {
  readonly name = 'Shares1763820000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: String(t.uuid), ...(t.uuidLength ? { length: String(t.uuidLength) } : {}), isPrimary });
    const timestamp = (name: string): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}) });
    await q.createTable(
      new Table({
        name: 'api_shares',
        columns: [
          uuid('id', true),
          uuid('api_id'),
          { name: 'account_id', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'role', type: 'text' },
          timestamp('creation_date'),
          timestamp('update_date'),
        ],
        indices: [
          new TableIndex({ name: 'api_shares_api_user_key', columnNames: ['api_id', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'api_shares_user_account_idx', columnNames: ['user_id', 'account_id', 'api_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['api_id'], referencedTableName: 'apis', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
          new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_shares');
  }
}
