import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
}

interface ConnectedApp {
  clientId: string;
  clientName: string;
  scopes: string[];
  creationDate: string;
  lastUseDate: string | null;
}

/** `GET /user/grants` and `DELETE /user/grants/<client_id>`: the applications a user allowed, and withdrawing one. */
forEachDatabase('User-API: connected applications', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;
  let bob: TestUser;
  let adaProfile: string;
  let adaReadonly: string;
  let bobProfile: string;
  let dashboard: { clientId: string; clientSecret: string };
  let reports: { clientId: string; clientSecret: string };

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    adaProfile = await server.token(ada, ['profile']);
    adaReadonly = await server.token(ada, ['profile.readonly']);
    bobProfile = await server.token(bob, ['profile']);
    const register = async (name: string) => {
      const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: [REDIRECT], public: false });
      if (!result.ok || result.value.clientSecret === null) throw new Error('setup');
      return { clientId: result.value.clientId, clientSecret: result.value.clientSecret };
    };
    dashboard = await register('Analytics dashboard');
    reports = await register('Weekly reports');
  });
  after(async () => {
    await server?.stop();
  });

  async function tokensFor(user: TestUser, client: { clientId: string; clientSecret: string }, scope: string): Promise<Tokens> {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope, access_type: 'offline', code_challenge: challenge, code_challenge_method: 'S256' });
    const back = await server.browser().authorize(`/o/oauth2/auth?${query.toString()}`, user);
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`no code: ${back.href}`);
    const response = await server.fetch('/o/oauth2/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: client.clientId, client_secret: client.clientSecret }),
    });
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as Tokens;
  }

  const listed = async (token: string): Promise<ConnectedApp[]> => {
    const response = await server.request('GET', '/user/grants', { token });
    expect(response.status, await response.clone().text()).to.equal(200);
    const body = (await response.json()) as { items: ConnectedApp[]; nextCursor: string | null };
    expect(body.nextCursor).to.equal(null);
    return body.items;
  };
  const tokeninfo = (accessToken: string) => server.fetch(`/oauth2/v2/tokeninfo?access_token=${encodeURIComponent(accessToken)}`);
  const refresh = (client: { clientId: string; clientSecret: string }, refreshToken: string) =>
    server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret }) });

  it('lists each application the user allowed, with its scopes, when it was allowed and when it last got tokens', async () => {
    expect(await listed(adaReadonly)).to.deep.equal([]);
    const before = clock.now();
    await tokensFor(ada, dashboard, 'openid email');
    clock.advance(60_000);
    await tokensFor(ada, reports, 'profile');
    const apps = await listed(adaReadonly);
    expect(apps.map((a) => [a.clientId, a.clientName, a.scopes])).to.deep.equal([
      [dashboard.clientId, 'Analytics dashboard', ['openid', 'email']],
      [reports.clientId, 'Weekly reports', ['profile']],
    ]);
    expect(Date.parse(apps[0]!.creationDate)).to.be.at.least(before.getTime() - 1000);
    expect(apps[0]!.lastUseDate).to.be.a('string');
    expect(Date.parse(apps[1]!.lastUseDate!) - Date.parse(apps[0]!.lastUseDate!)).to.be.at.least(60_000);
    expect(await listed(bobProfile), "another user's list").to.deep.equal([]);
  });

  it('moves lastUseDate on a refresh', async () => {
    const tokens = await tokensFor(ada, dashboard, 'openid email');
    const first = (await listed(adaReadonly)).find((a) => a.clientId === dashboard.clientId)!.lastUseDate!;
    clock.advance(3_600_000);
    expect((await refresh(dashboard, tokens.refresh_token!)).status).to.equal(200);
    const after = (await listed(adaReadonly)).find((a) => a.clientId === dashboard.clientId)!.lastUseDate!;
    expect(Date.parse(after) - Date.parse(first)).to.be.at.least(3_600_000);
  });

  it("withdrawing one revokes that client's access and refresh tokens for the user at once, and no other's", async () => {
    const adaDashboard = await tokensFor(ada, dashboard, 'openid email');
    const adaReports = await tokensFor(ada, reports, 'profile');
    const bobDashboard = await tokensFor(bob, dashboard, 'openid email');
    expect((await tokeninfo(adaDashboard.access_token)).status).to.equal(200);

    const withdrawn = await server.request('DELETE', `/user/grants/${encodeURIComponent(dashboard.clientId)}`, { token: adaProfile });
    expect(withdrawn.status, await withdrawn.clone().text()).to.equal(204);

    expect((await tokeninfo(adaDashboard.access_token)).status, 'access token').to.equal(400);
    const refused = await refresh(dashboard, adaDashboard.refresh_token!);
    expect(refused.status).to.equal(400);
    expect(((await refused.json()) as { error: string }).error).to.equal('invalid_grant');
    expect((await tokeninfo(adaReports.access_token)).status, "another client's token").to.equal(200);
    expect((await tokeninfo(bobDashboard.access_token)).status, "another user's token of that client").to.equal(200);
    expect((await listed(adaReadonly)).map((a) => a.clientId)).to.deep.equal([reports.clientId]);

    // Allowed again, it asks for consent again: the browser sees the consent page, not a redirect.
    const again = await server.browser().authorize(`/o/oauth2/auth?${new URLSearchParams({ response_type: 'code', client_id: dashboard.clientId, redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString()}`, ada, 'deny');
    expect(again.searchParams.get('error')).to.equal('access_denied');
  });

  it('is 404 for a client the user never allowed, an unknown one, or one withdrawn already', async () => {
    for (const clientId of [reports.clientId, 'nobody.apps.specbase', 'bad%00id', 'x'.repeat(3000)]) {
      const response = await server.request('DELETE', `/user/grants/${clientId === reports.clientId ? encodeURIComponent(clientId) : clientId}`, { token: bobProfile });
      expect(response.status, clientId.slice(0, 40)).to.equal(404);
      expect(await problem(response)).to.include({ code: 'not_found' });
    }
    const again = await server.request('DELETE', `/user/grants/${encodeURIComponent(dashboard.clientId)}`, { token: adaProfile });
    expect(again.status, 'withdrawn already').to.equal(404);
  });

  it('needs profile.readonly to list and profile to withdraw', async () => {
    const apiOnly = await server.token(ada, ['api']);
    expect((await server.request('GET', '/user/grants', { token: apiOnly })).status).to.equal(403);
    const response = await server.request('DELETE', `/user/grants/${encodeURIComponent(reports.clientId)}`, { token: adaReadonly });
    expect(response.status).to.equal(403);
    expect(await problem(response)).to.include({ code: 'insufficient_scope' });
    expect((await listed(adaReadonly)).map((a) => a.clientId)).to.include(reports.clientId);
  });
});
