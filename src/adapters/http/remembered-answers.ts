import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import type { AuthenticateToken } from '../../application/auth/authenticate-token.use-case.js';
import type { Principal } from '../../application/auth/principal.js';
import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import { apiLimitKey, bearerTokenIn } from './authenticate.js';
import type { HttpLogger } from './http-logger.js';
import type { HttpMetrics } from './http-metrics.js';
import { requestIdOf, routePattern } from './middleware.js';
import { rateLimitReset } from './rate-limit.js';

/** A read's answer as Koa sent it, less what every request makes anew (its id, the limit's state). */
export interface RememberedAnswer {
  /** The body, and after it the headers the route set: `ETag` if any, `Content-Type`, `Content-Length`. */
  readonly body: string;
  readonly headers: readonly string[];
  /** For the request's log line and its duration in the metrics, as Koa's way logs them. */
  readonly route: string | null;
  readonly path: string;
}

/** Longest `Authorization` and URL together that are remembered (a page's query included). */
const MAX_KEY_LENGTH = 1_024;
/** Longer bodies (in characters) are not remembered: a page of 100 APIs is ~35 KB. */
const MAX_BODY_LENGTH = 256 * 1024;

/**
 * The answers of the hot reads (an API, a page of APIs), remembered per `Authorization` and URL
 * while the database does not change, so that asking again is answered before Koa (ADR 0029). The
 * version is the read cache's (`TypeOrmDatabase.changeVersion`): any commit, of this instance or
 * another, changes it, and with it every answer is dropped at once; a version that never repeats
 * (PostgreSQL while its change listener is down) remembers nothing. A route marks an answer
 * `rememberable` only when it is a function of the caller's token, the URL and rows whose every
 * change moves the version on every instance (ADR 0029: the owner's APIs, not a grantee's, whose
 * share has no change notification on PostgreSQL). What each request must do anyway (authenticate the
 * token through the token cache, count it against its limit, its id, log line and metrics) is done
 * again for each, by `answerRemembered`.
 */
export class RememberedAnswers {
  private readonly answers = new Map<string, RememberedAnswer>();
  /** The version the answers held were read at. */
  private readVersion: string | undefined;

  constructor(
    readonly version: () => string,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.answers.size;
  }

  /** The answer for `authorization` and `url`, when the database has not changed since it was read. */
  get(authorization: string, url: string): RememberedAnswer | undefined {
    if (this.answers.size === 0) return undefined;
    if (this.version() !== this.readVersion) {
      this.answers.clear();
      return undefined;
    }
    return this.answers.get(keyOf(authorization, url));
  }

  /** Remembers `answer`, read by a request that began at `version`, unless the database changed since. */
  put(authorization: string, url: string, version: string, answer: RememberedAnswer): void {
    if (this.maxEntries === 0 || authorization.length + url.length > MAX_KEY_LENGTH || answer.body.length > MAX_BODY_LENGTH) return;
    if (this.version() !== version) return;
    if (version !== this.readVersion) {
      this.answers.clear();
      this.readVersion = version;
    }
    const key = keyOf(authorization, url);
    if (!this.answers.has(key) && this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, answer);
  }
}

function keyOf(authorization: string, url: string): string {
  return `${url} ${authorization}`;
}

const REMEMBERABLE = Symbol('rememberable');

/**
 * Marks the answer being made as one `RememberedAnswers` may keep: a GET whose 200 depends on the
 * caller's token, the URL and the database alone.
 */
export function rememberable(ctx: Context): void {
  (ctx.state as Record<symbol, unknown>)[REMEMBERABLE] = true;
}

/**
 * Keeps the 200 answers of `rememberable` GETs with a Bearer token: after the request id and the
 * headers every answer carries, before the routes. The version is taken as the request begins, so
 * a commit while it is served leaves its answer unremembered.
 */
export function rememberAnswers(answers: RememberedAnswers): Middleware {
  return async (ctx: Context, next: Next) => {
    const { req } = ctx;
    const { authorization } = req.headers;
    if (req.method !== 'GET' || authorization === undefined) {
      await next();
      return;
    }
    const version = answers.version();
    await next();
    const { body } = ctx;
    if ((ctx.state as Record<symbol, unknown>)[REMEMBERABLE] !== true || ctx.status !== 200 || typeof body !== 'string') return;
    const { res } = ctx;
    const etag = res.getHeader('ETag');
    const headers = [...(typeof etag === 'string' ? ['ETag', etag] : []), 'Content-Type', String(res.getHeader('Content-Type')), 'Content-Length', String(res.getHeader('Content-Length'))];
    answers.put(authorization, req.url ?? '', version, { body, headers, route: routePattern(ctx), path: ctx.path });
  };
}

export interface AnswerRememberedDependencies {
  readonly answers: RememberedAnswers;
  readonly authenticate: Pick<AuthenticateToken, 'executeAtOnce'>;
  readonly limiter: RateLimiter;
  readonly limit: RateLimit;
  /** The headers every answer carries, as name, value, name, value. */
  readonly headers: readonly string[];
  readonly draining: () => boolean;
  readonly databaseAway?: () => boolean;
  readonly logger: HttpLogger;
  readonly metrics: Pick<HttpMetrics, 'requestServed'>;
}

/**
 * A request listener's first step: answers a GET whose answer is remembered, at once and without
 * Koa, and says so; says false, having done nothing, when the request must go Koa's way. That is
 * when nothing is remembered for it, while draining or while the database is away (Koa's way
 * answers those), and when its token or its limit cannot be settled without waiting (not in the
 * token cache, past its revocation bound, a use to write back; the limit's window not counted
 * here yet, or used up). Otherwise it does what Koa's way does for every request, in the same
 * order and with the same headers: the request id, the token checked, the request counted against
 * the token's limit, the answer, the log line and the duration in the metrics.
 */
export function answerRemembered(deps: AnswerRememberedDependencies): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { answers, authenticate, limiter, limit, headers, draining, databaseAway, logger, metrics } = deps;
  return (req, res) => {
    const { authorization } = req.headers;
    if (req.method !== 'GET' || authorization === undefined) return false;
    const started = performance.now();
    const answer = answers.get(authorization, req.url ?? '');
    if (answer === undefined || draining() || databaseAway?.() === true) return false;
    const presented = bearerTokenIn(authorization);
    if (presented === undefined) return false;
    let limitHeaders: readonly string[] = [];
    // The limit is counted only for a token that is accepted, and the token only counted as
    // authenticated once the limit admits the request: turned away, it goes Koa's way uncounted.
    const admitted = (principal: Principal): boolean => {
      if (limit.limit === 0) return true;
      const decision = limiter.attemptAtOnce?.(apiLimitKey(principal), limit, new Date());
      if (decision === undefined) return false;
      limitHeaders = ['RateLimit-Limit', String(decision.limit), 'RateLimit-Remaining', String(decision.remaining), 'RateLimit-Reset', rateLimitReset(decision)];
      return true;
    };
    if (authenticate.executeAtOnce(presented, admitted) === undefined) return false;
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.writeHead(200, ['X-Request-Id', requestId, ...headers, ...limitHeaders, ...answer.headers]);
    res.end(answer.body);
    const elapsedMs = performance.now() - started;
    const { route, path } = answer;
    logger.info({ requestId, method: 'GET', route, path, status: 200, durationMs: Math.round(elapsedMs * 100) / 100 }, 'request');
    metrics.requestServed({ route, method: 'GET', status: 200, seconds: elapsedMs / 1000 });
    return true;
  };
}
