import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { sqlOf, undoThrough } from './migration-steps.js';
import { SpecFormat1763880000000 } from '../../src/adapters/persistence/migrations/0011-spec-format.migration.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Changelog } from '../../src/application/releases/changelog.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { SequentialIds } from '../support/fakes.js';
import { accountId, uuid } from '../support/ids.js';

/**
 * Migrations 0011 (specFormat) and 0012 (spec history) on a database whose APIs were stored
 * before them: each API with a spec gets `specFormat` swagger-2.0 and its current spec as its
 * first revision, stored by its owner; an API without a spec gets neither. Down, then up again.
 * Releases made before them get what they changed when the changelog first reads them. The
 * account, from before plans (0013), stays on the Private plan with no trial.
 */
forEachDatabase('migrations 0011, 0012 and 0013 on existing data', (target) => {
  it('fill in specFormat and the first revision of every API that has a spec', async function () {
    this.timeout(60_000);
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      // Back to before 0011, whatever came after it.
      const later = await undoThrough(db, SpecFormat1763880000000);
      const { table, p } = sqlOf(db);
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
        // Two releases made before the history: 1.1.0 adds an endpoint to 1.0.0.
        for (const [id, version, paths] of [
          ['00000000-0000-7000-8000-0000000000a1', '1.0.0', {}],
          ['00000000-0000-7000-8000-0000000000a2', '1.1.0', { '/pets': { get: { responses: { '200': { description: 'ok' } } } } }],
        ] as const) {
          const snapshot = JSON.stringify({ swagger: '2.0', info: { title: 'Pets', version }, paths });
          await m.query(
            `INSERT INTO ${table('api_releases')} (id, api_id, account_id, version, status, release_date, format, source, document) VALUES (${p(1)}, ${p(2)}, 1, ${p(3)}, 'released', ${p(4)}, 'json', ${p(5)}, ${p(6)})`,
            [id, '00000000-0000-7000-8000-000000000001', version, at, snapshot, snapshot],
          );
        }
      });
      expect(await db.migrate()).to.deep.equal(later);
      expect(later.slice(0, 3)).to.deep.equal(['SpecFormat1763880000000', 'SpecHistory1763890000000', 'Plans1763900000000']);

      const repos = typeOrmRepositories(db, db.read, new SequentialIds());
      // 0013: an account from before plans keeps everything it had: the Private plan, no trial to end.
      expect((await repos.accounts.get(accountId(1)))?.planAt(new Date('2027-06-01T00:00:00.000Z'))).to.deep.equal({ name: 'private', trial: false, trialEndDate: null });
      const withSpec = (await repos.apis.get(accountId(1), uuid('00000000-0000-7000-8000-000000000001')))!.toRecord();
      expect(withSpec).to.include({ specFormat: 'swagger-2.0', breakingChangePolicy: 'allow', revision: 3 });
      expect((await repos.apis.get(accountId(1), uuid('00000000-0000-7000-8000-000000000002')))!.toRecord()).to.include({ specFormat: null, breakingChangePolicy: 'allow' });
      const history = await repos.revisions.list(uuid('00000000-0000-7000-8000-000000000001'), { limit: 10 });
      expect(history.items).to.deep.equal([{ revision: 3, creationDate: new Date(at), user: { id: 1, nickname: 'ada' }, specFormat: 'swagger-2.0', counts: null, reason: null }]);
      const stored = await repos.revisions.get(uuid('00000000-0000-7000-8000-000000000001'), 3);
      expect(stored?.spec).to.deep.equal({ syntax: 'yaml', source: petstore, documentJson: document });
      expect((await repos.revisions.list(uuid('00000000-0000-7000-8000-000000000002'), { limit: 10 })).items).to.deep.equal([]);

      // Their changes were never recorded: the changelog compares them when first read, and keeps the answer.
      expect((await repos.releases.changelog(uuid('00000000-0000-7000-8000-000000000001'), { limit: 10 })).items.map((e) => e.changes)).to.deep.equal([null, null]);
      const changelog = new Changelog(new TypeOrmUnitOfWork(db, new SequentialIds()), repos.releases);
      const read = await changelog.page(accountId(1), uuid('00000000-0000-7000-8000-000000000001'), { limit: 10 });
      const summary = read.items.map((e) => [e.release.version, e.revision, e.changes.since, e.changes.items.map((c) => c.rule)]);
      expect(summary).to.deep.equal([
        ['1.1.0', null, '1.0.0', ['endpoint-added']],
        ['1.0.0', null, null, []],
      ]);
      const kept = await repos.releases.changelog(uuid('00000000-0000-7000-8000-000000000001'), { limit: 10 });
      expect(kept.items.map((e) => [e.release.version, e.changes?.since, e.changes?.counts])).to.deep.equal([
        ['1.1.0', '1.0.0', { breaking: 0, warning: 0, info: 1 }],
        ['1.0.0', null, { breaking: 0, warning: 0, info: 0 }],
      ]);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
