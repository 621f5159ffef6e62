import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { SignOutRequest } from '../../../application/identity/sign-out.use-case.js';
import { escapeHtml, sendHtml } from '../html.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { HEADERS, htmlPage } from '../openapi/route-description.js';
import { ref, str } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import { cookieHeader, readCookie, SESSION_COOKIE } from '../session-cookies.js';
import { FORM, FORM_LIMIT, redirectAnswer, singleParams } from './oauth-http.js';

const SIGN_OUT_PARAMETERS = [
  { name: 'id_token_hint', in: 'query' as const, description: 'An ID token this service issued to the client, expired or not: names the client.', schema: str() },
  { name: 'client_id', in: 'query' as const, description: 'The client, when no `id_token_hint` is given (or the same one as its audience).', schema: str() },
  { name: 'post_logout_redirect_uri', in: 'query' as const, description: "Where to go back to: one of the client's registered post-logout redirect URIs, compared exactly.", schema: str() },
  { name: 'state', in: 'query' as const, description: 'Given back as `state` on the redirect.', schema: str() },
];

/** A control for the pages of a signed-in user: a form that signs out (no parameters: the signed-out page follows). */
export const SIGN_OUT_FORM = '<form method="post" action="/o/oauth2/logout" class="sign-out"><button type="submit" class="secondary">Sign out</button></form>';

/**
 * Sign-out (OpenID Connect RP-Initiated Logout 1.0) at `end_session_endpoint`: GET for a client's
 * redirect, POST for forms (a client's or the sign-out control on these pages). The session ends
 * and its cookie is cleared; then back to the client, or the signed-out page.
 */
export function signOutRoutes(deps: Pick<IdentityUseCases, 'settings' | 'signOut'>): StandaloneRouteDefinition[] {
  const secure = () => deps.settings.issuer.startsWith('https:');
  const parse = koaBody({ urlencoded: true, json: false, text: false, multipart: false, formLimit: FORM_LIMIT });

  const answer = async (ctx: Context, params: Record<string, string>, repeated: string | undefined) => {
    const request: SignOutRequest = {
      cookie: readCookie(ctx, SESSION_COOKIE),
      idTokenHint: params['id_token_hint'],
      clientId: params['client_id'],
      postLogoutRedirectUri: params['post_logout_redirect_uri'],
      state: params['state'],
    };
    // A repeated parameter still signs out; it only keeps the browser from being sent anywhere.
    const outcome = await deps.signOut.execute(repeated ? { ...request, postLogoutRedirectUri: undefined } : request);
    ctx.append('Set-Cookie', cookieHeader(SESSION_COOKIE, '', 0, secure()));
    if (outcome.redirect !== null) {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(outcome.redirect);
      ctx.status = 303;
      return;
    }
    const refusal = repeated ? `${repeated} is given more than once.` : outcome.refusal;
    sendHtml(
      ctx,
      200,
      'Signed out',
      `<p role="status">You are signed out of Specbase.</p>${refusal ? `<p class="error">The application could not be sent back to: ${escapeHtml(refusal)}</p>` : ''}<p><a href="/login">Sign in again</a></p>`,
    );
  };

  const responses = {
    200: htmlPage('Signed out: the signed-out page (no redirect was asked for, or it cannot be made).', HEADERS.noStore),
    303: redirectAnswer('Signed out: back to the registered `post_logout_redirect_uri`, with `state`.'),
  };
  return [
    {
      method: 'GET',
      path: '/o/oauth2/logout',
      summary: 'Sign-out (end_session_endpoint): ends the session, then back to the client or the signed-out page',
      operationId: 'signOut',
      tag: 'Identity',
      description:
        "OpenID Connect RP-Initiated Logout 1.0. The browser's session ends (the next authorization asks for the password) and `sb_session` is cleared, whatever the parameters; " +
        'the redirect happens only to a post-logout redirect URI registered for the client that `id_token_hint` or `client_id` names.',
      security: [],
      parameters: SIGN_OUT_PARAMETERS,
      responses,
      handler: async (ctx) => {
        const { params, repeated } = singleParams(ctx.query);
        await answer(ctx, params, repeated);
      },
    },
    {
      method: 'POST',
      path: '/o/oauth2/logout',
      summary: 'Sign-out as a form: the same parameters in the body',
      operationId: 'signOutForm',
      tag: 'Identity',
      security: [],
      requestBody: { required: false, content: { [FORM]: { schema: ref('SignOutForm') } } },
      responses: { ...responses, 400: htmlPage('The form cannot be read.', HEADERS.noStore) },
      handler: async (ctx) => {
        try {
          await parse(ctx, async () => undefined);
        } catch {
          return sendHtml(ctx, 400, 'This form cannot be read', '<p class="error">Send the sign-out form as application/x-www-form-urlencoded.</p>');
        }
        const { params, repeated } = singleParams(ctx.request.body ?? {});
        await answer(ctx, params, repeated);
      },
    },
  ];
}
