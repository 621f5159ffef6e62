import type { UserId } from '../account/account.js';
import { err, ok, type Result } from '../shared/result.js';
import type { GrantId } from './grant.js';
import type { OAuthClientId } from './oauth-client.js';

/** RFC 8628: device codes live 10 minutes; a device polls every 5 s at first. */
export const DEVICE_CODE_TTL_MS = 10 * 60_000;
export const DEVICE_POLL_INTERVAL_S = 5;
/** RFC 8628 3.5: each `slow_down` adds 5 s to the interval. */
export const SLOW_DOWN_STEP_S = 5;

/**
 * User codes: 8 letters from an alphabet without vowels (no words, no 0/O or 1/I), shown as
 * `XXXX-XXXX` (RFC 8628 6.1): 20^8, about 2.6 * 10^10 codes, guessed at the rate the `/device` page
 * allows.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** The user code as typed, in its canonical form (upper case, no dash or spaces); undefined when it cannot be one. */
export function normalizeUserCode(typed: string): string | undefined {
  if (typed.length > 64) return undefined;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return undefined;
  return [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : undefined;
}

/** `BCDFGHJK` as people read it: `BCDF-GHJK`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'consumed';

/**
 * A device authorization request (RFC 8628 3.1), stored by the hashes of its device code and its
 * user code. The user approves or denies it on `/device`; the device's client polls the token
 * endpoint until then.
 */
export interface DeviceAuthorization {
  readonly deviceCodeHash: string;
  readonly userCodeHash: string;
  readonly clientId: OAuthClientId;
  readonly scope: string;
  readonly status: DeviceAuthorizationStatus;
  /** Set when approved: the user, and the grant made for the device. */
  readonly userId: UserId | null;
  readonly grantId: GrantId | null;
  /** Seconds the client must wait between polls; grows with each `slow_down`. */
  readonly intervalS: number;
  readonly lastPollDate: Date | null;
  readonly creationDate: Date;
  readonly expirationDate: Date;
}

/** What a poll of the token endpoint answers (RFC 8628 3.5), before tokens are issued for an approval. */
export type DevicePollError = 'WrongClient' | 'Expired' | 'SlowDown' | 'Pending' | 'Denied' | 'Used';

/**
 * The answer to a poll at `now` by `clientId`: the approved authorization (tokens may be issued),
 * or why not. A pending one polled sooner than `intervalS` after the last poll is `SlowDown`, and
 * the caller adds `SLOW_DOWN_STEP_S` to its interval; every poll of a pending one is recorded.
 */
export function checkDevicePoll(authorization: DeviceAuthorization, clientId: OAuthClientId, now: Date): Result<DeviceAuthorization, DevicePollError> {
  if (authorization.clientId !== clientId) return err('WrongClient');
  if (now.getTime() >= authorization.expirationDate.getTime()) return err('Expired');
  if (authorization.status === 'consumed') return err('Used');
  if (authorization.status === 'denied') return err('Denied');
  if (authorization.status === 'approved') return ok(authorization);
  const last = authorization.lastPollDate;
  return last !== null && now.getTime() - last.getTime() < authorization.intervalS * 1000 ? err('SlowDown') : err('Pending');
}

/** Whether the user may still approve or deny it at `now`. */
export function deviceAuthorizationOpen(authorization: DeviceAuthorization, now: Date): boolean {
  return authorization.status === 'pending' && now.getTime() < authorization.expirationDate.getTime();
}
