import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/main/config.js';
import { buildContainer, StorageToken, type Storage } from '../../src/main/container.js';
import { createApp } from '../../src/main/server.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { forEachDatabase, TEST_SECRETS_KEY } from '../support/databases.js';
import { startTestServerOn } from '../support/http-server.js';

async function readyz(url: string): Promise<{ status: number; body: unknown; cacheControl: string | null; connection: string | null }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: await response.json(), cacheControl: response.headers.get('cache-control'), connection: response.headers.get('connection') };
}

forEachDatabase('GET /readyz', (target) => {
  it('is 200 {"status":"ready"} on a migrated database, and 503 once the database is closed, as /healthz', async () => {
    const server = await startTestServerOn(target);
    try {
      expect(await readyz(server.url)).to.deep.include({ status: 200, body: { status: 'ready' }, cacheControl: 'no-store' });
      await server.running.container.get<Storage>(StorageToken).close();
      expect(await readyz(server.url)).to.deep.include({ status: 503, body: { status: 'unavailable' } });
      expect((await fetch(`${server.url}/healthz`)).status).to.equal(503);
    } finally {
      await server.stop();
    }
  });

  it('is 503 while migrations are pending, 200 after they ran, 503 when one is missing', async () => {
    const db = await target.create();
    const container = buildContainer({ ...loadConfig({ LOG_LEVEL: 'silent', SECRETS_KEY: TEST_SECRETS_KEY }), database: db.config });
    const storage = container.get<Storage>(StorageToken);
    await storage.open();
    const host = createServer(createApp(container).callback());
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      expect((await fetch(`${url}/healthz`)).status, 'the database answers').to.equal(200);
      expect(await readyz(url)).to.deep.include({ status: 503, body: { status: 'unavailable' } });
      await storage.migrate();
      expect(await readyz(url)).to.deep.include({ status: 200, body: { status: 'ready' } });
      // As if this code were newer than the database: its last migration is not recorded there.
      const database = container.get(TypeOrmDatabase);
      const table = database.schemaName ? `"${database.schemaName}"."migrations"` : '"migrations"';
      await database.read((m) => m.query(`DELETE FROM ${table} WHERE name = 'RateLimits1763850000000'`));
      expect(await readyz(url)).to.deep.include({ status: 503, body: { status: 'unavailable' } });
    } finally {
      await new Promise<void>((resolve) => host.close(() => resolve()));
      await storage.close();
      await db.dispose();
    }
  });

  it('turns 503 when a stop begins, while the server still answers for SHUTDOWN_DRAIN_MS, then stops listening', async () => {
    const server = await startTestServerOn(target, { SHUTDOWN_DRAIN_MS: '700' });
    expect((await readyz(server.url)).status).to.equal(200);
    const began = Date.now();
    const stopped = server.stop();
    try {
      const during = await readyz(server.url);
      expect(during).to.deep.include({ status: 503, body: { status: 'shutting_down' }, connection: 'close' });
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status, 'still alive and accepting: liveness is not readiness').to.equal(200);
    } finally {
      await stopped;
    }
    expect(Date.now() - began, 'it waited out the drain').to.be.at.least(650);
    let refused = false;
    await fetch(`${server.url}/readyz`).catch(() => (refused = true));
    expect(refused, 'no longer listening').to.equal(true);
  });
});
