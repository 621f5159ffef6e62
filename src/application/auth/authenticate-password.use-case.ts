import type { UserId } from '../../domain/account/account.js';
import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { PasswordHasher } from '../ports/password-hasher.port.js';
import type { RateLimiter, RateLimits } from '../ports/rate-limiter.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';

/** A dummy hash verified when the e-mail is unknown, so both failures take as long. */
const NOBODY = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/**
 * E-mail and password (the login form, HTTP Basic on token management): the user, Unauthenticated,
 * or RateLimited. Failures count per client address and per e-mail; once either has used up its
 * window, no password is checked until the window ends, so guessing stays slow however it is spread.
 */
export class AuthenticatePassword {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: RateLimiter,
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  async execute(email: string, password: string, ip: string): Promise<Result<UserId, ApplicationError>> {
    const now = this.clock.now();
    const keys = [
      [`password:ip:${ip}`, this.limits.passwordPerIp],
      [`password:email:${normaliseEmail(email)}`, this.limits.passwordPerEmail],
    ] as const;
    for (const [key, rule] of keys) {
      if (rule.limit === 0) continue;
      const waitMs = await this.limiter.exceeded(key, rule, now);
      if (waitMs !== null) return err({ kind: 'RateLimited', retryAfterMs: waitMs });
    }
    const user = await this.users.getByEmail(normaliseEmail(email));
    const matches = await this.hasher.verify(password, user?.passwordHash ?? NOBODY);
    if (user && matches) return ok(user.id);
    for (const [key, rule] of keys) if (rule.limit > 0) await this.limiter.attempt(key, rule, now);
    return err({ kind: 'Unauthenticated' });
  }
}
