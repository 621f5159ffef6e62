import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteReadCache } from '../../src/adapters/persistence/sqlite-read-cache.js';
import { TypeOrmDatabase, type Run } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { ok } from '../../src/domain/shared/result.js';
import { sqlite } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';
import { aNewUser } from './fixtures.js';

const T0 = new Date('2026-11-22T10:15:00.000Z');

describe('SqliteReadCache: API reads on SQLite remembered until the database changes', () => {
  let db: TypeOrmDatabase;
  let dispose: () => Promise<void>;
  let path: string;
  let reads = 0;

  async function setup() {
    const created = await sqlite.create();
    dispose = created.dispose;
    if (created.config.kind !== 'sqlite') throw new Error('sqlite expected');
    path = created.config.path;
    db = new TypeOrmDatabase(created.config);
    await db.open();
    await db.migrate();
    const ids = new SequentialIds();
    const counting: Run = (work) => {
      reads += 1;
      return db.read(work);
    };
    const repos = typeOrmRepositories(db, counting, ids, undefined, new SqliteReadCache(() => db.sqliteVersion()));
    const uow = new TypeOrmUnitOfWork(db, ids);
    const owner = await uow.run(async (tx) => {
      const accountId = await tx.accounts.create(T0);
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('setup');
      return ok({ accountId, userId: user.value.id, nickname: user.value.nickname });
    });
    if (!owner.ok) throw new Error('setup');
    const add = async (nickname: string) => {
      const api = Api.create({ id: ids.next(), accountId: owner.value.accountId, owner: { id: owner.value.userId, nickname: owner.value.nickname }, name: `API ${nickname}`, nickname }, T0);
      if (!api.ok) throw new Error('setup');
      const saved = await uow.run(async (tx) => ok(await tx.apis.save(api.value)));
      if (!saved.ok) throw new Error('setup');
      return api.value;
    };
    return { repos, uow, accountId: owner.value.accountId, add };
  }

  afterEach(async () => {
    await db?.close();
    await dispose?.();
    reads = 0;
  });

  it('answers a repeated list or get without reading the database, with aggregates of its own', async () => {
    const s = await setup();
    const pets = await s.add('pets');
    const first = await s.repos.apis.list(s.accountId, { limit: 20 });
    const one = await s.repos.apis.get(s.accountId, pets.id);
    const before = reads;
    const again = await s.repos.apis.list(s.accountId, { limit: 20 });
    const oneAgain = await s.repos.apis.get(s.accountId, pets.id);
    expect(reads).to.equal(before);
    expect(again.items.map((a) => a.toRecord())).to.deep.equal(first.items.map((a) => a.toRecord()));
    expect(oneAgain?.toRecord()).to.deep.equal(one?.toRecord());
    expect(again.items[0]).to.not.equal(first.items[0], 'a new aggregate each time');
  });

  it('reads again after a write through this connection: a new API, a rename, a deletion', async () => {
    const s = await setup();
    const pets = await s.add('pets');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['pets']);
    await s.add('stores');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['pets', 'stores']);

    const renamed = await s.uow.run(async (tx) => {
      const api = await tx.apis.getForUpdate(s.accountId, pets.id);
      if (!api) throw new Error('missing');
      const changed = api.update({ name: 'Pets, renamed' }, undefined, T0);
      if (!changed.ok) throw new Error('update refused');
      return ok(await tx.apis.save(api));
    });
    expect(renamed.ok).to.equal(true);
    expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Pets, renamed');

    await s.repos.apis.delete(s.accountId, pets.id);
    expect(await s.repos.apis.get(s.accountId, pets.id)).to.equal(undefined);
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['stores']);
  });

  it('reads again after another connection (another process) commits', async () => {
    const s = await setup();
    const pets = await s.add('pets');
    expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
    const other = new Database(path);
    try {
      other.pragma('busy_timeout = 5000');
      expect(other.prepare('UPDATE apis SET name = ? WHERE id = ?').run('Changed elsewhere', pets.id).changes).to.equal(1);
    } finally {
      other.close();
    }
    expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Changed elsewhere');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items[0]?.toRecord().name).to.equal('Changed elsewhere');
  });

  it('remembers that an API does not exist, until one does', async () => {
    const s = await setup();
    const missing = '01930000-0000-7000-8000-000000000000';
    expect(await s.repos.apis.get(s.accountId, missing)).to.equal(undefined);
    const before = reads;
    expect(await s.repos.apis.get(s.accountId, missing)).to.equal(undefined);
    expect(reads).to.equal(before);
    await s.add('pets');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items).to.have.length(1);
  });
});
