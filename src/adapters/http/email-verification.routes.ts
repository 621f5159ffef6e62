import { koaBody } from 'koa-body';
import type { Context, Middleware } from 'koa';
import type { ConfirmEmailVerification, RequestEmailVerification } from '../../application/users/email-verification.use-cases.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import { escapeHtml, sendHtml } from './html.js';
import { problemFor } from './problem.js';
import { basicUserOf } from './user.routes.js';
import { unwrap, type StandaloneRouteDefinition } from './routes.js';
import { HEADERS, htmlPage, json, JSON_BODY_PROBLEMS, PASSWORD, PASSWORD_PROBLEMS } from './openapi/route-description.js';
import { ref, str } from './openapi/schemas.js';
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
export function emailVerificationRoutes(useCases: EmailVerificationUseCases, basicAuth: Middleware, jsonMaxBytes: number): StandaloneRouteDefinition[] {
  const parse = koaBody({ json: true, urlencoded: true, text: false, multipart: false, jsonLimit: jsonMaxBytes, formLimit: 4096, jsonStrict: true, jsonTypes: JSON_MEDIA_TYPES });
  return [
    {
      method: 'POST',
      path: '/user/email/verification',
      summary: 'Send an e-mail verification link',
      operationId: 'requestEmailVerification',
      tag: 'E-mail verification',
      description: 'No body. Sends a one-time link, valid 24 hours, to the address; only the newest link works.',
      security: PASSWORD,
      responses: { 202: json('Handed to the mailer.', ref('VerificationSent'), HEADERS.noStore) },
      problems: [...PASSWORD_PROBLEMS, 'email_already_verified'],
      middleware: [basicAuth],
      handler: async (ctx) => {
        const sent = unwrap(await useCases.request.execute(basicUserOf(ctx)));
        ctx.status = 202;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { email: sent.email, expirationDate: formatTimestamp(sent.expirationDate) };
      },
    },
    {
      method: 'GET',
      path: '/user/email/verify',
      summary: 'The page a verification link opens (changes nothing)',
      operationId: 'showEmailVerification',
      tag: 'E-mail verification',
      security: [],
      parameters: [{ name: 'token', in: 'query', required: true, description: 'From the message: `sbv_` and 43 base64url characters.', schema: str() }],
      responses: {
        200: htmlPage('A page whose button POSTs the token back.', HEADERS.noStore),
        400: htmlPage('The link is cut short or changed.', HEADERS.noStore),
      },
      handler: (ctx) => {
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
      },
    },
    {
      method: 'POST',
      path: '/user/email/verify',
      summary: 'Confirm the e-mail address with the token from the message',
      operationId: 'confirmEmailVerification',
      tag: 'E-mail verification',
      description: 'A form (what the page sends) answers an HTML page; JSON (`application/json` only) answers JSON. The token is the only credential.',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: CONFIRM_BODY },
          'application/x-www-form-urlencoded': { schema: CONFIRM_BODY },
        },
      },
      responses: {
        200: {
          description: 'Verified.',
          headers: HEADERS.noStore,
          content: { 'application/json': { schema: ref('EmailVerified') }, 'text/html': { schema: str() } },
        },
        400: htmlPage('A form with a token that no longer works.', HEADERS.noStore),
      },
      problems: JSON_BODY_PROBLEMS,
      middleware: [parse],
      handler: async (ctx) => {
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
      },
    },
  ];
}
