import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * The device authorization grant (RFC 8628, issue 13): device authorizations by the hashes of
 * their device code and user code, with the grant made when the user approves one. They go with
 * their client, their user and their grant.
 */
export class DeviceCodes1763920000000 implements MigrationInterface {
  readonly name = 'DeviceCodes1763920000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const timestamp = (name: string, isNullable = false): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}), isNullable });
    const text = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: 'text', isPrimary });
    const cascade = (column: string, table: string) => new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });
    await q.createTable(
      new Table({
        name: 'oauth_device_codes',
        columns: [
          text('device_code_hash', true),
          text('user_code_hash'),
          text('client_id'),
          text('scope'),
          text('status'),
          { name: 'user_id', type: 'integer', isNullable: true },
          { name: 'grant_id', type: String(t.uuid), ...(t.uuidLength ? { length: String(t.uuidLength) } : {}), isNullable: true },
          { name: 'interval_s', type: 'integer' },
          timestamp('last_poll_date', true),
          timestamp('creation_date'),
          timestamp('expiration_date'),
        ],
        indices: [new TableIndex({ name: 'oauth_device_codes_user_code_idx', columnNames: ['user_code_hash'], isUnique: true }), new TableIndex({ name: 'oauth_device_codes_expiration_idx', columnNames: ['expiration_date'] })],
        foreignKeys: [cascade('client_id', 'oauth_clients'), cascade('user_id', 'users'), cascade('grant_id', 'oauth_grants')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oauth_device_codes');
  }
}
