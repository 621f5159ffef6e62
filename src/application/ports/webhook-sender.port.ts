import { isSuccess } from '../../domain/webhook/delivery.aggregate.js';
import { token } from '../shared/token.js';

/** One attempt to deliver one event to one webhook. */
export interface OutgoingDelivery {
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

/** What came of an attempt. A 2xx status is a success; anything else is retried. */
export interface DeliveryOutcome {
  /** The HTTP status, or null when there was no response (refused, network error, timeout). */
  readonly status: number | null;
  readonly durationMs: number;
  /** The first 1 KiB of the response body, as text. */
  readonly responseBody: string;
  /** Why there was no usable response, or null. */
  readonly error: string | null;
}

/** A lane's run: deliveries to one webhook, to be attempted one after the other, in order. */
export interface OutgoingRun {
  readonly targetUrl: string;
  readonly secret: string;
  readonly deliveries: readonly {
    readonly eventId: string;
    readonly body: string;
    /** This attempt is the delivery's last: if it fails, the run stops (the webhook may be deactivated). */
    readonly lastAttempt: boolean;
  }[];
  /** No attempt starts after this (it could outlast the run's lease). */
  readonly startBy: Date;
  /** Now, by the caller's clock: a sender dates attempts from it, by the time elapsed since it got the run. */
  readonly now: Date;
}

/** One attempt of a run: when it started and how it ended. */
export interface RunAttempt {
  readonly attemptDate: Date;
  readonly outcome: DeliveryOutcome;
}

export interface WebhookSender {
  /**
   * POSTs the body with `Content-Type: application/json`, `X-Service-Signature` and the Standard
   * Webhooks headers, within the configured timeout, following no redirect, to a target the SSRF
   * policy allows (checked after DNS resolution). Never throws: every failure is an outcome.
   */
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
  /**
   * Optional: attempts a run as `attemptInOrder` does, dating each attempt `run.now` plus the time
   * elapsed since (so by the caller's clock, as `startBy` is), for
   * a sender that does it better than one `send` at a time (ThreadedWebhookSender: in its thread,
   * without a round trip to the caller's thread per attempt). Never throws.
   */
  sendRun?(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]>;
}

/**
 * Attempts a run's deliveries one after the other, in order, each dated `now()` as it starts.
 * Stops before an attempt that would start after `startBy` or once `stopped()`, and after a
 * failed last attempt. Returns the attempts made, in order: the rest were not sent.
 */
export async function attemptInOrder(send: (delivery: OutgoingDelivery) => Promise<DeliveryOutcome>, run: OutgoingRun, now: () => Date, stopped: () => boolean): Promise<RunAttempt[]> {
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
export const WebhookSender = token<WebhookSender>('WebhookSender');

export interface WebhookTargetPolicy {
  /**
   * Why a target URL is refused (scheme, credentials in the URL, or a host that is or resolves to
   * a loopback, private, link-local, multicast or metadata address unless allowed), or null when
   * it is acceptable.
   */
  refusal(targetUrl: string): Promise<string | null>;
}
export const WebhookTargetPolicy = token<WebhookTargetPolicy>('WebhookTargetPolicy');
