import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { OAuth2Client, CodeChallengeMethod } from 'google-auth-library';
import { oauth2 } from '@googleapis/oauth2';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { forEachDatabase } from '../support/databases.js';
import { FormBrowser } from '../support/form-browser.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * Client libraries not written here, unmodified, pointed at this server: Google's
 * google-auth-library and @googleapis/oauth2, openid-client, and jose for the JWK set.
 */
forEachDatabase('identity service with Google’s and OpenID client libraries', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let client: { clientId: string; clientSecret: string };

  before(async () => {
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
    await server.running.container.get(RegisterOAuthClient).execute({ name: 'Ada’s other app', redirectUris: [REDIRECT], public: false });
    const registered = await server.running.container.get(RegisterOAuthClient).execute({ name: 'Analytics dashboard', redirectUris: [REDIRECT], public: false });
    if (!registered.ok) throw new Error('setup');
    client = { clientId: registered.value.clientId, clientSecret: registered.value.clientSecret! };
  });
  after(async () => {
    await server?.stop();
  });

  function googleClient(): OAuth2Client {
    const url = server.url;
    return new OAuth2Client({
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri: REDIRECT,
      issuers: [url],
      endpoints: {
        oauth2AuthBaseUrl: `${url}/o/oauth2/auth`,
        oauth2TokenUrl: `${url}/o/oauth2/token`,
        oauth2RevokeUrl: `${url}/o/oauth2/revoke`,
        tokenInfoUrl: `${url}/oauth2/v2/tokeninfo`,
        oauth2FederatedSignonPemCertsUrl: `${url}/oauth2/v1/certs`,
        oauth2FederatedSignonJwkCertsUrl: `${url}/oauth2/v2/certs`,
      },
    });
  }

  it('google-auth-library: PKCE code flow, tokeninfo, ID token with our issuer and certs, refresh twice', async () => {
    const google = googleClient();
    const { codeVerifier, codeChallenge } = await google.generateCodeVerifierAsync();
    const state = randomBytes(8).toString('hex');
    const authUrl = google.generateAuthUrl({
      access_type: 'offline',
      scope: ['openid', `${server.url}/auth/userinfo.email`, `${server.url}/auth/userinfo.profile`],
      code_challenge_method: CodeChallengeMethod.S256,
      code_challenge: codeChallenge!,
      state,
    });
    const back = await new FormBrowser(server.url).authorize(authUrl, ada);
    expect(back.origin + back.pathname).to.equal(REDIRECT);
    expect(back.searchParams.get('state')).to.equal(state);

    const { tokens } = await google.getToken({ code: back.searchParams.get('code')!, codeVerifier });
    expect(tokens.token_type).to.equal('Bearer');
    expect(tokens.refresh_token).to.match(/^sbr_/);
    expect(tokens.id_token).to.be.a('string');
    expect(tokens.scope?.split(' ')).to.include('openid');

    const info = await google.getTokenInfo(tokens.access_token!);
    expect(info).to.include({ audience: client.clientId, issued_to: client.clientId, user_id: String(ada.userId), email: 'ada@example.com', access_type: 'offline' });
    expect((info as unknown as { verified_email: boolean }).verified_email).to.equal(true);
    expect(info.expiry_date - Date.now()).to.be.within(3500_000, 3600_000);

    const ticket = await google.verifyIdToken({ idToken: tokens.id_token!, audience: client.clientId });
    const payload = ticket.getPayload()!;
    expect(payload).to.include({ iss: server.url, aud: client.clientId, azp: client.clientId, sub: String(ada.userId), email: 'ada@example.com', email_verified: true });

    google.setCredentials({ refresh_token: tokens.refresh_token! });
    const first = await google.refreshAccessToken();
    const second = await google.refreshAccessToken();
    for (const refreshed of [first, second]) {
      expect(refreshed.credentials.access_token).to.be.a('string');
      expect(refreshed.credentials.refresh_token, 'a confidential client keeps its refresh token').to.equal(tokens.refresh_token);
      expect((await google.getTokenInfo(refreshed.credentials.access_token!)).user_id).to.equal(String(ada.userId));
    }
    expect(first.credentials.access_token).to.not.equal(second.credentials.access_token);
  });

  it('@googleapis/oauth2 with rootUrl at this server: tokeninfo, userinfo.get and userinfo.v2.me.get', async () => {
    const google = googleClient();
    const { codeVerifier, codeChallenge } = await google.generateCodeVerifierAsync();
    const authUrl = google.generateAuthUrl({ scope: [`${server.url}/auth/userinfo.email`, `${server.url}/auth/userinfo.profile`], code_challenge_method: CodeChallengeMethod.S256, code_challenge: codeChallenge! });
    const back = await new FormBrowser(server.url).authorize(authUrl, ada);
    const { tokens } = await google.getToken({ code: back.searchParams.get('code')!, codeVerifier });
    expect(tokens.refresh_token, 'online access: no refresh token').to.equal(undefined);
    expect(tokens.id_token, 'no openid scope: no ID token').to.equal(undefined);
    google.setCredentials(tokens);

    const api = oauth2({ version: 'v2', auth: google, rootUrl: `${server.url}/` });
    const info = await api.tokeninfo({ access_token: tokens.access_token! });
    expect(info.data).to.include({ audience: client.clientId, user_id: String(ada.userId), email: 'ada@example.com', verified_email: true });
    const me = await api.userinfo.get();
    expect(me.data).to.deep.equal({ id: String(ada.userId), email: 'ada@example.com', verified_email: true });
    const v2me = await api.userinfo.v2.me.get();
    expect(v2me.data).to.deep.equal(me.data);
  });

  it('openid-client: discovery, PKCE code flow, ID token claims; jose verifies the ID token against the remote JWK set', async () => {
    const config = await oidc.discovery(new URL(server.url), client.clientId, client.clientSecret, undefined, { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().issuer).to.equal(server.url);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    const back = await new FormBrowser(server.url).authorize(authUrl.href, ada);
    const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state });
    const claims = tokens.claims()!;
    expect(claims).to.include({ iss: server.url, aud: client.clientId, sub: String(ada.userId), email: 'ada@example.com', nonce });

    const jwks = createRemoteJWKSet(new URL(`${server.url}/oauth2/v2/certs`));
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer: server.url, audience: client.clientId });
    expect(protectedHeader.alg).to.equal('RS256');
    expect(payload.sub).to.equal(String(ada.userId));
    const accessHeader = JSON.parse(Buffer.from(tokens.access_token.split('.')[0]!, 'base64url').toString()) as { typ: string };
    expect(accessHeader.typ, 'access tokens are RS256 JWTs too (RFC 9068)').to.equal('at+jwt');
    await jwtVerify(tokens.access_token, jwks, { issuer: server.url, typ: 'at+jwt' });
  });
});
