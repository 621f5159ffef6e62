import type { MigrationInterface, QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * PostgreSQL only: `oauth_clients` notifies its changes as the tables of migration 0009 do, so the
 * read cache may hold clients (introspection, the token endpoint and the authorization page read
 * one per request): a secret rotated, a redirect URI changed or a client deleted on one instance
 * is seen by the others a NOTIFY's delivery later. SQLite needs none.
 */
export class ClientChangeNotifications1764000000000 implements MigrationInterface {
  readonly name = 'ClientChangeNotifications1764000000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    const schema = (q.connection.options as { schema?: string }).schema;
    const notify = schema ? `${q.connection.driver.escape(schema)}.specbase_notify_change()` : 'specbase_notify_change()';
    await q.query(`CREATE TRIGGER oauth_clients_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${qualified(q, 'oauth_clients')} FOR EACH STATEMENT EXECUTE FUNCTION ${notify}`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    await q.query(`DROP TRIGGER IF EXISTS oauth_clients_notify_change ON ${qualified(q, 'oauth_clients')}`);
  }
}
