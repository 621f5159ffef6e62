import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { SignIn } from '../../application/identity/authorization.use-cases.js';
import type { IdentitySettings } from '../../application/identity/identity-settings.js';
import { escapeHtml, sendHtml } from './html.js';
import { FORM, FORM_LIMIT } from './identity/oauth-http.js';
import { HEADERS, htmlPage } from './openapi/route-description.js';
import { object, str } from './openapi/schemas.js';
import type { StandaloneRouteDefinition } from './routes.js';
import { CSRF_COOKIE, SESSION_COOKIE, SESSION_MAX_AGE_S, cookieHeader, csrfToken, readCookie, sameSecret } from './session-cookies.js';

export interface SignInPageDependencies {
  readonly signIn: SignIn;
  /** The issuer: cookies get `Secure` when it (PUBLIC_URL) is https:. */
  readonly settings: Pick<IdentitySettings, 'issuer'>;
}

/** Where a sign-in goes when it names no (acceptable) place to continue to. */
export const DEFAULT_CONTINUE = '/docs';
const CONTINUE_MAX = 2000;
const BASE = 'http://specbase.invalid';

/**
 * The path to go to after signing in: only a path of this origin (`/docs/1/pets?x#y`), never
 * another origin, whatever the spelling (`https://evil.example`, `//evil.example`,
 * `/\evil.example`, control characters browsers drop, `/.//evil.example` that resolves to
 * `//evil.example`). Anything else becomes `DEFAULT_CONTINUE`: an open redirect would let a link
 * to the login page send a person, signed in, anywhere. What it returns it returns unchanged when
 * given again (the login form carries it back).
 */
export function safeContinue(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > CONTINUE_MAX || !isLocalPath(raw)) return DEFAULT_CONTINUE;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return DEFAULT_CONTINUE;
  }
  // Resolving removes `.` and `..` segments, which can leave two slashes in front: checked again.
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === BASE && isLocalPath(path) && path.length <= CONTINUE_MAX ? path : DEFAULT_CONTINUE;
}

/** One `/` and then not another `/` or `\` (which browsers read as a host to come), nor a space or control character. */
function isLocalPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  return path.startsWith('/') && !path.startsWith('//') && !/[\\\u0000-\u0020\u007f]/.test(path);
}

/** The login page's address that comes back to `path` afterwards. */
export function signInUrl(path: string): string {
  return `/login?${new URLSearchParams({ continue: path }).toString()}`;
}

/**
 * A sign-in of the identity service's own, for its pages rather than an OAuth client: the same
 * form, session cookie and rate limits as the authorization endpoint's login page, followed by a
 * redirect to `continue`.
 */
export function signInRoutes(deps: SignInPageDependencies): StandaloneRouteDefinition[] {
  const secure = () => deps.settings.issuer.startsWith('https:');
  const parse = koaBody({ urlencoded: true, json: false, text: false, multipart: false, formLimit: FORM_LIMIT });

  const page = (ctx: Context, next: string, options: { problem?: string; status?: number; email?: string } = {}) =>
    sendHtml(
      ctx,
      options.status ?? 200,
      'Sign in',
      `<p>to continue to <strong>Specbase</strong></p>${options.problem ? `<p class="error" role="alert">${escapeHtml(options.problem)}</p>` : ''}
<form method="post" action="/login"><input type="hidden" name="csrf" value="${escapeHtml(csrfToken(ctx, secure()))}"><input type="hidden" name="continue" value="${escapeHtml(next)}">
<label for="email">E-mail</label><input type="email" id="email" name="email" autocomplete="username" value="${escapeHtml(options.email ?? '')}" required>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
    );

  return [
    {
      method: 'GET',
      path: '/login',
      summary: "Sign-in page for Specbase's own pages (the documentation of private APIs), then back to `continue`",
      operationId: 'signInPage',
      tag: 'Identity',
      security: [],
      description: 'For browsers: the login form of the authorization endpoint without an OAuth client. `/docs/...` pages send visitors here.',
      parameters: [{ name: 'continue', in: 'query', schema: str(), description: 'A path of this origin; anything else (another origin, `//host`, a backslash, over 2,000 characters) becomes `/docs`.' }],
      responses: { 200: htmlPage('The login form.', HEADERS.noStore) },
      handler: (ctx) => page(ctx, safeContinue(ctx.query['continue'])),
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
        200: htmlPage('The form again, with the reason (a wrong e-mail or password).', HEADERS.noStore),
        303: {
          description: 'Signed in (`Set-Cookie: sb_session`): to `continue`.',
          headers: { Location: { required: true, description: 'The `continue` path, or `/docs`.', schema: str() }, ...HEADERS.noStore },
          content: { 'text/html': { schema: str() }, 'text/plain': { schema: str() } },
        },
        400: htmlPage('The form cannot be read.', HEADERS.noStore),
        403: htmlPage('The form expired or came from elsewhere (CSRF).', HEADERS.noStore),
        413: htmlPage('The form is over 16 KiB.', HEADERS.noStore),
        429: htmlPage('Too many sign-in attempts.', { ...HEADERS.noStore, ...HEADERS.retryAfter }),
      },
      handler: async (ctx) => {
        try {
          await parse(ctx, async () => undefined);
        } catch (error) {
          const tooLarge = (error as { status?: number }).status === 413;
          return sendHtml(ctx, tooLarge ? 413 : 400, 'This form cannot be read', `<p class="error">${tooLarge ? `The form is larger than ${FORM_LIMIT}.` : 'Send the sign-in form as application/x-www-form-urlencoded.'}</p><p><a href="/login">Sign in</a></p>`);
        }
        const body = ctx.request.body as Record<string, unknown> | undefined;
        const field = (name: string) => (typeof body?.[name] === 'string' ? body[name] : '');
        const next = safeContinue(body?.['continue']);
        if (!sameSecret(field('csrf'), readCookie(ctx, CSRF_COOKIE))) {
          return page(ctx, next, { problem: 'The form expired or came from elsewhere. Please sign in again.', status: 403 });
        }
        const signedIn = await deps.signIn.execute({ email: field('email'), password: field('password'), ip: ctx.ip });
        if (!signedIn.ok) {
          if (signedIn.error.kind === 'RateLimited') {
            ctx.set('Retry-After', String(Math.ceil(signedIn.error.retryAfterMs / 1000)));
            return page(ctx, next, { problem: 'Too many sign-in attempts. Wait a few minutes and try again.', status: 429 });
          }
          return page(ctx, next, { problem: 'The e-mail or password is wrong.', email: field('email') });
        }
        ctx.append('Set-Cookie', cookieHeader(SESSION_COOKIE, signedIn.value.cookie, SESSION_MAX_AGE_S, secure()));
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(next);
        ctx.status = 303;
      },
    },
  ];
}
