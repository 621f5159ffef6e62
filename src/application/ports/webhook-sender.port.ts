import { token } from '../shared/token.js';

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
   * Attempts a run as the run policy says (`attemptInOrder` in application/webhooks/run-policy.ts),
   * dating each attempt `run.now` plus the time elapsed since (so by the caller's clock, as
   * `startBy` is). Each attempt POSTs the body with `Content-Type: application/json`,
   * `X-Service-Signature` and the Standard Webhooks headers, within the configured timeout,
   * following no redirect, to a target the SSRF policy allows (checked after DNS resolution).
   * Never throws: every failure is an outcome. `stop` ends the run after the attempt in flight.
   */
  sendRun(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]>;
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
