import { expect } from 'chai';
import * as oidc from 'openid-client';
import { IssueInitialAccessToken } from '../../src/application/identity/client-registration.use-cases.js';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { FormBrowser, hiddenFields } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

interface ClientInformation {
  client_id: string;
  client_secret?: string;
  registration_access_token?: string;
  registration_client_uri: string;
  redirect_uris: string[];
  grant_types: string[];
  [key: string]: unknown;
}

/**
 * Dynamic client registration (RFC 7591) driven by openid-client, management (RFC 7592, which
 * openid-client does not implement) by plain requests, and the attack list: no initial token, a
 * used or expired one, hostile redirect URIs, another client's registration token, a deleted
 * client's credentials and tokens.
 */
forEachDatabase('identity service: dynamic client registration', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, { CLIENT_REGISTRATION: 'token' }, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
  });
  after(async () => {
    await server?.stop();
  });

  const initialToken = async () => (await server.running.container.get(IssueInitialAccessToken).execute()).token;
  const register = (body: unknown, token?: string, contentType = 'application/json') =>
    server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': contentType, ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const manage = (info: ClientInformation, method: 'GET' | 'PUT' | 'DELETE', token = info.registration_access_token!, body?: unknown) =>
    server.fetch(new URL(info.registration_client_uri).pathname, { method, headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const registered = async (metadata: Record<string, unknown> = {}): Promise<ClientInformation> => {
    const response = await register({ redirect_uris: [REDIRECT], client_name: 'Registered app', ...metadata }, await initialToken());
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as ClientInformation;
  };
  async function codeFlow(config: oidc.Configuration): Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers> {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    return oidc.authorizationCodeGrant(config, await new FormBrowser(server.url).authorize(url.href, ada), { pkceCodeVerifier: verifier });
  }

  it('openid-client registers with an initial access token and then signs a user in as that client', async () => {
    const metadata = (await oidc.discovery(new URL(server.url), 'x', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata();
    expect(metadata.registration_endpoint).to.equal(`${server.url}/o/oauth2/register`);
    const config = await oidc.dynamicClientRegistration(
      new URL(server.url),
      { redirect_uris: [REDIRECT], client_name: 'Registered by openid-client', grant_types: ['authorization_code', 'refresh_token'], post_logout_redirect_uris: ['http://127.0.0.1:9/bye'] },
      undefined,
      { initialAccessToken: await initialToken(), execute: [oidc.allowInsecureRequests] },
    );
    const client = config.clientMetadata();
    expect(client.client_id).to.match(/\.apps\.specbase$/);
    expect(client.client_secret).to.match(/^sbcs_/);
    expect(client).to.include({ client_secret_expires_at: 0, token_endpoint_auth_method: 'client_secret_basic', client_name: 'Registered by openid-client' });
    expect(client['registration_access_token']).to.match(/^sbrat_/);
    const tokens = await codeFlow(config);
    expect(tokens.claims()).to.include({ aud: client.client_id, sub: String(ada.userId) });
  });

  it('registers a public client (token_endpoint_auth_method none) without a secret', async () => {
    const info = await registered({ token_endpoint_auth_method: 'none' });
    expect(info.client_secret).to.equal(undefined);
    const config = new oidc.Configuration((await oidc.discovery(new URL(server.url), 'x', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata(), info.client_id, undefined, oidc.None());
    oidc.allowInsecureRequests(config);
    expect((await codeFlow(config)).access_token).to.be.a('string');
  });

  describe('refuses a registration', () => {
    it('without an initial access token, with a wrong one, a used one or an expired one: 401 invalid_token', async () => {
      const body = { redirect_uris: [REDIRECT] };
      const used = await initialToken();
      expect((await register(body, used)).status).to.equal(201);
      const expiring = await initialToken();
      for (const [label, token] of [['none', undefined], ['wrong', 'sbit_wrong'], ['used', used]] as const) {
        const response = await register(body, token);
        expect(response.status, label).to.equal(401);
        expect(response.headers.get('www-authenticate'), label).to.equal('Bearer error="invalid_token"');
        expect(((await response.json()) as { error: string }).error, label).to.equal('invalid_token');
      }
      clock.advance(24 * 3_600_000 + 1000);
      try {
        expect((await register(body, expiring)).status, 'expired after 24 hours').to.equal(401);
      } finally {
        clock.advance(-(24 * 3_600_000 + 1000));
      }
    });

    const hostile: [string, Record<string, unknown>, string][] = [
      ['no redirect_uris', {}, 'invalid_redirect_uri'],
      ['an empty list', { redirect_uris: [] }, 'invalid_redirect_uri'],
      ['http to another host', { redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      ['javascript:', { redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      ['data:', { redirect_uris: ['data:text/html,<script>alert(1)</script>'] }, 'invalid_redirect_uri'],
      ['a fragment', { redirect_uris: ['https://app.example.com/cb#x'] }, 'invalid_redirect_uri'],
      ['a relative URI', { redirect_uris: ['/cb'] }, 'invalid_redirect_uri'],
      ['a private-use scheme (a local protocol handler)', { redirect_uris: ['ms-officecmd:open'] }, 'invalid_redirect_uri'],
      ['an intent: URI', { redirect_uris: ['intent://cb#Intent;scheme=x;end'] }, 'invalid_redirect_uri'],
      ['a post-logout URI with a private-use scheme', { redirect_uris: [REDIRECT], post_logout_redirect_uris: ['ms-officecmd:open'] }, 'invalid_client_metadata'],
      ['not strings', { redirect_uris: [42] }, 'invalid_redirect_uri'],
      ['a hostile post-logout URI', { redirect_uris: [REDIRECT], post_logout_redirect_uris: ['javascript:alert(1)'] }, 'invalid_client_metadata'],
      ['an unknown auth method', { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      ['an unknown grant type', { redirect_uris: [REDIRECT], grant_types: ['password'] }, 'invalid_client_metadata'],
      ['code without its grant', { redirect_uris: [REDIRECT], grant_types: ['refresh_token'], response_types: ['code'] }, 'invalid_client_metadata'],
      ['an unknown scope', { redirect_uris: [REDIRECT], scope: 'openid admin' }, 'invalid_client_metadata'],
      ['a name that is not a string', { redirect_uris: [REDIRECT], client_name: { en: 'x' } }, 'invalid_client_metadata'],
      ['an empty name', { redirect_uris: [REDIRECT], client_name: '' }, 'invalid_client_metadata'],
    ];
    for (const [label, body, error] of hostile) {
      it(`${label}: 400 ${error}, and the initial access token is not spent`, async () => {
        const token = await initialToken();
        const response = await register(body, token);
        expect(response.status).to.equal(400);
        expect(((await response.json()) as { error: string }).error).to.equal(error);
        expect((await register({ redirect_uris: [REDIRECT] }, token)).status, 'the token still works').to.equal(201);
      });
    }

    it('that is not JSON, or a JSON array', async () => {
      const token = await initialToken();
      expect((await register({ redirect_uris: [REDIRECT] }, token, 'application/x-www-form-urlencoded')).status).to.equal(400);
      const array = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: '[]' });
      expect(array.status).to.equal(400);
      const broken = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: '{"redirect_uris":' });
      expect(broken.status).to.equal(400);
      expect((await register({ redirect_uris: [REDIRECT] }, token)).status, 'the token still works').to.equal(201);
    });
  });

  it('honours the registered metadata: only its grant types, response types and scopes', async () => {
    const info = await registered({ grant_types: ['authorization_code'], scope: 'openid' });
    const device = await server.fetch('/o/oauth2/device/code', { method: 'POST', body: new URLSearchParams({ scope: 'openid', client_id: info.client_id, client_secret: info.client_secret! }) });
    expect(((await device.json()) as { error: string }).error).to.equal('unauthorized_client');
    const browser = new FormBrowser(server.url);
    const query = (extra: Record<string, string>) =>
      `/o/oauth2/auth?${new URLSearchParams({ client_id: info.client_id, redirect_uri: REDIRECT, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', ...extra }).toString()}`;
    const wider = await browser.get(query({ response_type: 'code', scope: 'openid email' }));
    expect(new URL(wider.headers.get('location')!).searchParams.get('error')).to.equal('invalid_scope');
    const implicit = await browser.get(`/o/oauth2/auth?${new URLSearchParams({ client_id: info.client_id, redirect_uri: REDIRECT, response_type: 'token', scope: 'openid' }).toString()}`);
    expect(new URLSearchParams(new URL(implicit.headers.get('location')!).hash.slice(1)).get('error')).to.equal('unauthorized_client');
  });

  it('lets a client read, change and delete itself with its registration access token, and nothing else', async () => {
    const info = await registered({ post_logout_redirect_uris: ['http://127.0.0.1:9/bye'] });
    const other = await registered();

    const read = await manage(info, 'GET');
    expect(read.status).to.equal(200);
    const body = (await read.json()) as ClientInformation;
    expect(body).to.include({ client_id: info.client_id, client_name: 'Registered app', registration_client_uri: info.registration_client_uri });
    expect(body.client_secret, 'never shown again').to.equal(undefined);
    expect(body.registration_access_token).to.equal(undefined);
    expect((await manage(info, 'GET', other.registration_access_token)).status, "another client's token").to.equal(401);
    expect((await manage(info, 'GET', 'sbrat_wrong')).status).to.equal(401);
    expect((await server.fetch(new URL(info.registration_client_uri).pathname)).status, 'no token').to.equal(401);

    const changed = await manage(info, 'PUT', undefined, { client_id: info.client_id, redirect_uris: ['https://new.example.com/cb'], client_name: 'Renamed' });
    expect(changed.status, await changed.clone().text()).to.equal(200);
    expect(await changed.json()).to.deep.include({ client_name: 'Renamed', redirect_uris: ['https://new.example.com/cb'], post_logout_redirect_uris: [] });
    const misnamed = await manage(info, 'PUT', undefined, { client_id: other.client_id, redirect_uris: [REDIRECT] });
    expect(misnamed.status).to.equal(400);
    const hostile = await manage(info, 'PUT', undefined, { client_id: info.client_id, redirect_uris: ['javascript:alert(1)'] });
    expect(((await hostile.json()) as { error: string }).error).to.equal('invalid_redirect_uri');
    const publicNow = await manage(info, 'PUT', undefined, { client_id: info.client_id, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    expect(publicNow.status, 'a confidential client stays confidential').to.equal(400);
  });

  it('sends the browser back after sign-out to a self-registered client only when it names itself by id_token_hint', async () => {
    const info = await registered({ post_logout_redirect_uris: ['http://127.0.0.1:9/bye'] });
    const byId = await server.fetch(`/o/oauth2/logout?${new URLSearchParams({ client_id: info.client_id, post_logout_redirect_uri: 'http://127.0.0.1:9/bye' }).toString()}`);
    expect(byId.status, 'client_id alone: anyone could have registered it').to.equal(200);
    expect(byId.headers.get('location')).to.equal(null);
    const config = new oidc.Configuration((await oidc.discovery(new URL(server.url), 'x', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata(), info.client_id, info.client_secret);
    oidc.allowInsecureRequests(config);
    const tokens = await codeFlow(config);
    const hinted = await server.fetch(new URL(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:9/bye' })).pathname + new URL(oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:9/bye' })).search);
    expect(hinted.status).to.equal(303);
    expect(hinted.headers.get('location')).to.equal('http://127.0.0.1:9/bye');
  });

  it("a client deleting itself loses its tokens and its credentials at once", async () => {
    const info = await registered({ grant_types: ['authorization_code', 'refresh_token'] });
    const config = new oidc.Configuration((await oidc.discovery(new URL(server.url), 'x', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] })).serverMetadata(), info.client_id, info.client_secret);
    oidc.allowInsecureRequests(config);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', access_type: 'offline', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const tokens = await oidc.authorizationCodeGrant(config, await new FormBrowser(server.url).authorize(url.href, ada), { pkceCodeVerifier: verifier });
    expect((await server.fetch(`/oauth2/v2/tokeninfo?access_token=${tokens.access_token}`)).status).to.equal(200);

    expect((await manage(info, 'DELETE')).status).to.equal(204);
    expect((await server.fetch(`/oauth2/v2/tokeninfo?access_token=${tokens.access_token}`)).status, 'its access token').to.equal(400);
    const refresh = await server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: info.client_id, client_secret: info.client_secret! }) });
    expect(refresh.status, 'its credentials').to.equal(401);
    expect((await manage(info, 'GET')).status, 'its registration').to.equal(401);
    expect((await manage(info, 'DELETE')).status).to.equal(401);
  });
});

forEachDatabase('identity service: client registration off, and open', (target) => {
  it('is 404 and not advertised by default', async () => {
    const server = await startTestServerOn(target);
    try {
      const response = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
      expect(response.status).to.equal(404);
      expect((await server.fetch('/o/oauth2/register/x.apps.specbase')).status).to.equal(404);
      const discovery = (await (await server.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
      expect(discovery).to.not.have.property('registration_endpoint');
    } finally {
      await server.stop();
    }
  });

  it('takes a registration without a token when open', async () => {
    const server = await startTestServerOn(target, { CLIENT_REGISTRATION: 'open' });
    try {
      const response = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
      expect(response.status).to.equal(201);
      expect(((await response.json()) as ClientInformation).client_secret).to.match(/^sbcs_/);
    } finally {
      await server.stop();
    }
  });

  it("shows an openly registered client's errors on a page until the user has answered (RFC 9700 4.11.2), then sends them back", async () => {
    const server = await startTestServerOn(target, { CLIENT_REGISTRATION: 'open' });
    try {
      const ada = await server.user('ada@example.com', 'ada');
      const evil = 'https://evil.example/cb';
      const response = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [evil], client_name: 'Anyone' }) });
      const info = (await response.json()) as ClientInformation;
      const challenge = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      const auth = (params: Record<string, string>) => `/o/oauth2/auth?${new URLSearchParams({ client_id: info.client_id, redirect_uri: evil, response_type: 'code', scope: 'openid', state: 'st', ...challenge, ...params }).toString()}`;

      const browser = server.browser();
      const cases: [Record<string, string>, string, string][] = [
        [{ scope: 'nonexistent' }, 'invalid_scope', 'Unknown scope: nonexistent'],
        [{ scope: 'openid <b>x</b>' }, 'invalid_scope', 'Unknown scope: &#60;b&#62;x&#60;/b&#62;'],
        [{ response_type: 'id_token' }, 'unsupported_response_type', 'response_type must be code or token.'],
        [{ response_type: 'token' }, 'unauthorized_client', 'This application did not register the response type token.'],
        [{ code_challenge_method: 'plain' }, 'invalid_request', 'code_challenge_method must be S256'],
        [{ prompt: 'none' }, 'login_required', 'The user is not signed in.'],
      ];
      for (const [params, error, description] of cases) {
        const page = await browser.get(auth(params));
        const label = JSON.stringify(params);
        expect(page.status, label).to.equal(400);
        expect(page.headers.get('location'), label).to.equal(null);
        expect(page.headers.get('content-type'), label).to.equal('text/html; charset=utf-8');
        expect(browser.lastPage, label).to.include(`<code>${error}</code>`).and.include(description).and.not.include('evil.example');
      }

      // Signed in, but this client never allowed: prompt=none's consent_required is not the user's answer either.
      await browser.get(auth({}));
      await browser.post('/o/oauth2/auth', { ...hiddenFields(browser.lastPage), email: ada.email, password: ada.password });
      expect(hiddenFields(browser.lastPage)['step'], 'signed in: the consent page').to.equal('consent');
      const silent = await browser.get(auth({ prompt: 'none' }));
      expect(silent.status).to.equal(400);
      expect(browser.lastPage).to.include('<code>consent_required</code>');

      // The user in the loop: their answer goes back to the URI they were shown the client for.
      const denied = await browser.authorize(auth({}), ada, 'deny');
      expect(denied.origin + denied.pathname).to.equal(evil);
      expect(Object.fromEntries(denied.searchParams)).to.deep.include({ error: 'access_denied', state: 'st' });
      const allowed = await browser.authorize(auth({}), ada, 'allow');
      expect(allowed.searchParams.get('code')).to.match(/^sbc_/);
      const again = await browser.get(auth({ prompt: 'none' }));
      expect(again.status, 'allowed before: prompt=none answers with a code').to.equal(303);
      expect(new URL(again.headers.get('location')!).searchParams.get('code')).to.match(/^sbc_/);
    } finally {
      await server.stop();
    }
  });

  it("sends an error back, before the user is asked, to the redirect URI of a client registered with an initial access token or by the operator", async () => {
    const server = await startTestServerOn(target, { CLIENT_REGISTRATION: 'token' });
    try {
      const operators = await server.running.container.get(RegisterOAuthClient).execute({ name: 'Operator app', redirectUris: [REDIRECT], public: false });
      if (!operators.ok) throw new Error('setup');
      const token = (await server.running.container.get(IssueInitialAccessToken).execute()).token;
      const response = await server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
      const registered = (await response.json()) as ClientInformation;
      for (const clientId of [operators.value.clientId, registered.client_id]) {
        for (const [params, error] of [[{ scope: 'nonexistent' }, 'invalid_scope'], [{ scope: 'openid', prompt: 'none' }, 'login_required']] as const) {
          const answer = await server.browser().get(`/o/oauth2/auth?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, response_type: 'code', state: 'st', ...params }).toString()}`);
          expect(answer.status, clientId).to.equal(303);
          const location = new URL(answer.headers.get('location')!);
          expect(location.origin + location.pathname).to.equal(REDIRECT);
          expect(Object.fromEntries(location.searchParams)).to.deep.include({ error, state: 'st' });
        }
      }
    } finally {
      await server.stop();
    }
  });
});

forEachDatabase('identity service: registration and device authorization are rate limited', (target) => {
  it('answers 429 slow_down past RATE_LIMIT_TOKEN_ENDPOINT a minute from one address (and client)', async () => {
    const server = await startTestServerOn(target, { CLIENT_REGISTRATION: 'open', RATE_LIMIT_TOKEN_ENDPOINT: '2' });
    try {
      const register = () => server.fetch('/o/oauth2/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], response_types: [] }) });
      const first = (await (await register()).json()) as ClientInformation;
      expect((await register()).status).to.equal(201);
      const third = await register();
      expect(third.status).to.equal(429);
      expect(((await third.json()) as { error: string }).error).to.equal('slow_down');
      expect(Number(third.headers.get('retry-after'))).to.be.within(1, 60);

      const device = () => server.fetch('/o/oauth2/device/code', { method: 'POST', body: new URLSearchParams({ client_id: first.client_id, scope: 'openid' }) });
      expect((await device()).status).to.equal(200);
      expect((await device()).status).to.equal(200);
      const limited = await device();
      expect(limited.status).to.equal(429);
      expect(((await limited.json()) as { error: string }).error).to.equal('slow_down');
    } finally {
      await server.stop();
    }
  });
});
