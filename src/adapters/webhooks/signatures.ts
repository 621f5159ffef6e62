import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `X-Service-Signature`: lowercase hex HMAC-SHA256, key = the secret's UTF-8 bytes, message = the
 * UTF-8 target URL immediately followed by the raw body bytes. Signing the URL too means a captured
 * delivery replayed to another endpoint of the same receiver does not verify there.
 */
export function serviceSignature(secret: string, targetUrl: string, body: string | Uint8Array): string {
  // A string key and a string update are taken as UTF-8 by node:crypto.
  return createHmac('sha256', secret).update(targetUrl).update(body).digest('hex');
}

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`.
 * The key is the secret's UTF-8 bytes (the secret is not a `whsec_` base64 key).
 */
export function standardWebhookSignature(
  secret: string,
  eventId: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): string {
  const digest = createHmac('sha256', secret).update(`${eventId}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${digest}`;
}

/**
 * What a receiver does with `X-Service-Signature`: recompute and compare in constant time. False
 * for a missing or malformed header, never throws.
 */
export function verifyServiceSignature(
  secret: string,
  targetUrl: string,
  body: string | Uint8Array,
  header: string | null | undefined,
): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/i.test(header.trim())) return false;
  // The pattern makes `given` 32 bytes, the length of a SHA-256 digest: timingSafeEqual cannot throw.
  const expected = Buffer.from(serviceSignature(secret, targetUrl, body), 'hex');
  const given = Buffer.from(header.trim(), 'hex');
  return timingSafeEqual(expected, given);
}
