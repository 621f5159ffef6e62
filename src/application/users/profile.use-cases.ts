import { checkPassword } from '../../domain/user/password-policy.js';
import type { ProfileRecord, UserProfile } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { authorize, type Principal } from '../auth/principal.js';
import type { PasswordHasher } from '../ports/password-hasher.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { PasswordGuard } from '../auth/password-guard.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { AccountRepository } from '../ports/account-repository.port.js';
import type { AccountId } from '../../domain/account/account.js';
import { planRecord, type PlanRecord } from '../../domain/account/account.aggregate.js';

/** A profile as the User-API shows it: the user's fields and the plan of their account now. */
export type ProfileView = ProfileRecord & { readonly plan: PlanRecord };

/** The plan of the account, now; an account that is gone (it never is while its user exists) shows the free plan. */
async function planOf(accounts: AccountRepository, accountId: AccountId, clock: Clock): Promise<PlanRecord> {
  const account = await accounts.get(accountId);
  return account ? planRecord(account.planAt(clock.now())) : { name: 'free', trial: false, trialEndDate: null };
}

/** The caller's own profile and their account's plan (scope profile.readonly). */
export class GetProfile {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal): Promise<Result<ProfileView, ApplicationError>> {
    const allowed = authorize(principal, 'profile', 'read', principal.accountId);
    if (!allowed.ok) return allowed;
    const user = await this.users.get(principal.userId);
    return user ? ok({ ...user.toProfile(), plan: await planOf(this.accounts, user.accountId, this.clock) }) : err(notFound('user'));
  }
}

/** Changes the caller's profile fields (scope profile). */
export class UpdateProfile {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, changes: { readonly [K in keyof UserProfile]?: unknown }): Promise<Result<ProfileView, ApplicationError>> {
    const allowed = authorize(principal, 'profile', 'write', principal.accountId);
    if (!allowed.ok) return allowed;
    const saved = await this.uow.run(async (tx): Promise<Result<ProfileRecord, ApplicationError>> => {
      const user = await tx.users.get(principal.userId);
      if (!user) return err(notFound('user'));
      const updated = user.updateProfile(changes);
      if (!updated.ok) return err({ kind: 'Validation', errors: [{ field: updated.error.field, message: updated.error.message }] });
      await tx.users.save(user);
      return ok(user.toProfile());
    });
    return saved.ok ? ok({ ...saved.value, plan: await planOf(this.accounts, saved.value.accountId, this.clock) }) : saved;
  }
}

/**
 * Changes the caller's password: the current one must be right (`WrongPassword` otherwise) and the
 * new one must pass the policy (`WeakPassword` naming the rule); the old one stops working at
 * once. Everything it opened through the identity service ends with it: the user's login sessions
 * and every grant (so their access and refresh tokens). API tokens stay: they are managed on their
 * own.
 */
export class ChangePassword {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly guard: PasswordGuard,
    private readonly clock: Clock,
  ) {}

  /**
   * The current password is checked through the PasswordGuard (a token holder cannot guess it
   * faster than a login form allows), and both slow scrypt steps run before the transaction, which
   * then only writes. A password changed meanwhile by another request wins: this one is refused.
   */
  async execute(principal: Principal, input: { readonly currentPassword: string; readonly newPassword: string; readonly ip: string }): Promise<Result<void, ApplicationError>> {
    const allowed = authorize(principal, 'profile', 'write', principal.accountId);
    if (!allowed.ok) return allowed;
    const user = await this.users.get(principal.userId);
    if (!user) return err(notFound('user'));
    const checked = await this.guard.check(user.email, input.ip, () => this.hasher.verify(input.currentPassword, user.passwordHash));
    if (!checked.ok) return err(checked.error.kind === 'RateLimited' ? checked.error : { kind: 'WrongPassword' });
    const policy = checkPassword(input.newPassword, user.email);
    if (!policy.ok) return err({ kind: 'WeakPassword', errors: [{ field: 'newPassword', message: `${policy.error.rule}: ${policy.error.message}` }] });
    const newHash = await this.hasher.hash(input.newPassword);
    const checkedHash = user.passwordHash;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      const current = await tx.users.get(principal.userId);
      if (!current) return err(notFound('user'));
      if (current.passwordHash !== checkedHash) return err({ kind: 'WrongPassword' });
      current.changePassword(newHash);
      await tx.users.save(current);
      const user = current;
      await tx.sessions.deleteAllOfUser(user.id);
      await tx.grants.revokeAllOfUser(user.id, this.clock.now());
      return ok();
    });
  }
}
