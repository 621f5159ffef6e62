import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { ARTIFACTS_ROOT, describeWithBrowser, launchChromium, sqliteForBrowser as sqlite } from '../support/chromium.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

/*
 * The login and consent pages in a real browser: Debian's Chromium (scripts/install-chromium.sh)
 * driven by playwright-core through the authorization-code flow with PKCE, up to a redirect that
 * really lands on a receiver of the client's, then the tokens at userinfo and tokeninfo. The HTTP
 * suites drive the same pages with FormBrowser; this one catches what only a browser enforces
 * (CSP form-action on the redirect after a POST, labels, cookies with SameSite).
 */

const SUITE = 'e2e: login and consent pages in headless Chromium';
const ARTIFACTS = join(ARTIFACTS_ROOT, 'browser-oauth');
const CLIENT_NAME = 'Ada’s <Analytics> & Reports';
const SCOPE = 'openid email profile';

/** The client's redirect target on 127.0.0.1: records each query and answers a small page, so the browser really arrives. */
class RedirectReceiver {
  readonly hits: URLSearchParams[] = [];
  private server: Server | undefined;
  uri = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      this.hits.push(url.searchParams);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Receiver</title></head><body><h1>Back at the application</h1></body></html>');
    });
    await new Promise<void>((ready) => this.server!.listen(0, '127.0.0.1', ready));
    this.uri = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server!.close(() => done()));
  }
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

describeWithBrowser(SUITE, function () {
  let server: TestServer;
  let ada: TestUser;
  let client: { clientId: string; clientSecret: string };
  const receiver = new RedirectReceiver();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** What the browser said on its console while a test ran: a CSP violation shows up here. */
  let consoleErrors: string[];

  before(async function () {
    this.timeout(60_000);
    await receiver.start();
    server = await startTestServerOn(sqlite);
    ada = await server.user('ada@example.com', 'ada');
    const profile = await server.request('PATCH', '/user', {
      token: await server.token(ada, ['profile']),
      body: { name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', locale: 'en-GB' },
    });
    expect(profile.status, await profile.clone().text()).to.equal(200);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await receiver.stop();
  });

  beforeEach(async () => {
    // A client per test: an allowed grant is remembered, and would skip the consent page of the next test.
    const registered = await server.running.container.get(RegisterOAuthClient).execute({ name: CLIENT_NAME, redirectUris: [receiver.uri], public: false });
    if (!registered.ok) throw new Error(`client: ${JSON.stringify(registered.error)}`);
    client = { clientId: registered.value.clientId, clientSecret: registered.value.clientSecret! };
    // A fresh browser profile per test: no session or CSRF cookie carried over.
    context = await browser.newContext();
    context.setDefaultTimeout(8_000);
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      mkdirSync(ARTIFACTS, { recursive: true });
      const file = join(ARTIFACTS, `failed-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`    browser at ${page.url()}; screenshot ${file}; console errors: ${JSON.stringify(consoleErrors)}`);
    }
    await context.close();
  });

  /** A PKCE (S256) authorization request built by hand, as a client would. */
  function authorizationRequest(): { url: string; state: string; verifier: string } {
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(12));
    const url = new URL('/o/oauth2/auth', server.url);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: receiver.uri,
      scope: SCOPE,
      state,
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      access_type: 'offline',
    }).toString();
    return { url: url.toString(), state, verifier };
  }

  async function seeLoginPage(): Promise<void> {
    expect(await page.title()).to.equal('Sign in · Specbase');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Sign in');
    expect(await page.getByText('to continue to').innerText()).to.equal(`to continue to ${CLIENT_NAME}`);
    expect(await page.getByLabel('E-mail', { exact: true }).getAttribute('type')).to.equal('email');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).to.equal('password');
  }

  async function signIn(password: string): Promise<void> {
    await page.getByLabel('E-mail', { exact: true }).fill(ada.email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function seeConsentPage(): Promise<void> {
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.title()).to.equal(`Allow ${CLIENT_NAME}? · Specbase`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal(`Allow ${CLIENT_NAME}?`);
    const text = await page.locator('body').innerText();
    expect(text).to.include(`${CLIENT_NAME} wants to access your Specbase account ada@example.com`);
    for (const claim of ['Know who you are on Specbase', 'See your e-mail address', 'See your name, picture and locale']) expect(text).to.include(claim);
    expect(await page.getByRole('button', { name: 'Deny' }).isVisible()).to.equal(true);
  }

  /** Waits until the browser shows the receiver's page and returns the query it was given. */
  async function arriveAtReceiver(): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.href.startsWith(`${receiver.uri}?`));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Back at the application');
    return new URL(page.url()).searchParams;
  }

  it('signs in, allows, lands at the client with a code; the code and verifier buy tokens that userinfo and tokeninfo accept', async () => {
    const request = authorizationRequest();
    const hitsBefore = receiver.hits.length;
    await page.goto(request.url);
    await seeLoginPage();
    await signIn(ada.password);
    await seeConsentPage();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'consent.png'), fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();

    const back = await arriveAtReceiver();
    expect(back.get('state')).to.equal(request.state);
    const code = back.get('code');
    expect(code).to.be.a('string').and.not.equal('');
    expect(back.get('error')).to.equal(null);
    expect(receiver.hits.slice(hitsBefore).map((hit) => hit.toString())).to.deep.equal([back.toString()]);
    expect(consoleErrors, 'browser console').to.deep.equal([]);

    const tokenResponse = await fetch(`${server.url}/o/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: receiver.uri,
        code_verifier: request.verifier,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    const tokens = (await tokenResponse.json()) as Record<string, unknown>;
    expect(tokenResponse.status, JSON.stringify(tokens)).to.equal(200);
    expect(tokens).to.include({ token_type: 'Bearer', scope: SCOPE });
    expect(tokens['access_token']).to.be.a('string');
    expect(tokens['refresh_token'], 'access_type=offline').to.match(/^sbr_/);
    expect(tokens['id_token'], 'openid').to.be.a('string');
    expect(tokens['expires_in']).to.be.within(3500, 3600);
    const accessToken = tokens['access_token'] as string;

    const userinfo = await fetch(`${server.url}/oauth2/v2/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(userinfo.status).to.equal(200);
    expect(await userinfo.json()).to.deep.equal({
      id: String(ada.userId),
      email: 'ada@example.com',
      verified_email: true,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      locale: 'en-GB',
    });

    const tokeninfo = await fetch(`${server.url}/oauth2/v2/tokeninfo`, { method: 'POST', body: new URLSearchParams({ access_token: accessToken }) });
    const info = (await tokeninfo.json()) as Record<string, unknown>;
    expect(tokeninfo.status, JSON.stringify(info)).to.equal(200);
    expect(info).to.include({
      audience: client.clientId,
      issued_to: client.clientId,
      user_id: String(ada.userId),
      scope: SCOPE,
      email: 'ada@example.com',
      verified_email: true,
      access_type: 'offline',
    });
    expect(info['expires_in']).to.be.within(3500, 3600);
  });

  it('a wrong password shows an alert and stays on the login page; the right one then reaches consent', async () => {
    const request = authorizationRequest();
    const hitsBefore = receiver.hits.length;
    await page.goto(request.url);
    await seeLoginPage();
    await signIn('not the passphrase');

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).to.equal('The e-mail or password is wrong.');
    expect(new URL(page.url()).origin + new URL(page.url()).pathname).to.equal(`${server.url}/o/oauth2/auth`);
    await seeLoginPage();
    expect(await page.getByLabel('Password', { exact: true }).inputValue(), 'the password is not echoed back').to.equal('');
    expect(await page.getByLabel('E-mail').inputValue(), 'the e-mail stays filled in').to.equal(ada.email);
    expect(consoleErrors, 'browser console').to.deep.equal([]);
    expect(receiver.hits.length, 'nothing reached the client').to.equal(hitsBefore);

    await signIn(ada.password);
    await seeConsentPage();
  });

  it('Deny lands at the client with error=access_denied and the state, and no code', async () => {
    const request = authorizationRequest();
    await page.goto(request.url);
    await seeLoginPage();
    await signIn(ada.password);
    await seeConsentPage();
    await page.getByRole('button', { name: 'Deny' }).click();

    const back = await arriveAtReceiver();
    expect(back.get('error')).to.equal('access_denied');
    expect(back.get('state')).to.equal(request.state);
    expect(back.get('code')).to.equal(null);
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });

  it('device flow: verification_uri_complete leads through sign-in to /device with the code filled in; Allow gives the device its tokens', async () => {
    const started = await fetch(`${server.url}/o/oauth2/device/code`, {
      method: 'POST',
      body: new URLSearchParams({ scope: 'openid email', client_id: client.clientId, client_secret: client.clientSecret }),
    });
    const codes = (await started.json()) as { device_code: string; user_code: string; verification_uri_complete: string };
    expect(started.status, JSON.stringify(codes)).to.equal(200);
    const poll = async () =>
      (await (
        await fetch(`${server.url}/o/oauth2/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: codes.device_code, client_id: client.clientId, client_secret: client.clientSecret }),
        })
      ).json()) as Record<string, unknown>;
    expect((await poll())['error']).to.equal('authorization_pending');

    await page.goto(codes.verification_uri_complete);
    expect(await page.title()).to.equal('Sign in · Specbase');
    await page.getByLabel('E-mail', { exact: true }).fill(ada.email);
    await page.getByLabel('Password', { exact: true }).fill(ada.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('button', { name: 'Continue' }).waitFor();
    expect(await page.title()).to.equal('Connect a device · Specbase');
    expect(await page.getByLabel('Code', { exact: true }).inputValue(), 'filled in from the link').to.equal(codes.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.title()).to.equal(`Allow ${CLIENT_NAME}? · Specbase`);
    const text = await page.locator('body').innerText();
    expect(text).to.include(`${CLIENT_NAME} on the device showing ${codes.user_code} wants to access your Specbase account`);
    expect(await page.getByRole('button', { name: 'Deny' }).isVisible()).to.equal(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'device-consent.png'), fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).to.equal('Done. You can return to your device.');
    expect(consoleErrors, 'browser console').to.deep.equal([]);

    const tokens = await poll();
    expect(tokens).to.include({ token_type: 'Bearer', scope: 'openid email' });
    expect(tokens['refresh_token']).to.match(/^sbr_/);
  });

  it('the consent page offers sign-out; after it, the next authorization asks for the password again', async () => {
    const request = authorizationRequest();
    await page.goto(request.url);
    await seeLoginPage();
    await signIn(ada.password);
    await seeConsentPage();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).to.equal('You are signed out of Specbase.');
    expect((await context.cookies()).some((c) => c.name === 'sb_session'), 'the session cookie is gone').to.equal(false);
    await page.goto(authorizationRequest().url);
    await seeLoginPage();
    expect(consoleErrors, 'browser console').to.deep.equal([]);
  });
});
