/**
 * When a failed delivery is tried again: exponential backoff with jitter. Pure, so its numbers are
 * unit-tested exactly. With the defaults (10 s base, doubling, capped at 8 h, 15 attempts) the
 * attempts of one delivery span about 27 hours, ±20% jitter: "about a day".
 */
export interface RetryPolicy {
  /** Delay before the first retry. */
  readonly baseMs: number;
  /** No single delay grows beyond this. */
  readonly capMs: number;
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 10_000, capMs: 8 * 3600_000, maxAttempts: 15 };

/** Jitter spreads retries of many deliveries that failed together: ±20% around the nominal delay. */
const JITTER = 0.2;

/**
 * The delay after the `failedAttempts`-th failed attempt (1-based), for `random` in [0, 1):
 * min(cap, base · 2^(failedAttempts-1)) · (1 - 0.2 + 0.4 · random).
 */
export function retryDelayMs(policy: RetryPolicy, failedAttempts: number, random: number): number {
  const nominal = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random));
}

/** The nominal time from the first attempt to the last (no jitter). */
export function retrySpanMs(policy: RetryPolicy): number {
  let total = 0;
  for (let n = 1; n < policy.maxAttempts; n++) total += Math.min(policy.capMs, policy.baseMs * 2 ** (n - 1));
  return total;
}
