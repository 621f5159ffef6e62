import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { SequentialIds } from '../support/fakes.js';

/**
 * Migrations 0011 (specFormat) and 0012 (spec history) on a database whose APIs were stored
 * before them: each API with a spec gets `specFormat` swagger-2.0 and its current spec as its
 * first revision, stored by its owner; an API without a spec gets neither. Down, then up again.
 */
forEachDatabase('migrations 0011 and 0012 on existing data', (target) => {
  it('fill in specFormat and the first revision of every API that has a spec', async function () {
    this.timeout(60_000);
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      for (let i = 0; i < 2; i++) await db.dataSource.undoLastMigration({ transaction: 'all' });
      const table = (name: string) => (db.schemaName ? `"${db.schemaName}"."${name}"` : `"${name}"`);
      const p = (n: number) => (db.dialect === 'postgres' ? `$${n}` : '?');
      const petstore = swaggerFixture('petstore.yaml').bytes.toString('utf8');
      const document = JSON.stringify({ swagger: '2.0', info: { title: 'Pets', version: '1.0.0' }, paths: {} });
      const at = '2026-11-20T10:00:00.000Z';
      await db.read(async (m) => {
        await m.query(`INSERT INTO ${table('accounts')} (creation_date) VALUES (${p(1)})`, [at]);
        await m.query(
          `INSERT INTO ${table('users')} (account_id, email, email_verified, password_hash, nickname, creation_date) VALUES (1, 'ada@example.com', ${db.dialect === 'postgres' ? 'true' : '1'}, 'x', 'ada', ${p(1)})`,
          [at],
        );
        for (const [id, nickname, revision] of [
          ['00000000-0000-7000-8000-000000000001', 'with-spec', 3],
          ['00000000-0000-7000-8000-000000000002', 'empty', 1],
        ] as const) {
          await m.query(
            `INSERT INTO ${table('apis')} (id, account_id, user_id, nickname, name, type, revision, creation_date, update_date) VALUES (${p(1)}, 1, 1, ${p(2)}, 'Pets', 'private', ${p(3)}, ${p(4)}, ${p(5)})`,
            [id, nickname, revision, at, at],
          );
        }
        await m.query(`INSERT INTO ${table('api_specs')} (api_id, format, source, document, update_date) VALUES (${p(1)}, 'yaml', ${p(2)}, ${p(3)}, ${p(4)})`, [
          '00000000-0000-7000-8000-000000000001',
          petstore,
          document,
          at,
        ]);
      });
      expect(await db.migrate()).to.deep.equal(['SpecFormat1763880000000', 'SpecHistory1763890000000']);

      const repos = typeOrmRepositories(db, db.read, new SequentialIds());
      const withSpec = (await repos.apis.get(1, '00000000-0000-7000-8000-000000000001'))!.toRecord();
      expect(withSpec).to.include({ specFormat: 'swagger-2.0', breakingChangePolicy: 'allow', revision: 3 });
      expect((await repos.apis.get(1, '00000000-0000-7000-8000-000000000002'))!.toRecord()).to.include({ specFormat: null, breakingChangePolicy: 'allow' });
      const history = await repos.revisions.list('00000000-0000-7000-8000-000000000001', { limit: 10 });
      expect(history.items).to.deep.equal([{ revision: 3, creationDate: new Date(at), user: { id: 1, nickname: 'ada' }, specFormat: 'swagger-2.0', counts: null, reason: null }]);
      const stored = await repos.revisions.get('00000000-0000-7000-8000-000000000001', 3);
      expect(stored?.spec).to.deep.equal({ syntax: 'yaml', source: petstore, documentJson: document });
      expect((await repos.revisions.list('00000000-0000-7000-8000-000000000002', { limit: 10 })).items).to.deep.equal([]);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
