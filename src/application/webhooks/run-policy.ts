import { isSuccess } from '../../domain/webhook/delivery.aggregate.js';
import type { DeliveryOutcome, OutgoingRun, RunAttempt } from '../ports/webhook-sender.port.js';

/** One attempt of a run, as a sender makes it: one event to one target, signed with the webhook's secret. */
export interface OutgoingAttempt {
  readonly targetUrl: string;
  /** The webhook's secret: both signatures use its UTF-8 bytes as the HMAC key. */
  readonly secret: string;
  /** The event id: `webhook-id`, the same on every retry and redelivery. */
  readonly eventId: string;
  /** The exact JSON body to send and sign. */
  readonly body: string;
  /** When this attempt is made: `webhook-timestamp`. */
  readonly attemptDate: Date;
}

/**
 * The run policy, whoever sends: a run's deliveries are attempted one after the other, in order,
 * each dated `now()` as it starts; no attempt starts after `startBy` (it could outlast the run's
 * lease) or once `stopped()`, and a failed last attempt ends the run (its webhook may be
 * deactivated). Returns the attempts made, in order: the rest were not sent. No I/O of its own:
 * `send` makes each attempt.
 */
export async function attemptInOrder(send: (attempt: OutgoingAttempt) => Promise<DeliveryOutcome>, run: OutgoingRun, now: () => Date, stopped: () => boolean): Promise<RunAttempt[]> {
  const attempts: RunAttempt[] = [];
  for (const { eventId, body, lastAttempt } of run.deliveries) {
    if (stopped()) break;
    const attemptDate = now();
    if (attemptDate.getTime() > run.startBy.getTime()) break;
    const outcome = await send({ targetUrl: run.targetUrl, secret: run.secret, eventId, body, attemptDate });
    attempts.push({ attemptDate, outcome });
    if (lastAttempt && !isSuccess(outcome)) break;
  }
  return attempts;
}
