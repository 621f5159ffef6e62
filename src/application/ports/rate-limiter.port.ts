import { token } from '../shared/token.js';

export interface RateLimit {
  /** Attempts allowed per window. */
  readonly limit: number;
  readonly windowMs: number;
}

/** One attempt counted: whether it is within the limit, and the window's state after it. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Attempts left in this window (0 once it is used up). */
  readonly remaining: number;
  /** Milliseconds until the window ends and the count starts again. */
  readonly resetMs: number;
}

export interface RateLimiter {
  /** Counts one attempt for `key` in fixed windows of `rule.windowMs`: allowed while the window holds at most `rule.limit`. */
  attempt(key: string, rule: RateLimit, now: Date): Promise<RateDecision>;
  /**
   * `attempt` when the limiter can decide without waiting and the attempt is allowed: counts it and
   * gives the decision. Otherwise counts nothing and gives undefined, and the caller takes
   * `attempt`. Optional: a limiter without it is always asked through `attempt`.
   */
  attemptAtOnce?(key: string, rule: RateLimit, now: Date): RateDecision | undefined;
  /** Gives one counted attempt back (a password that turned out right), if its window is still open. */
  release(key: string, now: Date): Promise<void>;
}
export const RateLimiter = token<RateLimiter>('RateLimiter');
/** The limiter of the per-token API limit, counted on every request: may trade exactness across instances for speed. */
export const ApiRateLimiter = token<RateLimiter>('ApiRateLimiter');

/** The limits the service applies; configured (docs/configuration.md), `limit: 0` turning one off. */
export interface RateLimits {
  /** Requests per token on the Core-, Event- and User-API. */
  readonly api: RateLimit;
  /** Failed password checks per client address (login form, HTTP Basic). */
  readonly passwordPerIp: RateLimit;
  /** Failed password checks per e-mail address. */
  readonly passwordPerEmail: RateLimit;
  /** Token-endpoint requests per client and address. */
  readonly tokenEndpoint: RateLimit;
}
export const RateLimits = token<RateLimits>('RateLimits');
