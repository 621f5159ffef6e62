import type { Context, Middleware, Next } from 'koa';
import type { AuthenticatePassword } from '../../application/auth/authenticate-password.use-case.js';
import type { CreateApiToken } from '../../application/tokens/create-api-token.use-case.js';
import type { ListApiTokens, RevokeApiToken } from '../../application/tokens/manage-api-tokens.use-cases.js';
import type { ChangePassword, GetProfile, UpdateProfile } from '../../application/users/profile.use-cases.js';
import type { ListConnectedApps, WithdrawConnectedApp } from '../../application/identity/connected-apps.use-cases.js';
import type { UserId } from '../../domain/account/account.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import { principalOf } from './authenticate.js';
import { throwProblem } from './middleware.js';
import { problemFor, problemOf, REALM, type Problem } from './problem.js';
import { param, pathId, unwrap, jsonInput, type RouteDefinition, type StandaloneRouteDefinition } from './routes.js';
import { HEADERS, json, JSON_BODY_PROBLEMS, jsonBody, LIST_PARAMETERS, noBody, PASSWORD, PASSWORD_PROBLEMS } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';
import { listBody, pageRequest } from './pagination.js';

interface UpdateProfileBody {
  nickname?: unknown;
  name?: unknown;
  givenName?: unknown;
  familyName?: unknown;
  picture?: unknown;
  locale?: unknown;
}

interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
}

interface CreateTokenBody {
  name: unknown;
  scopes: unknown;
}

export interface ProfileUseCases {
  readonly get: GetProfile;
  readonly update: UpdateProfile;
  readonly changePassword: ChangePassword;
  readonly connectedApps: ListConnectedApps;
  readonly withdrawApp: WithdrawConnectedApp;
}

export interface TokenUseCases {
  readonly authenticate: AuthenticatePassword;
  readonly list: ListApiTokens;
  readonly create: CreateApiToken;
  readonly revoke: RevokeApiToken;
}

/** The User-API's profile routes, behind a Bearer token with the profile scopes. */
export function profileRoutes(useCases: ProfileUseCases): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/user',
      scope: 'profile.readonly',
      summary: "The caller's profile",
      operationId: 'getProfile',
      tag: 'User',
      responses: { 200: json("The token's user.", ref('Profile')) },
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx)));
      },
    },
    {
      method: 'PATCH',
      path: '/user',
      scope: 'profile',
      summary: 'Change nickname, name, given/family name, picture URL or locale',
      operationId: 'updateProfile',
      tag: 'User',
      description: 'Changes any of the fields given; `null` clears an optional one; `{}` changes nothing.',
      requestBody: jsonBody(ref('UpdateProfile')),
      responses: { 200: json('The profile as it is now.', ref('Profile')) },
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), jsonInput<UpdateProfileBody>(ctx)));
      },
    },
    {
      method: 'PUT',
      path: '/user/password',
      scope: 'profile',
      summary: 'Change the password (the current one is required)',
      operationId: 'changePassword',
      tag: 'User',
      description: "Ends the user's identity-service sessions and revokes every grant; API tokens stay valid.",
      requestBody: jsonBody(ref('ChangePassword')),
      responses: { 204: noBody('Changed.') },
      problems: ['wrong_password', 'weak_password'],
      handler: async (ctx) => {
        unwrap(await useCases.changePassword.execute(principalOf(ctx), { ...jsonInput<ChangePasswordBody>(ctx), ip: ctx.ip }));
        ctx.status = 204;
      },
    },
    {
      method: 'GET',
      path: '/user/grants',
      scope: 'profile.readonly',
      summary: "The caller's connected applications: the OAuth clients they allowed",
      operationId: 'listConnectedApps',
      tag: 'User',
      description: 'Each application the user consented to on the identity service, with the scopes allowed and when it last got tokens.',
      responses: { 200: json('The connected applications.', ref('ConnectedAppList')) },
      handler: async (ctx) => {
        const apps = unwrap(await useCases.connectedApps.execute(principalOf(ctx)));
        ctx.body = listBody(
          apps.map((app) => ({ ...app, creationDate: formatTimestamp(app.creationDate), lastUseDate: app.lastUseDate && formatTimestamp(app.lastUseDate) })),
          null,
        );
      },
    },
    {
      method: 'DELETE',
      path: '/user/grants/:clientId',
      scope: 'profile',
      summary: 'Withdraw a connected application: its tokens for the caller stop working at once',
      operationId: 'withdrawConnectedApp',
      tag: 'User',
      description: 'Removes the consent and revokes every grant of that client for the user: its access, refresh and ID tokens are refused from the next request; its next authorization request asks for consent again.',
      responses: { 204: noBody('Withdrawn.') },
      problems: ['not_found'],
      handler: async (ctx) => {
        unwrap(await useCases.withdrawApp.execute(principalOf(ctx), param(ctx, 'clientId')));
        ctx.status = 204;
      },
    },
  ];
}

const basicRequired = (detail: string): Problem => problemOf('invalid_credentials', detail, { headers: { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8"` } });

/** HTTP Basic with e-mail and password: tokens are never managed with another token. */
export function basicAuthentication(useCases: { readonly authenticate: AuthenticatePassword }): Middleware {
  return async (ctx: Context, next: Next) => {
    const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(ctx.get('Authorization'));
    if (!match) throwProblem(basicRequired('This route takes the account e-mail and password (HTTP Basic), never a token.'));
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throwProblem(basicRequired('The Basic credentials must be e-mail:password.'));
    const result = await useCases.authenticate.execute(decoded.slice(0, colon), decoded.slice(colon + 1), ctx.ip);
    if (!result.ok) throwProblem(result.error.kind === 'RateLimited' ? problemFor(result.error) : basicRequired('The e-mail or password is wrong.'));
    (ctx.state as BasicState).userId = result.value;
    await next();
  };
}

interface BasicState {
  userId: UserId;
}

/** The user `basicAuthentication` let through. */
export function basicUserOf(ctx: Context): UserId {
  return (ctx.state as BasicState).userId;
}

/** `/user/tokens`: list, create (the token shown once) and revoke, with HTTP Basic. */
export function tokenRoutes(useCases: TokenUseCases): StandaloneRouteDefinition[] {
  const userId = basicUserOf;
  const auth = basicAuthentication(useCases);
  return [
    {
      method: 'GET',
      path: '/user/tokens',
      summary: "The user's API tokens",
      operationId: 'listApiTokens',
      tag: 'API tokens',
      security: PASSWORD,
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of tokens, in creation order.', ref('ApiTokenList'), HEADERS.noStore) },
      problems: [...PASSWORD_PROBLEMS, 'validation_failed'],
      middleware: [auth],
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const page = unwrap(await useCases.list.execute(userId(ctx), pageRequest(ctx)));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/user/tokens',
      summary: 'Create an API token (shown once)',
      operationId: 'createApiToken',
      tag: 'API tokens',
      description: 'Needs a verified e-mail address.',
      security: PASSWORD,
      requestBody: jsonBody(ref('CreateApiToken')),
      responses: { 201: json('The token, with `token` for the only time.', ref('CreatedApiToken'), { ...HEADERS.noStore, ...HEADERS.location }) },
      problems: [...PASSWORD_PROBLEMS, ...JSON_BODY_PROBLEMS, 'email_not_verified', 'plan_limit'],
      middleware: [auth],
      handler: async (ctx) => {
        const body = jsonInput<CreateTokenBody>(ctx);
        const created = unwrap(await useCases.create.execute({ userId: userId(ctx) }, body));
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Location', `/user/tokens/${created.id}`);
        ctx.body = { id: created.id, name: created.name, scopes: created.scopes, token: created.token, creationDate: formatTimestamp(created.creationDate) };
      },
    },
    {
      method: 'DELETE',
      path: '/user/tokens/:tokenId',
      summary: 'Revoke an API token',
      operationId: 'revokeApiToken',
      tag: 'API tokens',
      security: PASSWORD,
      responses: { 204: noBody('Revoked: the next request with it gets 401.') },
      problems: [...PASSWORD_PROBLEMS, 'not_found'],
      middleware: [auth],
      handler: async (ctx) => {
        unwrap(await useCases.revoke.execute(userId(ctx), pathId(ctx, 'tokenId')));
        ctx.status = 204;
      },
    },
  ];
}
