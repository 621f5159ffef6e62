import type { Context, Middleware, Next } from 'koa';
import type { RateDecision, RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import { throwProblem } from './middleware.js';
import { problemFor } from './problem.js';

/**
 * Counts each request against `keyOf(ctx)` and refuses the one over the limit with 429, problem
 * `rate_limited` and `Retry-After`. Every answer carries the window's state in the IETF draft's
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) headers, as GitHub's
 * X-RateLimit-* do. A limit of 0 turns it off.
 */
export function rateLimit(limiter: RateLimiter, rule: RateLimit, keyOf: (ctx: Context) => string): Middleware {
  return async (ctx: Context, next: Next) => {
    if (rule.limit === 0) {
      await next();
      return;
    }
    const decision = await limiter.attempt(keyOf(ctx), rule, new Date());
    // On the response itself: Koa's ctx.set adds two calls and a check to each (nothing is sent yet).
    const { res } = ctx;
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', rateLimitReset(decision));
    if (!decision.allowed) throwProblem(problemFor({ kind: 'RateLimited', retryAfterMs: decision.resetMs }));
    await next();
  };
}

/** `RateLimit-Reset`: the seconds until the window ends, rounded up. */
export function rateLimitReset(decision: RateDecision): string {
  return String(Math.max(0, Math.ceil(decision.resetMs / 1000)));
}
