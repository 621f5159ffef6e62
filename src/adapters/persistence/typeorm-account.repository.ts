import type { AccountId } from '../../domain/account/account.js';
import { IsNull } from 'typeorm';
import type { AccountRepository } from '../../application/ports/account-repository.port.js';
import { Account, type NewAccount, type PlanName } from '../../domain/account/account.aggregate.js';
import type { Dialect } from './dialect.js';
import { dateOf, forDialect, nullableDateOf, storedKey, tableOf } from './raw-sql.js';
import type { Schemas } from './schema.js';
import type { Run } from './typeorm-database.js';

export class TypeOrmAccountRepository implements AccountRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  create(account: NewAccount): Promise<AccountId> {
    return this.run(async (m) => {
      const inserted = await m.getRepository(this.s.accounts).insert({ creationDate: account.creationDate, plan: account.plan, trialEndDate: account.trialEndDate, trialReminderDate: null });
      return storedKey(inserted.identifiers[0]?.['id'] as number);
    });
  }

  exists(id: AccountId): Promise<boolean> {
    return this.run((m) => m.getRepository(this.s.accounts).existsBy({ id }));
  }

  get(id: AccountId): Promise<Account | undefined> {
    return this.find(id, false);
  }

  getForUpdate(id: AccountId): Promise<Account | undefined> {
    return this.find(id, this.dialect === 'postgres');
  }

  /**
   * `lock` (PostgreSQL): FOR NO KEY UPDATE, which excludes other holders (a quota check and its
   * inserts take turns) as FOR UPDATE does, but not the foreign-key checks (FOR KEY SHARE) of rows
   * written for the account meanwhile: with FOR UPDATE every API created, event stored and webhook
   * recorded in the account queued behind its quota checks (docs/performance.md, section 4).
   */
  private find(id: AccountId, lock: boolean): Promise<Account | undefined> {
    return this.run(async (m) => {
      const rows = await m.query<{ id: AccountId; creation_date: Date | string; plan: PlanName; trial_end_date: Date | string | null; trial_reminder_date: Date | string | null }[]>(
        forDialect(this.dialect, `SELECT id, creation_date, plan, trial_end_date, trial_reminder_date FROM ${tableOf(m, this.s.accounts)} WHERE id = ?${lock ? ' FOR NO KEY UPDATE' : ''}`),
        [id],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      return Account.rehydrate({
        id: storedKey(row.id),
        creationDate: dateOf(row.creation_date),
        plan: row.plan,
        trialEndDate: nullableDateOf(row.trial_end_date),
        trialReminderDate: nullableDateOf(row.trial_reminder_date),
      });
    });
  }

  save(account: Account): Promise<void> {
    const { id, plan, trialEndDate, trialReminderDate } = account.snapshot();
    return this.run(async (m) => {
      await m.getRepository(this.s.accounts).update({ id }, { plan, trialEndDate, trialReminderDate });
    });
  }

  trialsEnding(now: Date, by: Date, limit: number): Promise<AccountId[]> {
    return this.run(async (m) => {
      const rows = await m
        .createQueryBuilder(this.s.accounts, 'a')
        .select(['a.id'])
        // ISO 8601 text compares as time on SQLite (how timestamps are stored there) and casts on PostgreSQL.
        .where("a.plan = 'private' AND a.trial_end_date > :now AND a.trial_end_date <= :by AND a.trial_reminder_date IS NULL", { now: now.toISOString(), by: by.toISOString() })
        .orderBy('a.trial_end_date', 'ASC')
        .limit(limit)
        .getMany();
      return rows.map((row) => storedKey(row.id));
    });
  }

  claimTrialReminder(id: AccountId, trialEndDate: Date, at: Date): Promise<boolean> {
    return this.run(async (m) => {
      const result = await m.getRepository(this.s.accounts).update({ id, trialEndDate, trialReminderDate: IsNull() }, { trialReminderDate: at });
      return (result.affected ?? 0) === 1;
    });
  }

  releaseTrialReminder(id: AccountId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.accounts).update({ id }, { trialReminderDate: null });
    });
  }
}
