import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { RateLimiter, RateLimits } from '../ports/rate-limiter.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';

export type PasswordCheckError = { readonly kind: 'Wrong' } | { readonly kind: 'RateLimited'; readonly retryAfterMs: number };

/**
 * Every password check goes through here: the login form, HTTP Basic, and the current password of
 * a password change. An attempt is counted per client address and per e-mail before the (slow)
 * check and given back when the password was right, so only failures use up the budget, and
 * guesses sent all at once cannot overrun it. The e-mail is kept in the counter's key only as a hash.
 */
export class PasswordGuard {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimits,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async check(email: string, ip: string, verify: () => Promise<boolean>): Promise<Result<void, PasswordCheckError>> {
    const now = this.clock.now();
    const keys = [
      [`password:ip:${ip}`, this.limits.passwordPerIp],
      [`password:email:${this.generator.hash(normaliseEmail(email))}`, this.limits.passwordPerEmail],
    ] as const;
    const counted: string[] = [];
    for (const [key, rule] of keys) {
      if (rule.limit === 0) continue;
      const decision = await this.limiter.attempt(key, rule, now);
      counted.push(key);
      if (!decision.allowed) return err({ kind: 'RateLimited', retryAfterMs: decision.resetMs });
    }
    if (!(await verify())) return err({ kind: 'Wrong' });
    for (const key of counted) await this.limiter.release(key, now);
    return ok();
  }
}
