import type { AccountId } from '../account/account.js';
import { formatTimestamp } from '../shared/time.js';
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';
import type { WebhookId } from './webhook.aggregate.js';
import type { Uuid } from '../shared/ids.js';

export type DeliveryId = Uuid<'Delivery'>;
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface Attempt {
  readonly date: Date;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseBody: string;
}

export interface DeliveryState {
  readonly id: DeliveryId;
  readonly webhookId: WebhookId;
  readonly accountId: AccountId;
  /** The event's id: `webhook-id` on every attempt, and on a redelivery too. */
  readonly eventId: string;
  /** The event's name (`ping` included). */
  readonly event: string;
  /** The exact JSON body sent on every attempt. */
  readonly payload: string;
  readonly state: DeliveryStatus;
  readonly attempts: readonly Attempt[];
  readonly nextAttemptDate: Date | null;
  readonly creationDate: Date;
}

/** The delivery log item of the contract. */
export interface DeliveryRecord {
  readonly id: DeliveryId;
  readonly eventId: string;
  readonly event: string;
  readonly state: DeliveryStatus;
  readonly attempts: readonly { readonly date: string; readonly status: number | null; readonly durationMs: number; readonly error: string | null; readonly responseBody: string }[];
  readonly nextAttemptDate: string | null;
  readonly [key: string]: unknown;
}

export interface AttemptOutcome {
  readonly status: number | null;
  readonly durationMs: number;
  readonly responseBody: string;
  readonly error: string | null;
}

export function isSuccess(outcome: { readonly status: number | null }): boolean {
  return outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
}

export class Delivery {
  private constructor(private state: DeliveryState) {}

  /** A delivery due at once. */
  static schedule(
    input: { readonly id: DeliveryId; readonly webhookId: WebhookId; readonly accountId: AccountId; readonly eventId: string; readonly event: string; readonly payload: string },
    now: Date,
  ): Delivery {
    return new Delivery({ ...input, state: 'pending', attempts: [], nextAttemptDate: now, creationDate: now });
  }

  static rehydrate(state: DeliveryState): Delivery {
    return new Delivery(state);
  }

  get id(): DeliveryId {
    return this.state.id;
  }
  get webhookId(): WebhookId {
    return this.state.webhookId;
  }
  get eventId(): string {
    return this.state.eventId;
  }
  get payload(): string {
    return this.state.payload;
  }
  get status(): DeliveryStatus {
    return this.state.state;
  }
  get firstAttemptDate(): Date | null {
    return this.state.attempts[0]?.date ?? null;
  }

  /**
   * Records an attempt: a 2xx succeeds; anything else is retried after the policy's delay
   * (`random` in [0, 1) picks the jitter) until `maxAttempts`, then the delivery has failed.
   */
  recordAttempt(outcome: AttemptOutcome, now: Date, policy: RetryPolicy, random: number): void {
    const attempts = [...this.state.attempts, { date: now, ...outcome }];
    if (isSuccess(outcome)) {
      this.state = { ...this.state, attempts, state: 'succeeded', nextAttemptDate: null };
    } else if (attempts.length >= policy.maxAttempts) {
      this.state = { ...this.state, attempts, state: 'failed', nextAttemptDate: null };
    } else {
      const next = new Date(now.getTime() + retryDelayMs(policy, attempts.length, random));
      this.state = { ...this.state, attempts, state: 'pending', nextAttemptDate: next };
    }
  }

  /** Ends a delivery that can no longer be made (its webhook was deactivated or deleted). */
  abandon(reason: string, now: Date): void {
    const attempts = [...this.state.attempts, { date: now, status: null, durationMs: 0, error: reason, responseBody: '' }];
    this.state = { ...this.state, attempts, state: 'failed', nextAttemptDate: null };
  }

  snapshot(): DeliveryState {
    return this.state;
  }

  toRecord(): DeliveryRecord {
    const s = this.state;
    return {
      id: s.id,
      eventId: s.eventId,
      event: s.event,
      state: s.state,
      attempts: s.attempts.map((a) => ({ ...a, date: formatTimestamp(a.date) })),
      nextAttemptDate: s.nextAttemptDate && formatTimestamp(s.nextAttemptDate),
    };
  }
}
