import { expect } from 'chai';
import { RemovalAfterSunset1764700000000 } from '../../src/adapters/persistence/migrations/0026-removal-after-sunset.migration.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { accountId, userId, uuid } from '../support/ids.js';
import { sqlOf, undoThrough } from './migration-steps.js';

/**
 * Migration 0026 on APIs stored before it: each gets `allowRemovalAfterSunset` false, as does a
 * row a process of the version before writes afterwards (the column's default); the repository
 * stores both values on a new API and on a changed one. Down drops the column and keeps the APIs.
 */
forEachDatabase('migration 0026 (allowRemovalAfterSunset) on existing APIs', (target) => {
  it('gives every API false, stores true and false, and undoes cleanly', async function () {
    this.timeout(60_000);
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      const later = await undoThrough(db, RemovalAfterSunset1764700000000);
      expect(later[0]).to.equal('RemovalAfterSunset1764700000000');
      const { table, p } = sqlOf(db);
      const at = '2026-11-20T10:00:00.000Z';
      const insertApi = (id: string, nickname: string) =>
        db.read((m) =>
          m.query(`INSERT INTO ${table('apis')} (id, account_id, user_id, nickname, name, type, revision, creation_date, update_date) VALUES (${p(1)}, 1, 1, ${p(2)}, 'Pets', 'private', 1, ${p(3)}, ${p(4)})`, [id, nickname, at, at]),
        );
      await db.read(async (m) => {
        await m.query(`INSERT INTO ${table('accounts')} (creation_date) VALUES (${p(1)})`, [at]);
        await m.query(`INSERT INTO ${table('users')} (account_id, email, email_verified, password_hash, nickname, creation_date) VALUES (1, 'ada@example.com', ${db.dialect === 'postgres' ? 'true' : '1'}, 'x', 'ada', ${p(1)})`, [at]);
      });
      await insertApi('00000000-0000-7000-8000-000000000001', 'before');

      expect(await db.migrate()).to.deep.equal(later);
      const repos = typeOrmRepositories(db, db.read, new SequentialIds());
      const flag = async (id: string) => (await repos.apis.get(accountId(1), uuid(id)))?.toRecord().allowRemovalAfterSunset;
      expect(await flag('00000000-0000-7000-8000-000000000001')).to.equal(false);
      // Written as the version before writes it: without the column.
      await insertApi('00000000-0000-7000-8000-000000000002', 'written-before');
      expect(await flag('00000000-0000-7000-8000-000000000002')).to.equal(false);

      const created = Api.create({ id: uuid('00000000-0000-7000-8000-000000000003'), accountId: accountId(1), owner: { id: userId(1), nickname: 'ada' }, name: 'New', nickname: 'new' }, new Date(at));
      if (!created.ok) throw new Error('create');
      expect((await repos.apis.save(created.value)).ok).to.equal(true);
      expect(await flag('00000000-0000-7000-8000-000000000003')).to.equal(false);
      for (const value of [true, false, true]) {
        const api = (await repos.apis.get(accountId(1), uuid('00000000-0000-7000-8000-000000000003')))!;
        expect(api.update({ allowRemovalAfterSunset: value }, undefined, { id: userId(1), nickname: 'ada' }, new Date(at)).ok).to.equal(true);
        expect((await repos.apis.save(api)).ok).to.equal(true);
        expect(await flag('00000000-0000-7000-8000-000000000003'), String(value)).to.equal(value);
      }
      const made = Api.create({ id: uuid('00000000-0000-7000-8000-000000000004'), accountId: accountId(1), owner: { id: userId(1), nickname: 'ada' }, name: 'Made', nickname: 'made' }, new Date(at));
      if (!made.ok) throw new Error('create');
      made.value.update({ allowRemovalAfterSunset: true }, undefined, { id: userId(1), nickname: 'ada' }, new Date(at));
      expect((await repos.apis.save(made.value)).ok).to.equal(true);
      expect(await flag('00000000-0000-7000-8000-000000000004'), 'true on a new API').to.equal(true);

      expect(await undoThrough(db, RemovalAfterSunset1764700000000)).to.deep.equal(later);
      const rows = await db.read<{ nickname: string }[]>((m) => m.query(`SELECT * FROM ${table('apis')} ORDER BY id`));
      expect(rows.map((r) => r.nickname)).to.deep.equal(['before', 'written-before', 'new', 'made']);
      expect(Object.keys(rows[0]!)).to.not.include('allow_removal_after_sunset');
      expect(await db.migrate()).to.deep.equal(later);
      expect(await flag('00000000-0000-7000-8000-000000000004'), 'up again: the default').to.equal(false);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
