import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Context, Middleware } from 'koa';
import { createHash } from 'node:crypto';
import {
  errorRedirect,
  type AuthorizationRequest,
  type Authorize,
  type SignedIn,
  type SignIn,
  type ValidateAuthorizationRequest,
} from '../../application/identity/authorization.use-cases.js';
import { KEY_SET_MAX_AGE_S, type SigningKeys } from '../../application/identity/signing-keys.js';
import type { AuthenticateClient, ClientCredentials, IssueTokens } from '../../application/identity/token-endpoint.use-cases.js';
import type { RevokeOAuthToken, TokenInfo, UserInfo, VerifyIssuedToken } from '../../application/identity/token-info.use-cases.js';
import type { OAuthError } from '../../application/identity/oauth-error.js';
import type { IdentitySettings } from '../../application/identity/identity-settings.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { scopeClaims, type Claim } from '../../domain/identity/oauth-scope.js';
import { escapeHtml, formActionSource, sendHtml } from './html.js';
import { REALM } from './problem.js';
import { bearerToken } from './authenticate.js';
import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import { CSRF_COOKIE, SESSION_COOKIE, SESSION_MAX_AGE_S, cookieHeader, csrfToken as csrfCookie, readCookie, sameSecret } from './session-cookies.js';

export interface IdentityUseCases {
  readonly settings: IdentitySettings;
  readonly keys: SigningKeys;
  readonly validate: ValidateAuthorizationRequest;
  readonly authorize: Authorize;
  readonly signIn: SignIn;
  readonly authenticateClient: AuthenticateClient;
  readonly issueTokens: IssueTokens;
  readonly tokenInfo: TokenInfo;
  readonly userInfo: UserInfo;
  readonly verify: VerifyIssuedToken;
  readonly revoke: RevokeOAuthToken;
  readonly users: UserRepository;
}

const FORM_LIMIT = '16kb';

/** Query or form parameters given once each; a repeated parameter is refused (RFC 6749 3.1, 3.2). */
function singleParams(source: unknown): { params: Record<string, string>; repeated: string | undefined } {
  const params: Record<string, string> = {};
  let repeated: string | undefined;
  if (typeof source !== 'object' || source === null) return { params, repeated };
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value === 'string') params[name] = value;
    else if (Array.isArray(value)) repeated ??= name;
  }
  return { params, repeated };
}

function bodyOf(ctx: Context): object {
  const body: unknown = ctx.request.body;
  return typeof body === 'object' && body !== null ? body : {};
}

/** The same for the request carried in a form's hidden field. */
function searchParams(search: URLSearchParams): { params: Record<string, string>; repeated: string | undefined } {
  const params: Record<string, string> = {};
  let repeated: string | undefined;
  for (const [name, value] of search) {
    if (name in params) repeated ??= name;
    else params[name] = value;
  }
  return { params, repeated };
}

const CLAIM_TEXT: Record<Claim, string> = {
  openid: 'Know who you are on Specbase (your user id)',
  email: 'See your e-mail address',
  profile: 'See your name, picture and locale',
};

/**
 * The identity service: Google's oauth2 v2 API (certs, tokeninfo, userinfo, me) and an OAuth 2.0
 * authorization server (authorization code with PKCE, implicit, refresh, revocation) with its own
 * login and consent pages. Errors speak OAuth (RFC 6749 5.2) and Google's shapes, not problem+json.
 */
export function identityRouter(deps: IdentityUseCases, limits: { readonly limiter: RateLimiter; readonly tokenEndpoint: RateLimit }): Router {
  const router = new Router();
  const secure = deps.settings.issuer.startsWith('https:');
  const parse = koaBody({ json: true, urlencoded: true, text: false, multipart: false, formLimit: FORM_LIMIT, jsonLimit: FORM_LIMIT });
  /** The body parser, whose failures (malformed, too large) answer in OAuth's error shape like everything else here. */
  const form: Middleware = async (ctx, next) => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (error) {
      const status = (error as { status?: number }).status;
      ctx.status = status === 413 ? 413 : 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: 'invalid_request', error_description: status === 413 ? `The body is larger than ${FORM_LIMIT}.` : 'The body could not be read: send application/x-www-form-urlencoded.' };
      return;
    }
    if (parsed) await next();
  };

  // ---- Published keys and discovery ----------------------------------------------------------

  router.get('/oauth2/v2/certs', async (ctx) => {
    const keys = await deps.keys.published();
    ctx.set('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_S}`);
    ctx.body = { keys: keys.map((k) => ({ alg: 'RS256', e: k.publicJwk['e'], kid: k.kid, kty: 'RSA', n: k.publicJwk['n'], use: 'sig' })) };
  });

  router.get('/oauth2/v1/certs', async (ctx) => {
    const keys = await deps.keys.published();
    ctx.set('Cache-Control', `public, max-age=${KEY_SET_MAX_AGE_S}`);
    ctx.body = Object.fromEntries(keys.map((k) => [k.kid, k.certificatePem]));
  });

  router.get('/.well-known/openid-configuration', (ctx) => {
    const base = deps.settings.issuer;
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      issuer: base,
      authorization_endpoint: `${base}/o/oauth2/auth`,
      token_endpoint: `${base}/o/oauth2/token`,
      userinfo_endpoint: `${base}/oauth2/v3/userinfo`,
      revocation_endpoint: `${base}/o/oauth2/revoke`,
      jwks_uri: `${base}/oauth2/v2/certs`,
      response_types_supported: ['code', 'token'],
      response_modes_supported: ['query', 'fragment'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'implicit'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      scopes_supported: [...scopeClaims(deps.settings.scopeBase).keys()],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      claims_supported: ['aud', 'auth_time', 'azp', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'locale', 'name', 'nonce', 'picture', 'sub'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    };
  });

  // ---- Tokeninfo and userinfo ----------------------------------------------------------------

  const tokeninfo = async (ctx: Context) => {
    const { params } = singleParams({ ...ctx.query, ...bodyOf(ctx) });
    const bearer = bearerToken(ctx);
    const accessToken = params['access_token'] ?? (params['id_token'] === undefined ? bearer : undefined);
    const result = await deps.tokenInfo.execute({ accessToken, idToken: params['id_token'] });
    ctx.set('Cache-Control', 'no-store');
    if (result.ok) {
      ctx.body = result.value;
    } else {
      ctx.status = 400;
      ctx.body = { error: 'invalid_token', error_description: 'Invalid Value' };
    }
  };
  router.get('/oauth2/v2/tokeninfo', tokeninfo);
  router.post('/oauth2/v2/tokeninfo', form, tokeninfo);

  const presentedAccessToken = (ctx: Context): string | undefined => {
    const bearer = bearerToken(ctx);
    const query = ctx.query['access_token'];
    return bearer ?? (typeof query === 'string' ? query : undefined);
  };
  const unauthenticated = (ctx: Context) => {
    ctx.status = 401;
    ctx.set('WWW-Authenticate', `Bearer realm="${REALM}", error="invalid_token"`);
    ctx.body = { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } };
  };
  const userinfo = async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store');
    const result = await deps.userInfo.execute(presentedAccessToken(ctx));
    if (result.ok) ctx.body = result.value;
    else unauthenticated(ctx);
  };
  router.get('/oauth2/v2/userinfo', userinfo);
  router.get('/userinfo/v2/me', userinfo);
  /** OpenID Connect's UserInfo (standard claims, `sub`), which discovery names, as Google's v3 endpoint is. */
  router.get('/oauth2/v3/userinfo', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const result = await deps.userInfo.execute(presentedAccessToken(ctx));
    if (!result.ok) return unauthenticated(ctx);
    const { id, verified_email: verified, ...rest } = result.value;
    ctx.body = { sub: id, ...rest, ...(verified === undefined ? {} : { email_verified: verified }) };
  });

  // ---- Token and revocation endpoints --------------------------------------------------------

  const oauthFailure = (ctx: Context, error: OAuthError) => {
    ctx.status = error.error === 'invalid_client' ? 401 : 400;
    if (error.error === 'invalid_client') ctx.set('WWW-Authenticate', `Basic realm="${REALM}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    ctx.body = { error: error.error, error_description: error.description };
  };

  /** RFC 6749 2.3.1: HTTP Basic (form-encoded id and secret) or the body's client_id / client_secret, never both. */
  const credentials = (ctx: Context, params: Record<string, string>): ClientCredentials | 'both' => {
    const basic = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(ctx.get('Authorization'));
    if (basic) {
      if (params['client_secret'] !== undefined) return 'both';
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const unform = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, ' '));
        } catch {
          return s;
        }
      };
      return colon < 0 ? { clientId: undefined, clientSecret: undefined, basic: true } : { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)), basic: true };
    }
    return { clientId: params['client_id'], clientSecret: params['client_secret'], basic: false };
  };

  router.post('/o/oauth2/token', form, async (ctx) => {
    const { params, repeated } = singleParams(ctx.request.body);
    if (repeated) return oauthFailure(ctx, { error: 'invalid_request', description: `${repeated} is given more than once.` });
    const presented = credentials(ctx, params);
    if (presented === 'both') return oauthFailure(ctx, { error: 'invalid_request', description: 'Authenticate the client one way: HTTP Basic or the body, not both.' });
    if (limits.tokenEndpoint.limit > 0) {
      // The client id is untrusted here (checked just below): its hash keeps the key short whatever was sent.
      const client = presented.clientId === undefined ? '-' : createHash('sha256').update(presented.clientId).digest('base64url').slice(0, 22);
      const decision = await limits.limiter.attempt(`token:${client}:${ctx.ip}`, limits.tokenEndpoint, new Date());
      if (!decision.allowed) {
        ctx.set('Retry-After', String(Math.max(1, Math.ceil(decision.resetMs / 1000))));
        ctx.status = 429;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { error: 'slow_down', error_description: 'Too many token requests from this client and address: try again later.' };
        return;
      }
    }
    const client = await deps.authenticateClient.execute(presented);
    if (!client.ok) return oauthFailure(ctx, client.error);
    const grantType = params['grant_type'];
    const result =
      grantType === 'authorization_code'
        ? await deps.issueTokens.authorizationCode(client.value, { code: params['code'], redirectUri: params['redirect_uri'], codeVerifier: params['code_verifier'] })
        : grantType === 'refresh_token'
          ? await deps.issueTokens.refreshToken(client.value, { refreshToken: params['refresh_token'], scope: params['scope'] })
          : undefined;
    if (!result) return oauthFailure(ctx, { error: grantType ? 'unsupported_grant_type' : 'invalid_request', description: grantType ? `grant_type ${grantType} is not supported.` : 'grant_type is required.' });
    if (!result.ok) return oauthFailure(ctx, result.error);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    ctx.body = result.value;
  });

  router.post('/o/oauth2/revoke', form, async (ctx) => {
    const { params } = singleParams({ ...ctx.query, ...bodyOf(ctx) });
    const presented = credentials(ctx, params);
    if (presented === 'both') return oauthFailure(ctx, { error: 'invalid_request', description: 'Authenticate the client one way: HTTP Basic or the body, not both.' });
    let client;
    if (presented.clientId !== undefined) {
      const authenticated = await deps.authenticateClient.execute(presented);
      if (!authenticated.ok) return oauthFailure(ctx, authenticated.error);
      client = authenticated.value;
    }
    if (params['token'] === undefined) return oauthFailure(ctx, { error: 'invalid_request', description: 'token is required.' });
    await deps.revoke.execute(params['token'], client);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.body = {};
  });

  // ---- Authorization endpoint: login and consent pages --------------------------------------

  const errorPage = (ctx: Context, error: OAuthError) =>
    sendHtml(
      ctx,
      400,
      'This sign-in request cannot go on',
      `<p class="error">${escapeHtml(error.description)}</p><p>Error: <code>${escapeHtml(error.error)}</code>. Nothing was sent to the application. Tell its developers.</p>`,
    );

  const csrfToken = (ctx: Context): string => csrfCookie(ctx, secure);

  const hidden = (ctx: Context, request: string, step: string) =>
    `<input type="hidden" name="csrf" value="${escapeHtml(csrfToken(ctx))}"><input type="hidden" name="request" value="${escapeHtml(request)}"><input type="hidden" name="step" value="${step}">`;

  /** A failed sign-in answers 200 with the reason on the page (a 401 would need an HTTP authentication challenge); the e-mail stays filled in. */
  const loginPage = (ctx: Context, request: AuthorizationRequest, query: string, problem?: string, status = 200, email = '') =>
    sendHtml(
      ctx,
      status,
      'Sign in',
      `<p>to continue to <strong>${escapeHtml(request.client.name)}</strong></p>${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/o/oauth2/auth">${hidden(ctx, query, 'login')}
<label for="email">E-mail</label><input type="email" id="email" name="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
      [formActionSource(request.redirectUri)],
    );

  const consentPage = async (ctx: Context, request: AuthorizationRequest, query: string, user: SignedIn) => {
    const who = await deps.users.get(user.userId);
    const claims = [...request.scope.claims].map((c) => `<li>${escapeHtml(CLAIM_TEXT[c])}</li>`).join('');
    sendHtml(
      ctx,
      200,
      `Allow ${request.client.name}?`,
      `<p><strong>${escapeHtml(request.client.name)}</strong> wants to access your Specbase account${who ? ` <strong>${escapeHtml(who.email)}</strong>` : ''}:</p><ul>${claims}</ul>
<form method="post" action="/o/oauth2/auth">${hidden(ctx, query, 'consent')}
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>`,
      [formActionSource(request.redirectUri)],
    );
  };

  const redirect = (ctx: Context, location: string) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect(location);
    ctx.status = 303;
  };

  /** Validates; an error shown on a page returns undefined, one for the client is redirected. */
  const validated = async (ctx: Context, params: Record<string, string>, repeated: string | undefined): Promise<AuthorizationRequest | undefined> => {
    if (repeated) {
      errorPage(ctx, { error: 'invalid_request', description: `${repeated} is given more than once.` });
      return undefined;
    }
    const request = await deps.validate.execute(params);
    if (request.ok) return request.value;
    if (request.error.redirect) redirect(ctx, errorRedirect(request.error.request, request.error.error));
    else errorPage(ctx, request.error.error);
    return undefined;
  };

  const proceed = async (ctx: Context, request: AuthorizationRequest, query: string, user: SignedIn | undefined) => {
    const step = await deps.authorize.next(request, user);
    if (step.kind === 'redirect') redirect(ctx, step.location);
    else if (step.kind === 'login') loginPage(ctx, request, query);
    else await consentPage(ctx, request, query, step.user);
  };

  router.get('/o/oauth2/auth', async (ctx) => {
    const { params, repeated } = singleParams(ctx.query);
    const request = await validated(ctx, params, repeated);
    if (!request) return;
    const query = new URLSearchParams(params).toString();
    await proceed(ctx, request, query, await deps.authorize.session(readCookie(ctx, SESSION_COOKIE)));
  });

  router.post('/o/oauth2/auth', koaBody({ urlencoded: true, json: false, text: false, multipart: false, formLimit: FORM_LIMIT }), async (ctx) => {
    const { params: fields } = singleParams(ctx.request.body);
    const query = fields['request'] ?? '';
    const original = searchParams(new URLSearchParams(query));
    const request = await validated(ctx, original.params, original.repeated);
    if (!request) return;
    if (!sameSecret(fields['csrf'], readCookie(ctx, CSRF_COOKIE))) {
      return loginPage(ctx, request, query, 'The form expired or came from elsewhere. Please sign in again.', 403);
    }
    if (fields['step'] === 'login') {
      const signedIn = await deps.signIn.execute({ email: fields['email'] ?? '', password: fields['password'] ?? '', ip: ctx.ip });
      if (!signedIn.ok) {
        if (signedIn.error.kind === 'RateLimited') {
          ctx.set('Retry-After', String(Math.ceil(signedIn.error.retryAfterMs / 1000)));
          return loginPage(ctx, request, query, 'Too many sign-in attempts. Wait a few minutes and try again.', 429);
        }
        return loginPage(ctx, request, query, 'The e-mail or password is wrong.', 200, fields['email'] ?? '');
      }
      ctx.append('Set-Cookie', cookieHeader(SESSION_COOKIE, signedIn.value.cookie, SESSION_MAX_AGE_S, secure));
      // A fresh sign-in satisfies prompt=login; consent is asked below if needed.
      const rest = new Set(request.prompt);
      rest.delete('login');
      return proceed(ctx, { ...request, prompt: rest }, query, signedIn.value.user);
    }
    const user = await deps.authorize.session(readCookie(ctx, SESSION_COOKIE));
    if (!user) return loginPage(ctx, request, query, 'Your session ended. Please sign in again.');
    if (fields['step'] !== 'consent' || (fields['decision'] !== 'allow' && fields['decision'] !== 'deny')) return errorPage(ctx, { error: 'invalid_request', description: 'The form was not filled in as expected.' });
    redirect(ctx, await deps.authorize.decide(request, user, fields['decision'] === 'allow'));
  });

  return router;
}
