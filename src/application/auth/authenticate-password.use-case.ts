import type { UserId } from '../../domain/account/account.js';
import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { PasswordHasher } from '../ports/password-hasher.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';

/** A dummy hash verified when the e-mail is unknown, so both failures take as long. */
const NOBODY = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** E-mail and password (HTTP Basic on token management): the user, or Unauthenticated. */
export class AuthenticatePassword {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute(email: string, password: string): Promise<Result<UserId, ApplicationError>> {
    const user = await this.users.getByEmail(normaliseEmail(email));
    const matches = await this.hasher.verify(password, user?.passwordHash ?? NOBODY);
    return user && matches ? ok(user.id) : err({ kind: 'Unauthenticated' });
  }
}
