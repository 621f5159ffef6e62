import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';

/**
 * Fixed windows counted in this process. Enough for one instance; several instances each count
 * their own share (a counter kept in PostgreSQL is planned with the other limits).
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; end: number }>();

  async attempt(key: string, rule: RateLimit, now: Date): Promise<{ readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number }> {
    const t = now.getTime();
    if (this.windows.size > 100_000) for (const [k, w] of this.windows) if (w.end <= t) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.end <= t) {
      window = { count: 0, end: t + rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= rule.limit ? { allowed: true } : { allowed: false, retryAfterMs: window.end - t };
  }

  async exceeded(key: string, rule: RateLimit, now: Date): Promise<number | null> {
    const window = this.windows.get(key);
    const t = now.getTime();
    return window && window.end > t && window.count >= rule.limit ? window.end - t : null;
  }
}
