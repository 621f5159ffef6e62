import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { RouteTable, type TableRoute } from './route-table.js';
import { accessOfMethod, scopesPermit, type Area, type Scope } from '../../domain/token/scope.js';
import type { ApiAccess } from '../../application/auth/api-access.js';
import { principalOf } from './authenticate.js';
import { throwProblem } from './middleware.js';
import { problemFor } from './problem.js';
import type { ApplicationError } from '../../application/shared/application-error.js';
import type { Result } from '../../domain/shared/result.js';
import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { PageId } from '../../domain/page/page.aggregate.js';
import type { OwnerOnlyAction, ShareId } from '../../domain/share/share.aggregate.js';
import type { ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import type { DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import type { WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import { parseIntegerKeyText, parseUuid } from '../../domain/shared/ids.js';
import { jsonOnlySchema, type RouteDescription, type StandaloneRoute } from './openapi/route-description.js';
import type { JsonSchema } from './openapi/openapi.types.js';
import { jsonObjectBody, validated } from './validation.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route and its whole HTTP contract, declared next to its handler: the router serves it, its
 * scope guards it, its JSON request schema validates the body, and the OpenAPI and Swagger
 * documents, the reference of docs/http-api.md and the scope-matrix tests are generated from it.
 */
export interface RouteDefinition extends RouteDescription {
  readonly method: Method;
  /** @koa/router syntax, e.g. `/api/:accountId/:apiId`. */
  readonly path: string;
  /** The scope the contract names for it (`null`: no token needed). */
  readonly scope: Scope | null;
  readonly summary: string;
  /** On one API: only the owner's account may, never a grantee of a share, whatever the role; the action's name (its operation id). */
  readonly ownerOnly?: OwnerOnlyAction;
  readonly middleware?: readonly Middleware[];
  readonly handler: (ctx: Context) => Promise<void>;
}

/**
 * Refuses a token without the route's scope (403 `insufficient_scope`) before its body is read: an
 * unauthorised caller must not make the server parse a 10 MiB import. The use case still
 * authorises (scope and account); the scope-matrix test keeps the two in agreement.
 */
function requireScope(scope: Scope): Middleware {
  const [area, readonly] = scope.split('.') as [Area, string | undefined];
  const access = readonly === undefined ? 'write' : 'read';
  return (ctx, next) => {
    if (!scopesPermit(principalOf(ctx).scopes, area, access)) throwProblem(problemFor({ kind: 'InsufficientScope', scope }));
    return next();
  };
}

/**
 * Refuses a write to another account before its body is read, as `requireScope` does for scopes:
 * someone else's account is a 404 whatever the body holds, not a 400 about the body. On one API
 * the grantee's share decides (the same check the use case then makes). Reads carry no body and
 * are left to the use case, which lets a grantee list the APIs shared with them.
 */
function requireAccess(route: RouteDefinition, scope: Scope, apiAccess: ApiAccess): Middleware | undefined {
  if (accessOfMethod(route.method) === 'read' || !route.path.includes(':accountId')) return undefined;
  const area = scope.split('.')[0] as Area;
  const onApi = route.path.includes(':apiId');
  return async (ctx, next) => {
    const principal = principalOf(ctx);
    const accountId = accountIdParam(ctx);
    if (onApi) unwrap(await apiAccess.check(principal, area, 'write', { accountId, apiId: pathId(ctx, 'apiId') }, route.ownerOnly === undefined ? undefined : { action: route.ownerOnly }));
    else if (accountId !== principal.accountId) throwProblem(problemFor({ kind: 'NotFound', resource: 'account' }));
    await next();
  };
}

const JSON_INPUT = Symbol('json input');

/** The JSON body of a route that declares one, validated against its schema before the handler runs. */
export function jsonInput<T>(ctx: Context): T {
  const state = ctx.state as Record<symbol, unknown>;
  if (!(JSON_INPUT in state)) throw new Error(`${ctx.method} ${ctx.path} declares no JSON request body`);
  return state[JSON_INPUT] as T;
}

function validateJsonInput(schema: JsonSchema): Middleware {
  return async (ctx, next) => {
    (ctx.state as Record<symbol, unknown>)[JSON_INPUT] = validated(schema, jsonObjectBody(ctx));
    await next();
  };
}

/**
 * Each route behind its guards, as one composed step for a `RouteTable`: `bearer` (the token and
 * its limit), the scope and the account, then, for a route whose request body is JSON, the parser
 * and the validation against its declared schema.
 */
export function guardedRoutes(routes: readonly RouteDefinition[], bearer: Middleware, apiAccess: ApiAccess, jsonParser: Middleware): TableRoute[] {
  return routes.map((route) => {
    const guards: Middleware[] = [bearer];
    if (route.scope !== null) {
      guards.push(requireScope(route.scope));
      const access = requireAccess(route, route.scope, apiAccess);
      if (access) guards.push(access);
    }
    const schema = jsonOnlySchema(route.requestBody);
    if (schema !== undefined) guards.push(jsonParser, validateJsonInput(schema));
    return { method: route.method, path: route.path, serve: compose([...guards, ...(route.middleware ?? []), route.handler]) };
  });
}

/**
 * A route outside the Bearer table (the identity service, the sign-in page): its credentials
 * (`security`) and its contract declared beside its handler, like a `RouteDefinition`.
 */
export interface StandaloneRouteDefinition extends StandaloneRoute {
  readonly middleware?: readonly Middleware[];
  /** Its middleware reads and checks the JSON body and answers in its own error shape (OAuth's), not problem+json. */
  readonly readsOwnBody?: true;
  readonly handler: (ctx: Context) => Promise<void> | void;
}

/**
 * A route table serving `routes`, each behind its own middleware; a route whose body is JSON and
 * nothing else gets the parser and the validation against its schema after them, as in the Bearer
 * table.
 */
export function standaloneRouter(routes: readonly StandaloneRouteDefinition[], jsonParser: Middleware): RouteTable {
  return new RouteTable(
    routes.map((route) => {
      const schema = route.readsOwnBody ? undefined : jsonOnlySchema(route.requestBody);
      const json = schema === undefined ? [] : [jsonParser, validateJsonInput(schema)];
      return { method: route.method, path: route.path, serve: compose([...(route.middleware ?? []), ...json, route.handler as Middleware]) };
    }),
  );
}

/** The value of a successful result; an error result becomes its problem response. */
export function unwrap<T>(result: Result<T, ApplicationError>): T {
  if (!result.ok) throwProblem(problemFor(result.error));
  return result.value;
}

/** `<account_id>` of a path: an id that cannot exist is simply not found. */
export function accountIdParam(ctx: Context): AccountId {
  const id = parseIntegerKeyText<AccountId>(param(ctx, 'accountId'));
  if (id === undefined) throwProblem(problemFor({ kind: 'NotFound', resource: 'account' }));
  return id;
}

/** The ids a path may carry, by parameter name, with the resource each names. */
interface PathIds {
  readonly apiId: ApiId;
  readonly pageId: PageId;
  readonly shareId: ShareId;
  readonly webhookId: WebhookId;
  readonly deliveryId: DeliveryId;
  readonly tokenId: ApiTokenId;
}
const PATH_ID_RESOURCES: { readonly [N in keyof PathIds]: string } = { apiId: 'api', pageId: 'page', shareId: 'share', webhookId: 'webhook', deliveryId: 'delivery', tokenId: 'token' };

/**
 * A UUID of the path, parsed into its id type: a text that is not a UUID names nothing, so it is
 * the resource's 404 at once (after the token's scope, before anything is read).
 */
export function pathId<N extends keyof PathIds>(ctx: Context, name: N): PathIds[N] {
  const id = parseUuid<PathIds[N]>(param(ctx, name));
  if (id === undefined) throwProblem(problemFor({ kind: 'NotFound', resource: PATH_ID_RESOURCES[name] }));
  return id;
}

export function param(ctx: Context, name: string): string {
  return (ctx.params as Record<string, string | undefined>)[name] ?? '';
}
