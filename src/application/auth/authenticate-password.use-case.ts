import type { UserId } from '../../domain/account/account.js';
import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { PasswordHasher } from '../ports/password-hasher.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { PasswordGuard } from './password-guard.js';

/** A dummy hash verified when the e-mail is unknown, so both failures take as long. */
const NOBODY = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** E-mail and password (the login form, HTTP Basic on token management): the user, Unauthenticated, or RateLimited. */
export class AuthenticatePassword {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly guard: PasswordGuard,
  ) {}

  async execute(email: string, password: string, ip: string): Promise<Result<UserId, ApplicationError>> {
    const user = await this.users.getByEmail(normaliseEmail(email));
    const checked = await this.guard.check(email, ip, async () => (await this.hasher.verify(password, user?.passwordHash ?? NOBODY)) && user !== undefined);
    if (!checked.ok) return err(checked.error.kind === 'RateLimited' ? checked.error : { kind: 'Unauthenticated' });
    return user ? ok(user.id) : err({ kind: 'Unauthenticated' });
  }
}
