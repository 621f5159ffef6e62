import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { errorRedirect, type AuthorizationRequest, type SignedIn } from '../../../application/identity/authorization.use-cases.js';
import type { OAuthError } from '../../../application/identity/oauth-error.js';
import type { Claim } from '../../../domain/identity/oauth-scope.js';
import { escapeHtml, formActionSources, sendHtml } from '../html.js';
import { HEADERS, htmlPage } from '../openapi/route-description.js';
import { ref } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { CSRF_COOKIE, SESSION_COOKIE, SESSION_MAX_AGE_S, cookieHeader, csrfToken as csrfCookie, readCookie, sameSecret } from '../session-cookies.js';
import { AUTHORIZATION_PARAMETERS, FORM, FORM_LIMIT, redirectAnswer, searchParams, singleParams } from './oauth-http.js';
import { SIGN_OUT_FORM } from './sign-out.routes.js';

export const CLAIM_TEXT: Record<Claim, string> = {
  openid: 'Know who you are on Specbase (your user id)',
  email: 'See your e-mail address',
  profile: 'See your name, picture and locale',
};

/**
 * The authorization endpoint for browsers: the login and consent pages (CSRF double submit, the
 * session cookie), then the answer or the error sent back to the client's redirect URI.
 */
export function authorizationRoutes(deps: Pick<IdentityUseCases, 'settings' | 'validate' | 'authorize' | 'signIn' | 'users'>): StandaloneRouteDefinition[] {
  const secure = () => deps.settings.issuer.startsWith('https:');
  const errorPage = (ctx: Context, error: OAuthError) =>
    sendHtml(
      ctx,
      400,
      'This sign-in request cannot go on',
      `<p class="error">${escapeHtml(error.description)}</p><p>Error: <code>${escapeHtml(error.error)}</code>. Nothing was sent to the application. Tell its developers.</p>`,
    );

  const csrfToken = (ctx: Context): string => csrfCookie(ctx, secure());

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
      formActionSources(request.redirectUri),
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
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>
<p>Not you?</p>${SIGN_OUT_FORM}`,
      formActionSources(request.redirectUri),
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
    else if (step.kind === 'error') errorPage(ctx, step.error);
    else if (step.kind === 'login') loginPage(ctx, request, query);
    else await consentPage(ctx, request, query, step.user);
  };

  return [
    {
      method: 'GET',
      path: '/o/oauth2/auth',
      summary: 'Authorization endpoint: login and consent pages, then back to the client',
      operationId: 'authorize',
      tag: 'Identity',
      description:
        'For browsers. Without a live session the login page, then (unless allowed before) the consent page; then 303 to the redirect URI with `code` (query) or the implicit flow\'s token (fragment), or with `error`. ' +
        'An unknown client or redirect URI is an error page, never a redirect; so is any error before the user has answered (a bad request, `prompt=none`) of a client that registered itself without an initial access token.',
      security: [],
      parameters: AUTHORIZATION_PARAMETERS,
      responses: {
        200: htmlPage('The login or consent page.', HEADERS.noStore),
        303: redirectAnswer('Back to the client: an answer or an error.'),
        400: htmlPage('The request cannot be answered to the client (unknown client, unregistered redirect URI, a repeated parameter, any error of an openly registered client before the user has answered).', HEADERS.noStore),
      },
      handler: async (ctx) => {
        const { params, repeated } = singleParams(ctx.query);
        const request = await validated(ctx, params, repeated);
        if (!request) return;
        const query = new URLSearchParams(params).toString();
        await proceed(ctx, request, query, await deps.authorize.session(readCookie(ctx, SESSION_COOKIE)));
      
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
        200: htmlPage('The next page, or the login page again with the reason.', HEADERS.noStore),
        303: redirectAnswer('Signed in (consent not needed) or decided: back to the client.'),
        400: htmlPage('The form or the request it carries is not valid.', HEADERS.noStore),
        403: htmlPage('The form expired or came from elsewhere (CSRF).', HEADERS.noStore),
        429: htmlPage('Too many sign-in attempts.', { ...HEADERS.noStore, ...HEADERS.retryAfter }),
      },
      // A form that cannot be read is answered by the server's common error handling, not a page.
      problems: ['payload_too_large', 'invalid_request', 'unsupported_media_type'],
      middleware: [koaBody({ urlencoded: true, json: false, text: false, multipart: false, formLimit: FORM_LIMIT })],
      handler: async (ctx) => {
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
          ctx.append('Set-Cookie', cookieHeader(SESSION_COOKIE, signedIn.value.cookie, SESSION_MAX_AGE_S, secure()));
          // A fresh sign-in satisfies prompt=login; consent is asked below if needed.
          const rest = new Set(request.prompt);
          rest.delete('login');
          return proceed(ctx, { ...request, prompt: rest }, query, signedIn.value.user);
        }
        const user = await deps.authorize.session(readCookie(ctx, SESSION_COOKIE));
        if (!user) return loginPage(ctx, request, query, 'Your session ended. Please sign in again.');
        if (fields['step'] !== 'consent' || (fields['decision'] !== 'allow' && fields['decision'] !== 'deny')) return errorPage(ctx, { error: 'invalid_request', description: 'The form was not filled in as expected.' });
        redirect(ctx, await deps.authorize.decide(request, user, fields['decision'] === 'allow'));
      
      },
    },
  ];
}
