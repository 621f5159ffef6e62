import { expect } from 'chai';
import * as oidc from 'openid-client';
import { DeleteOAuthClient, RegisterOAuthClient, RotateOAuthClientSecret } from '../../src/application/identity/clients.use-cases.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { FormBrowser } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

interface Registered {
  readonly clientId: string;
  readonly clientSecret: string | null;
}

/**
 * Token introspection (RFC 7662) driven by openid-client, unmodified, as a resource server would use
 * it; and the refusals of the attack list: public clients, another client's tokens, deleted and
 * rotated credentials.
 */
/**
 * `jwt` with one character in the middle of its signature changed. Not the last ones: the last of
 * an RS256 signature's 342 base64url characters carries 2 bits and 4 of padding, so "xx" for the
 * last two decoded to the very same signature about once in 256 tokens (it did in CI).
 */
function tampered(jwt: string): string {
  const at = jwt.length - 20;
  return jwt.slice(0, at) + (jwt[at] === 'A' ? 'B' : 'A') + jwt.slice(at + 1);
}

forEachDatabase('identity service: token introspection', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let ada: TestUser;
  let api: Registered;
  let other: Registered;
  let mobile: Registered;

  before(async () => {
    clock = new ShiftedClock();
    server = await startTestServerOn(target, {}, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    ada = await server.user('ada@example.com', 'ada');
    const register = async (name: string, isPublic: boolean): Promise<Registered> => {
      const result = await server.running.container.get(RegisterOAuthClient).execute({ name, redirectUris: [REDIRECT], public: isPublic });
      if (!result.ok) throw new Error('setup');
      return result.value;
    };
    api = await register('Reporting API', false);
    other = await register('Another app', false);
    mobile = await register('Mobile app', true);
  });
  after(async () => {
    await server?.stop();
  });

  const configOf = (client: Registered, secret = client.clientSecret): Promise<oidc.Configuration> =>
    oidc.discovery(new URL(server.url), client.clientId, secret ?? undefined, secret === null ? oidc.None() : undefined, { execute: [oidc.allowInsecureRequests] });

  async function tokensFor(config: oidc.Configuration, scope = 'openid email'): Promise<oidc.TokenEndpointResponse> {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope, access_type: 'offline', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const back = await new FormBrowser(server.url).authorize(url.href, ada);
    return oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier });
  }

  const introspectRaw = (fields: Record<string, string>, headers: Record<string, string> = {}) => server.fetch('/o/oauth2/introspect', { method: 'POST', headers, body: new URLSearchParams(fields) });

  it('is advertised in the discovery document', async () => {
    const config = await configOf(api);
    expect(config.serverMetadata()).to.include({ introspection_endpoint: `${server.url}/o/oauth2/introspect` });
    expect(config.serverMetadata().introspection_endpoint_auth_methods_supported).to.deep.equal(['client_secret_basic', 'client_secret_post']);
  });

  it("tells the client its own access and refresh tokens are active, with their facts", async () => {
    const config = await configOf(api);
    const tokens = await tokensFor(config);
    const access = await oidc.tokenIntrospection(config, tokens.access_token);
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(access).to.include({ active: true, scope: 'openid email', client_id: api.clientId, sub: String(ada.userId), token_type: 'Bearer', token_use: 'access_token', iss: server.url, aud: api.clientId });
    expect(access.exp! - now).to.be.within(3590, 3600);
    expect(now - access.iat!).to.be.within(0, 10);

    const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(refresh).to.include({ active: true, client_id: api.clientId, sub: String(ada.userId), token_use: 'refresh_token', scope: 'openid email' });
    expect(refresh.exp, 'a refresh token does not expire').to.equal(undefined);
    // The hint only orders the lookups: a wrong one still finds the token.
    expect(await oidc.tokenIntrospection(config, tokens.access_token, { token_type_hint: 'refresh_token' })).to.include({ active: true });
  });

  it('answers { active: false } alone for an ID token, garbage, a revoked token and an expired one', async () => {
    const config = await configOf(api);
    const tokens = await tokensFor(config);
    for (const token of [tokens.id_token!, 'garbage', 'sbr_not-a-token', tampered(tokens.access_token)]) {
      expect(await oidc.tokenIntrospection(config, token), token.slice(0, 20)).to.deep.equal({ active: false });
    }
    const later = await tokensFor(config);
    clock.advance(3_601_000);
    try {
      expect(await oidc.tokenIntrospection(config, later.access_token), 'expired').to.deep.equal({ active: false });
      expect(await oidc.tokenIntrospection(config, later.refresh_token!), 'the refresh token outlives it').to.include({ active: true });
    } finally {
      clock.advance(-3_601_000);
    }
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect(await oidc.tokenIntrospection(config, tokens.access_token), 'its grant revoked').to.deep.equal({ active: false });
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).to.deep.equal({ active: false });
  });

  it("answers { active: false } to a client asking about another client's token", async () => {
    const tokens = await tokensFor(await configOf(api));
    const asOther = await configOf(other);
    expect(await oidc.tokenIntrospection(asOther, tokens.access_token)).to.deep.equal({ active: false });
    expect(await oidc.tokenIntrospection(asOther, tokens.refresh_token!)).to.deep.equal({ active: false });
  });

  it('refuses a public client, no client, a wrong secret, and credentials given twice', async () => {
    const tokens = await tokensFor(await configOf(api));
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    const cases: [string, Promise<Response>, number, string][] = [
      ['public client', introspectRaw({ token: tokens.access_token, client_id: mobile.clientId }), 401, 'invalid_client'],
      ['no client', introspectRaw({ token: tokens.access_token }), 401, 'invalid_client'],
      ['wrong secret', introspectRaw({ token: tokens.access_token }, { Authorization: basic(api.clientId, 'sbcs_wrong') }), 401, 'invalid_client'],
      ['unknown client', introspectRaw({ token: tokens.access_token, client_id: 'nobody.apps.specbase', client_secret: 'x' }), 401, 'invalid_client'],
      ['both ways', introspectRaw({ token: tokens.access_token, client_secret: api.clientSecret! }, { Authorization: basic(api.clientId, api.clientSecret!) }), 400, 'invalid_request'],
      ['no token', introspectRaw({}, { Authorization: basic(api.clientId, api.clientSecret!) }), 400, 'invalid_request'],
    ];
    for (const [label, pending, status, error] of cases) {
      const response = await pending;
      expect(response.status, label).to.equal(status);
      expect(response.headers.get('cache-control'), label).to.equal('no-store');
      expect(((await response.json()) as { error: string }).error, label).to.equal(error);
      if (status === 401) expect(response.headers.get('www-authenticate'), label).to.match(/^Basic /);
    }
    const publicConfig = await configOf(mobile);
    let refused: unknown;
    await oidc.tokenIntrospection(publicConfig, tokens.access_token).catch((error: unknown) => (refused = error));
    // openid-client reports the 401's Basic challenge rather than the body.
    expect(refused, 'openid-client as a public client').to.include({ code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE', status: 401 });
  });

  it("accepts a rotated client's old secret during the overlap only, and a deleted client's never", async () => {
    const rotating = await server.running.container.get(RegisterOAuthClient).execute({ name: 'Rotating', redirectUris: [REDIRECT], public: false });
    if (!rotating.ok) throw new Error('setup');
    const old = rotating.value;
    const tokens = await tokensFor(await configOf(old));
    const rotated = await server.running.container.get(RotateOAuthClientSecret).execute(old.clientId, 60);
    if (!rotated.ok) throw new Error('rotate');
    expect(await oidc.tokenIntrospection(await configOf(old), tokens.access_token), 'old secret, within the overlap').to.include({ active: true });
    expect(await oidc.tokenIntrospection(await configOf(old, rotated.value.clientSecret), tokens.access_token), 'new secret').to.include({ active: true });
    clock.advance(61_000);
    const afterOverlap = await introspectRaw({ token: tokens.access_token, client_id: old.clientId, client_secret: old.clientSecret! });
    expect(afterOverlap.status, 'old secret, after the overlap').to.equal(401);

    expect((await server.running.container.get(DeleteOAuthClient).execute(old.clientId)).ok).to.equal(true);
    const deleted = await introspectRaw({ token: tokens.access_token, client_id: old.clientId, client_secret: rotated.value.clientSecret });
    expect(deleted.status, "a deleted client's credentials").to.equal(401);
    expect(await oidc.tokenIntrospection(await configOf(api), tokens.access_token), "a deleted client's token, asked by another").to.deep.equal({ active: false });
    const tokeninfo = await server.fetch(`/oauth2/v2/tokeninfo?access_token=${tokens.access_token}`);
    expect(tokeninfo.status, "a deleted client's token at tokeninfo").to.equal(400);
  });
});
