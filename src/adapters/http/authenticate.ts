import type { Context, Middleware, Next } from 'koa';
import type { AuthenticateToken } from '../../application/auth/authenticate-token.use-case.js';
import type { Principal } from '../../application/auth/principal.js';
import { invalidToken } from './problem.js';
import { throwProblem } from './middleware.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when absent or another scheme. */
export function bearerToken(ctx: Context): string | undefined {
  return bearerTokenIn(ctx.get('Authorization'));
}

/** The token of an `Authorization` header's value, when it is `Bearer <token>`. */
export function bearerTokenIn(authorization: string): string | undefined {
  return BEARER.exec(authorization)?.[1];
}

/** What the per-token API limit counts a request against: its token (or its user). */
export function apiLimitKey(principal: Principal): string {
  return `api:token:${principal.tokenId ?? principal.userId}`;
}

/** RFC 6750 Bearer authentication: a missing, malformed or unknown token is a 401 with `WWW-Authenticate`. */
export function bearerAuthentication(authenticate: AuthenticateToken): Middleware {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('Authorization');
    if (header === '') throwProblem(invalidToken('An Authorization: Bearer token is required.'));
    const presented = bearerToken(ctx);
    if (presented === undefined) throwProblem(invalidToken('The Authorization header must use the Bearer scheme.'));
    const result = await authenticate.execute(presented);
    if (!result.ok) throwProblem(invalidToken());
    (ctx.state as { principal: Principal }).principal = result.value;
    await next();
  };
}

export function principalOf(ctx: Context): Principal {
  return (ctx.state as { principal: Principal }).principal;
}
