import { expect } from 'chai';
import { readClientMetadata } from '../../../src/domain/identity/client-metadata.js';
import { scopeClaims } from '../../../src/domain/identity/oauth-scope.js';

const KNOWN = scopeClaims('https://docs.example.com');
const APP = 'https://app.example.com/cb';
const registering = (fields: Record<string, unknown>) => readClientMetadata({ redirect_uris: [APP], ...fields }, KNOWN);
const invalidMetadata = (description: string) => ({ ok: false, error: { error: 'invalid_client_metadata', description } });
const invalidRedirectUri = (description: string) => ({ ok: false, error: { error: 'invalid_redirect_uri', description } });
const DEFAULTS = {
  name: 'Unnamed application',
  redirectUris: [APP],
  postLogoutRedirectUris: [],
  tokenEndpointAuthMethod: 'client_secret_basic',
  grantTypes: ['authorization_code'],
  responseTypes: ['code'],
  scope: null,
};

describe('client registration metadata (RFC 7591)', () => {
  it('gives what a request leaves out the defaults of RFC 7591 2: a confidential client of the code flow, any scope', () => {
    expect(readClientMetadata({ redirect_uris: [APP] }, KNOWN)).to.deep.equal({ ok: true, value: DEFAULTS });
    expect(registering({ scope: null, post_logout_redirect_uris: null, client_name: null }), 'null as absent').to.deep.equal({ ok: true, value: DEFAULTS });
  });

  it('keeps what it honours, each name once, and ignores the fields it does not know', () => {
    const read = registering({
      client_name: 'Docs CLI',
      redirect_uris: [APP, 'http://localhost:8080/cb'],
      post_logout_redirect_uris: ['https://app.example.com/bye'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token', 'authorization_code', 'implicit'],
      response_types: ['code', 'token', 'code'],
      scope: 'openid  email openid',
      logo_uri: 'https://app.example.com/logo.png',
    });
    expect(read).to.deep.equal({
      ok: true,
      value: {
        name: 'Docs CLI',
        redirectUris: [APP, 'http://localhost:8080/cb'],
        postLogoutRedirectUris: ['https://app.example.com/bye'],
        tokenEndpointAuthMethod: 'none',
        grantTypes: ['authorization_code', 'refresh_token', 'implicit'],
        responseTypes: ['code', 'token'],
        scope: 'openid email',
      },
    });
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, [], [{ redirect_uris: [APP] }], 'redirect_uris', 3, undefined]) {
      expect(readClientMetadata(body, KNOWN), JSON.stringify(body)).to.deep.equal(invalidMetadata('The request body must be a JSON object of client metadata.'));
    }
  });

  describe('redirect URIs', () => {
    it('are required: a non-empty array of strings', () => {
      for (const redirectUris of [undefined, null, [], APP, [APP, 3], {}]) {
        expect(registering({ redirect_uris: redirectUris }), JSON.stringify(redirectUris)).to.deep.equal(invalidRedirectUri('redirect_uris must be a non-empty array of URIs.'));
      }
    });

    it('are at most 20', () => {
      const uris = Array.from({ length: 21 }, (_, i) => `https://app.example.com/cb/${i}`);
      expect(registering({ redirect_uris: uris.slice(0, 20) }).ok).to.equal(true);
      expect(registering({ redirect_uris: uris })).to.deep.equal(invalidRedirectUri('At most 20 redirect_uris.'));
    });

    it('are web addresses a client may name for itself: https, or http on loopback', () => {
      for (const uri of ['https://app.example.com/cb', 'https://localhost/cb', 'http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:3000/cb']) {
        expect(registering({ redirect_uris: [uri] }), uri).to.deep.equal({ ok: true, value: { ...DEFAULTS, redirectUris: [uri] } });
      }
      for (const uri of ['http://app.example.com/cb', 'http://localhost.example.com/cb', 'com.example.app:/cb', 'com.example.app://localhost/cb', 'ftp://localhost/cb', '/cb', 'not a uri']) {
        expect(registering({ redirect_uris: [APP, uri] }), uri).to.deep.equal(invalidRedirectUri(`redirect_uris: ${uri}: must be https, or http on loopback.`));
      }
    });

    it('name a refused URI by its first 200 characters only', () => {
      const long = `http://app.example.com/${'a'.repeat(300)}`;
      expect(registering({ redirect_uris: [long] })).to.deep.equal(invalidRedirectUri(`redirect_uris: ${long.slice(0, 200)}: must be https, or http on loopback.`));
    });
  });

  it('post-logout redirect URIs: an array of web addresses, by the same rule', () => {
    expect(registering({ post_logout_redirect_uris: ['http://127.0.0.1/bye'] })).to.deep.equal({ ok: true, value: { ...DEFAULTS, postLogoutRedirectUris: ['http://127.0.0.1/bye'] } });
    for (const uris of ['https://app.example.com/bye', [3], {}]) {
      expect(registering({ post_logout_redirect_uris: uris }), JSON.stringify(uris)).to.deep.equal(invalidMetadata('post_logout_redirect_uris must be an array of URIs.'));
    }
    const long = `http://app.example.com/${'b'.repeat(300)}`;
    for (const uri of ['http://app.example.com/bye', 'com.example.app:/bye', long]) {
      expect(registering({ post_logout_redirect_uris: ['https://app.example.com/bye', uri] }), uri).to.deep.equal(
        invalidMetadata(`post_logout_redirect_uris: ${uri.slice(0, 200)}: must be https, or http on loopback.`),
      );
    }
  });

  it('a client name is a string', () => {
    expect(registering({ client_name: 3 })).to.deep.equal(invalidMetadata('client_name must be a string.'));
  });

  it('token endpoint authentication: client_secret_basic, client_secret_post or none', () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'none']) {
      expect(registering({ token_endpoint_auth_method: method }), method).to.deep.equal({ ok: true, value: { ...DEFAULTS, tokenEndpointAuthMethod: method } });
    }
    for (const method of ['private_key_jwt', 'NONE', '', 3, ['none']]) {
      expect(registering({ token_endpoint_auth_method: method }), String(method)).to.deep.equal(
        invalidMetadata('token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, none.'),
      );
    }
  });

  describe('grant and response types', () => {
    it('grant types: a non-empty array of the grants this service knows', () => {
      const device = 'urn:ietf:params:oauth:grant-type:device_code';
      expect(registering({ grant_types: [device], response_types: [] })).to.deep.equal({ ok: true, value: { ...DEFAULTS, grantTypes: [device], responseTypes: [] } });
      for (const grantTypes of ['authorization_code', [], ['password'], ['authorization_code', 'client_credentials'], [3]]) {
        expect(registering({ grant_types: grantTypes }), JSON.stringify(grantTypes)).to.deep.equal(
          invalidMetadata(`grant_types must be a non-empty array of authorization_code, refresh_token, implicit, ${device}.`),
        );
      }
    });

    it('response types: an array of code and token', () => {
      for (const responseTypes of ['code', ['id_token'], ['code', 'id_token'], [3]]) {
        expect(registering({ response_types: responseTypes }), JSON.stringify(responseTypes)).to.deep.equal(invalidMetadata('response_types must be an array of code, token.'));
      }
    });

    it('a response type needs its grant: code the authorization code, token the implicit grant', () => {
      expect(registering({ grant_types: ['implicit'], response_types: ['token'] })).to.deep.equal({ ok: true, value: { ...DEFAULTS, grantTypes: ['implicit'], responseTypes: ['token'] } });
      expect(registering({ grant_types: ['implicit'] }), 'code, the default').to.deep.equal(invalidMetadata('response_types code needs the grant type authorization_code.'));
      expect(registering({ grant_types: ['refresh_token'], response_types: ['code'] })).to.deep.equal(invalidMetadata('response_types code needs the grant type authorization_code.'));
      expect(registering({ response_types: ['token'] })).to.deep.equal(invalidMetadata('response_types token needs the grant type implicit.'));
      expect(registering({ response_types: ['code', 'token'] })).to.deep.equal(invalidMetadata('response_types token needs the grant type implicit.'));
    });
  });

  describe('scope', () => {
    it('names only scopes the service grants, space-separated', () => {
      expect(registering({ scope: ' https://docs.example.com/auth/userinfo.email  profile ' })).to.deep.equal({
        ok: true,
        value: { ...DEFAULTS, scope: 'https://docs.example.com/auth/userinfo.email profile' },
      });
      expect(registering({ scope: 'openid admin' })).to.deep.equal(invalidMetadata('Unknown scope: admin'));
      expect(registering({ scope: `openid ${'x'.repeat(300)}` }), 'named by its first 200 characters').to.deep.equal(invalidMetadata(`Unknown scope: ${'x'.repeat(200)}`));
    });

    it('is a string with at least one name', () => {
      for (const scope of ['', '   ', 3, ['openid']]) {
        expect(registering({ scope }), JSON.stringify(scope)).to.deep.equal(invalidMetadata('scope must be a space-separated string of scope names.'));
      }
    });
  });
});
