import { expect } from 'chai';
import { RedirectUrisVerified1764600000000 } from '../../src/adapters/persistence/migrations/0025-redirect-uris-verified.migration.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { sqlOf, undoThrough } from './migration-steps.js';

const REGISTRATION = JSON.stringify({ tokenEndpointAuthMethod: 'client_secret_basic', grantTypes: ['authorization_code'], responseTypes: ['code'], scope: null, accessTokenHash: 'rat-hash' });

/**
 * Migration 0025 on clients stored before it: the operator's client (no registration) has verified
 * redirect URIs; a client that registered itself has not, as nothing says whether it spent an
 * initial access token, and neither has a row a process of the version before writes afterwards.
 * Down drops the column and leaves the clients as they were; up again marks them the same way.
 */
forEachDatabase('migration 0025 on existing clients', (target) => {
  it('verifies the redirect URIs of the operator\'s clients only, and undoes cleanly', async function () {
    this.timeout(60_000);
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      const later = await undoThrough(db, RedirectUrisVerified1764600000000);
      expect(later).to.deep.equal(['RedirectUrisVerified1764600000000', 'RemovalAfterSunset1764700000000']);
      const { table: named, p } = sqlOf(db);
      const table = named('oauth_clients');
      const at = '2026-11-20T10:00:00.000Z';
      const insert = (id: string, registration: string | null) =>
        db.read((m) =>
          m.query(`INSERT INTO ${table} (id, name, secret_hash, redirect_uris, registration, creation_date) VALUES (${p(1)}, 'App', 'hash', ${p(2)}, ${p(3)}, ${p(4)})`, [
            id,
            JSON.stringify(['https://app.example.com/cb']),
            registration,
            at,
          ]),
        );
      await insert('operator.apps.specbase', null);
      await insert('registered.apps.specbase', REGISTRATION);
      const columns = async (): Promise<string[]> => {
        const runner = db.dataSource.createQueryRunner();
        try {
          return (await runner.getTable(db.schemaName ? `${db.schemaName}.oauth_clients` : 'oauth_clients'))!.columns.map((c) => c.name);
        } finally {
          await runner.release();
        }
      };

      expect(await db.migrate()).to.deep.equal(later);
      expect(await columns()).to.include('redirect_uris_verified');
      const repos = () => typeOrmRepositories(db, db.read, new SequentialIds());
      const verified = async (): Promise<Record<string, boolean>> => Object.fromEntries((await repos().oauthClients.list()).map((c) => [c.id, c.redirectUrisVerified]));
      expect(await verified()).to.deep.equal({ 'operator.apps.specbase': true, 'registered.apps.specbase': false });
      const operator = await repos().oauthClients.get('operator.apps.specbase');
      expect(operator?.snapshot()).to.deep.include({ name: 'App', redirectUris: ['https://app.example.com/cb'], registration: null, redirectUrisVerified: true });

      // A row written without the column, as the version before writes it, is not verified.
      await insert('written-before.apps.specbase', REGISTRATION);
      expect((await verified())['written-before.apps.specbase']).to.equal(false);

      expect(await undoThrough(db, RedirectUrisVerified1764600000000)).to.deep.equal(later);
      expect(await columns()).to.not.include('redirect_uris_verified');
      const rows = await db.read<{ id: string; registration: string | null }[]>((m) => m.query(`SELECT id, registration FROM ${table} ORDER BY id`));
      expect(rows.map((r) => [r.id, r.registration === null])).to.deep.equal([
        ['operator.apps.specbase', true],
        ['registered.apps.specbase', false],
        ['written-before.apps.specbase', false],
      ]);

      expect(await db.migrate()).to.deep.equal(later);
      expect(await verified()).to.deep.equal({ 'operator.apps.specbase': true, 'registered.apps.specbase': false, 'written-before.apps.specbase': false });
    } finally {
      await db.close();
      await dispose();
    }
  });
});
