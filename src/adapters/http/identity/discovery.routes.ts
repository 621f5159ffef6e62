import { KEY_SET_MAX_AGE_S } from '../../../application/identity/signing-keys.js';
import { scopeClaims } from '../../../domain/identity/oauth-scope.js';
import { json } from '../openapi/route-description.js';
import { ref } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { cached } from './oauth-http.js';

/** The published keys (JWKS and PEM) and OpenID Connect discovery. */
export function discoveryRoutes(deps: Pick<IdentityUseCases, 'keys' | 'settings' | 'registrations'>): StandaloneRouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/.well-known/openid-configuration',
      summary: 'OpenID Connect discovery',
      operationId: 'openIdConfiguration',
      tag: 'Identity',
      security: [],
      responses: { 200: json('The discovery document.', ref('OpenIdConfiguration'), cached(3600)) },
      handler: (ctx) => {
        const base = deps.settings.issuer;
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.body = {
          issuer: base,
          authorization_endpoint: `${base}/o/oauth2/auth`,
          token_endpoint: `${base}/o/oauth2/token`,
          userinfo_endpoint: `${base}/oauth2/v3/userinfo`,
          revocation_endpoint: `${base}/o/oauth2/revoke`,
          introspection_endpoint: `${base}/o/oauth2/introspect`,
          device_authorization_endpoint: `${base}/o/oauth2/device/code`,
          ...(deps.registrations.enabled ? { registration_endpoint: `${base}/o/oauth2/register` } : {}),
          end_session_endpoint: `${base}/o/oauth2/logout`,
          jwks_uri: `${base}/oauth2/v2/certs`,
          response_types_supported: ['code', 'token'],
          response_modes_supported: ['query', 'fragment'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          scopes_supported: [...scopeClaims(deps.settings.scopeBase).keys()],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
          revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
          introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          code_challenge_methods_supported: ['S256'],
          claims_supported: ['aud', 'auth_time', 'azp', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'locale', 'name', 'nonce', 'picture', 'sub'],
          prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
        };
      },
    },
    {
      method: 'GET',
      path: '/oauth2/v2/certs',
      summary: 'The JWK set that verifies access and ID tokens',
      operationId: 'jsonWebKeys',
      tag: 'Identity',
      security: [],
      responses: { 200: json('The published keys.', ref('JsonWebKeySet'), cached(KEY_SET_MAX_AGE_S)) },
      handler: async (ctx) => {
        const keys = await deps.keys.published();
        ctx.set('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_S}`);
        ctx.body = { keys: keys.map((k) => ({ alg: 'RS256', e: k.publicJwk['e'], kid: k.kid, kty: 'RSA', n: k.publicJwk['n'], use: 'sig' })) };
      },
    },
    {
      method: 'GET',
      path: '/oauth2/v1/certs',
      summary: 'The same keys as PEM X.509 certificates',
      operationId: 'pemCertificates',
      tag: 'Identity',
      security: [],
      responses: { 200: json('kid to certificate.', ref('PemCertificates'), cached(KEY_SET_MAX_AGE_S)) },
      handler: async (ctx) => {
        const keys = await deps.keys.published();
        ctx.set('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_S}`);
        ctx.body = Object.fromEntries(keys.map((k) => [k.kid, k.certificatePem]));
      },
    },
  ];
}
