import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * The identity service: OAuth clients, grants with their codes and refresh tokens (every secret
 * stored as a hash), login sessions, consents, and the RS256 signing keys.
 */
export class Identity1763840000000 implements MigrationInterface {
  readonly name = 'Identity1763840000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: String(t.uuid), ...(t.uuidLength ? { length: String(t.uuidLength) } : {}), isPrimary });
    const timestamp = (name: string, isNullable = false): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}), isNullable });
    const text = (name: string, isNullable = false, isPrimary = false): TableColumnOptions => ({ name, type: 'text', isNullable, isPrimary });
    const int = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: 'integer', isPrimary });
    const bool = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
    const cascade = (column: string, table: string, referenced = 'id') =>
      new TableForeignKey({ columnNames: [column], referencedTableName: table, referencedColumnNames: [referenced], onDelete: 'CASCADE' });

    await q.createTable(new Table({ name: 'oauth_clients', columns: [text('id', false, true), text('name'), text('secret_hash', true), text('redirect_uris'), timestamp('creation_date')] }));
    await q.createTable(
      new Table({
        name: 'oauth_grants',
        columns: [uuid('id', true), text('client_id'), int('user_id'), text('scope'), bool('offline'), timestamp('creation_date'), timestamp('revocation_date', true)],
        indices: [new TableIndex({ name: 'oauth_grants_user_idx', columnNames: ['user_id'] })],
        foreignKeys: [cascade('user_id', 'users'), cascade('client_id', 'oauth_clients')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oauth_codes',
        columns: [
          text('code_hash', false, true),
          uuid('grant_id'),
          text('client_id'),
          int('user_id'),
          text('redirect_uri'),
          text('scope'),
          text('code_challenge', true),
          text('nonce', true),
          bool('offline'),
          timestamp('auth_time'),
          timestamp('expiration_date'),
          timestamp('consumption_date', true),
        ],
        foreignKeys: [cascade('grant_id', 'oauth_grants')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oauth_refresh_tokens',
        columns: [text('token_hash', false, true), uuid('grant_id'), text('client_id'), int('user_id'), text('scope'), timestamp('creation_date'), timestamp('rotation_date', true)],
        foreignKeys: [cascade('grant_id', 'oauth_grants')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'identity_sessions',
        columns: [text('id_hash', false, true), int('user_id'), timestamp('auth_time'), timestamp('expiration_date')],
        indices: [new TableIndex({ name: 'identity_sessions_user_idx', columnNames: ['user_id'] })],
        foreignKeys: [cascade('user_id', 'users')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'oauth_consents',
        columns: [int('user_id', true), text('client_id', false, true), text('scope'), timestamp('date')],
        foreignKeys: [cascade('user_id', 'users'), cascade('client_id', 'oauth_clients')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'signing_keys',
        columns: [text('kid', false, true), text('private_key_pem'), text('public_jwk'), text('certificate_pem'), timestamp('creation_date'), timestamp('activation_date')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['signing_keys', 'oauth_consents', 'identity_sessions', 'oauth_refresh_tokens', 'oauth_codes', 'oauth_grants', 'oauth_clients']) await q.dropTable(table);
  }
}
