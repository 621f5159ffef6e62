import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables whose rows a cached read returns (ReadCache): the API list and get read `apis` and
 * the owner's nickname from `users`; the identity service caches a user and a grant. A read cached
 * from a table not listed here would never be invalidated by another instance's writes: add the
 * table (in a new migration, as 0019 did for `oauth_clients`) before caching a read of it.
 */
export const NOTIFYING_TABLES = ['apis', 'users', 'oauth_grants'] as const;

/**
 * PostgreSQL only: every committed change to a table in NOTIFYING_TABLES sends
 * `NOTIFY specbase_changes, 'schema.table'` (one per statement; NOTIFY is delivered at commit,
 * and identical ones of a transaction are folded into one), which PostgresChangeVersion listens
 * for. SQLite needs none: its own change counter sees every connection's commits.
 */
export class ChangeNotifications1763860000000 implements MigrationInterface {
  readonly name = 'ChangeNotifications1763860000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    const at = (name: string) => inSchema(q, name);
    await q.query(
      `CREATE OR REPLACE FUNCTION ${at('specbase_notify_change()')} RETURNS trigger LANGUAGE plpgsql AS $$ ` +
        `BEGIN PERFORM pg_notify('specbase_changes', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME); RETURN NULL; END $$`,
    );
    for (const table of NOTIFYING_TABLES) {
      await q.query(
        `CREATE TRIGGER ${table}_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${at(table)} ` +
          `FOR EACH STATEMENT EXECUTE FUNCTION ${at('specbase_notify_change()')}`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'postgres') return;
    const at = (name: string) => inSchema(q, name);
    for (const table of NOTIFYING_TABLES) await q.query(`DROP TRIGGER IF EXISTS ${table}_notify_change ON ${at(table)}`);
    await q.query(`DROP FUNCTION IF EXISTS ${at('specbase_notify_change()')}`);
  }
}

/** `name` where TypeORM creates tables: in DATABASE_SCHEMA if set, else unqualified (the search path's first schema). */
function inSchema(q: QueryRunner, name: string): string {
  const schema = (q.connection.options as { schema?: string }).schema;
  return schema ? `"${schema.replaceAll('"', '""')}".${name}` : name;
}
