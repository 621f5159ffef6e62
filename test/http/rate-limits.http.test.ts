import { expect } from 'chai';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { FLUSH_EVERY_MS } from '../../src/adapters/persistence/typeorm-rate-limiter.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServer, startTestServerOn, type TestServer } from '../support/http-server.js';

const basic = (email: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });

forEachDatabase('rate limits over HTTP', (target) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServerOn(target, { RATE_LIMIT_API: '5', RATE_LIMIT_PASSWORD_EMAIL: '3', RATE_LIMIT_PASSWORD_IP: '1000', RATE_LIMIT_TOKEN_ENDPOINT: '3' });
  });
  after(async () => {
    await server?.stop();
  });

  it('limits each API token per minute: 429 rate_limited with Retry-After, the window in RateLimit-* headers; another token is not affected', async () => {
    const ada = await server.user('ada@example.com', 'ada');
    const [first, second] = [await server.token(ada, ['api.readonly']), await server.token(ada, ['api.readonly'])];
    for (let i = 1; i <= 5; i++) {
      const response = await server.request('GET', `/api/${ada.accountId}`, { token: first });
      expect(response.status).to.equal(200);
      expect(response.headers.get('ratelimit-limit')).to.equal('5');
      expect(response.headers.get('ratelimit-remaining')).to.equal(String(5 - i));
      expect(Number(response.headers.get('ratelimit-reset'))).to.be.within(1, 60);
    }
    const refused = await server.request('GET', `/api/${ada.accountId}`, { token: first });
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await problem(refused)).to.include({ code: 'rate_limited', status: 429 });
    expect((await server.request('GET', `/api/${ada.accountId}`, { token: second })).status).to.equal(200);
  });

  it('limits failed passwords per e-mail on HTTP Basic: after 3 failures even the right password waits (429)', async () => {
    const bea = await server.user('bea@example.com', 'bea');
    for (let i = 0; i < 3; i++) expect((await server.request('GET', '/user/tokens', { headers: basic(bea.email, `guess ${i}`) })).status).to.equal(401);
    const limited = await server.request('GET', '/user/tokens', { headers: basic(bea.email, bea.password) });
    expect(limited.status).to.equal(429);
    expect(await problem(limited)).to.include({ code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
    const other = await server.user('cy@example.com', 'cy');
    expect((await server.request('GET', '/user/tokens', { headers: basic(other.email, other.password) })).status, 'another e-mail is not held up').to.equal(200);
  });

  it('cannot be overrun by guesses sent all at once: at most the limit of them reach the password check', async () => {
    const dee = await server.user('dee@example.com', 'dee');
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => server.request('GET', '/user/tokens', { headers: basic(dee.email, `parallel guess ${i}`) }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401).length, JSON.stringify(statuses)).to.be.at.most(3);
    expect(statuses.filter((s) => s === 429).length).to.be.at.least(17);
  });

  it('does not count right passwords: many sign-ins in a row are never held up', async () => {
    const eve = await server.user('eve@example.com', 'eve');
    for (let i = 0; i < 8; i++) expect((await server.request('GET', '/user/tokens', { headers: basic(eve.email, eve.password) })).status).to.equal(200);
  });

  it('limits wrong current passwords on PUT /user/password like any password check', async () => {
    const fay = await server.user('fay@example.com', 'fay');
    const token = await server.token(fay, ['profile']);
    const change = (currentPassword: string) => server.request('PUT', '/user/password', { token, body: { currentPassword, newPassword: 'a brand new passphrase' } });
    for (let i = 0; i < 3; i++) expect((await change(`guess ${i}`)).status).to.equal(403);
    const limited = await change(fay.password);
    expect(limited.status).to.equal(429);
    expect(await problem(limited)).to.include({ code: 'rate_limited' });
  });

  it('limits the token endpoint per client and address: 429 slow_down with Retry-After', async () => {
    const registered = await server.running.container.get(RegisterOAuthClient).execute({ name: 'App', redirectUris: ['http://127.0.0.1:9/cb'], public: false });
    if (!registered.ok) throw new Error('setup');
    const request = () =>
      server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'sbc_unknown', client_id: registered.value.clientId, client_secret: registered.value.clientSecret! }) });
    for (let i = 0; i < 3; i++) expect((await request()).status).to.equal(400);
    const limited = await request();
    expect(limited.status).to.equal(429);
    expect(await limited.json()).to.include({ error: 'slow_down' });
    expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
  });

  if (target.name === 'postgres') {
    it('counts across instances sharing one PostgreSQL database, each writing its count every FLUSH_EVERY_MS', async () => {
      const db = await target.create();
      const a = await startTestServer(db.config, { RATE_LIMIT_API: '4' });
      const b = await startTestServer(db.config, { RATE_LIMIT_API: '4' });
      try {
        const dee = await a.user('dee@example.com', 'dee');
        const token = await a.token(dee, ['api.readonly']);
        const statuses: number[] = [];
        for (const instance of [a, b, a, b, b]) {
          statuses.push((await instance.request('GET', `/api/${dee.accountId}`, { token })).status);
          // Each instance counts locally between writes: past one write, the other instance knows.
          await new Promise((resolve) => setTimeout(resolve, FLUSH_EVERY_MS + 150));
        }
        expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
      } finally {
        await a.stop();
        await b.stop();
        await db.dispose();
      }
    });
  }
});
