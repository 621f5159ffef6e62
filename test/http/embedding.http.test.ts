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
import { freePort } from '../support/http-server.js';
import { BootstrapDemo, type DemoCredentials } from '../../src/application/bootstrap/bootstrap-demo.use-case.js';
import { err, type Result } from '../../src/domain/shared/result.js';
import type { ApplicationError } from '../../src/application/shared/application-error.js';

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

  describe('the demo bootstrap of an empty database', () => {
    /** A BootstrapDemo that answers `outcome` when `release` is called, and says when it was asked. */
    function heldBootstrap(outcome: () => Promise<Result<DemoCredentials | null, ApplicationError>>) {
      let release!: () => void;
      let asked!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const started = new Promise<void>((resolve) => (asked = resolve));
      const bootstrap = {
        execute: async () => {
          asked();
          await released;
          return outcome();
        },
      } as unknown as BootstrapDemo;
      return { bootstrap, started, release };
    }

    it('runs once the server listens: /healthz answers meanwhile, and startServer returns the credentials when they exist', async () => {
      const port = await freePort();
      const container = buildContainer(loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' }), { storage: 'memory' });
      const real = container.get(BootstrapDemo);
      const held = heldBootstrap(() => real.execute());
      container.rebind(BootstrapDemo).toConstantValue(held.bootstrap);
      const starting = startServer({ container });
      await held.started;
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status, 'served while the demo user is being made').to.equal(200);
      held.release();
      const running = await starting;
      try {
        expect(running.demo?.email).to.equal('demo@specbase.example');
        const listed = await fetch(`${running.url}/api/${running.demo?.accountId}`, { headers: { Authorization: `Bearer ${running.demo?.token}` } });
        expect(listed.status).to.equal(200);
      } finally {
        await running.stop();
      }
    });

    it('failing, stops listening and startServer rejects', async () => {
      const port = await freePort();
      const container = buildContainer(loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' }), { storage: 'memory' });
      const held = heldBootstrap(async () => err({ kind: 'Unexpected' } as unknown as ApplicationError));
      container.rebind(BootstrapDemo).toConstantValue(held.bootstrap);
      const starting = startServer({ container });
      await held.started;
      // A kept-alive connection open when it fails: closed too, or the process would hang on it.
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200);
      held.release();
      let failure: unknown;
      await starting.catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/bootstrap failed/);
      let refused = false;
      await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => (refused = true));
      expect(refused, 'nothing listens after a failed start').to.equal(true);
    });
  });
});
