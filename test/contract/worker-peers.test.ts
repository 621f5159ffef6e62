import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
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

  /** Scopes of this run's own, so that runs sharing the database do not hear each other. */
  const scope = (name: string): string => `${name}-${run}`;
  const run = randomUUID();

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

  it('binds peers on PostgreSQL wherever a webhook worker runs, the read cache on or off; none for a server without a worker and without the read cache', () => {
    const env = { DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY };
    expect(buildContainer(loadConfig(env)).get(WorkerPeersToken)).to.be.instanceOf(PostgresWorkerPeers);
    expect(buildContainer(loadConfig({ ...env, READ_CACHE_SIZE: '0' })).get(WorkerPeersToken), 'specbase worker runs so').to.be.instanceOf(PostgresWorkerPeers);
    expect(buildContainer(loadConfig({ ...env, READ_CACHE_SIZE: '0', WEBHOOK_WORKER: 'false' })).get(WorkerPeersToken)).to.equal(null);
  });

  it('a worker alone hears nobody; two hear each other at once, not after the hello interval', async () => {
    const first = await aWorker(scope('s1'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(first.othersActive(), 'its own hello is not another worker').to.equal(false);
    const second = await aWorker(scope('s1'));
    await until(() => first.othersActive() && second.othersActive(), 3_000);
  });

  it('a third worker joining two that know each other hears of them at once; a schema named like another with more after it is no peer', async () => {
    const first = await aWorker(scope('s5'));
    const second = await aWorker(scope('s5'));
    await until(() => first.othersActive() && second.othersActive(), 3_000);
    const prefixed = await aWorker(`${scope('s5')}/x`);
    const third = await aWorker(scope('s5'));
    await until(() => third.othersActive(), 3_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(prefixed.othersActive(), 'a schema whose name begins with the other\'s').to.equal(false);
  });

  it('wakes the other workers of its schema when it hands a webhook over, not itself nor those of another schema', async () => {
    const woken = { same: 0, self: 0, other: 0 };
    const giver = await aWorker(scope('s2'), () => (woken.self += 1));
    const taker = await aWorker(scope('s2'), () => (woken.same += 1));
    const elsewhere = await aWorker(scope('s3'), () => (woken.other += 1));
    await until(() => giver.othersActive() && taker.othersActive(), 3_000);
    giver.handOver();
    await until(() => woken.same === 1, 3_000);
    // The same listening connections deliver in order: a later signal heard means the hand-over was passed by.
    const marker = await aWorker(scope('s3'));
    await until(() => elsewhere.othersActive() && marker.othersActive(), 3_000);
    expect(woken).to.deep.equal({ same: 1, self: 0, other: 0 });
    expect(elsewhere.othersActive() && marker.othersActive()).to.equal(true);
  });

  it('moves no change version with its messages (they change no row)', async () => {
    const changes = new PostgresChangeVersion(url);
    await changes.start();
    listeners.push(changes);
    const before = changes.version();
    const p = new PostgresWorkerPeers(changes, scope('s4'));
    p.start(() => undefined);
    peers.push(p);
    const other = await aWorker(scope('s4'));
    await until(() => p.othersActive() && other.othersActive(), 3_000);
    other.handOver();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changes.version()).to.equal(before);
  });
});
