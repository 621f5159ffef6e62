import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { SignedIn } from '../../../application/identity/authorization.use-cases.js';
import type { Claim } from '../../../domain/identity/oauth-scope.js';
import { escapeHtml, sendHtml } from '../html.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { HEADERS, htmlPage } from '../openapi/route-description.js';
import { ref, str } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import { CSRF_COOKIE, csrfToken, readCookie, sameSecret, SESSION_COOKIE } from '../session-cookies.js';
import { signInUrl } from '../sign-in.routes.js';
import { CLAIM_TEXT } from './authorization.routes.js';
import { FORM, FORM_LIMIT, redirectAnswer, singleParams } from './oauth-http.js';
import { SIGN_OUT_FORM } from './sign-out.routes.js';

/**
 * `verification_uri` of the device flow (RFC 8628 3.3): a signed-in user types the code their device
 * shows (or finds it filled in from `verification_uri_complete`), sees which application asks for
 * what, and allows or denies it. Same markup, CSRF double submit and CSP as the consent page;
 * someone not signed in signs in first and comes back.
 */
export function deviceRoutes(deps: Pick<IdentityUseCases, 'settings' | 'authorize' | 'device'>): StandaloneRouteDefinition[] {
  const secure = () => deps.settings.issuer.startsWith('https:');
  const parse = koaBody({ urlencoded: true, json: false, text: false, multipart: false, formLimit: FORM_LIMIT });
  const hidden = (ctx: Context, step: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrfToken(ctx, secure()))}"><input type="hidden" name="step" value="${step}">`;

  const codePage = (ctx: Context, typed: string, options: { problem?: string; status?: number } = {}) =>
    sendHtml(
      ctx,
      options.status ?? 200,
      'Connect a device',
      `<p>Enter the code your device shows.</p>${options.problem ? `<p class="error" role="alert">${escapeHtml(options.problem)}</p>` : ''}
<form method="post" action="/device">${hidden(ctx, 'code')}
<label for="user_code">Code</label><input type="text" id="user_code" name="user_code" value="${escapeHtml(typed)}" autocomplete="off" autocapitalize="characters" spellcheck="false" required>
<button type="submit">Continue</button></form>
<p>Not you?</p>${SIGN_OUT_FORM}`,
    );

  const consentPage = (ctx: Context, view: { userCode: string; clientName: string; claims: ReadonlySet<Claim> }) =>
    sendHtml(
      ctx,
      200,
      `Allow ${view.clientName}?`,
      `<p><strong>${escapeHtml(view.clientName)}</strong> on the device showing <strong>${escapeHtml(view.userCode)}</strong> wants to access your Specbase account:</p><ul>${[...view.claims].map((c) => `<li>${escapeHtml(CLAIM_TEXT[c])}</li>`).join('')}</ul>
<form method="post" action="/device">${hidden(ctx, 'consent')}<input type="hidden" name="user_code" value="${escapeHtml(view.userCode)}">
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>`,
    );

  const signedInOrSent = async (ctx: Context, back: string): Promise<SignedIn | undefined> => {
    const user = await deps.authorize.session(readCookie(ctx, SESSION_COOKIE));
    if (user) return user;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(signInUrl(back));
    ctx.status = 303;
    return undefined;
  };

  return [
    {
      method: 'GET',
      path: '/device',
      summary: 'Device flow: the page where a user enters the code a device shows (verification_uri)',
      operationId: 'devicePage',
      tag: 'Identity',
      description: 'For browsers. Not signed in: 303 to the sign-in page, which comes back here. Then the code form (filled in from `user_code`), the consent page, and the answer.',
      security: [],
      parameters: [{ name: 'user_code', in: 'query', description: 'The code, as `verification_uri_complete` carries it.', schema: str({ maxLength: 64 }) }],
      responses: { 200: htmlPage('The code form.', HEADERS.noStore), 303: redirectAnswer('Not signed in: to the sign-in page, and back.') },
      handler: async (ctx) => {
        const { params } = singleParams(ctx.query);
        const typed = (params['user_code'] ?? '').slice(0, 64);
        const back = typed === '' ? '/device' : `/device?${new URLSearchParams({ user_code: typed }).toString()}`;
        if (await signedInOrSent(ctx, back)) codePage(ctx, typed);
      },
    },
    {
      method: 'POST',
      path: '/device',
      summary: 'The forms of the device page: the code, then the decision (not for clients)',
      operationId: 'submitDeviceForm',
      tag: 'Identity',
      security: [],
      requestBody: { required: true, content: { [FORM]: { schema: ref('DeviceForm') } } },
      responses: {
        200: htmlPage('The next page: the consent page, the code form again with the reason, or the answer.', HEADERS.noStore),
        303: redirectAnswer('Not signed in (any more): to the sign-in page.'),
        400: htmlPage('The form cannot be read, or was not filled in as expected.', HEADERS.noStore),
        403: htmlPage('The form expired or came from elsewhere (CSRF).', HEADERS.noStore),
        429: htmlPage('Too many codes tried.', { ...HEADERS.noStore, ...HEADERS.retryAfter }),
      },
      handler: async (ctx) => {
        try {
          await parse(ctx, async () => undefined);
        } catch {
          return sendHtml(ctx, 400, 'This form cannot be read', '<p class="error">Send the form as application/x-www-form-urlencoded.</p><p><a href="/device">Start again</a></p>');
        }
        const { params: fields } = singleParams(ctx.request.body ?? {});
        const typed = (fields['user_code'] ?? '').slice(0, 64);
        const user = await signedInOrSent(ctx, '/device');
        if (!user) return;
        if (!sameSecret(fields['csrf'], readCookie(ctx, CSRF_COOKIE))) return codePage(ctx, typed, { problem: 'The form expired or came from elsewhere. Please enter the code again.', status: 403 });
        if (fields['step'] === 'code') {
          const found = await deps.device.lookup(typed, user, ctx.ip);
          if (found.ok) return consentPage(ctx, found.value);
          if (found.error.kind === 'RateLimited') {
            ctx.set('Retry-After', String(Math.max(1, Math.ceil(found.error.retryAfterMs / 1000))));
            return codePage(ctx, typed, { problem: 'Too many codes tried. Wait a few minutes and try again.', status: 429 });
          }
          return codePage(ctx, typed, { problem: 'This code is not valid: it may have expired or been used. Check the code on your device.' });
        }
        if (fields['step'] !== 'consent' || (fields['decision'] !== 'allow' && fields['decision'] !== 'deny')) {
          return sendHtml(ctx, 400, 'This form was not filled in as expected', '<p class="error">Start again from the code your device shows.</p><p><a href="/device">Enter a code</a></p>');
        }
        const allow = fields['decision'] === 'allow';
        const decided = await deps.device.decide(typed, user, ctx.ip, allow);
        if (!decided.ok) {
          if (decided.error.kind === 'RateLimited') {
            ctx.set('Retry-After', String(Math.max(1, Math.ceil(decided.error.retryAfterMs / 1000))));
            return codePage(ctx, '', { problem: 'Too many codes tried. Wait a few minutes and try again.', status: 429 });
          }
          return codePage(ctx, '', { problem: 'This code is not valid any more: it may have expired or been used. Check the code on your device.' });
        }
        sendHtml(ctx, 200, allow ? 'Device connected' : 'Request denied', `<p role="status">${allow ? 'Done. You can return to your device.' : 'The device was not given access. You can close this page.'}</p>`);
      },
    },
  ];
}
