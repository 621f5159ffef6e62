import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AuthenticatePassword } from '../../application/auth/authenticate-password.use-case.js';
import type { CreateApiToken } from '../../application/tokens/create-api-token.use-case.js';
import type { ListApiTokens, RevokeApiToken } from '../../application/tokens/manage-api-tokens.use-cases.js';
import type { ChangePassword, GetProfile, UpdateProfile } from '../../application/users/profile.use-cases.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import { principalOf } from './authenticate.js';
import { throwProblem } from './middleware.js';
import { problemFor, problemOf, REALM, type Problem } from './problem.js';
import { param, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { json, jsonBody, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';
import { listBody, pageRequest } from './pagination.js';
import { jsonObjectBody, validated } from './validation.js';

const CREATE_TOKEN = ref('CreateApiToken');

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
  ];
}

const basicRequired = (detail: string): Problem => problemOf('invalid_credentials', detail, { headers: { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8"` } });

/** HTTP Basic with e-mail and password: tokens are never managed with another token. */
export function basicAuthentication(authenticate: AuthenticatePassword): Middleware {
  return async (ctx: Context, next: Next) => {
    const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(ctx.get('Authorization'));
    if (!match) throwProblem(basicRequired('This route takes the account e-mail and password (HTTP Basic), never a token.'));
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throwProblem(basicRequired('The Basic credentials must be e-mail:password.'));
    const result = await authenticate.execute(decoded.slice(0, colon), decoded.slice(colon + 1), ctx.ip);
    if (!result.ok) throwProblem(result.error.kind === 'RateLimited' ? problemFor(result.error) : basicRequired('The e-mail or password is wrong.'));
    (ctx.state as { userId: number }).userId = result.value;
    await next();
  };
}

/** `/user/tokens`: list, create (the token shown once) and revoke, with HTTP Basic. */
export function tokenRouter(useCases: TokenUseCases, jsonParser: Middleware): Router {
  const router = new Router();
  const userId = (ctx: Context) => (ctx.state as { userId: number }).userId;
  const auth = basicAuthentication(useCases.authenticate);
  router.get('/user/tokens', auth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const page = unwrap(await useCases.list.execute(userId(ctx), pageRequest(ctx)));
    ctx.body = listBody(page.items, page.next);
  });
  router.post('/user/tokens', auth, jsonParser, async (ctx) => {
    const body = validated<CreateTokenBody>(CREATE_TOKEN, jsonObjectBody(ctx));
    const created = unwrap(await useCases.create.execute({ userId: userId(ctx) }, body));
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Location', `/user/tokens/${created.id}`);
    ctx.body = { id: created.id, name: created.name, scopes: created.scopes, token: created.token, creationDate: formatTimestamp(created.creationDate) };
  });
  router.delete('/user/tokens/:tokenId', auth, async (ctx) => {
    unwrap(await useCases.revoke.execute(userId(ctx), param(ctx, 'tokenId')));
    ctx.status = 204;
  });
  return router;
}
