import type { DeliveryOutcome, OutgoingRun } from '../../application/ports/webhook-sender.port.js';
import type { OutgoingAttempt } from '../../application/webhooks/run-policy.js';

/**
 * What the main thread and a webhook sender thread say to each other (ThreadedWebhookSender and
 * serveSendRequests): the messages, and how dates cross (epoch milliseconds, or a run's clock as
 * its offset from the wall clock, since Date.now() is the same in every thread).
 */

/** What a sender thread is started with (its `workerData`): enough to build its HttpWebhookSender. */
export interface SenderThreadData {
  readonly timeoutMs: number;
  readonly allowPrivateTargets: boolean;
  readonly userAgent?: string;
}

/** Work for a sender thread: one attempt, a run, or stopping a run in flight. */
export type Request =
  | { readonly kind: 'send'; readonly id: number; readonly attempt: WireAttemptRequest }
  | { readonly kind: 'run'; readonly id: number; readonly run: WireRun }
  | { readonly kind: 'stop'; readonly id: number };

export type WireAttemptRequest = Omit<OutgoingAttempt, 'attemptDate'> & { readonly attemptMs: number };
export type WireRun = Omit<OutgoingRun, 'startBy' | 'now'> & { readonly startByMs: number; readonly offsetMs: number };
export interface WireAttempt {
  readonly attemptMs: number;
  readonly outcome: DeliveryOutcome;
}

/**
 * What comes back: an attempt's outcome; for a run, its attempts in batches of up to
 * REPORT_EVERY as they end, the last batch with `done` (a thread that dies loses the report of at
 * most that many: sent again, at least once).
 */
export type Reply =
  | { readonly id: number; readonly outcome: DeliveryOutcome }
  | { readonly id: number; readonly attempts: readonly WireAttempt[]; readonly done: boolean };

/** A run's attempts are reported this many at a time: one message per attempt costs both threads. */
export const REPORT_EVERY = 16;

/** The first message of a thread: it listens for requests from now on. */
export const READY = 'ready';
