import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { sqlOf, undoThrough } from './migration-steps.js';
import { IdentityClients1763910000000 } from '../../src/adapters/persistence/migrations/0014-identity-clients.migration.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { userId } from '../support/ids.js';

/**
 * Migration 0014 on identity data stored before it: a client gets no post-logout redirect URI and
 * no previous secret; a consent's first date is the date it had, with no last use yet.
 */
forEachDatabase('migration 0014 on existing clients and consents', (target) => {
  it('reads a client and a consent stored before it', async function () {
    this.timeout(60_000);
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      // Back to before 0014, whatever came after it.
      const later = await undoThrough(db, IdentityClients1763910000000);
      const { table, p } = sqlOf(db);
      const at = '2026-11-20T10:00:00.000Z';
      await db.read(async (m) => {
        await m.query(`INSERT INTO ${table('accounts')} (creation_date, plan) VALUES (${p(1)}, 'private')`, [at]);
        await m.query(
          `INSERT INTO ${table('users')} (account_id, email, email_verified, password_hash, nickname, creation_date) VALUES (1, 'ada@example.com', ${db.dialect === 'postgres' ? 'true' : '1'}, 'x', 'ada', ${p(1)})`,
          [at],
        );
        await m.query(`INSERT INTO ${table('oauth_clients')} (id, name, secret_hash, redirect_uris, creation_date) VALUES ('old.apps.specbase', 'Old', 'hash', ${p(1)}, ${p(2)})`, [
          JSON.stringify(['https://app.example.com/cb']),
          at,
        ]);
        await m.query(`INSERT INTO ${table('oauth_consents')} (user_id, client_id, scope, date) VALUES (1, 'old.apps.specbase', 'openid', ${p(1)})`, [at]);
      });
      expect(await db.migrate()).to.deep.equal(later);

      const repos = typeOrmRepositories(db, db.read, new SequentialIds());
      const client = await repos.oauthClients.get('old.apps.specbase');
      expect(client?.snapshot()).to.deep.include({ postLogoutRedirectUris: [], previousSecretHash: null, previousSecretExpirationDate: null, redirectUris: ['https://app.example.com/cb'] });
      expect(client?.secretHashesAt(new Date())).to.deep.equal(['hash']);
      const consent = await repos.consents.get(userId(1), 'old.apps.specbase');
      expect(consent?.creationDate.toISOString()).to.equal(at);
      expect(consent?.lastUseDate).to.equal(null);
      expect((await repos.consents.listOfUser(userId(1))).map((c) => c.clientId)).to.deep.equal(['old.apps.specbase']);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
