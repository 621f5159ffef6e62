import { expect } from 'chai';
import * as oidc from 'openid-client';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { hiddenFields, type FormBrowser } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const BYE = 'http://127.0.0.1:9/signed-out';

interface Registered {
  readonly clientId: string;
  readonly clientSecret: string | null;
}

/**
 * Sign-out (RP-Initiated Logout 1.0) driven by openid-client's end-session URL, and the attack list:
 * no redirect to an unregistered URI, to another client's, or on a forged or mismatched hint.
 */
forEachDatabase('identity service: sign-out', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;
  let app: Registered;
  let other: Registered;

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    const register = async (name: string, postLogoutRedirectUris: string[]): Promise<Registered> => {
      const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: [REDIRECT], postLogoutRedirectUris, public: false });
      if (!result.ok) throw new Error('setup');
      return result.value;
    };
    app = await register('Dashboard', [BYE]);
    other = await register('Another app', ['http://127.0.0.1:9/other-bye']);
  });
  after(async () => {
    await server?.stop();
  });

  const configOf = (client: Registered) => oidc.discovery(new URL(server.url), client.clientId, client.clientSecret!, undefined, { execute: [oidc.allowInsecureRequests] });

  /** A browser signed in through `client`'s code flow, and the ID token it got. */
  async function signedIn(client: Registered): Promise<{ browser: FormBrowser; idToken: string; config: oidc.Configuration }> {
    const config = await configOf(client);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const browser = server.browser();
    const back = await browser.authorize(url.href, ada);
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier });
    return { browser, idToken: tokens.id_token!, config };
  }

  /** Whether the browser's next authorization request goes straight back (a live session) or shows the login page. */
  async function sessionLive(browser: FormBrowser, client: Registered): Promise<boolean> {
    const query = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'openid email', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
    const response = await browser.get(`/o/oauth2/auth?${query.toString()}`);
    if (response.status === 303) return true;
    expect(hiddenFields(browser.lastPage)['step']).to.equal('login');
    return false;
  }

  const pathOf = (url: URL) => url.pathname + url.search;

  it('is advertised as end_session_endpoint', async () => {
    expect((await configOf(app)).serverMetadata().end_session_endpoint).to.equal(`${server.url}/o/oauth2/logout`);
  });

  it("openid-client's end-session URL ends the session and sends the browser back to the registered URI with state", async () => {
    const { browser, idToken, config } = await signedIn(app);
    expect(await sessionLive(browser, app)).to.equal(true);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: BYE, state: 'bye-1' });
    const response = await browser.get(pathOf(url));
    expect(response.status).to.equal(303);
    expect(response.headers.get('location')).to.equal(`${BYE}?state=bye-1`);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expect(response.headers.getSetCookie().some((c) => /^sb_session=;.*Max-Age=0/.test(c))).to.equal(true);
    expect(await sessionLive(browser, app), 'the next authorization asks for the password').to.equal(false);
  });

  it('names the client by client_id too, and takes an ID token hint that has expired', async () => {
    const byClientId = await signedIn(app);
    const response = await byClientId.browser.get(`/o/oauth2/logout?${new URLSearchParams({ client_id: app.clientId, post_logout_redirect_uri: BYE }).toString()}`);
    expect(response.headers.get('location')).to.equal(BYE);
    expect(await sessionLive(byClientId.browser, app)).to.equal(false);

    const expired = await signedIn(app);
    clock.advance(2 * 3_600_000);
    try {
      const later = await expired.browser.get(pathOf(oidc.buildEndSessionUrl(expired.config, { id_token_hint: expired.idToken, post_logout_redirect_uri: BYE })));
      expect(later.status, 'an expired hint still names its client').to.equal(303);
    } finally {
      clock.advance(-2 * 3_600_000);
    }
  });

  it('signs out by a POST form, and from the consent page’s control, to the signed-out page', async () => {
    const { browser } = await signedIn(app);
    const response = await browser.post('/o/oauth2/logout', {});
    expect(response.status).to.equal(200);
    expect(browser.lastPage).to.include('You are signed out');
    expect(await sessionLive(browser, app)).to.equal(false);

    // The consent page (another client, not allowed yet) offers the control.
    const second = await signedIn(app);
    const query = new URLSearchParams({ response_type: 'code', client_id: other.clientId, redirect_uri: REDIRECT, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
    await second.browser.get(`/o/oauth2/auth?${query.toString()}`);
    expect(hiddenFields(second.browser.lastPage)['step']).to.equal('consent');
    expect(second.browser.lastPage).to.include('<form method="post" action="/o/oauth2/logout"');
    const form = await second.browser.post('/o/oauth2/logout', {});
    expect(form.status).to.equal(200);
    expect(await sessionLive(second.browser, other)).to.equal(false);
  });

  describe('never redirects anywhere unregistered, and still signs out', () => {
    const cases: [string, (hint: string) => Record<string, string>][] = [
      ['an unregistered post_logout_redirect_uri', (hint) => ({ id_token_hint: hint, post_logout_redirect_uri: 'https://evil.example/bye' })],
      ['a URI that differs in one character', (hint) => ({ id_token_hint: hint, post_logout_redirect_uri: `${BYE}/` })],
      ['the client’s redirect_uri, which is not a post-logout one', (hint) => ({ id_token_hint: hint, post_logout_redirect_uri: REDIRECT })],
      ["another client's post-logout URI", (hint) => ({ id_token_hint: hint, post_logout_redirect_uri: 'http://127.0.0.1:9/other-bye' })],
      ['a hint of one client with the client_id of another', (hint) => ({ id_token_hint: hint, client_id: other.clientId, post_logout_redirect_uri: 'http://127.0.0.1:9/other-bye' })],
      ['a forged hint', (hint) => ({ id_token_hint: `${hint.slice(0, -4)}AAAA`, post_logout_redirect_uri: BYE })],
      ['an access token as the hint', () => ({ id_token_hint: 'not.a.jwt', post_logout_redirect_uri: BYE })],
      ['no hint and no client_id', () => ({ post_logout_redirect_uri: BYE })],
      ['an unknown client_id', () => ({ client_id: 'nobody.apps.specbase', post_logout_redirect_uri: BYE })],
      ['a repeated post_logout_redirect_uri', () => ({})],
    ];
    for (const [label, params] of cases) {
      it(label, async () => {
        const { browser, idToken } = await signedIn(app);
        const query = new URLSearchParams(params(idToken));
        if (label.startsWith('a repeated')) {
          query.append('client_id', app.clientId);
          query.append('post_logout_redirect_uri', BYE);
          query.append('post_logout_redirect_uri', BYE);
        }
        const response = await browser.get(`/o/oauth2/logout?${query.toString()}`);
        expect(response.status).to.equal(200);
        expect(response.headers.get('location')).to.equal(null);
        expect(browser.lastPage).to.include('You are signed out');
        expect(browser.lastPage).to.not.include('evil.example');
        expect(await sessionLive(browser, app), 'signed out all the same').to.equal(false);
      });
    }
  });

  it('a docs page shows a signed-in viewer the sign-out link, and nobody else', async () => {
    const { browser } = await signedIn(app);
    const owner = await server.token(ada, ['api']);
    const created = await server.request('POST', `/api/${ada.accountId}`, { token: owner, body: { name: 'Pets', nickname: 'pets-signout', type: 'public' } });
    expect(created.status, await created.clone().text()).to.equal(201);
    // The docs pages are outside /openapi.json, which the test browser checks answers against: a plain fetch with its cookies.
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const page = await fetch(`${server.url}/docs/${ada.accountId}/pets-signout`, { headers: { Cookie: cookie } });
    expect(await page.text()).to.include('href="/o/oauth2/logout"');
    expect(page.headers.get('cache-control'), "the signed-in viewer's copy").to.equal('private, no-cache');
    const anonymous = await (await fetch(`${server.url}/docs/${ada.accountId}/pets-signout`)).text();
    expect(anonymous).to.not.include('/o/oauth2/logout');
  });
});
