import { ContainerModule } from 'inversify';
import { SetAccountPlan } from '../../application/accounts/account-plan.use-cases.js';
import { PlanSettings, Plans } from '../../application/accounts/plans.js';
import { SendTrialReminders } from '../../application/accounts/send-trial-reminders.use-case.js';
import { AccountRepository } from '../../application/ports/account-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { Mailer } from '../../application/ports/mailer.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { UserRepository } from '../../application/ports/user-repository.port.js';
import type { Config } from '../config.js';
import { ConfigToken } from '../tokens.js';
import { construct } from './wiring.js';

/** Accounts and their plans: the quota checks the writing use cases call, the operator’s plan change, the trial reminders. */
export const accountsModule = new ContainerModule(({ bind }) => {
  construct(bind, Plans, [PlanSettings, AccountRepository, Clock]);
  construct(bind, SetAccountPlan, [UnitOfWork, Clock]);
  bind(SendTrialReminders).toResolvedValue(
    (uow: UnitOfWork, accounts: AccountRepository, users: UserRepository, mailer: Mailer, clock: Clock, config: Config) => new SendTrialReminders(uow, accounts, users, mailer, clock, config.publicUrl),
    [UnitOfWork, AccountRepository, UserRepository, Mailer, Clock, ConfigToken],
  );
});
