import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes, type Dialect } from '../dialect.js';

/** Accounts, users, API tokens, APIs and the event outbox. Written once for both databases. */
export class Initial1763780000000 implements MigrationInterface {
  readonly name = 'Initial1763780000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : ('sqlite' satisfies Dialect));
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({
      name,
      type: String(t.uuid),
      ...(t.uuidLength ? { length: String(t.uuidLength) } : {}),
      isPrimary,
    });
    const timestamp = (name: string, isNullable = false): TableColumnOptions => ({
      name,
      type: String(t.timestamp),
      ...(t.timestampLength ? { length: String(t.timestampLength) } : {}),
      isNullable,
    });
    const serial = (name: string): TableColumnOptions => ({
      name,
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    });
    const text = (name: string, isNullable = false): TableColumnOptions => ({ name, type: 'text', isNullable });
    const int = (name: string): TableColumnOptions => ({ name, type: 'integer' });
    const cascade = (column: string, table: string) =>
      new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete: 'CASCADE' });

    await q.createTable(new Table({ name: 'accounts', columns: [serial('id'), timestamp('creation_date')] }));
    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          serial('id'),
          int('account_id'),
          text('email'),
          { name: 'email_verified', type: 'boolean', default: false },
          text('password_hash'),
          text('nickname'),
          text('name', true),
          text('given_name', true),
          text('family_name', true),
          text('picture', true),
          text('locale', true),
          timestamp('creation_date'),
        ],
        indices: [new TableIndex({ name: 'users_email_key', columnNames: ['email'], isUnique: true })],
        foreignKeys: [cascade('account_id', 'accounts')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_tokens',
        columns: [
          uuid('id', true),
          int('user_id'),
          text('name'),
          text('scopes'),
          text('token_hash'),
          timestamp('creation_date'),
          timestamp('last_use_date', true),
        ],
        indices: [
          new TableIndex({ name: 'api_tokens_token_hash_key', columnNames: ['token_hash'], isUnique: true }),
          new TableIndex({ name: 'api_tokens_user_id_idx', columnNames: ['user_id'] }),
        ],
        foreignKeys: [cascade('user_id', 'users')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'apis',
        columns: [
          uuid('id', true),
          int('account_id'),
          int('user_id'),
          text('nickname'),
          text('name'),
          text('type'),
          int('revision'),
          text('description', true),
          text('version', true),
          timestamp('creation_date'),
          timestamp('update_date'),
        ],
        indices: [
          new TableIndex({ name: 'apis_account_nickname_key', columnNames: ['account_id', 'nickname'], isUnique: true }),
          new TableIndex({ name: 'apis_account_id_idx', columnNames: ['account_id', 'id'] }),
        ],
        foreignKeys: [cascade('account_id', 'accounts'), cascade('user_id', 'users')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'outbox_events',
        columns: [uuid('id', true), int('account_id'), text('name'), text('payload'), timestamp('occurred_at'), timestamp('dispatched_at', true)],
        indices: [new TableIndex({ name: 'outbox_events_pending_idx', columnNames: ['id'], where: 'dispatched_at IS NULL' })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['outbox_events', 'apis', 'api_tokens', 'users', 'accounts']) await q.dropTable(table);
  }
}
