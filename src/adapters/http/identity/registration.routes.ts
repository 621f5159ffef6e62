import type { Context } from 'koa';
import type { RegistrationError } from '../../../application/identity/client-registration.use-cases.js';
import type { OAuthClient } from '../../../domain/identity/oauth-client.js';
import type { Result } from '../../../domain/shared/result.js';
import type { IdentityUseCases } from '../identity.routes.js';
import { throwProblem } from '../middleware.js';
import { problemOf } from '../problem.js';
import { HEADERS, json, noBody } from '../openapi/route-description.js';
import { ref, str } from '../openapi/schemas.js';
import type { StandaloneRouteDefinition } from '../routes.js';
import { oauthError, oauthForm, overLimit } from './oauth-http.js';
import type { IdentityLimits } from '../identity.routes.js';

const REGISTRATION = '/o/oauth2/register';

/** The Bearer token of the request, if it sends one. */
function bearer(ctx: Context): string | undefined {
  return /^Bearer +([\x21-\x7e]+) *$/i.exec(ctx.get('Authorization'))?.[1];
}

/** RFC 7591 3.2.1 / RFC 7592 3: the client's metadata, and what was issued at registration (shown once). */
function clientInformation(client: OAuthClient, issuer: string, issued: { readonly clientSecret?: string | null; readonly registrationAccessToken?: string | null } = {}): Record<string, unknown> {
  const state = client.snapshot();
  const registration = state.registration!;
  return {
    client_id: state.id,
    ...(issued.clientSecret ? { client_secret: issued.clientSecret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(state.creationDate.getTime() / 1000),
    ...(issued.registrationAccessToken ? { registration_access_token: issued.registrationAccessToken } : {}),
    registration_client_uri: `${issuer}${REGISTRATION}/${encodeURIComponent(state.id)}`,
    client_name: state.name,
    redirect_uris: state.redirectUris,
    post_logout_redirect_uris: state.postLogoutRedirectUris,
    token_endpoint_auth_method: registration.tokenEndpointAuthMethod,
    grant_types: registration.grantTypes,
    response_types: registration.responseTypes,
    ...(registration.scope === null ? {} : { scope: registration.scope }),
  };
}

/** The OAuth answer of a refusal (RFC 7591 3.2.2, RFC 6750 3.1 for the tokens); `Off` is the 404 of a path that is not there. */
function refuse(ctx: Context, error: RegistrationError): void {
  if (error.kind === 'Off') throwProblem(problemOf('not_found', 'Dynamic client registration is off on this server (CLIENT_REGISTRATION).'));
  ctx.set('Cache-Control', 'no-store');
  if (error.kind === 'InvalidToken') {
    ctx.status = 401;
    ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
    ctx.body = { error: 'invalid_token', error_description: 'A valid access token is required: an initial access token to register, the registration access token to manage.' };
    return;
  }
  ctx.status = 400;
  ctx.body = { error: error.error, error_description: error.description };
}

const UNAUTHORIZED = oauthError('`invalid_token`: no token, a wrong, used or expired one (an unknown client too).', { 'WWW-Authenticate': { required: true, description: '`Bearer error="invalid_token"`', schema: str() } });

/**
 * Dynamic client registration (RFC 7591) at `registration_endpoint` and its management (RFC 7592)
 * at each client's `registration_client_uri`. Off by default: 404, and not in the discovery
 * document.
 */
export function registrationRoutes(deps: Pick<IdentityUseCases, 'settings' | 'registrations'>, limits: IdentityLimits): StandaloneRouteDefinition[] {
  const body = oauthForm();
  const jsonOnly = async (ctx: Context, next: () => Promise<unknown>) => {
    if (!ctx.is('application/json')) {
      ctx.status = 400;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: 'invalid_client_metadata', error_description: 'Send the client metadata as application/json.' };
      return;
    }
    await next();
  };
  const clientId = (ctx: Context) => (ctx.params as Record<string, string | undefined>)['clientId'] ?? '';
  /** RFC 7592 3: the client as registered now, or the refusal. */
  const answerClient = (ctx: Context, result: Result<OAuthClient, RegistrationError>) => {
    if (!result.ok) return refuse(ctx, result.error);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = clientInformation(result.value, deps.settings.issuer);
  };
  return [
    {
      method: 'POST',
      path: REGISTRATION,
      summary: 'Dynamic client registration (RFC 7591), when the operator allows it',
      operationId: 'registerClient',
      tag: 'Identity',
      description:
        '`CLIENT_REGISTRATION=token`: an initial access token from `specbase client registration-token` as Bearer, good for one registration within 24 hours; `open`: none. ' +
        'Redirect URIs: https, or http on loopback, without fragment. The answer shows `client_secret` (none for `token_endpoint_auth_method=none`) and `registration_access_token` once.',
      security: [{ initialAccessToken: [] }, {}],
      // Registration off (`CLIENT_REGISTRATION=off`, the default): the 404 of a path that is not there.
      problems: ['not_found'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ClientMetadata') } } },
      readsOwnBody: true,
      responses: {
        201: json('Registered.', ref('ClientInformation'), HEADERS.noStore),
        400: oauthError('`invalid_redirect_uri` or `invalid_client_metadata`.'),
        401: UNAUTHORIZED,
        429: oauthError('`slow_down`: too many registrations from this address (`RATE_LIMIT_TOKEN_ENDPOINT` per minute).', HEADERS.retryAfter),
      },
      middleware: [jsonOnly, body],
      handler: async (ctx) => {
        if (deps.registrations.enabled && (await overLimit(ctx, limits, `register:${ctx.ip}`, 'Too many registrations from this address: try again later.'))) return;
        const registered = await deps.registrations.register(bearer(ctx), ctx.request.body);
        if (!registered.ok) return refuse(ctx, registered.error);
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = clientInformation(registered.value.client, deps.settings.issuer, registered.value);
      },
    },
    {
      method: 'GET',
      path: `${REGISTRATION}/:clientId`,
      summary: 'A registered client reads its registration (RFC 7592)',
      operationId: 'readClientRegistration',
      tag: 'Identity',
      description: 'With its registration access token as Bearer. The secret is never shown again.',
      security: [{ registrationAccessToken: [] }],
      problems: ['not_found'],
      responses: { 200: json('The client as registered.', ref('ClientInformation'), HEADERS.noStore), 401: UNAUTHORIZED },
      handler: async (ctx) => {
        answerClient(ctx, await deps.registrations.read(clientId(ctx), bearer(ctx)));
      },
    },
    {
      method: 'PUT',
      path: `${REGISTRATION}/:clientId`,
      summary: 'A registered client replaces its metadata (RFC 7592)',
      operationId: 'updateClientRegistration',
      tag: 'Identity',
      description: 'The whole metadata, with `client_id`; fields left out take their defaults. A public client stays public and a confidential one confidential.',
      security: [{ registrationAccessToken: [] }],
      problems: ['not_found'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ClientMetadata') } } },
      readsOwnBody: true,
      responses: {
        200: json('The client as registered now.', ref('ClientInformation'), HEADERS.noStore),
        400: oauthError('`invalid_redirect_uri` or `invalid_client_metadata`.'),
        401: UNAUTHORIZED,
      },
      middleware: [jsonOnly, body],
      handler: async (ctx) => {
        answerClient(ctx, await deps.registrations.update(clientId(ctx), bearer(ctx), ctx.request.body));
      },
    },
    {
      method: 'DELETE',
      path: `${REGISTRATION}/:clientId`,
      summary: 'A registered client deletes itself (RFC 7592): its tokens stop working at once',
      operationId: 'deleteClientRegistration',
      tag: 'Identity',
      security: [{ registrationAccessToken: [] }],
      problems: ['not_found'],
      responses: { 204: noBody('Deleted.'), 401: UNAUTHORIZED },
      handler: async (ctx) => {
        const deleted = await deps.registrations.delete(clientId(ctx), bearer(ctx));
        if (!deleted.ok) return refuse(ctx, deleted.error);
        ctx.status = 204;
      },
    },
  ];
}
