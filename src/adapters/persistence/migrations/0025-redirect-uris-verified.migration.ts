import type { MigrationInterface, QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * `oauth_clients.redirect_uris_verified` (issue 41): whether someone the operator answers for chose
 * the client's redirect URIs (the operator's own clients, and those registered with an initial
 * access token) or anyone did (open registration). The authorization endpoint sends an error that
 * comes before its user has been asked only to a verified URI (RFC 9700 4.11.2).
 *
 * The operator's clients (no `registration`) are verified. A client that registered itself before
 * this migration is not: nothing stored says whether it spent an initial access token, so it is
 * taken as open registration. The column's default is false for the same reason: a row written
 * without it (a process of the version before, during a rolling start on PostgreSQL) is not
 * verified either.
 */
export class RedirectUrisVerified1764600000000 implements MigrationInterface {
  readonly name = 'RedirectUrisVerified1764600000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    const clients = qualified(q, 'oauth_clients');
    // Plain ALTER TABLE, in place on both databases (TypeORM's addColumn copies the table on SQLite).
    await q.query(`ALTER TABLE ${clients} ADD COLUMN redirect_uris_verified boolean NOT NULL DEFAULT ${pg ? 'false' : '0'}`);
    await q.query(`UPDATE ${clients} SET redirect_uris_verified = ${pg ? 'true' : '1'} WHERE registration IS NULL`);
    await q.getTables(['oauth_clients']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${qualified(q, 'oauth_clients')} DROP COLUMN redirect_uris_verified`);
    // The query runner's cached table still has the column; a later down (0016's dropColumn) rebuilds from it on SQLite.
    await q.getTables(['oauth_clients']);
  }
}
