import type { Uuid } from '../../src/domain/shared/ids.js';
import type { Clock } from '../../src/application/ports/clock.port.js';
import type { IdGenerator } from '../../src/application/ports/id-generator.port.js';
import type { PasswordHasher } from '../../src/application/ports/password-hasher.port.js';
import type { Transaction } from '../../src/application/ports/unit-of-work.port.js';
import { Plans, type PlanSettings } from '../../src/application/accounts/plans.js';
import type { DeliveryOutcome, WebhookSender } from '../../src/application/ports/webhook-sender.port.js';
import { attemptInOrder, type OutgoingAttempt } from '../../src/application/webhooks/run-policy.js';
import { DEFAULT_PLAN_ALLOWANCES } from '../../src/domain/account/plan-allowance.js';

/** A clock that stands still until told to move. */
export class FixedClock implements Clock {
  constructor(private current = new Date('2026-11-22T10:15:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Real time, moved forward on demand: for a real server whose tokens and codes must expire in a test. */
export class ShiftedClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** UUID-shaped ids in ascending order: 00000000-0000-7000-8000-000000000001, ...02, ... */
export class SequentialIds implements IdGenerator {
  private n = 0;
  next<Id extends Uuid<string>>(): Id {
    this.n += 1;
    return `00000000-0000-7000-8000-${this.n.toString(16).padStart(12, '0')}` as Id;
  }
}

/** Reversible and instant: unit tests check the flow, not scrypt (which has its own test). */
export class PlainPasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return `plain$${password}`;
  }
  async verify(password: string, hash: string): Promise<boolean> {
    return hash === `plain$${password}`;
  }
}

/** The default plans, as a server without PLAN_* variables has them. */
export const PLAN_SETTINGS: PlanSettings = { trialDays: 14, allowances: DEFAULT_PLAN_ALLOWANCES };

/** The plan checks over an in-memory (or any) set of repositories. */
export function plansOver(repos: Pick<Transaction, 'accounts'>, clock: Clock, settings: PlanSettings = PLAN_SETTINGS): Plans {
  return new Plans(settings, repos.accounts, clock);
}

/** A WebhookSender over a function that makes one attempt: runs go by the run policy, attempts dated by `clock`. */
export function runSender(send: (attempt: OutgoingAttempt) => Promise<DeliveryOutcome>, clock: Clock): WebhookSender {
  return { sendRun: (run, stop) => attemptInOrder(send, run, () => clock.now(), () => stop?.aborted === true) };
}
