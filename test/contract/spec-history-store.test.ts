import { Account } from '../../src/domain/account/account.aggregate.js';
import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { ok } from '../../src/domain/shared/result.js';
import { deriveResources } from '../../src/domain/spec/derived-resources.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { uuid } from '../support/ids.js';
import { aNewUser } from './fixtures.js';

/** The spec history's chunk store on the databases: what the in-memory store has no equivalent of. */
forEachDatabase('spec history chunk store', (target) => {
  it('refuses to hand back a revision one of whose chunks is missing, instead of a shortened text', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      const ids = new SequentialIds();
      const uow = new TypeOrmUnitOfWork(db, ids);
      const repos = typeOrmRepositories(db, db.read, ids);
      const now = new Date('2026-11-25T10:00:00.000Z');
      const text = (n: number) => JSON.stringify({ swagger: '2.0', info: { title: 'Pets', version: `${n}` }, paths: {}, 'x-pad': 'lorem ipsum dolor '.repeat(5000) + n });
      const created = await uow.run(async (tx) => {
        const accountId = await tx.accounts.create(Account.open(now, 14));
        const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
        if (!user.ok) throw new Error('user');
        const api = Api.create({ id: uuid('00000000-0000-7000-8000-0000000000c1'), accountId, owner: { id: user.value.id, nickname: user.value.nickname }, name: 'Pets', nickname: 'pets' }, now);
        if (!api.ok) throw new Error('api');
        await tx.apis.save(api.value);
        return ok({ api: api.value, actor: { id: user.value.id, nickname: user.value.nickname } });
      });
      if (!created.ok) throw new Error('seed');
      const { api, actor } = created.value;
      for (const n of [1, 2]) {
        await uow.run(async (tx) =>
          ok(await tx.specs.save(api.id, { syntax: 'json', source: text(n), documentJson: text(n) }, deriveResources(JSON.parse(text(n)) as JsonObject), { revision: n, creationDate: now, actor, specFormat: 'swagger-2.0', changes: null, reason: null })),
        );
      }
      expect((await repos.revisions.get(api.id, 1))?.spec.source, 'archived into chunks and read back').to.equal(text(1));
      const table = db.schemaName ? `"${db.schemaName}"."spec_chunks"` : '"spec_chunks"';
      await db.read((m) => m.query(`DELETE FROM ${table} WHERE key = (SELECT MIN(key) FROM ${table})`));
      let failure: unknown;
      await repos.revisions.get(api.id, 1).catch((e: unknown) => (failure = e));
      expect(String(failure)).to.match(/revision 1 lists chunk .*, which is missing/);
      expect((await repos.revisions.get(api.id, 2))?.spec.source, 'the current spec is not in chunks').to.equal(text(2));
    } finally {
      await db.close();
      await dispose();
    }
  });
});
