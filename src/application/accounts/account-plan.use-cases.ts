import type { AccountId } from '../../domain/account/account.js';
import { Account, isPlanName, planRecord, type AccountError, type PlanRecord } from '../../domain/account/account.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

function invalidChange(error: AccountError): ApplicationError {
  const message = error.kind === 'TrialNeedsPrivate' ? 'goes with plan private only' : `must be a whole number of days from 1 to ${error.max}`;
  return { kind: 'Validation', errors: [{ field: 'trialDays', message }] };
}

/** The operator's plan change (the CLI's `account plan`): free, private, or private with a trial of some days. */
export class SetAccountPlan {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly accountId: AccountId; readonly plan: unknown; readonly trialDays?: number | undefined }): Promise<Result<{ readonly accountId: AccountId; readonly plan: PlanRecord }, ApplicationError>> {
    const plan = input.plan;
    if (!isPlanName(plan)) return err({ kind: 'Validation', errors: [{ field: 'plan', message: 'must be free or private' }] });
    // Refused before any transaction: the rules do not depend on the account.
    const valid = Account.checkPlanChange(plan, input.trialDays);
    if (!valid.ok) return err(invalidChange(valid.error));
    const now = this.clock.now();
    return this.uow.run(async (tx): Promise<Result<{ readonly accountId: AccountId; readonly plan: PlanRecord }, ApplicationError>> => {
      const account = await tx.accounts.getForUpdate(input.accountId);
      if (!account) return err(notFound('account'));
      const changed = account.changePlan(plan, input.trialDays, now);
      if (!changed.ok) return err(invalidChange(changed.error));
      await tx.accounts.save(account);
      return ok({ accountId: account.id, plan: planRecord(account.planAt(now)) });
    });
  }
}
