import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * Dynamic client registration (RFC 7591 and 7592, issue 13): a registered client's metadata and the
 * hash of its registration access token (JSON; null for the operator's clients), and the operator's
 * initial access tokens, each good for one registration.
 */
export class ClientRegistration1763930000000 implements MigrationInterface {
  readonly name = 'ClientRegistration1763930000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const timestamp = (name: string, isNullable = false): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}), isNullable });
    await q.addColumn('oauth_clients', new TableColumn({ name: 'registration', type: 'text', isNullable: true }));
    await q.createTable(
      new Table({
        name: 'oauth_initial_access_tokens',
        columns: [{ name: 'token_hash', type: 'text', isPrimary: true }, timestamp('creation_date'), timestamp('expiration_date'), timestamp('use_date', true)],
        indices: [new TableIndex({ name: 'oauth_initial_access_tokens_expiration_idx', columnNames: ['expiration_date'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oauth_initial_access_tokens');
    await q.dropColumn('oauth_clients', 'registration');
  }
}
