import type { RateDecision, RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';

/**
 * Fixed windows counted in this process: what a single instance (SQLite) needs. Several instances
 * on PostgreSQL count in the database instead (TypeOrmRateLimiter), so a limit holds across them.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; end: number }>();

  async attempt(key: string, rule: RateLimit, now: Date): Promise<RateDecision> {
    const t = now.getTime();
    const window = this.windowOf(key, rule, t);
    window.count += 1;
    return decided(window, rule, t);
  }

  attemptAtOnce(key: string, rule: RateLimit, now: Date): RateDecision | undefined {
    const t = now.getTime();
    const window = this.windowOf(key, rule, t);
    if (window.count >= rule.limit) return undefined;
    window.count += 1;
    return decided(window, rule, t);
  }

  private windowOf(key: string, rule: RateLimit, t: number): { count: number; end: number } {
    if (this.windows.size > 100_000) for (const [k, w] of this.windows) if (w.end <= t) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.end <= t) {
      window = { count: 0, end: t + rule.windowMs };
      this.windows.set(key, window);
    }
    return window;
  }

  async release(key: string, now: Date): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.end > now.getTime() && window.count > 0) window.count -= 1;
  }
}

function decided(window: { readonly count: number; readonly end: number }, rule: RateLimit, t: number): RateDecision {
  return { allowed: window.count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - window.count), resetMs: window.end - t };
}
