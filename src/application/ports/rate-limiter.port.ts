import { token } from '../shared/token.js';

export interface RateLimit {
  /** Attempts allowed per window. */
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimiter {
  /**
   * Counts one attempt for `key`: allowed while the window holds at most `limit`, otherwise refused
   * with the milliseconds until the window ends.
   */
  attempt(key: string, rule: RateLimit, now: Date): Promise<{ readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number }>;
  /** Whether `key` has used up its window, without counting: the milliseconds until it ends, or null. */
  exceeded(key: string, rule: RateLimit, now: Date): Promise<number | null>;
}
export const RateLimiter = token<RateLimiter>('RateLimiter');
