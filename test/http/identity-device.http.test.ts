import { expect } from 'chai';
import * as oidc from 'openid-client';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { hiddenFields, type FormBrowser } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface Registered {
  readonly clientId: string;
  readonly clientSecret: string | null;
}

interface DeviceCodes {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/**
 * The device authorization grant (RFC 8628): openid-client drives it as a CLI would, the `/device`
 * page is used as a person would (form by form), and the attack list is refused: another client's
 * device code, user codes reused or guessed (rate limited), no CSRF token, not signed in.
 */
forEachDatabase('identity service: device flow', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;
  let bob: TestUser;
  let cli: Registered;
  let tv: Registered;

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    const register = async (name: string, isPublic: boolean): Promise<Registered> => {
      const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: ['http://127.0.0.1:9/callback'], public: isPublic });
      if (!result.ok) throw new Error('setup');
      return result.value;
    };
    cli = await register('Specbase CLI', true);
    tv = await register('Living-room TV', false);
  });
  after(async () => {
    await server?.stop();
  });

  const start = async (client: Registered, scope = 'openid email'): Promise<DeviceCodes> => {
    const response = await server.fetch('/o/oauth2/device/code', { method: 'POST', body: new URLSearchParams({ scope, client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) }) });
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as DeviceCodes;
  };
  const poll = async (client: Registered, deviceCode: string): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** A browser signed in as `user` on the sign-in page. */
  const signedIn = async (user: TestUser): Promise<FormBrowser> => {
    const browser = server.browser();
    await browser.get('/login?continue=%2Fdevice');
    const response = await browser.post('/login', { ...hiddenFields(browser.lastPage), email: user.email, password: user.password });
    expect(response.status).to.equal(303);
    return browser;
  };
  /** Enters `code` on `/device` and answers the consent page; returns the final page. */
  const decide = async (browser: FormBrowser, code: string, decision: 'allow' | 'deny'): Promise<string> => {
    await browser.get('/device');
    await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: code });
    expect(hiddenFields(browser.lastPage)['step'], browser.lastPage).to.equal('consent');
    await browser.post('/device', { ...hiddenFields(browser.lastPage), decision });
    return browser.lastPage;
  };

  it('is advertised, with the device code grant', async () => {
    const metadata = (await oidc.discovery(new URL(server.url), cli.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata();
    expect(metadata.device_authorization_endpoint).to.equal(`${server.url}/o/oauth2/device/code`);
    expect(metadata.grant_types_supported).to.include(DEVICE_GRANT);
  });

  it('openid-client: a public CLI client gets its tokens once the user allows it on /device', async function () {
    this.timeout(30_000);
    const config = await oidc.discovery(new URL(server.url), cli.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid email' });
    expect(started.user_code).to.match(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started).to.include({ verification_uri: `${server.url}/device`, expires_in: 600, interval: 5 });
    expect(started.verification_uri_complete).to.equal(`${server.url}/device?user_code=${started.user_code}`);

    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    // The person follows verification_uri_complete: not signed in, they sign in and come back with the code filled in.
    const browser = server.browser();
    const first = await browser.get(new URL(started.verification_uri_complete!).pathname + new URL(started.verification_uri_complete!).search);
    expect(first.status).to.equal(303);
    const login = first.headers.get('location')!;
    expect(login).to.equal(`/login?${new URLSearchParams({ continue: `/device?user_code=${started.user_code}` }).toString()}`);
    await browser.get(login);
    const back = await browser.post('/login', { ...hiddenFields(browser.lastPage), email: ada.email, password: ada.password });
    await browser.get(back.headers.get('location')!);
    expect(browser.lastPage).to.include(`value="${started.user_code}"`);
    await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: started.user_code.toLowerCase().replace('-', ' ') });
    expect(browser.lastPage).to.include('Specbase CLI');
    await browser.post('/device', { ...hiddenFields(browser.lastPage), decision: 'allow' });
    expect(browser.lastPage).to.include('You can return to your device');

    const tokens = await polling;
    expect(tokens.token_type).to.equal('bearer');
    expect(tokens.refresh_token).to.match(/^sbr_/);
    expect(tokens.claims()).to.include({ iss: server.url, aud: cli.clientId, sub: String(ada.userId), email: 'ada@example.com' });
    const info = await server.fetch(`/oauth2/v2/tokeninfo?access_token=${tokens.access_token}`);
    expect(((await info.json()) as Record<string, unknown>)['user_id']).to.equal(String(ada.userId));
  });

  it('answers a poll authorization_pending, then slow_down when polled too fast (the interval grows by 5 s), access_denied once denied', async () => {
    const codes = await start(tv);
    expect(await poll(tv, codes.device_code)).to.deep.include({ status: 400, body: { error: 'authorization_pending', error_description: 'The user has not decided yet.' } });
    const fast = await poll(tv, codes.device_code);
    expect(fast.status).to.equal(400);
    expect(fast.body['error']).to.equal('slow_down');
    clock.advance(6_000);
    expect((await poll(tv, codes.device_code)).body['error'], 'the interval is 10 s now (and 15 s after this)').to.equal('slow_down');
    clock.advance(16_000);
    expect((await poll(tv, codes.device_code)).body['error']).to.equal('authorization_pending');
    await decide(await signedIn(ada), codes.user_code, 'deny');
    clock.advance(16_000);
    expect((await poll(tv, codes.device_code)).body['error']).to.equal('access_denied');
  });

  it('issues the tokens once; the device code polled again, or by another client, is invalid_grant', async () => {
    const codes = await start(tv);
    expect((await poll(cli, codes.device_code)).body['error'], 'another client').to.equal('invalid_grant');
    await decide(await signedIn(ada), codes.user_code, 'allow');
    expect((await poll(cli, codes.device_code)).body['error'], 'another client, after approval').to.equal('invalid_grant');
    const issued = await poll(tv, codes.device_code);
    expect(issued.status).to.equal(200);
    expect(issued.body).to.include.keys('access_token', 'refresh_token', 'id_token');
    expect((await poll(tv, codes.device_code)).body['error'], 'used').to.equal('invalid_grant');
    expect((await poll(tv, 'sbd_unknown')).body['error']).to.equal('invalid_grant');
  });

  it('expires after 10 minutes: expired_token, and the user code is no longer valid', async () => {
    const codes = await start(tv);
    clock.advance(600_000);
    try {
      expect((await poll(tv, codes.device_code)).body['error']).to.equal('expired_token');
      const browser = await signedIn(ada);
      await browser.get('/device');
      await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: codes.user_code });
      expect(browser.lastPage).to.include('This code is not valid');
    } finally {
      clock.advance(-600_000);
    }
  });

  it('a user code works once: a second person cannot use it after the first allowed it', async () => {
    const codes = await start(tv);
    await decide(await signedIn(ada), codes.user_code, 'allow');
    const browser = await signedIn(bob);
    await browser.get('/device');
    await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: codes.user_code });
    expect(browser.lastPage).to.include('This code is not valid');
    const issued = await poll(tv, codes.device_code);
    const info = await server.fetch(`/oauth2/v2/tokeninfo?access_token=${String(issued.body['access_token'])}`);
    expect(((await info.json()) as Record<string, unknown>)['user_id'], 'the first user’s').to.equal(String(ada.userId));
  });

  it('limits guessing: after 10 codes in 10 minutes the page answers 429, even for a right code', async () => {
    // Fresh windows: the tests before typed codes from the same address, one of them 10 minutes ahead.
    clock.advance(1_800_000);
    const codes = await start(tv);
    const browser = await signedIn(bob);
    await browser.get('/device');
    for (let i = 0; i < 10; i++) {
      const response = await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: `BCDF-GH${'JKLMNPQRST'[i]}K` });
      expect(response.status, `guess ${i}`).to.equal(200);
      expect(browser.lastPage).to.include('This code is not valid');
    }
    const limited = await browser.post('/device', { ...hiddenFields(browser.lastPage), user_code: codes.user_code });
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 600);
    clock.advance(600_000);
    try {
      const expired = await poll(tv, codes.device_code);
      expect(expired.body['error']).to.equal('expired_token');
    } finally {
      clock.advance(-600_000);
    }
  });

  it('counts the decision form too: guessed codes sent straight to the consent step are limited alike', async () => {
    clock.advance(1_800_000);
    const codes = await start(tv);
    const browser = await signedIn(bob);
    await browser.get('/device');
    const csrf = hiddenFields(browser.lastPage)['csrf']!;
    for (let i = 0; i < 10; i++) {
      const response = await browser.post('/device', { csrf, step: 'consent', decision: 'allow', user_code: `BCDF-GH${'JKLMNPQRST'[i]}K` });
      expect(response.status, `guess ${i}`).to.equal(200);
      expect(browser.lastPage).to.include('This code is not valid');
    }
    const limited = await browser.post('/device', { csrf, step: 'consent', decision: 'allow', user_code: codes.user_code });
    expect(limited.status).to.equal(429);
    expect((await poll(tv, codes.device_code)).body['error'], 'not approved').to.equal('authorization_pending');
  });

  it('sends someone not signed in to sign in first, and refuses a form without its CSRF value', async () => {
    const anonymous = await server.fetch('/device', { redirect: 'manual' });
    expect(anonymous.status).to.equal(303);
    expect(anonymous.headers.get('location')).to.equal('/login?continue=%2Fdevice');
    const codes = await start(tv);
    const browser = await signedIn(ada);
    await browser.get('/device');
    const forged = await browser.post('/device', { step: 'code', user_code: codes.user_code, csrf: 'x'.repeat(43) });
    expect(forged.status).to.equal(403);
    expect((await poll(tv, codes.device_code)).body['error'], 'still pending').to.equal('authorization_pending');
  });

  it('refuses an unknown scope and a confidential client without its secret', async () => {
    const scope = await server.fetch('/o/oauth2/device/code', { method: 'POST', body: new URLSearchParams({ scope: 'openid admin', client_id: cli.clientId }) });
    expect(scope.status).to.equal(400);
    expect(((await scope.json()) as { error: string }).error).to.equal('invalid_scope');
    const noSecret = await server.fetch('/o/oauth2/device/code', { method: 'POST', body: new URLSearchParams({ scope: 'openid', client_id: tv.clientId }) });
    expect(noSecret.status).to.equal(401);
  });
});
