import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Context, Middleware } from 'koa';
import type { ConfirmEmailVerification, RequestEmailVerification } from '../../application/users/email-verification.use-cases.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import { escapeHtml, sendHtml } from './html.js';
import { problemFor } from './problem.js';
import { unwrap } from './routes.js';
import { ref } from './openapi/schemas.js';
import { JSON_MEDIA_TYPES, jsonObjectBody, validated } from './validation.js';

export interface EmailVerificationUseCases {
  readonly request: RequestEmailVerification;
  readonly confirm: ConfirmEmailVerification;
}

const CONFIRM_BODY = ref('ConfirmEmailVerification');

const TOKEN_SHAPE = /^sbv_[A-Za-z0-9_-]{43}$/;

function html(ctx: Context, status: number, title: string, body: string): void {
  sendHtml(ctx, status, title, body);
}

/**
 * E-mail verification. `POST /user/email/verification` (HTTP Basic, like token management: before
 * verification a user can have no token) sends the link. The link opens `GET /user/email/verify`,
 * a page whose button POSTs the token back: a GET changes nothing, so mail scanners that follow
 * links do not use it up. `POST /user/email/verify` takes the token as a form field (the page) or
 * as JSON `{ "token" }` (scripts), and needs no other credential: the token is the proof.
 */
export function emailVerificationRouter(useCases: EmailVerificationUseCases, basicAuth: Middleware, jsonMaxBytes: number): Router {
  const router = new Router();
  router.post('/user/email/verification', basicAuth, async (ctx) => {
    const sent = unwrap(await useCases.request.execute((ctx.state as { userId: number }).userId));
    ctx.status = 202;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { email: sent.email, expirationDate: formatTimestamp(sent.expirationDate) };
  });

  router.get('/user/email/verify', (ctx) => {
    const token = typeof ctx.query['token'] === 'string' ? ctx.query['token'] : '';
    if (!TOKEN_SHAPE.test(token)) {
      html(ctx, 400, 'This link is not complete', '<p>The verification link is cut short or changed. Open the link from the message again, or ask for a new one.</p>');
      return;
    }
    html(
      ctx,
      200,
      'Verify your e-mail address',
      `<form method="post"><input type="hidden" name="token" value="${escapeHtml(token)}"><p>Confirm that this e-mail address is yours.</p><button type="submit">Verify e-mail address</button></form>`,
    );
  });

  const body = koaBody({ json: true, urlencoded: true, text: false, multipart: false, jsonLimit: jsonMaxBytes, formLimit: 4096, jsonStrict: true, jsonTypes: JSON_MEDIA_TYPES });
  router.post('/user/email/verify', body, async (ctx) => {
    if (ctx.request.is('application/x-www-form-urlencoded')) {
      const token = (ctx.request.body as Record<string, unknown> | undefined)?.['token'];
      const result = await useCases.confirm.execute(token);
      if (result.ok) html(ctx, 200, 'E-mail address verified', `<p>${escapeHtml(result.value.email)} is verified. You can create API tokens now.</p>`);
      else html(ctx, problemFor(result.error).status, 'This link no longer works', '<p>It was used already, has expired, or a newer one was sent. Ask for a new one.</p>');
      return;
    }
    const { token } = validated<{ token: string }>(CONFIRM_BODY, jsonObjectBody(ctx));
    const verified = unwrap(await useCases.confirm.execute(token));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { email: verified.email, emailVerified: true };
  });
  return router;
}
