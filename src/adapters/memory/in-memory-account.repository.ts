import type { AccountId } from '../../domain/account/account.js';
import type { AccountRepository } from '../../application/ports/account-repository.port.js';
import { Account, type NewAccount } from '../../domain/account/account.aggregate.js';
import type { StateSource } from './in-memory-state.js';

export class InMemoryAccountRepository implements AccountRepository {
  constructor(private readonly state: StateSource) {}

  async create(account: NewAccount): Promise<AccountId> {
    const s = this.state();
    const id = s.nextAccountId++ as AccountId;
    s.accounts.set(id, { ...account, id, trialReminderDate: null });
    return id;
  }

  async exists(id: AccountId): Promise<boolean> {
    return this.state().accounts.has(id);
  }

  async get(id: AccountId): Promise<Account | undefined> {
    const state = this.state().accounts.get(id);
    return state && Account.rehydrate(state);
  }

  // Transactions take turns (the database's mutex): the read is the lock.
  getForUpdate(id: AccountId): Promise<Account | undefined> {
    return this.get(id);
  }

  async save(account: Account): Promise<void> {
    const state = account.snapshot();
    const s = this.state();
    if (s.accounts.has(state.id)) s.accounts.set(state.id, state);
  }

  async trialsEnding(now: Date, by: Date, limit: number): Promise<AccountId[]> {
    return [...this.state().accounts.values()]
      .filter((a) => a.plan === 'private' && a.trialEndDate !== null && a.trialEndDate > now && a.trialEndDate <= by && a.trialReminderDate === null)
      .sort((a, b) => a.trialEndDate!.getTime() - b.trialEndDate!.getTime())
      .slice(0, limit)
      .map((a) => a.id);
  }

  async claimTrialReminder(id: AccountId, trialEndDate: Date, at: Date): Promise<boolean> {
    const s = this.state();
    const state = s.accounts.get(id);
    if (state === undefined || state.trialReminderDate !== null || state.trialEndDate?.getTime() !== trialEndDate.getTime()) return false;
    s.accounts.set(id, { ...state, trialReminderDate: at });
    return true;
  }

  async releaseTrialReminder(id: AccountId): Promise<void> {
    const s = this.state();
    const state = s.accounts.get(id);
    if (state !== undefined) s.accounts.set(id, { ...state, trialReminderDate: null });
  }
}
