import type { Header, Parameter, Response } from './openapi.types.js';
import { htmlPage, json, type StandaloneRoute } from './route-description.js';
import { object, ref, str } from './schemas.js';

const FORM = 'application/x-www-form-urlencoded';

const noStore = (value = 'no-store'): Readonly<Record<string, Header>> => ({ 'Cache-Control': { required: true, description: `\`${value}\``, schema: str({ const: value }) } });
const oauthError = (description: string, headers?: Readonly<Record<string, Header>>): Response => json(description, ref('OAuthError'), { ...noStore(), ...headers });
/** Koa's redirect: the `Location`, and a one-line note of it as HTML or text (by `Accept`). */
const redirect = (description: string): Response => ({
  description,
  headers: { Location: { required: true, description: 'The redirect URI with the answer in its query or fragment.', schema: str() }, ...noStore() },
  content: { 'text/html': { schema: str() }, 'text/plain': { schema: str() } },
});
const cached = (seconds: number): Readonly<Record<string, Header>> => ({
  'Cache-Control': { required: true, description: `\`public, max-age=${seconds}\``, schema: str({ const: `public, max-age=${seconds}` }) },
});

/** The body parser's failures, in OAuth's shape: 400 (unreadable) and 413 (over 16 KiB). */
const UNREADABLE_BODY: Readonly<Record<string, Response>> = {
  400: oauthError('`invalid_request` (an unreadable body, a repeated parameter, a missing one) and the other RFC 6749 errors.'),
  413: oauthError('`invalid_request`: the body is over 16 KiB.'),
};

const AUTHORIZATION_PARAMETERS: readonly Parameter[] = [
  { name: 'response_type', in: 'query', required: true, schema: str({ enum: ['code', 'token'] }), description: '`token`: the implicit flow.' },
  { name: 'client_id', in: 'query', required: true, schema: str() },
  { name: 'redirect_uri', in: 'query', required: true, schema: str(), description: 'One of the registered URIs, compared as an exact string.' },
  { name: 'scope', in: 'query', required: true, schema: str(), description: 'Space-separated: `openid`, `email`, `profile` or the `{scope_base}/auth/...` names.' },
  { name: 'state', in: 'query', schema: str({ maxLength: 2000 }), description: 'Returned unchanged with every answer.' },
  { name: 'code_challenge', in: 'query', schema: str({ pattern: '^[A-Za-z0-9_-]{43}$' }), description: 'PKCE (required for public clients).' },
  { name: 'code_challenge_method', in: 'query', schema: str({ enum: ['S256'] }) },
  { name: 'access_type', in: 'query', schema: str({ enum: ['online', 'offline'] }), description: '`offline`: a refresh token too (code flow).' },
  { name: 'prompt', in: 'query', schema: str(), description: 'Space-separated: `none`, `login`, `consent`, `select_account`.' },
  { name: 'nonce', in: 'query', schema: str({ maxLength: 2000 }), description: 'Copied into the ID token.' },
];

const ACCESS_TOKEN_QUERY: Parameter = { name: 'access_token', in: 'query', description: 'The access token, instead of `Authorization: Bearer`.', schema: str() };
const TOKENINFO_QUERY: readonly Parameter[] = [ACCESS_TOKEN_QUERY, { name: 'id_token', in: 'query', description: 'An ID token to describe.', schema: str() }];

const UNAUTHENTICATED: Response = json("No valid access token: Google's error shape.", ref('GoogleError'), {
  'WWW-Authenticate': { required: true, description: '`Bearer realm="specbase", error="invalid_token"`', schema: str() },
  ...noStore(),
});

const ACCESS_TOKEN = [{ oauth2: [] }];
const OPTIONAL_CLIENT = [{ oauthClient: [] }, {}];

/** The identity service: OAuth 2.0 and OpenID Connect endpoints and Google's oauth2 v2 API, at the origin root. */
export const IDENTITY_ROUTES: readonly StandaloneRoute[] = [
  {
    method: 'GET',
    path: '/o/oauth2/auth',
    summary: 'Authorization endpoint: login and consent pages, then back to the client',
    operationId: 'authorize',
    tag: 'Identity',
    description:
      'For browsers. Without a live session the login page, then (unless allowed before) the consent page; then 303 to the redirect URI with `code` (query) or the implicit flow\'s token (fragment), or with `error`. ' +
      'An unknown client or redirect URI is an error page, never a redirect.',
    security: [],
    parameters: AUTHORIZATION_PARAMETERS,
    responses: {
      200: htmlPage('The login or consent page.', noStore()),
      303: redirect('Back to the client: an answer or an error.'),
      400: htmlPage('The request cannot be answered to the client (unknown client, unregistered redirect URI, a repeated parameter).', noStore()),
    },
  },
  {
    method: 'POST',
    path: '/o/oauth2/auth',
    summary: 'The login and consent forms of the authorization pages (not for clients)',
    operationId: 'submitAuthorizationForm',
    tag: 'Identity',
    security: [],
    requestBody: { required: true, content: { [FORM]: { schema: ref('AuthorizationForm') } } },
    responses: {
      200: htmlPage('The next page, or the login page again with the reason.', noStore()),
      303: redirect('Signed in (consent not needed) or decided: back to the client.'),
      400: htmlPage('The form or the request it carries is not valid.', noStore()),
      403: htmlPage('The form expired or came from elsewhere (CSRF).', noStore()),
      429: htmlPage('Too many sign-in attempts.', { ...noStore(), 'Retry-After': { required: true, description: 'Seconds.', schema: { type: 'integer', minimum: 1 } } }),
    },
    // A form that cannot be read is answered by the server's common error handling, not a page.
    problems: ['payload_too_large', 'invalid_request', 'unsupported_media_type'],
  },
  {
    method: 'GET',
    path: '/login',
    summary: "Sign-in page for Specbase's own pages (the documentation of private APIs), then back to `continue`",
    operationId: 'signInPage',
    tag: 'Identity',
    security: [],
    description: 'For browsers: the login form of the authorization endpoint without an OAuth client. `/docs/...` pages send visitors here.',
    parameters: [{ name: 'continue', in: 'query', schema: str(), description: 'A path of this origin; anything else (another origin, `//host`, a backslash, over 2,000 characters) becomes `/docs`.' }],
    responses: { 200: htmlPage('The login form.', noStore()) },
  },
  {
    method: 'POST',
    path: '/login',
    summary: 'The form of the sign-in page: a session cookie, then 303 to `continue`',
    operationId: 'signIn',
    tag: 'Identity',
    security: [],
    requestBody: {
      required: true,
      content: { [FORM]: { schema: object({ csrf: str({ description: 'The value of the `sb_csrf` cookie.' }), continue: str(), email: str(), password: str() }, ['csrf', 'email', 'password']) } },
    },
    responses: {
      200: htmlPage('The form again, with the reason (a wrong e-mail or password).', noStore()),
      303: {
        description: 'Signed in (`Set-Cookie: sb_session`): to `continue`.',
        headers: { Location: { required: true, description: 'The `continue` path, or `/docs`.', schema: str() }, ...noStore() },
        content: { 'text/html': { schema: str() }, 'text/plain': { schema: str() } },
      },
      400: htmlPage('The form cannot be read.', noStore()),
      403: htmlPage('The form expired or came from elsewhere (CSRF).', noStore()),
      413: htmlPage('The form is over 16 KiB.', noStore()),
      429: htmlPage('Too many sign-in attempts.', { ...noStore(), 'Retry-After': { required: true, description: 'Seconds.', schema: { type: 'integer', minimum: 1 } } }),
    },
  },
  {
    method: 'POST',
    path: '/o/oauth2/token',
    summary: 'Token endpoint: authorization_code and refresh_token grants',
    operationId: 'token',
    tag: 'Identity',
    description: 'RFC 6749 section 5. Confidential clients authenticate with HTTP Basic or `client_id`/`client_secret` in the body; public clients send `client_id` only.',
    security: OPTIONAL_CLIENT,
    requestBody: { required: true, content: { [FORM]: { schema: ref('TokenRequest') }, 'application/json': { schema: ref('TokenRequest') } } },
    responses: {
      200: json('The tokens.', ref('TokenResponse'), { ...noStore(), Pragma: { required: true, description: '`no-cache`', schema: str({ const: 'no-cache' }) } }),
      ...UNREADABLE_BODY,
      401: oauthError('`invalid_client`.', { 'WWW-Authenticate': { required: true, description: '`Basic realm="specbase"`', schema: str() } }),
      429: oauthError('`slow_down`: too many token requests from this client and address.', { 'Retry-After': { required: true, description: 'Seconds.', schema: { type: 'integer', minimum: 1 } } }),
    },
  },
  {
    method: 'POST',
    path: '/o/oauth2/revoke',
    summary: 'Revoke an access or refresh token and its whole grant (RFC 7009)',
    operationId: 'revoke',
    tag: 'Identity',
    description: 'Client authentication is optional; with `client_id` the client must authenticate and can revoke only its own tokens. Unknown tokens are answered `200 {}` too.',
    security: OPTIONAL_CLIENT,
    requestBody: { required: true, content: { [FORM]: { schema: ref('RevocationRequest') }, 'application/json': { schema: ref('RevocationRequest') } } },
    responses: {
      200: json('Done (or nothing to do).', object({}, [], { additionalProperties: false }), noStore()),
      ...UNREADABLE_BODY,
      401: oauthError('`invalid_client`.', { 'WWW-Authenticate': { required: true, description: '`Basic realm="specbase"`', schema: str() } }),
    },
  },
  {
    method: 'GET',
    path: '/.well-known/openid-configuration',
    summary: 'OpenID Connect discovery',
    operationId: 'openIdConfiguration',
    tag: 'Identity',
    security: [],
    responses: { 200: json('The discovery document.', ref('OpenIdConfiguration'), cached(3600)) },
  },
  {
    method: 'GET',
    path: '/oauth2/v2/certs',
    summary: 'The JWK set that verifies access and ID tokens',
    operationId: 'jsonWebKeys',
    tag: 'Identity',
    security: [],
    responses: { 200: json('The published keys.', ref('JsonWebKeySet'), cached(300)) },
  },
  {
    method: 'GET',
    path: '/oauth2/v1/certs',
    summary: 'The same keys as PEM X.509 certificates',
    operationId: 'pemCertificates',
    tag: 'Identity',
    security: [],
    responses: { 200: json('kid to certificate.', ref('PemCertificates'), cached(300)) },
  },
  {
    method: 'GET',
    path: '/oauth2/v2/tokeninfo',
    summary: "Google's Tokeninfo of an access or ID token",
    operationId: 'tokeninfo',
    tag: 'Identity',
    security: [{}, ...ACCESS_TOKEN],
    parameters: TOKENINFO_QUERY,
    responses: {
      200: json('What the token is.', ref('Tokeninfo'), noStore()),
      400: oauthError('`invalid_token` (`Invalid Value`): unknown, malformed, expired or revoked, or none.'),
    },
  },
  {
    method: 'POST',
    path: '/oauth2/v2/tokeninfo',
    summary: "Google's Tokeninfo, the token in the body",
    operationId: 'tokeninfoByPost',
    tag: 'Identity',
    security: [{}, ...ACCESS_TOKEN],
    parameters: TOKENINFO_QUERY,
    requestBody: { content: { [FORM]: { schema: ref('TokeninfoRequest') }, 'application/json': { schema: ref('TokeninfoRequest') } } },
    responses: {
      200: json('What the token is.', ref('Tokeninfo'), noStore()),
      400: oauthError('`invalid_token` (`Invalid Value`), or `invalid_request` for an unreadable body.'),
      413: oauthError('`invalid_request`: the body is over 16 KiB.'),
    },
  },
  {
    method: 'GET',
    path: '/oauth2/v2/userinfo',
    summary: "Google's Userinfoplus of the token's user",
    operationId: 'userinfo',
    tag: 'Identity',
    security: ACCESS_TOKEN,
    parameters: [ACCESS_TOKEN_QUERY],
    responses: { 200: json('Fields by the scope of the token.', ref('Userinfo'), noStore()), 401: UNAUTHENTICATED },
  },
  {
    method: 'GET',
    path: '/userinfo/v2/me',
    summary: 'The same as /oauth2/v2/userinfo',
    operationId: 'me',
    tag: 'Identity',
    security: ACCESS_TOKEN,
    parameters: [ACCESS_TOKEN_QUERY],
    responses: { 200: json('Fields by the scope of the token.', ref('Userinfo'), noStore()), 401: UNAUTHENTICATED },
  },
  {
    method: 'GET',
    path: '/oauth2/v3/userinfo',
    summary: 'OpenID Connect UserInfo (`sub`, `email_verified`)',
    operationId: 'openIdUserinfo',
    tag: 'Identity',
    security: ACCESS_TOKEN,
    parameters: [ACCESS_TOKEN_QUERY],
    responses: { 200: json('Claims by the scope of the token.', ref('OpenIdUserinfo'), noStore()), 401: UNAUTHENTICATED },
  },
];
