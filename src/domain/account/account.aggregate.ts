import { err, ok, type Result } from '../shared/result.js';
import { formatTimestamp } from '../shared/time.js';
import type { AccountId } from './account.js';

/** The plans an account can be on. A trial is the `private` plan until a date. */
export const PLAN_NAMES = ['free', 'private'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long before a trial ends its account is told, once. */
export const TRIAL_REMINDER_LEAD_MS = 3 * DAY_MS;

/** Trials an operator may give: 1 to 365 days. */
export const MAX_TRIAL_DAYS = 365;

/** The plan an account is on at a moment. */
export interface PlanView {
  readonly name: PlanName;
  readonly trial: boolean;
  /** When the trial ends (its first moment on the free plan); null when not on a trial. */
  readonly trialEndDate: Date | null;
}

/** The plan as a record the adapters print (the profile over HTTP, the CLI). */
export interface PlanRecord {
  readonly name: PlanName;
  readonly trial: boolean;
  readonly trialEndDate: string | null;
}

export function planRecord(view: PlanView): PlanRecord {
  return { name: view.name, trial: view.trial, trialEndDate: view.trialEndDate === null ? null : formatTimestamp(view.trialEndDate) };
}

/** An account not stored yet (storage assigns the id). */
export interface NewAccount {
  readonly creationDate: Date;
  /** `private` with a `trialEndDate`: a trial, which becomes `free` at that date. */
  readonly plan: PlanName;
  readonly trialEndDate: Date | null;
}

export interface AccountState extends NewAccount {
  readonly id: AccountId;
  /** When the trial-ending message was handed to the mailer; null until then (and for a new trial). */
  readonly trialReminderDate: Date | null;
}

export type AccountError = { readonly kind: 'TrialNeedsPrivate' } | { readonly kind: 'InvalidTrialDays'; readonly max: number };

/**
 * An account and its plan. A new account starts a trial of the Private plan; the trial's end is a
 * date checked when it matters (`planAt`), so it takes effect with no request and no job. An
 * operator puts an account on `private` (paid, no end), on `free`, or on a new trial.
 */
export class Account {
  private constructor(private state: AccountState) {}

  /** A new account, on a trial of the Private plan of `trialDays` days (0: straight on the free plan). */
  static open(now: Date, trialDays: number): NewAccount {
    if (trialDays <= 0) return { creationDate: now, plan: 'free', trialEndDate: null };
    return { creationDate: now, plan: 'private', trialEndDate: new Date(now.getTime() + trialDays * DAY_MS) };
  }

  static rehydrate(state: AccountState): Account {
    return new Account(state);
  }

  get id(): AccountId {
    return this.state.id;
  }

  /** The plan at `now`: a trial is `private` until its end date, then `free`. */
  planAt(now: Date): PlanView {
    const { plan, trialEndDate } = this.state;
    if (plan === 'private' && trialEndDate !== null) {
      return now.getTime() < trialEndDate.getTime() ? { name: 'private', trial: true, trialEndDate } : { name: 'free', trial: false, trialEndDate: null };
    }
    return { name: plan, trial: false, trialEndDate: null };
  }

  /**
   * The operator's change: `private` (paid, no end), `private` with `trialDays` (a new trial from
   * now, told again before it ends), or `free`. Errors: `TrialNeedsPrivate` (days with `free`),
   * `InvalidTrialDays` (not 1-365).
   */
  changePlan(plan: PlanName, trialDays: number | undefined, now: Date): Result<void, AccountError> {
    const valid = Account.checkPlanChange(plan, trialDays);
    if (!valid.ok) return valid;
    const trialEndDate = trialDays === undefined ? null : new Date(now.getTime() + trialDays * DAY_MS);
    this.state = { ...this.state, plan, trialEndDate, trialReminderDate: trialEndDate === null ? this.state.trialReminderDate : null };
    return ok();
  }

  /** The rules of a plan change that do not depend on the account: days go with `private`, 1-365 of them. */
  static checkPlanChange(plan: PlanName, trialDays: number | undefined): Result<void, AccountError> {
    if (trialDays !== undefined && plan !== 'private') return err({ kind: 'TrialNeedsPrivate' });
    if (trialDays !== undefined && (!Number.isSafeInteger(trialDays) || trialDays < 1 || trialDays > MAX_TRIAL_DAYS)) return err({ kind: 'InvalidTrialDays', max: MAX_TRIAL_DAYS });
    return ok();
  }

  /** Whether the trial ends within `TRIAL_REMINDER_LEAD_MS` of `now` and its account has not been told. */
  trialReminderDue(now: Date): boolean {
    const view = this.planAt(now);
    return view.trial && view.trialEndDate!.getTime() - now.getTime() <= TRIAL_REMINDER_LEAD_MS && this.state.trialReminderDate === null;
  }

  snapshot(): AccountState {
    return this.state;
  }
}
