import type { JsonSchema } from './openapi.types.js';
import { str, int, bool, array, object } from './schemas.js';

const OAUTH_FORM = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema =>
  object(properties, required, { description: 'Each parameter at most once; client credentials in HTTP Basic or here, not both.' });

/** The identity service: OAuth 2.0 and OpenID Connect forms and answers, Google's oauth2 v2 shapes. */
export const IDENTITY_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  OAuthError: object(
    { error: str({ description: 'RFC 6749 5.2: `invalid_request`, `invalid_client`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`, `invalid_token`, `slow_down`.' }), error_description: str() },
    undefined,
    { description: "OAuth's error shape (RFC 6749 5.2)." },
  ),
  GoogleError: object(
    { error: object({ code: { const: 401 }, message: { const: 'Invalid Credentials' }, status: { const: 'UNAUTHENTICATED' } }) },
    undefined,
    { description: "Google's error shape." },
  ),
  TokenRequest: OAUTH_FORM(
    {
      grant_type: str({ enum: ['authorization_code', 'refresh_token'] }),
      code: str({ description: 'authorization_code: the code from the redirect, within 60 s, once.' }),
      redirect_uri: str({ description: 'authorization_code: the same as in the authorization request.' }),
      code_verifier: str({ pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'authorization_code with PKCE.' }),
      refresh_token: str({ description: 'refresh_token.' }),
      scope: str({ description: 'refresh_token: narrows the scope of this access token.' }),
      client_id: str(),
      client_secret: str({ description: 'Confidential clients that do not use HTTP Basic.' }),
    },
    ['grant_type'],
  ),
  TokenResponse: object(
    {
      access_token: str({ description: 'An RS256 JWT (`typ: at+jwt`).' }),
      token_type: { const: 'Bearer' },
      expires_in: int({ minimum: 0, description: 'Seconds.' }),
      scope: str({ description: 'Space-separated.' }),
      refresh_token: str({ description: 'With `access_type=offline`; public clients get a new one on every refresh.' }),
      id_token: str({ description: 'When the scope has `openid` (or `plus.me`).' }),
    },
    ['access_token', 'token_type', 'expires_in', 'scope'],
  ),
  RevocationRequest: OAUTH_FORM({ token: str({ description: 'An access or refresh token.' }), token_type_hint: str(), client_id: str(), client_secret: str() }, ['token']),
  IntrospectionRequest: OAUTH_FORM(
    { token: str({ description: 'An access or refresh token.' }), token_type_hint: str({ enum: ['access_token', 'refresh_token'], description: 'Only orders the lookups.' }), client_id: str(), client_secret: str() },
    ['token'],
  ),
  Introspection: object(
    {
      active: bool(),
      scope: str(),
      client_id: str(),
      sub: str({ description: 'The user id, as a string.' }),
      exp: int({ description: 'Seconds since the epoch; absent for a refresh token (it does not expire).' }),
      iat: int({ description: 'Seconds since the epoch.' }),
      token_type: str({ const: 'Bearer' }),
      token_use: str({ enum: ['access_token', 'refresh_token'] }),
      iss: str({ format: 'uri' }),
      aud: str({ description: 'The client id.' }),
    },
    ['active'],
    { description: 'RFC 7662 2.2: `{ "active": false }` alone for a token that is unknown, expired, revoked, an ID token, or issued to another client.' },
  ),
  TokeninfoRequest: object({ access_token: str(), id_token: str() }, []),
  Tokeninfo: object(
    {
      issued_to: str({ description: 'The client id.' }),
      audience: str({ description: 'The client id.' }),
      user_id: str({ description: 'The user id, as a string.' }),
      scope: str({ description: 'Space-separated.' }),
      expires_in: int({ minimum: 0, description: 'Whole seconds left.' }),
      email: str({ description: 'With the e-mail scope.' }),
      verified_email: bool('With the e-mail scope.'),
      access_type: str({ enum: ['online', 'offline'] }),
    },
    ['issued_to', 'audience', 'user_id', 'scope', 'expires_in', 'access_type'],
    { description: "Google's Tokeninfo." },
  ),
  Userinfo: object(
    {
      id: str({ description: 'The user id, as a string.' }),
      email: str({ description: 'With the e-mail scope.' }),
      verified_email: bool('With the e-mail scope.'),
      name: str({ description: 'With the profile scope, when set.' }),
      given_name: str(),
      family_name: str(),
      picture: str(),
      locale: str(),
    },
    ['id'],
    { description: "Google's Userinfoplus: fields by scope." },
  ),
  OpenIdUserinfo: object(
    {
      sub: str({ description: 'The user id, as a string.' }),
      email: str(),
      email_verified: bool(),
      name: str(),
      given_name: str(),
      family_name: str(),
      picture: str(),
      locale: str(),
    },
    ['sub'],
    { description: 'OpenID Connect UserInfo: fields by scope.' },
  ),
  JsonWebKeySet: object({
    keys: array(object({ alg: { const: 'RS256' }, e: str(), kid: str({ description: 'The JWK thumbprint (RFC 7638).' }), kty: { const: 'RSA' }, n: str(), use: { const: 'sig' } })),
  }),
  PemCertificates: object({}, [], { additionalProperties: str({ description: 'A self-signed X.509 certificate, PEM.' }), description: 'kid to certificate.' }),
  OpenIdConfiguration: object(
    {
      issuer: str({ format: 'uri' }),
      authorization_endpoint: str({ format: 'uri' }),
      token_endpoint: str({ format: 'uri' }),
      userinfo_endpoint: str({ format: 'uri' }),
      revocation_endpoint: str({ format: 'uri' }),
      introspection_endpoint: str({ format: 'uri' }),
      end_session_endpoint: str({ format: 'uri' }),
      jwks_uri: str({ format: 'uri' }),
      response_types_supported: array(str()),
      response_modes_supported: array(str()),
      grant_types_supported: array(str()),
      subject_types_supported: array(str()),
      id_token_signing_alg_values_supported: array(str()),
      scopes_supported: array(str()),
      token_endpoint_auth_methods_supported: array(str()),
      revocation_endpoint_auth_methods_supported: array(str()),
      introspection_endpoint_auth_methods_supported: array(str()),
      code_challenge_methods_supported: array(str()),
      claims_supported: array(str()),
      prompt_values_supported: array(str()),
    },
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'],
    { description: 'OpenID Connect Discovery 1.0.' },
  ),
  AuthorizationForm: object(
    {
      csrf: str({ description: 'The value of the `sb_csrf` cookie.' }),
      request: str({ description: "The authorization request's parameters, as the page carries them." }),
      step: str({ enum: ['login', 'consent'] }),
      email: str({ description: 'login' }),
      password: str({ description: 'login' }),
      decision: str({ enum: ['allow', 'deny'], description: 'consent' }),
    },
    ['csrf', 'request', 'step'],
    { description: 'What the login and consent pages post; not for clients.' },
  ),
};
