import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Indexes for the identity cleanup and for deletes that cascade (issue 13): the dates the cleanup
 * selects by, and the foreign keys a deleted grant or client cascades through, which neither
 * PostgreSQL nor SQLite indexes by itself. Without them each batch of the cleanup, and each client
 * deleted, scans whole tables while it holds its locks.
 */
export class IdentityIndexes1763940000000 implements MigrationInterface {
  readonly name = 'IdentityIndexes1763940000000';

  private readonly indexes: readonly (readonly [string, string, readonly string[]])[] = [
    ['oauth_codes', 'oauth_codes_expiration_idx', ['expiration_date']],
    ['oauth_codes', 'oauth_codes_grant_idx', ['grant_id']],
    ['identity_sessions', 'identity_sessions_expiration_idx', ['expiration_date']],
    ['oauth_refresh_tokens', 'oauth_refresh_tokens_grant_idx', ['grant_id']],
    ['oauth_refresh_tokens', 'oauth_refresh_tokens_rotation_idx', ['rotation_date']],
    ['oauth_grants', 'oauth_grants_revocation_idx', ['revocation_date']],
    ['oauth_grants', 'oauth_grants_creation_idx', ['creation_date']],
    ['oauth_device_codes', 'oauth_device_codes_grant_idx', ['grant_id']],
    ['oauth_device_codes', 'oauth_device_codes_client_idx', ['client_id']],
    ['oauth_consents', 'oauth_consents_client_idx', ['client_id']],
  ];

  async up(q: QueryRunner): Promise<void> {
    for (const [table, name, columns] of this.indexes) await q.createIndex(table, new TableIndex({ name, columnNames: [...columns] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, name] of [...this.indexes].reverse()) await q.dropIndex(table, name);
  }
}
