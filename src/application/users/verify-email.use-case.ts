import type { UserId } from '../../domain/account/account.js';
import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

/** Marks a user's e-mail address verified (the operator's `user verify`). */
export class VerifyEmail {
  constructor(private readonly uow: UnitOfWork) {}

  async execute(email: string): Promise<Result<{ readonly userId: UserId }, ApplicationError>> {
    return this.uow.run(async (tx): Promise<Result<{ readonly userId: UserId }, ApplicationError>> => {
      const user = await tx.users.getByEmail(normaliseEmail(email));
      if (!user) return err(notFound('user'));
      user.verifyEmail();
      await tx.users.save(user);
      return ok({ userId: user.id });
    });
  }
}
