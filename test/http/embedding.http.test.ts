import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildContainer,
  Clock,
  createApp,
  CreateApiToken,
  IdGenerator,
  loadConfig,
  RegisterUser,
  startServer,
  StorageToken,
  type Storage,
} from '../../src/index.js';
import { FixedClock, SequentialIds } from '../support/fakes.js';

const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SPECBASE_NO_BOOTSTRAP: 'true' });

async function tokenFor(container: ReturnType<typeof buildContainer>): Promise<{ token: string; accountId: number }> {
  const user = await container.get(RegisterUser).execute({ email: 'host@example.com', password: 'a long passphrase', verified: true });
  if (!user.ok) throw new Error('user');
  const token = await container.get(CreateApiToken).execute({ userId: user.value.userId }, { name: 'host', scopes: ['api'] });
  if (!token.ok) throw new Error('token');
  return { token: token.value.token, accountId: user.value.accountId };
}

describe('embedding: the package as a library', () => {
  it("mounts the Koa app in a host's own node:http server with rebound clock and ids, on in-memory storage", async () => {
    const container = buildContainer(config, { storage: 'memory' });
    container.rebind(Clock).toConstantValue(new FixedClock(new Date('2030-01-02T03:04:05.000Z')));
    container.rebind(IdGenerator).toConstantValue(new SequentialIds());
    await container.get<Storage>(StorageToken).open();
    const { token, accountId } = await tokenFor(container);

    const host: Server = createServer(createApp(container).callback());
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
      const response = await fetch(`${url}/api/${accountId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Embedded', nickname: 'embedded' }),
      });
      expect(response.status).to.equal(201);
      const api = (await response.json()) as { id: string; creationDate: string };
      expect(api.creationDate).to.equal('2030-01-02T03:04:05.000+00:00');
      expect(api.id).to.match(/^00000000-0000-7000-8000-0000000000[0-9a-f]{2}$/);
    } finally {
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });

  it('starts and stops the bundled server from a caller-built container', async () => {
    const container = buildContainer(config, { storage: 'memory' });
    container.rebind(Clock).toConstantValue(new FixedClock(new Date('2031-05-06T07:08:09.000Z')));
    const running = await startServer({ container });
    try {
      const { token, accountId } = await tokenFor(container);
      const created = await fetch(`${running.url}/api/${accountId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Bundled', nickname: 'bundled' }),
      });
      expect(((await created.json()) as { creationDate: string }).creationDate).to.equal('2031-05-06T07:08:09.000+00:00');
      expect(running.demo).to.equal(null);
    } finally {
      await running.stop();
    }
    let refused = false;
    await fetch(`${running.url}/healthz`).catch(() => (refused = true));
    expect(refused, 'the server no longer listens after stop()').to.equal(true);
  });
});
