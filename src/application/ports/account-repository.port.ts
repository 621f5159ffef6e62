import type { AccountId } from '../../domain/account/account.js';
import type { Account, NewAccount } from '../../domain/account/account.aggregate.js';
import { token } from '../shared/token.js';

export interface AccountRepository {
  /** Stores a new account and returns its id (positive, never reused). */
  create(account: NewAccount): Promise<AccountId>;
  /** Whether the account exists. */
  exists(id: AccountId): Promise<boolean>;
  /** undefined when absent. */
  get(id: AccountId): Promise<Account | undefined>;
  /**
   * Like `get`, holding the account for writing until the transaction ends. Inside `UnitOfWork.run`
   * only: the writes a plan counts (APIs, webhooks, tokens, pages) take it first, so two of them
   * cannot both take the last free slot.
   */
  getForUpdate(id: AccountId): Promise<Account | undefined>;
  /** Stores the plan. */
  save(account: Account): Promise<void>;
  /** Accounts whose trial ends after `now` and by `by`, not told yet; at most `limit`, the soonest first. */
  trialsEnding(now: Date, by: Date, limit: number): Promise<AccountId[]>;
  /**
   * Marks the account as told, at `at`, of the end of its trial ending at `trialEndDate`, if nobody
   * has and the trial is still that one: true for the one caller that marked it (several workers
   * may try at once; an operator may have started another trial meanwhile).
   */
  claimTrialReminder(id: AccountId, trialEndDate: Date, at: Date): Promise<boolean>;
  /** Undoes a claim whose message could not be sent, so that a later round tries again. */
  releaseTrialReminder(id: AccountId): Promise<void>;
}
export const AccountRepository = token<AccountRepository>('AccountRepository');
