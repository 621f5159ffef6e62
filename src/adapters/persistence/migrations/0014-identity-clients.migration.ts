import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * The identity service, completed (issue 13): a client's post-logout redirect URIs and the secret
 * it had before a rotation (accepted until the overlap ends); a consent's first date and last use,
 * for the user's list of connected applications (consents made before keep their date as both);
 * grants found by client, for a client deleted or withdrawn.
 */
export class IdentityClients1763910000000 implements MigrationInterface {
  readonly name = 'IdentityClients1763910000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const timestamp = (name: string) => new TableColumn({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}), isNullable: true });
    await q.addColumn('oauth_clients', new TableColumn({ name: 'post_logout_redirect_uris', type: 'text', isNullable: false, default: "'[]'" }));
    await q.addColumn('oauth_clients', new TableColumn({ name: 'previous_secret_hash', type: 'text', isNullable: true }));
    await q.addColumn('oauth_clients', timestamp('previous_secret_expiration_date'));
    await q.addColumn('oauth_consents', timestamp('creation_date'));
    await q.addColumn('oauth_consents', timestamp('last_use_date'));
    const schema = (q.connection.options as { schema?: string }).schema;
    const consents = schema ? `${q.connection.driver.escape(schema)}.${q.connection.driver.escape('oauth_consents')}` : q.connection.driver.escape('oauth_consents');
    await q.query(`UPDATE ${consents} SET creation_date = date`);
    await q.createIndex('oauth_grants', new TableIndex({ name: 'oauth_grants_client_idx', columnNames: ['client_id', 'user_id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('oauth_grants', 'oauth_grants_client_idx');
    for (const column of ['last_use_date', 'creation_date']) await q.dropColumn('oauth_consents', column);
    for (const column of ['previous_secret_expiration_date', 'previous_secret_hash', 'post_logout_redirect_uris']) await q.dropColumn('oauth_clients', column);
  }
}
