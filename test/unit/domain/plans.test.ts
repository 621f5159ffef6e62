import { expect } from 'chai';
import { Account, isPlanName, planRecord, TRIAL_REMINDER_LEAD_MS, type AccountState } from '../../../src/domain/account/account.aggregate.js';
import { checkImportSize, checkPrivateApi, checkQuota, DEFAULT_PLAN_ALLOWANCES, type PlanAllowances } from '../../../src/domain/account/plan-allowance.js';
import { FixedClock } from '../../support/fakes.js';
import { accountId } from '../../support/ids.js';

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

function stored(state: Omit<AccountState, 'id' | 'trialReminderDate'> & { trialReminderDate?: Date | null }): Account {
  return Account.rehydrate({ id: accountId(7), trialReminderDate: null, ...state });
}

describe('domain: plans and the Private trial', () => {
  it('starts a new account on a 14-day trial of the Private plan, which ends at its last second and continues on the free plan', () => {
    const clock = new FixedClock(new Date('2026-11-25T12:00:00.000Z'));
    const account = stored(Account.open(clock.now(), 14));
    expect(account.planAt(clock.now())).to.deep.equal({ name: 'private', trial: true, trialEndDate: new Date('2026-12-09T12:00:00.000Z') });
    clock.advance(14 * DAY - SECOND);
    expect(account.planAt(clock.now()), 'its last second').to.deep.equal({ name: 'private', trial: true, trialEndDate: new Date('2026-12-09T12:00:00.000Z') });
    clock.advance(SECOND);
    expect(account.planAt(clock.now()), 'the moment it ends').to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
    clock.advance(365 * DAY);
    expect(account.planAt(clock.now()).name).to.equal('free');
  });

  it('an account on the free plan is on it whatever trial end its row still carries', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(stored({ creationDate: now, plan: 'free', trialEndDate: new Date('2026-12-09T12:00:00.000Z') }).planAt(now)).to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
  });

  it('opens an account straight on the free plan when the operator gives no trial', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(Account.open(now, 0)).to.deep.equal({ creationDate: now, plan: 'free', trialEndDate: null });
  });

  it("an operator's move to private during the trial ends the trial: the plan has no end any more", () => {
    const clock = new FixedClock(new Date('2026-11-25T12:00:00.000Z'));
    const account = stored(Account.open(clock.now(), 14));
    clock.advance(3 * DAY);
    expect(account.changePlan('private', undefined, clock.now())).to.deep.equal({ ok: true, value: undefined });
    clock.advance(30 * DAY);
    expect(account.planAt(clock.now())).to.deep.equal({ name: 'private', trial: false, trialEndDate: null });
  });

  it("an operator's move to private after the trial brings back the Private plan; free takes it away again", () => {
    const clock = new FixedClock(new Date('2026-11-25T12:00:00.000Z'));
    const account = stored(Account.open(clock.now(), 14));
    clock.advance(20 * DAY);
    expect(account.planAt(clock.now()).name).to.equal('free');
    account.changePlan('private', undefined, clock.now());
    expect(account.planAt(clock.now())).to.deep.equal({ name: 'private', trial: false, trialEndDate: null });
    account.changePlan('free', undefined, clock.now());
    expect(account.planAt(clock.now())).to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
  });

  it('an operator may give a new trial of 1-365 days, from now, whose reminder is due again; days go with private only', () => {
    const clock = new FixedClock(new Date('2026-11-25T12:00:00.000Z'));
    const account = stored({ creationDate: clock.now(), plan: 'private', trialEndDate: new Date('2026-11-26T12:00:00.000Z'), trialReminderDate: new Date('2026-11-24T00:00:00.000Z') });
    clock.advance(10 * DAY);
    expect(account.changePlan('private', 7, clock.now())).to.deep.equal({ ok: true, value: undefined });
    expect(account.planAt(clock.now())).to.deep.equal({ name: 'private', trial: true, trialEndDate: new Date('2026-12-12T12:00:00.000Z') });
    expect(account.snapshot().trialReminderDate, 'told again before the new end').to.equal(null);
    expect(account.changePlan('free', 7, clock.now())).to.deep.equal({ ok: false, error: { kind: 'TrialNeedsPrivate' } });
    for (const days of [0, 366, 1.5, -1, NaN]) expect(account.changePlan('private', days, clock.now())).to.deep.equal({ ok: false, error: { kind: 'InvalidTrialDays', max: 365 } });
    expect(account.planAt(clock.now()).trialEndDate, 'a refused change changes nothing').to.deep.equal(new Date('2026-12-12T12:00:00.000Z'));
  });

  it('trials of 1 and of 365 days are the shortest and longest an operator may give', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(Account.checkPlanChange('private', 1)).to.deep.equal({ ok: true, value: undefined });
    expect(Account.checkPlanChange('private', 365)).to.deep.equal({ ok: true, value: undefined });
    const account = stored(Account.open(now, 14));
    account.changePlan('private', 365, now);
    expect(account.planAt(now).trialEndDate).to.deep.equal(new Date('2027-11-25T12:00:00.000Z'));
  });

  it('a move without a trial keeps the record of a reminder already sent', () => {
    const told = new Date('2026-12-06T12:00:00.000Z');
    const account = stored({ ...Account.open(new Date('2026-11-25T12:00:00.000Z'), 14), trialReminderDate: told });
    account.changePlan('private', undefined, new Date('2026-12-07T12:00:00.000Z'));
    expect(account.snapshot()).to.deep.equal({ id: 7, creationDate: new Date('2026-11-25T12:00:00.000Z'), plan: 'private', trialEndDate: null, trialReminderDate: told });
    expect(account.id).to.equal(7);
  });

  it('knows its plan names, and prints a plan with its trial end on the wire', () => {
    expect(['free', 'private', 'Free', 'trial', '', 3, null].map(isPlanName)).to.deep.equal([true, true, false, false, false, false, false]);
    expect(planRecord({ name: 'private', trial: true, trialEndDate: new Date('2026-12-09T12:00:00.000Z') })).to.deep.equal({ name: 'private', trial: true, trialEndDate: '2026-12-09T12:00:00.000+00:00' });
    expect(planRecord({ name: 'free', trial: false, trialEndDate: null })).to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
  });

  it('a trial reminder is due from 3 days before the end, once, and never after the end or off a trial', () => {
    const clock = new FixedClock(new Date('2026-11-25T12:00:00.000Z'));
    const account = stored(Account.open(clock.now(), 14));
    clock.advance(14 * DAY - TRIAL_REMINDER_LEAD_MS - SECOND);
    expect(account.trialReminderDue(clock.now())).to.equal(false);
    clock.advance(SECOND);
    expect(account.trialReminderDue(clock.now()), '3 days before').to.equal(true);
    clock.advance(TRIAL_REMINDER_LEAD_MS);
    expect(account.trialReminderDue(clock.now()), 'ended').to.equal(false);
    const told = stored({ ...Account.open(new Date('2026-11-25T12:00:00.000Z'), 14), trialReminderDate: new Date('2026-12-06T12:00:00.000Z') });
    expect(told.trialReminderDue(new Date('2026-12-07T12:00:00.000Z')), 'told already').to.equal(false);
    expect(stored({ creationDate: clock.now(), plan: 'private', trialEndDate: null }).trialReminderDue(clock.now())).to.equal(false);
  });

  describe('what a plan allows', () => {
    const allowances: PlanAllowances = {
      free: { privateApis: false, quotas: { apis: 2, webhooks: 30, apiTokens: 1, pagesPerApi: 3, importBytes: 1000 } },
      private: { privateApis: true, quotas: { apis: null, webhooks: 30, apiTokens: 100, pagesPerApi: 200, importBytes: null } },
    };

    it('takes one more up to the ceiling and names the limit when full', () => {
      expect(checkQuota(allowances, 'free', 'apis', 1)).to.deep.equal({ ok: true, value: undefined });
      expect(checkQuota(allowances, 'free', 'apis', 2)).to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'apis', limit: 2, current: 2 } });
      expect(checkQuota(allowances, 'free', 'apis', 5), 'over it since a plan change').to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'apis', limit: 2, current: 5 } });
      expect(checkQuota(allowances, 'private', 'apis', 1_000_000), 'no ceiling').to.deep.equal({ ok: true, value: undefined });
      expect(checkQuota(allowances, 'free', 'webhooks', 29).ok).to.equal(true);
      expect(checkQuota(allowances, 'private', 'webhooks', 30).ok, '30 webhooks on every plan').to.equal(false);
      expect(checkQuota(allowances, 'free', 'apis', 0, 2), 'two at once: fits').to.deep.equal({ ok: true, value: undefined });
      expect(checkQuota(allowances, 'free', 'apis', 1, 2), 'two at once: one too many').to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'apis', limit: 2, current: 1 } });
    });

    it('refuses a private API on the free plan only, and a document over the import size', () => {
      expect(checkPrivateApi(allowances, 'free', 4)).to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'privateApis', limit: 0, current: 4 } });
      expect(checkPrivateApi(allowances, 'private', 4).ok).to.equal(true);
      expect(checkImportSize(allowances, 'free', 1000).ok).to.equal(true);
      expect(checkImportSize(allowances, 'free', 1001)).to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'importBytes', limit: 1000, current: 1001 } });
      expect(checkImportSize(allowances, 'private', 10 ** 9).ok).to.equal(true);
    });

    it('has the defaults docs/configuration.md gives: no private APIs on free, 30 webhooks on both', () => {
      expect(DEFAULT_PLAN_ALLOWANCES).to.deep.equal({
        free: { privateApis: false, quotas: { apis: 10, webhooks: 30, apiTokens: 10, pagesPerApi: 20, importBytes: 5_242_880 } },
        private: { privateApis: true, quotas: { apis: null, webhooks: 30, apiTokens: 100, pagesPerApi: 200, importBytes: null } },
      });
    });

    it('imports on the free plan a document of up to 5 MiB by default; on the Private plan any size', () => {
      const MIB = 1024 * 1024;
      expect(checkImportSize(DEFAULT_PLAN_ALLOWANCES, 'free', 5 * MIB)).to.deep.equal({ ok: true, value: undefined });
      expect(checkImportSize(DEFAULT_PLAN_ALLOWANCES, 'free', 5 * MIB + 1)).to.deep.equal({ ok: false, error: { kind: 'PlanLimit', plan: 'free', quota: 'importBytes', limit: 5 * MIB, current: 5 * MIB + 1 } });
      expect(checkImportSize(DEFAULT_PLAN_ALLOWANCES, 'private', 32 * MIB)).to.deep.equal({ ok: true, value: undefined });
    });
  });
});
