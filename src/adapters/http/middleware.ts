import { randomUUID } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { HttpLogger } from './http-logger.js';
import type { HttpMetrics } from './http-metrics.js';
import { HttpProblem, problemOf, problemType, type Problem } from './problem.js';
import { StorageUnavailableError } from '../../application/ports/unit-of-work.port.js';

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestState {
  requestId: string;
}

/** Writes a problem+json response. */
export function sendProblem(ctx: Context, problem: Problem): void {
  ctx.status = problem.status;
  for (const [name, value] of Object.entries(problem.headers ?? {})) ctx.set(name, value);
  ctx.type = 'application/problem+json';
  ctx.body = {
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...(problem.line !== undefined ? { line: problem.line, column: problem.column ?? null } : {}),
    ...problem.members,
  };
}

/**
 * The route pattern that served the request, as @koa/router registered it (`/api/:accountId/:apiId`),
 * never the path itself, so logs and metrics group by route; `null` when no route matched the path.
 * Read from the layers that matched, not from `_matchedRoute`: a router-level middleware (the Bearer
 * check on `/api`) that answers first would leave its own prefix there. A path matched with a method
 * it does not allow (405) still names the route.
 */
export function routePattern(ctx: Context): string | null {
  const matched = (ctx as { matched?: readonly { readonly path: unknown; readonly methods: readonly string[] }[] }).matched ?? [];
  let samePath: string | null = null;
  for (let i = matched.length - 1; i >= 0; i -= 1) {
    const layer = matched[i]!;
    if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
    if (layer.methods.includes(ctx.method)) return layer.path;
    samePath ??= layer.path;
  }
  return samePath;
}

/** The caller's `X-Request-Id` when it is sane, a new UUID otherwise. */
export function requestIdOf(incoming: string | readonly string[] | undefined): string {
  return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Outermost middleware: a request id (the caller's `X-Request-Id` when it is sane), one structured
 * log line per request (`requestId`, `method`, `route`, `path` without the query, `status`,
 * `durationMs`), its duration in the metrics, and the last word on errors. Known problems become problem+json; errors
 * raised by Koa's body parsing keep their 4xx status; anything else is a generic 500 that is logged
 * with its stack and never echoed. `prepare` runs first for every request (the headers every
 * answer carries, the checks before anything else): here rather than a middleware of its own,
 * one async layer less on every request; what it throws is answered like the rest.
 */
export function requestContext(logger: HttpLogger, metrics?: Pick<HttpMetrics, 'requestServed'>, prepare?: (ctx: Context) => void): Middleware {
  return async (ctx: Context, next: Next) => {
    const requestId = requestIdOf(ctx.req.headers['x-request-id']);
    const state = ctx.state as RequestState;
    state.requestId = requestId;
    ctx.res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    try {
      prepare?.(ctx);
      await next();
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null || ctx.body === '')) {
        sendProblem(ctx, routingProblem(ctx));
      }
    } catch (error) {
      // A child logger only for a request that fails: making one per request cost more than the
      // rest of a cached read's logging (pino copies its bindings and serializers).
      sendProblem(ctx, problemOfThrown(error, ctx, logger.child({ requestId })));
    } finally {
      const elapsedMs = performance.now() - started;
      const durationMs = Math.round(elapsedMs * 100) / 100;
      const route = routePattern(ctx);
      logger.info({ requestId, method: ctx.method, route, path: ctx.path, status: ctx.status, durationMs }, 'request');
      metrics?.requestServed({ route, method: ctx.method, status: ctx.status, seconds: elapsedMs / 1000 });
    }
  };
}

/** Seconds a client is told to wait when the database is away. */
const RETRY_AFTER_S = 5;

/** 503 `database_unavailable`, with `Retry-After`. */
export function databaseUnavailable(ctx: Context): Problem {
  ctx.set('Retry-After', String(RETRY_AFTER_S));
  return problemOf('database_unavailable', `The database does not answer; try again in ${RETRY_AFTER_S} seconds.`);
}

/** The service's own routes, which answer without the database or say it is away. */
const ANSWERS_WITHOUT_DATABASE = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/swagger.yaml']);

/**
 * While `away()` (the database monitor saw the database stop answering), every request that needs
 * the database is answered 503 at once instead of waiting on a connection that may not come: call
 * it before the request goes on (it throws the problem).
 */
export function failFastWhileDatabaseAway(ctx: Context, away: () => boolean): void {
  if (away() && !ANSWERS_WITHOUT_DATABASE.has(ctx.path)) throw new HttpProblem(databaseUnavailable(ctx));
}

/** An error status the router set without a body (unknown path, method not allowed or not known). */
function routingProblem(ctx: Context): Problem {
  switch (ctx.status) {
    case 404:
      return problemOf('not_found', 'No such resource.');
    case 405:
      return problemOf('method_not_allowed', `${ctx.method} is not allowed here.`);
    case 501:
      return problemOf('not_implemented', `${ctx.method} is not supported.`);
    default:
      return { status: ctx.status, code: 'invalid_request', title: 'Error', detail: 'The request could not be served.' };
  }
}

/** Errors thrown by body parsing (co-body / raw-body) carry a 4xx `status`; they are the client's. */
function problemOfThrown(error: unknown, ctx: Context, log: HttpLogger): Problem {
  if (error instanceof HttpProblem) return error.problem;
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413) {
    return problemOf('payload_too_large', 'The request body is larger than this endpoint accepts.');
  }
  if (status === 415) {
    return problemOf('unsupported_media_type', 'The request body\'s encoding is not supported.');
  }
  if (isUndecodableBody(error, ctx)) {
    return problemOf('invalid_request', 'The request body could not be decoded as its Content-Encoding says.');
  }
  if (status === 400 && error instanceof SyntaxError) {
    return problemOf('invalid_json', `The request body is not valid JSON: ${error.message}`);
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return problemOf('invalid_request', 'The request could not be read.');
  }
  if (error instanceof StorageUnavailableError) {
    log.warn({ err: error, method: ctx.method, path: ctx.path }, 'the database did not answer');
    return databaseUnavailable(ctx);
  }
  log.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
  return problemOf('internal_error', 'An unexpected error occurred.');
}

/**
 * A zlib or brotli error from inflating a body sent with `Content-Encoding` (the body parsers decode
 * gzip, deflate and br before parsing): the client's bytes are at fault, and such errors carry no status.
 */
function isUndecodableBody(error: unknown, ctx: Context): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return ctx.get('Content-Encoding') !== '' && typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code);
}

export function throwProblem(problem: Problem): never {
  throw new HttpProblem(problem);
}
