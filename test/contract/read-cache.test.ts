import { Account } from '../../src/domain/account/account.aggregate.js';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ReadCache } from '../../src/adapters/persistence/read-cache.js';
import { TypeOrmDatabase, type DatabaseConfig, type Run } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { OAuthClient } from '../../src/domain/identity/oauth-client.js';
import { ok } from '../../src/domain/shared/result.js';
import type { UnitOfWork } from '../../src/application/ports/unit-of-work.port.js';
import { forEachDatabase } from '../support/databases.js';
import { settle, until } from '../support/change-version.js';
import { SequentialIds } from '../support/fakes.js';
import { aNewUser } from './fixtures.js';
import type { AccountId } from '../../src/domain/account/account.js';
import type { ApiId } from '../../src/domain/api/api.aggregate.js';
import type { GrantId } from '../../src/domain/identity/grant.js';
import { userId, uuid } from '../support/ids.js';

const T0 = new Date('2026-11-22T10:15:00.000Z');

/**
 * PostgreSQL: runs `work` while the listening connection is busy with a query, so that no
 * notification can reach this instance meanwhile (a backend delivers them only when idle): what
 * `work` reads after its own writes must then come from the local bump alone. Fails if one came.
 */
async function withNotificationsHeld(db: TypeOrmDatabase, work: () => Promise<void>): Promise<void> {
  const changes = db.postgresChanges;
  if (changes === undefined) return work();
  let heard = 0;
  const stop = changes.onNotification(() => (heard += 1));
  // The listening client is private: reached here only to keep it busy.
  const busy = (changes as unknown as { client: pg.Client }).client.query('SELECT pg_sleep(1)');
  try {
    await work();
    expect(heard).to.equal(0, 'no notification while the listener is busy');
  } finally {
    await busy;
    stop();
  }
}

async function rename(uow: UnitOfWork, accountId: AccountId, id: ApiId, name: string): Promise<void> {
  const renamed = await uow.run(async (tx) => {
    const api = await tx.apis.getForUpdate(accountId, id);
    if (!api) throw new Error('missing');
    const changed = api.update({ name }, undefined, { id: userId(1), nickname: 'ada' }, T0);
    if (!changed.ok) throw new Error('update refused');
    return ok(await tx.apis.save(api));
  });
  if (!renamed.ok) throw new Error('rename refused');
}

forEachDatabase('ReadCache: API reads remembered until the database changes', (target) => {
  let db: TypeOrmDatabase;
  let config: DatabaseConfig;
  let dispose: () => Promise<void>;
  let reads = 0;
  const others: TypeOrmDatabase[] = [];

  async function setup(heartbeatMs?: number) {
    const created = await target.create();
    dispose = created.dispose;
    config = created.config;
    db = new TypeOrmDatabase(config, { trackChanges: true, changes: { minBackoffMs: 10, maxBackoffMs: 50, ...(heartbeatMs === undefined ? {} : { heartbeatMs }) } });
    await db.open();
    await db.migrate();
    const ids = new SequentialIds();
    const counting: Run = (work) => {
      reads += 1;
      return db.read(work);
    };
    const repos = typeOrmRepositories(db, counting, ids, undefined, new ReadCache(() => db.changeVersion()));
    const uow = new TypeOrmUnitOfWork(db, ids);
    const owner = await uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(T0, 14));
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('setup');
      return ok({ accountId, userId: user.value.id, nickname: user.value.nickname });
    });
    if (!owner.ok) throw new Error('setup');
    await settle(db);
    const create = async (nickname: string) => {
      const api = Api.create({ id: ids.next(), accountId: owner.value.accountId, owner: { id: owner.value.userId, nickname: owner.value.nickname }, name: `API ${nickname}`, nickname }, T0);
      if (!api.ok) throw new Error('setup');
      const saved = await uow.run(async (tx) => ok(await tx.apis.save(api.value)));
      if (!saved.ok) throw new Error('setup');
      return api.value;
    };
    const add = async (nickname: string) => {
      const api = await create(nickname);
      await settle(db);
      return api;
    };
    return { repos, uow, accountId: owner.value.accountId, userId: owner.value.userId, add, create };
  }

  /** Another instance on the same database (PostgreSQL: the same schema), with a pool of its own. */
  async function anotherInstance(): Promise<UnitOfWork> {
    return new TypeOrmUnitOfWork(await anotherDatabase(), new SequentialIds());
  }

  async function anotherDatabase(): Promise<TypeOrmDatabase> {
    const other = new TypeOrmDatabase(config);
    others.push(other);
    await other.open();
    return other;
  }

  /** A grant of `userId` to a fresh client, read once so that it is cached. */
  async function aCachedGrant(s: Awaited<ReturnType<typeof setup>>): Promise<GrantId> {
    const client = OAuthClient.create({ id: 'client-1', name: 'Client', secretHash: null, redirectUris: ['https://client.example.com/cb'] }, T0);
    if (!client.ok) throw new Error('setup');
    await s.repos.oauthClients.add(client.value);
    const id = uuid<GrantId>('01930000-0000-7000-8000-0000000000aa');
    await s.repos.grants.add({ id, clientId: 'client-1', userId: s.userId, scope: 'openid', offline: false, creationDate: T0, revocationDate: null });
    await settle(db);
    expect((await s.repos.grants.get(id))?.revocationDate).to.equal(null);
    const before = reads;
    expect((await s.repos.grants.get(id))?.revocationDate).to.equal(null);
    expect(reads).to.equal(before, 'the grant is cached');
    return id;
  }

  it('sees a grant revoked by this instance at once, though it was cached (before any notification)', async () => {
    const s = await setup();
    const id = await aCachedGrant(s);
    await withNotificationsHeld(db, async () => {
      await s.repos.grants.revoke(id, T0);
      expect((await s.repos.grants.get(id))?.revocationDate?.toISOString()).to.equal(T0.toISOString());
    });
  });

  /** Client `client-1` (made by aCachedGrant) read once more, so that it is cached. */
  async function aCachedClient(s: Awaited<ReturnType<typeof setup>>): Promise<void> {
    expect((await s.repos.oauthClients.get('client-1'))?.name).to.equal('Client');
    const before = reads;
    expect((await s.repos.oauthClients.get('client-1'))?.name).to.equal('Client');
    expect(reads).to.equal(before, 'the client is cached');
  }

  it('sees a client changed or deleted by this instance at once, though it was cached (before any notification)', async () => {
    const s = await setup();
    await aCachedGrant(s);
    await aCachedClient(s);
    await withNotificationsHeld(db, async () => {
      const client = await s.repos.oauthClients.get('client-1');
      const renamed = client!.update({ name: 'Renamed' });
      if (!renamed.ok) throw new Error('update');
      await s.repos.oauthClients.save(renamed.value);
      expect((await s.repos.oauthClients.get('client-1'))?.name).to.equal('Renamed');
      await s.repos.oauthClients.delete('client-1');
      expect(await s.repos.oauthClients.get('client-1')).to.equal(undefined);
    });
  });

  it('sees a profile changed by this instance at once, though the user was cached', async () => {
    const s = await setup();
    expect((await s.repos.users.get(s.userId))?.snapshot().name).to.equal(null);
    const before = reads;
    expect((await s.repos.users.get(s.userId))?.snapshot().name).to.equal(null);
    expect(reads).to.equal(before, 'the user is cached');
    await withNotificationsHeld(db, async () => {
      const changed = await s.uow.run(async (tx) => {
        const user = await tx.users.get(s.userId);
        if (!user) throw new Error('missing');
        const updated = user.updateProfile({ name: 'Ada Lovelace' });
        if (!updated.ok) throw new Error('refused');
        await tx.users.save(user);
        return ok(undefined);
      });
      expect(changed.ok).to.equal(true);
      expect((await s.repos.users.get(s.userId))?.snapshot().name).to.equal('Ada Lovelace');
    });
  });

  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
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

  it('reads again at once after a write of this instance: a new API, a rename, a deletion (before any notification)', async () => {
    const s = await setup();
    const pets = await s.add('pets');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['pets']);
    expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
    await withNotificationsHeld(db, async () => {
      await s.create('stores');
      expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['pets', 'stores']);

      await rename(s.uow, s.accountId, pets.id, 'Pets, renamed');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Pets, renamed');

      // Outside a transaction: an autocommit DELETE.
      await s.repos.apis.delete(s.accountId, pets.id);
      expect(await s.repos.apis.get(s.accountId, pets.id)).to.equal(undefined);
      expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items.map((a) => a.nickname)).to.deep.equal(['stores']);
    });
  });

  if (target.name === 'sqlite') {
    /** Renames API `id` through a better-sqlite3 connection of its own, as another process would. */
    function renameAsAnotherProcess(id: string, name: string): void {
      if (config.kind !== 'sqlite') throw new Error('sqlite expected');
      const other = new Database(config.path);
      try {
        other.pragma('busy_timeout = 5000');
        expect(other.prepare('UPDATE apis SET name = ? WHERE id = ?').run(name, id).changes).to.equal(1);
      } finally {
        other.close();
      }
    }

    /** Lets the event loop go round once (SQLite's change version is read once per turn). */
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    it('reads again after another connection (another process) commits', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      renameAsAnotherProcess(pets.id, 'Changed elsewhere');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Changed elsewhere');
      expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items[0]?.toRecord().name).to.equal('Changed elsewhere');
    });

    it('reads again after another process commits, from the next turn of the event loop, though this turn took the version from a cache hit', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      await nextTurn();
      const before = reads;
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      expect(reads).to.equal(before, 'a cache hit, which ran no statement');
      renameAsAnotherProcess(pets.id, 'Changed elsewhere');
      // Whatever follows another process's commit reaches this one through an event of a later turn.
      await nextTurn();
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Changed elsewhere');
    });

    it('reads again at once after another connection of this process commits, in the same turn', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      const elsewhere = await anotherInstance();
      await nextTurn();
      const before = reads;
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      expect(reads).to.equal(before, 'a cache hit, which ran no statement');
      await rename(elsewhere, s.accountId, pets.id, 'Renamed by another connection');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Renamed by another connection');
    });
  }

  if (target.name === 'postgres') {
    it('reads again once the notification of another instance\'s commit arrives, and not before it is needed', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      const changes = db.postgresChanges;
      if (changes === undefined || config.kind !== 'postgres') throw new Error('postgres with tracked changes expected');
      await until(() => changes.isListening);
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items[0]?.toRecord().name).to.equal('API pets');
      const before = reads;
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('API pets');
      expect(reads).to.equal(before, 'served from the cache while nothing changed');

      const b = await anotherInstance();
      const heard = new Promise<void>((resolve) => {
        const stop = changes.onNotification((payload) => {
          if (payload !== `${config.kind === 'postgres' ? config.schema : ''}.apis`) return;
          stop();
          resolve();
        });
      });
      await rename(b, s.accountId, pets.id, 'Renamed on B');
      await heard;
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Renamed on B');
      expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items[0]?.toRecord().name).to.equal('Renamed on B');
    });

    it('sees a grant revoked by another instance once its notification arrives', async () => {
      const s = await setup();
      const id = await aCachedGrant(s);
      const changes = db.postgresChanges;
      if (changes === undefined || config.kind !== 'postgres') throw new Error('postgres with tracked changes expected');
      const other = await anotherDatabase();
      const heard = new Promise<void>((resolve) => {
        const stop = changes.onNotification((payload) => {
          if (payload !== `${config.kind === 'postgres' ? config.schema : ''}.oauth_grants`) return;
          stop();
          resolve();
        });
      });
      await typeOrmRepositories(other, other.read, new SequentialIds()).grants.revoke(id, T0);
      await heard;
      expect((await s.repos.grants.get(id))?.revocationDate?.toISOString()).to.equal(T0.toISOString());
    });

    it('sees a client deleted by another instance once its notification arrives', async () => {
      const s = await setup();
      await aCachedGrant(s);
      await aCachedClient(s);
      const changes = db.postgresChanges;
      if (changes === undefined || config.kind !== 'postgres') throw new Error('postgres with tracked changes expected');
      const other = await anotherDatabase();
      const heard = new Promise<void>((resolve) => {
        const stop = changes.onNotification((payload) => {
          if (payload !== `${config.kind === 'postgres' ? config.schema : ''}.oauth_clients`) return;
          stop();
          resolve();
        });
      });
      await typeOrmRepositories(other, other.read, new SequentialIds()).oauthClients.delete('client-1');
      await heard;
      expect(await s.repos.oauthClients.get('client-1')).to.equal(undefined);
    });

    it('serves nothing from the cache while not listening, and reads again after listening again (notifications in between are lost)', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      const changes = db.postgresChanges;
      if (changes === undefined || config.kind !== 'postgres') throw new Error('postgres with tracked changes expected');
      await until(() => changes.isListening);
      const pid = changes.backendPid;
      expect(pid).to.be.a('number');
      await s.repos.apis.get(s.accountId, pets.id);

      // The listening connection dies (a restart, a proxy, an administrator): its server process is ended.
      const admin = new pg.Client({ connectionString: config.url });
      await admin.connect();
      try {
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      await until(() => !changes.isListening);
      const b = await anotherInstance();
      await rename(b, s.accountId, pets.id, 'Renamed unheard');
      // Whether or not it is listening again yet, no read may answer the old name.
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Renamed unheard');

      await until(() => changes.isListening && changes.backendPid !== pid);
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Renamed unheard');
      const before = reads;
      await s.repos.apis.get(s.accountId, pets.id);
      expect(reads).to.equal(before, 'cached again once listening');
    });

    it('notices a listener that stopped receiving notifications (the heartbeat is a notification round trip) and listens again', async () => {
      const s = await setup(100);
      const pets = await s.add('pets');
      const changes = db.postgresChanges;
      if (changes === undefined) throw new Error('tracked changes expected');
      const pid = changes.backendPid;
      // As behind a transaction-mode pooler, or a link that silently stopped: connected, deaf.
      await (changes as unknown as { client: pg.Client }).client.query('UNLISTEN specbase_changes');
      await until(() => !changes.isListening, 2_000);
      await rename(await anotherInstance(), s.accountId, pets.id, 'Renamed while deaf');
      expect((await s.repos.apis.get(s.accountId, pets.id))?.toRecord().name).to.equal('Renamed while deaf');
      await until(() => changes.isListening && changes.backendPid !== pid, 2_000);
    });

    it('while not listening, reads every time', async () => {
      const s = await setup();
      const pets = await s.add('pets');
      const changes = db.postgresChanges;
      if (changes === undefined) throw new Error('tracked changes expected');
      await changes.stop();
      await s.repos.apis.get(s.accountId, pets.id);
      await s.repos.apis.list(s.accountId, { limit: 20 });
      const before = reads;
      await s.repos.apis.get(s.accountId, pets.id);
      await s.repos.apis.list(s.accountId, { limit: 20 });
      expect(reads).to.equal(before + 2);
    });
  }

  it('remembers that an API does not exist, until one does', async () => {
    const s = await setup();
    const missing = uuid<ApiId>('01930000-0000-7000-8000-000000000000');
    expect(await s.repos.apis.get(s.accountId, missing)).to.equal(undefined);
    const before = reads;
    expect(await s.repos.apis.get(s.accountId, missing)).to.equal(undefined);
    expect(reads).to.equal(before);
    await s.add('pets');
    expect((await s.repos.apis.list(s.accountId, { limit: 20 })).items).to.have.length(1);
  });
});
