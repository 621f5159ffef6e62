import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/** Pending e-mail verifications: at most one per user, looked up by the token's hash. */
export class EmailVerifications1763830000000 implements MigrationInterface {
  readonly name = 'EmailVerifications1763830000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const timestamp = (name: string): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}) });
    await q.createTable(
      new Table({
        name: 'email_verifications',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'email', type: 'text' },
          { name: 'token_hash', type: 'text' },
          timestamp('expiration_date'),
          timestamp('creation_date'),
        ],
        indices: [new TableIndex({ name: 'email_verifications_token_hash_key', columnNames: ['token_hash'], isUnique: true })],
        foreignKeys: [new TableForeignKey({ columnNames: ['user_id'], referencedTableName: 'users', referencedColumnNames: ['id'], onDelete: 'CASCADE' })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('email_verifications');
  }
}
