import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { OAuth2Client } from 'google-auth-library';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { hiddenFields } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

interface Registered {
  readonly clientId: string;
  readonly clientSecret: string | null;
}

interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

forEachDatabase('identity service: flows and refusals over HTTP', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;
  let confidential: Registered;
  let other: Registered;
  let publicClient: Registered;

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    const register = async (name: string, isPublic: boolean) => {
      const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: [REDIRECT], public: isPublic });
      if (!result.ok) throw new Error('setup');
      return result.value;
    };
    confidential = await register('Dashboard', false);
    other = await register('Another app', false);
    publicClient = await register('Mobile app', true);
  });
  after(async () => {
    await server?.stop();
  });

  function authUrl(client: Registered, extra: Record<string, string> = {}): string {
    return `/o/oauth2/auth?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'openid email profile', state: 'st-1', ...extra }).toString()}`;
  }

  async function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return server.fetch('/o/oauth2/token', { method: 'POST', headers, body: new URLSearchParams(fields) });
  }

  function credentials(client: Registered): Record<string, string> {
    return client.clientSecret === null ? { client_id: client.clientId } : { client_id: client.clientId, client_secret: client.clientSecret };
  }

  /** A code for `client` through the login and consent pages, with PKCE. */
  async function code(client: Registered, extra: Record<string, string> = {}, browser = server.browser()): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const back = await browser.authorize(authUrl(client, { code_challenge: challenge, code_challenge_method: 'S256', ...extra }), ada);
    const issued = back.searchParams.get('code');
    if (!issued) throw new Error(`no code: ${back.href}`);
    return { code: issued, verifier };
  }

  async function tokensFor(client: Registered, extra: Record<string, string> = {}): Promise<Tokens> {
    const issued = await code(client, extra);
    const response = await tokenRequest({ grant_type: 'authorization_code', code: issued.code, redirect_uri: REDIRECT, code_verifier: issued.verifier, ...credentials(client) });
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as Tokens;
  }

  async function userinfo(accessToken: string): Promise<Response> {
    return server.fetch('/oauth2/v2/userinfo', { headers: { Authorization: `Bearer ${accessToken}` } });
  }

  async function expectOAuthError(response: Response, status: number, error: string): Promise<void> {
    expect(response.status).to.equal(status);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expect(((await response.json()) as { error: string }).error).to.equal(error);
  }

  describe('the authorization endpoint', () => {
    it('shows a page, and redirects nowhere, for a redirect URI that differs from the registered one in any character', async () => {
      const variants = new Set<string>();
      for (let i = 0; i < REDIRECT.length; i++) variants.add(REDIRECT.slice(0, i) + (REDIRECT[i] === 'x' ? 'y' : 'x') + REDIRECT.slice(i + 1));
      for (const v of [`${REDIRECT}/`, `${REDIRECT}?a=1`, `${REDIRECT}#f`, REDIRECT.toUpperCase(), REDIRECT.replace('127.0.0.1', 'localhost'), REDIRECT.slice(0, -1)]) variants.add(v);
      for (const redirect of variants) {
        const response = await server.browser().get(authUrl(confidential, { redirect_uri: redirect }));
        expect(response.status, redirect).to.equal(400);
        expect(response.headers.get('location'), redirect).to.equal(null);
        expect(await response.text()).to.include('not registered');
      }
      const unknown = await server.browser().get(authUrl({ clientId: 'nobody.apps.specbase', clientSecret: null }));
      expect(unknown.status).to.equal(400);
      expect(unknown.headers.get('location')).to.equal(null);
    });

    it('sends every other error back to the client with the state: unknown scope, unsupported response type, plain PKCE, a public client without PKCE', async () => {
      const cases: [Registered, Record<string, string>, string][] = [
        [confidential, { scope: 'openid admin' }, 'invalid_scope'],
        [confidential, { response_type: 'id_token' }, 'unsupported_response_type'],
        [confidential, { code_challenge: pkce().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
        [publicClient, {}, 'invalid_request'],
      ];
      for (const [client, extra, error] of cases) {
        const response = await server.browser().get(authUrl(client, extra));
        expect(response.status, JSON.stringify(extra)).to.equal(303);
        const location = new URL(response.headers.get('location')!);
        expect(location.origin + location.pathname).to.equal(REDIRECT);
        expect(location.searchParams.get('error')).to.equal(error);
        expect(location.searchParams.get('state')).to.equal('st-1');
      }
    });

    it('escapes what it echoes: a client name or state with markup is shown as text', async () => {
      const registered = await server.running.container.get(RegisterOAuthClient).execute({ name: '<script>alert(1)</script>', redirectUris: [REDIRECT], public: false });
      if (!registered.ok) throw new Error('setup');
      const browser = server.browser();
      const response = await browser.get(authUrl({ clientId: registered.value.clientId, clientSecret: null }, { state: '"><img src=x onerror=alert(1)>' }));
      const html = await response.text();
      expect(html).not.to.include('<script>alert(1)');
      expect(html).not.to.include('<img src=x');
      expect(html).to.include('&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(response.headers.get('content-security-policy')).to.include("default-src 'none'");
      expect(response.headers.get('x-frame-options')).to.equal('DENY');
    });

    it("writes only a valid origin of the redirect URI into the login page's CSP, whatever host was registered", async () => {
      /** The header's directives by name, each name once. */
      const directives = (csp: string | null): Map<string, string[]> => {
        const byName = new Map<string, string[]>();
        for (const directive of (csp ?? '').split(';').map((d) => d.trim().split(/\s+/))) {
          const [name = '', ...sources] = directive;
          expect(byName.has(name), `${name} once in ${csp}`).to.equal(false);
          byName.set(name, sources);
        }
        return byName;
      };
      const loginPageCsp = async (redirectUri: string): Promise<Map<string, string[]>> => {
        const registered = await server.running.container.get(RegisterOAuthClient).execute({ name: 'App', redirectUris: [redirectUri], public: false });
        if (!registered.ok) throw new Error(`setup: ${redirectUri}`);
        const response = await server.browser().get(authUrl({ clientId: registered.value.clientId, clientSecret: null }, { redirect_uri: redirectUri }));
        expect(response.status, redirectUri).to.equal(200);
        return directives(response.headers.get('content-security-policy'));
      };
      const expected = ['default-src', 'style-src', 'form-action', 'frame-ancestors', 'base-uri'];
      const plain = await loginPageCsp(REDIRECT);
      expect([...plain.keys()]).to.deep.equal(expected);
      expect(plain.get('form-action')).to.deep.equal(["'self'", new URL(REDIRECT).origin]);
      // Each is accepted as a redirect URI: the URL parser lets `;`, `,`, quotes and `*` into a host.
      for (const hostile of ['https://evil.example;script-src*/cb', "https://evil.example,'unsafe-inline'/cb", 'https://*.example/cb']) {
        const csp = await loginPageCsp(hostile);
        expect([...csp.keys()], hostile).to.deep.equal(expected);
        expect(csp.get('form-action'), hostile).to.deep.equal(["'self'"]);
      }
    });

    it('remembers the session and the consent: the second authorization asks nothing; prompt=consent asks again; prompt=none without a session is login_required', async () => {
      const browser = server.browser();
      await code(confidential, {}, browser);
      const again = await browser.get(authUrl(confidential, { ...(({ challenge }) => ({ code_challenge: challenge, code_challenge_method: 'S256' }))(pkce()) }));
      expect(again.status, 'no page: straight back to the client').to.equal(303);
      expect(new URL(again.headers.get('location')!).searchParams.get('code')).to.match(/^sbc_/);
      const asked = await browser.get(authUrl(confidential, { prompt: 'consent' }));
      expect(asked.status).to.equal(200);
      expect(hiddenFields(await asked.text())['step']).to.equal('consent');

      const stranger = await server.browser().get(authUrl(confidential, { prompt: 'none' }));
      expect(stranger.status).to.equal(303);
      expect(new URL(stranger.headers.get('location')!).searchParams.get('error')).to.equal('login_required');
    });

    it('answers access_denied with the state when the user denies', async () => {
      const back = await server.browser().authorize(authUrl(other, { prompt: 'consent' }), ada, 'deny');
      expect(back.searchParams.get('error')).to.equal('access_denied');
      expect(back.searchParams.get('state')).to.equal('st-1');
      expect(back.searchParams.get('code')).to.equal(null);
    });

    it('refuses a login form without its CSRF cookie, and a wrong password, on the page', async () => {
      const browser = server.browser();
      await browser.get(authUrl(confidential));
      const fields = hiddenFields(browser.lastPage);
      const forged = await server.fetch('/o/oauth2/auth', { method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...fields, email: ada.email, password: ada.password }) });
      expect(forged.status).to.equal(403);
      expect(forged.headers.getSetCookie().some((c) => c.startsWith('sb_session=')), 'no session from a forged form').to.equal(false);
      const wrong = await browser.post('/o/oauth2/auth', { ...fields, email: ada.email, password: 'not the password' });
      expect(wrong.status).to.equal(200);
      const page = await wrong.text();
      expect(page).to.include('role="alert"');
      expect(page, 'the e-mail stays filled in').to.include(`value="${ada.email}"`);
      expect(wrong.headers.getSetCookie().some((c) => c.startsWith('sb_session=')), 'no session for a wrong password').to.equal(false);
    });

    it('limits login attempts per e-mail: the 11th within 5 minutes is a 429 with Retry-After', async () => {
      const victim = await server.user('victim@example.com', 'victim');
      const browser = server.browser();
      await browser.get(authUrl(confidential));
      const fields = hiddenFields(browser.lastPage);
      for (let i = 0; i < 10; i++) expect(await (await browser.post('/o/oauth2/auth', { ...fields, email: victim.email, password: `guess ${i}` })).text()).to.include('The e-mail or password is wrong.');
      const limited = await browser.post('/o/oauth2/auth', { ...fields, email: victim.email, password: victim.password });
      expect(limited.status).to.equal(429);
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 300);
    });

    it('implicit flow: the token in the fragment with the state, no refresh token, and tokeninfo accepts it', async () => {
      const back = await server.browser().authorize(authUrl(confidential, { response_type: 'token', scope: 'email', access_type: 'offline', prompt: 'consent' }), ada);
      expect(back.search).to.equal('');
      const fragment = new URLSearchParams(back.hash.slice(1));
      expect(fragment.get('token_type')).to.equal('Bearer');
      expect(fragment.get('expires_in')).to.equal('3600');
      expect(fragment.get('scope')).to.equal('email');
      expect(fragment.get('state')).to.equal('st-1');
      expect(fragment.get('refresh_token')).to.equal(null);
      const info = await server.fetch(`/oauth2/v2/tokeninfo?access_token=${fragment.get('access_token')}`);
      expect(info.status).to.equal(200);
      expect(await info.json()).to.include({ audience: confidential.clientId, user_id: String(ada.userId), scope: 'email', email: 'ada@example.com', access_type: 'online' });
    });
  });

  describe('the token endpoint', () => {
    it('refuses a reused code and revokes what its first use issued', async () => {
      const issued = await code(confidential, { access_type: 'offline' });
      const request = { grant_type: 'authorization_code', code: issued.code, redirect_uri: REDIRECT, code_verifier: issued.verifier, ...credentials(confidential) };
      const first = (await (await tokenRequest(request)).json()) as Tokens;
      expect((await userinfo(first.access_token)).status).to.equal(200);
      await expectOAuthError(await tokenRequest(request), 400, 'invalid_grant');
      expect((await userinfo(first.access_token)).status, 'the first access token is revoked').to.equal(401);
      await expectOAuthError(await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, ...credentials(confidential) }), 400, 'invalid_grant');
    });

    it('refuses a wrong PKCE verifier, a missing one, another redirect URI, another client, an expired code', async () => {
      const issued = await code(confidential);
      const base = { grant_type: 'authorization_code', code: issued.code, redirect_uri: REDIRECT, code_verifier: issued.verifier, ...credentials(confidential) };
      await expectOAuthError(await tokenRequest({ ...base, code_verifier: pkce().verifier }), 400, 'invalid_grant');
      const withoutVerifier: Record<string, string> = { ...base };
      delete withoutVerifier['code_verifier'];
      await expectOAuthError(await tokenRequest(withoutVerifier), 400, 'invalid_grant');
      await expectOAuthError(await tokenRequest({ ...base, redirect_uri: `${REDIRECT}/` }), 400, 'invalid_grant');
      await expectOAuthError(await tokenRequest({ ...base, ...credentials(other) }), 400, 'invalid_grant');

      const late = await code(confidential);
      clock.advance(61_000);
      await expectOAuthError(await tokenRequest({ ...base, code: late.code, code_verifier: late.verifier }), 400, 'invalid_grant');
    });

    it('refuses a wrong client secret with 401 invalid_client and a Basic challenge; an unknown grant type with unsupported_grant_type', async () => {
      const wrong = await tokenRequest({ grant_type: 'authorization_code', code: 'sbc_x', client_id: confidential.clientId, client_secret: 'sbcs_wrong' });
      await expectOAuthError(wrong, 401, 'invalid_client');
      expect(wrong.headers.get('www-authenticate')).to.match(/^Basic /);
      const basic = Buffer.from(`${confidential.clientId}:${confidential.clientSecret}`).toString('base64');
      await expectOAuthError(await tokenRequest({ grant_type: 'password', username: 'a', password: 'b' }, { Authorization: `Basic ${basic}` }), 400, 'unsupported_grant_type');
    });

    it('answers a malformed or oversized body in OAuth’s error shape, not problem+json', async () => {
      const malformed = await server.fetch('/o/oauth2/token', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":' });
      await expectOAuthError(malformed, 400, 'invalid_request');
      const huge = await server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x'.repeat(40_000) }) });
      await expectOAuthError(huge, 413, 'invalid_request');
    });

    it('lets a client that authenticates revoke only its own tokens; a bare token holder may revoke theirs', async () => {
      const mine = await tokensFor(confidential, { access_type: 'offline' });
      const byOther = await server.fetch('/o/oauth2/revoke', { method: 'POST', body: new URLSearchParams({ token: mine.refresh_token!, ...credentials(other) }) });
      expect(byOther.status).to.equal(200);
      expect((await userinfo(mine.access_token)).status, 'another client cannot revoke it').to.equal(200);
      const byHolder = await server.fetch('/o/oauth2/revoke', { method: 'POST', body: new URLSearchParams({ token: mine.refresh_token! }) });
      expect(byHolder.status).to.equal(200);
      expect((await userinfo(mine.access_token)).status, 'revoking the refresh token ends the whole grant').to.equal(401);
    });

    it('rotates a public client’s refresh token and, when a rotated one comes back, revokes the whole grant', async () => {
      const first = await tokensFor(publicClient, { access_type: 'offline' });
      const rotated = (await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: publicClient.clientId })).json()) as Tokens;
      expect(rotated.refresh_token).to.match(/^sbr_/);
      expect(rotated.refresh_token).to.not.equal(first.refresh_token);
      await expectOAuthError(await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: publicClient.clientId }), 400, 'invalid_grant');
      await expectOAuthError(await tokenRequest({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token!, client_id: publicClient.clientId }), 400, 'invalid_grant');
      expect((await userinfo(rotated.access_token)).status).to.equal(401);
    });

    it('lets a refresh narrow the scope, never widen it', async () => {
      const tokens = await tokensFor(confidential, { access_type: 'offline', scope: 'email profile', prompt: 'consent' });
      const narrowed = (await (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'email', ...credentials(confidential) })).json()) as Tokens;
      expect(narrowed.scope).to.equal('email');
      expect(await (await userinfo(narrowed.access_token)).json()).to.deep.equal({ id: String(ada.userId), email: 'ada@example.com', verified_email: true });
      await expectOAuthError(await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, scope: 'email openid', ...credentials(confidential) }), 400, 'invalid_scope');
    });
  });

  describe('tokeninfo and userinfo', () => {
    it('tell a token of another client by its audience: Google’s library refuses its ID token for our client', async () => {
      const theirs = await tokensFor(other, { prompt: 'consent' });
      const info = (await (await server.fetch('/oauth2/v2/tokeninfo', { method: 'POST', body: new URLSearchParams({ access_token: theirs.access_token }) })).json()) as { audience: string; issued_to: string };
      expect(info.audience).to.equal(other.clientId);
      expect(info.audience).to.not.equal(confidential.clientId);
      const google = new OAuth2Client({ clientId: confidential.clientId, issuers: [server.url], endpoints: { oauth2FederatedSignonPemCertsUrl: `${server.url}/oauth2/v1/certs` } });
      let refused: unknown;
      try {
        await google.verifyIdToken({ idToken: theirs.id_token!, audience: confidential.clientId });
      } catch (error) {
        refused = error;
      }
      expect(String(refused)).to.include('Wrong recipient');
    });

    it('read the token from a form however it is encoded: escapes, a charset, JSON, gzip; a token given twice is none', async () => {
      const { access_token: token } = await tokensFor(confidential, {});
      const tokeninfo = (body: string | Buffer, headers: Record<string, string>) => server.fetch('/oauth2/v2/tokeninfo', { method: 'POST', headers, body });
      const form = 'application/x-www-form-urlencoded';
      const escaped = [...token].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
      const answers = [
        await tokeninfo(`access_token=${token}`, { 'Content-Type': form }),
        await tokeninfo(`access_token=${escaped}&unused=a+b%2`, { 'Content-Type': `${form}; charset="UTF-8"` }),
        await tokeninfo(JSON.stringify({ access_token: token }), { 'Content-Type': 'application/json' }),
        await tokeninfo(gzipSync(`access_token=${token}`), { 'Content-Type': form, 'Content-Encoding': 'gzip' }),
      ];
      const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as { issued_to?: string } })));
      for (const { status, body } of bodies) {
        expect(status).to.equal(200);
        expect(body.issued_to).to.equal(confidential.clientId);
      }
      await expectOAuthError(await tokeninfo(`access_token=${token}&access_token=${token}`, { 'Content-Type': form }), 400, 'invalid_token');
    });

    it('read a form however it arrives: with its headers, after them, chunked, empty, several on one connection', async () => {
      const { access_token: token } = await tokensFor(confidential, {});
      const body = `access_token=${token}`;
      const post = (headers: string) => `POST /oauth2/v2/tokeninfo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${headers}\r\n`;
      const sized = (text: string) => `${post(`Content-Length: ${Buffer.byteLength(text)}\r\n`)}${text}`;
      const chunked = `${post('Transfer-Encoding: chunked\r\n')}${[body.slice(0, 100), body.slice(100)].map((part) => `${part.length.toString(16)}\r\n${part}\r\n`).join('')}0\r\n\r\n`;
      // Each write is one segment on the loopback; the pauses let the server read each alone.
      const writes: (string | number)[] = [sized(body), sized(body).slice(0, -body.length), 30, body, chunked, sized(body).slice(0, -body.length + 200), 30, body.slice(200, -1), 30, body.slice(-1), sized(''), sized(body) + sized(body)];
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (data: Buffer) => (received += data.toString('utf8')));
      await new Promise((resolve) => socket.once('connect', resolve));
      for (const write of writes) {
        if (typeof write === 'number') await new Promise((resolve) => setTimeout(resolve, write));
        else socket.write(write);
      }
      const answers = (): string[] => received.split(/(?=HTTP\/1\.1 )/).filter((part) => part.startsWith('HTTP/1.1 '));
      for (let waited = 0; answers().length < 7 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      socket.destroy();
      const statuses = answers().map((answer) => answer.slice(9, 12));
      expect(statuses).to.deep.equal(['200', '200', '200', '200', '400', '200', '200']);
      for (const [i, answer] of answers().entries()) {
        if (i === 4) expect(answer).to.include('"error":"invalid_token"');
        else expect(answer).to.include(`"issued_to":"${confidential.clientId}"`);
      }
    });

    it('answer a chunked form over 16 KiB with 413 and close the connection rather than leave the rest of the body unread', async () => {
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (data: Buffer) => (received += data.toString('utf8')));
      const closed = new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 3_000);
      });
      await new Promise((resolve) => socket.once('connect', resolve));
      const chunk = `access_token=${'x'.repeat(8_000)}`;
      socket.write(`POST /oauth2/v2/tokeninfo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`);
      for (let i = 0; i < 3; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      const wasClosed = await closed;
      socket.destroy();
      expect(received.slice(0, 12)).to.equal('HTTP/1.1 413');
      expect(received.toLowerCase()).to.include('connection: close');
      expect(wasClosed, 'the server closed the connection').to.equal(true);
    });

    it('answer 401 (userinfo) and 400 invalid_token (tokeninfo) for an expired, a revoked, a tampered and a made-up token', async () => {
      const expiring = await tokensFor(confidential);
      const revoked = await tokensFor(confidential);
      const revocation = await server.fetch('/o/oauth2/revoke', { method: 'POST', body: new URLSearchParams({ token: revoked.access_token }) });
      expect(revocation.status).to.equal(200);
      const [header, payload, signature] = revoked.access_token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: '999' })).toString('base64url'), signature].join('.');
      const idTokenAsAccess = expiring.id_token!;
      clock.advance(3601_000);
      for (const token of [expiring.access_token, revoked.access_token, tampered, 'made.up.token', idTokenAsAccess]) {
        const response = await userinfo(token);
        expect(response.status).to.equal(401);
        expect(response.headers.get('www-authenticate')).to.include('error="invalid_token"');
        expect(await response.json()).to.deep.equal({ error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } });
        const info = await server.fetch(`/oauth2/v2/tokeninfo?access_token=${encodeURIComponent(token)}`);
        expect(info.status).to.equal(400);
        expect(await info.json()).to.deep.equal({ error: 'invalid_token', error_description: 'Invalid Value' });
      }
      expect((await server.fetch('/userinfo/v2/me')).status, 'no token at all').to.equal(401);
    });
  });

  it('a password change ends the user’s sessions and every token issued through the identity service', async () => {
    const bea = await server.user('bea@example.com', 'bea');
    const browser = server.browser();
    const { verifier, challenge } = pkce();
    const back = await browser.authorize(authUrl(confidential, { code_challenge: challenge, code_challenge_method: 'S256', access_type: 'offline' }), bea);
    const tokens = (await (await tokenRequest({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier, ...credentials(confidential) })).json()) as Tokens;
    expect((await userinfo(tokens.access_token)).status).to.equal(200);

    const profileToken = await server.token(bea, ['profile']);
    const changed = await server.request('PUT', '/user/password', { token: profileToken, body: { currentPassword: bea.password, newPassword: 'an entirely new passphrase' } });
    expect(changed.status).to.equal(204);

    expect((await userinfo(tokens.access_token)).status).to.equal(401);
    await expectOAuthError(await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, ...credentials(confidential) }), 400, 'invalid_grant');
    const again = await browser.get(authUrl(confidential, { prompt: 'none' }));
    expect(new URL(again.headers.get('location')!).searchParams.get('error'), 'the browser session ended too').to.equal('login_required');
  });
});
