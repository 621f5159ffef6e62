import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { forDialect } from '../../src/adapters/persistence/raw-sql.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { uuid } from '../support/ids.js';
import { aNewUser } from './fixtures.js';
import { undoThrough } from './migration-steps.js';
import { Reliability1763950000000 } from '../../src/adapters/persistence/migrations/0018-reliability.migration.js';

/**
 * Migration 0018 on a database of before it: each spec revision learns which revision its changes
 * were recorded against (the one before it, a rename's revision number skipped), so deleting old
 * revisions later cannot pass changes off as against another; down, then up again.
 */
forEachDatabase('migration 0018 on existing data', (target) => {
  it('records the revision each revision was compared with', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      const now = new Date('2026-11-20T00:00:00.000Z');
      const repos = typeOrmRepositories(db, db.read, new SequentialIds());
      const accountId = await repos.accounts.create(Account.open(now, 14));
      const user = await repos.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('user');
      const api = Api.create({ id: uuid('01950000-0000-7000-8000-0000000000a1'), accountId, owner: { id: user.value.id, nickname: 'ada' }, name: 'Pets', nickname: 'pets' }, now);
      if (!api.ok) throw new Error('api');
      // The account, user and API are written by today's repositories, then the schema goes back to
      // before 0018 (the migrations after it undone first, the rows kept).
      await repos.apis.save(api.value);
      await undoThrough(db, Reliability1763950000000);
      const table = db.schemaName ? `"${db.schemaName}"."api_revisions"` : '"api_revisions"';
      // Revisions 1, 2 and 4 (3 was a rename): stored as before 0018.
      for (const revision of [1, 2, 4]) {
        await db.read((m) =>
          m.query(forDialect(db.dialect, `INSERT INTO ${table} (api_id, revision, creation_date, user_id, spec_format, syntax, source_chunks, document_chunks, changes, reason) VALUES (?, ?, ?, ?, 'swagger-2.0', 'json', ?, ?, ?, NULL)`), [
            api.value.id,
            revision,
            now.toISOString(),
            user.value.id,
            revision === 4 ? null : '[]',
            revision === 4 ? null : '[]',
            revision === 1 ? null : JSON.stringify({ counts: { breaking: 0, warning: 0, info: revision }, items: [] }),
          ]),
        );
      }
      expect((await db.migrate())[0]).to.equal('Reliability1763950000000');
      const rows = await db.read((m) => m.query<{ revision: number; changes_from: number | null }[]>(`SELECT revision, changes_from FROM ${table} ORDER BY revision`));
      expect(rows.map((r) => [Number(r.revision), r.changes_from === null ? null : Number(r.changes_from)])).to.deep.equal([
        [1, null],
        [2, 1],
        [4, 2],
      ]);
      expect(await repos.revisions.changes(api.value.id, 4, 2)).to.deep.equal({ counts: { breaking: 0, warning: 0, info: 4 }, items: [] });
    } finally {
      await db.close();
      await dispose();
    }
  });
});
