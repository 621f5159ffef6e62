import type { AccountId, UserId } from '../../domain/account/account.js';
import { User } from '../../domain/user/user.aggregate.js';
import { Account } from '../../domain/account/account.aggregate.js';
import type { PlanSettings } from '../accounts/plans.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { PasswordHasher } from '../ports/password-hasher.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ApplicationError } from '../shared/application-error.js';

export interface RegisterUserInput {
  readonly email: string;
  readonly password: string;
  readonly nickname?: string | undefined;
  readonly name?: string | undefined;
  readonly verified: boolean;
}

export interface RegisteredUser {
  readonly userId: UserId;
  readonly accountId: AccountId;
}

/** Creates a user with its personal account (on a trial of the Private plan, as configured), in one transaction. */
export class RegisterUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly hasher: PasswordHasher,
    private readonly plans: PlanSettings,
    private readonly clock: Clock,
  ) {}

  async execute(input: RegisterUserInput): Promise<Result<RegisteredUser, ApplicationError>> {
    const now = this.clock.now();
    // The password hash (scrypt: 50-150 ms of the thread pool) before the transaction: on SQLite a
    // transaction holds the one connection, and every other request would wait out the hash.
    const draft = await User.register({ ...input, emailVerified: input.verified }, (password) => this.hasher.hash(password), now);
    if (!draft.ok) return err({ kind: 'Validation', errors: [{ field: draft.error.field, message: draft.error.message }] });
    return this.uow.run(async (tx): Promise<Result<RegisteredUser, ApplicationError>> => {
      const accountId = await tx.accounts.create(Account.open(now, this.plans.trialDays));
      const added = await tx.users.add({ ...draft.value, accountId });
      if (!added.ok) {
        return err({ kind: 'DuplicateEmail' });
      }
      return ok({ userId: added.value.id, accountId });
    });
  }
}
