import { expect } from 'chai';
import { PostgresChangeVersion } from '../../src/adapters/persistence/postgres-change-version.js';
import { PostgresWorkerPeers } from '../../src/adapters/persistence/postgres-worker-peers.js';
import { buildContainer } from '../../src/main/container.js';
import { loadConfig } from '../../src/main/config.js';
import { WorkerPeersToken } from '../../src/main/tokens.js';
import { until } from '../support/change-version.js';
import { forEachDatabase, TEST_SECRETS_KEY } from '../support/databases.js';

forEachDatabase('webhook workers hearing each other', (target) => {
  if (target.name === 'sqlite') {
    it('has no peers on SQLite, whose one worker runs in the server', async () => {
      const { config, dispose } = await target.create();
      try {
        if (config.kind !== 'sqlite') throw new Error('sqlite expected');
        expect(buildContainer(loadConfig({ SQLITE_PATH: config.path, SECRETS_KEY: TEST_SECRETS_KEY })).get(WorkerPeersToken)).to.equal(null);
      } finally {
        await dispose();
      }
    });
    return;
  }

  let url = '';
  let dispose: (() => Promise<void>) | undefined;
  const listeners: PostgresChangeVersion[] = [];
  const peers: PostgresWorkerPeers[] = [];
  before(async () => {
    const created = await target.create();
    if (created.config.kind !== 'postgres') throw new Error('postgres expected');
    url = created.config.url;
    dispose = created.dispose;
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.stop();
    await Promise.all(listeners.splice(0).map((l) => l.stop()));
  });
  after(async () => dispose?.());

  /** A worker's peers on a listening connection of its own, as each process has. */
  async function aWorker(scope: string, wake: () => void = () => undefined): Promise<PostgresWorkerPeers> {
    const changes = new PostgresChangeVersion(url);
    await changes.start();
    listeners.push(changes);
    const p = new PostgresWorkerPeers(changes, scope);
    p.start(wake);
    peers.push(p);
    return p;
  }

  it('binds peers on PostgreSQL with the change listener, none without it (READ_CACHE_SIZE=0)', () => {
    const env = { DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY };
    expect(buildContainer(loadConfig(env)).get(WorkerPeersToken)).to.be.instanceOf(PostgresWorkerPeers);
    expect(buildContainer(loadConfig({ ...env, READ_CACHE_SIZE: '0' })).get(WorkerPeersToken)).to.equal(null);
  });

  it('a worker alone hears nobody; two hear each other at once, not after the hello interval', async () => {
    const first = await aWorker('s1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(first.othersActive(), 'its own hello is not another worker').to.equal(false);
    const second = await aWorker('s1');
    await until(() => first.othersActive() && second.othersActive(), 3_000);
  });

  it('wakes the other workers of its schema when it hands a webhook over, not itself nor those of another schema', async () => {
    const woken = { same: 0, self: 0, other: 0 };
    const giver = await aWorker('s2', () => (woken.self += 1));
    const taker = await aWorker('s2', () => (woken.same += 1));
    const elsewhere = await aWorker('s3', () => (woken.other += 1));
    await until(() => giver.othersActive() && taker.othersActive(), 3_000);
    giver.handOver();
    await until(() => woken.same === 1, 3_000);
    // The same listening connections deliver in order: a later signal heard means the hand-over was passed by.
    const marker = await aWorker('s3');
    await until(() => elsewhere.othersActive() && marker.othersActive(), 3_000);
    expect(woken).to.deep.equal({ same: 1, self: 0, other: 0 });
    expect(elsewhere.othersActive() && marker.othersActive()).to.equal(true);
  });

  it('moves no change version with its messages (they change no row)', async () => {
    const changes = new PostgresChangeVersion(url);
    await changes.start();
    listeners.push(changes);
    const before = changes.version();
    const p = new PostgresWorkerPeers(changes, 's4');
    p.start(() => undefined);
    peers.push(p);
    const other = await aWorker('s4');
    await until(() => p.othersActive() && other.othersActive(), 3_000);
    other.handOver();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changes.version()).to.equal(before);
  });
});
