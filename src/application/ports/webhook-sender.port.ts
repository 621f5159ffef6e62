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

export interface WebhookSender {
  /**
   * POSTs the body with `Content-Type: application/json`, `X-Service-Signature` and the Standard
   * Webhooks headers, within the configured timeout, following no redirect, to a target the SSRF
   * policy allows (checked after DNS resolution). Never throws: every failure is an outcome.
   */
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
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
