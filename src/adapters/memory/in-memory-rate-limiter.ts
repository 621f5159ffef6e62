import type { RateDecision, RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';

/**
 * Fixed windows counted in this process: what a single instance (SQLite) needs. Several instances
 * on PostgreSQL count in the database instead (TypeOrmRateLimiter), so a limit holds across them.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; end: number }>();

  async attempt(key: string, rule: RateLimit, now: Date): Promise<RateDecision> {
    const t = now.getTime();
    if (this.windows.size > 100_000) for (const [k, w] of this.windows) if (w.end <= t) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.end <= t) {
      window = { count: 0, end: t + rule.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { allowed: window.count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - window.count), resetMs: window.end - t };
  }

  async release(key: string, now: Date): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.end > now.getTime() && window.count > 0) window.count -= 1;
  }
}
