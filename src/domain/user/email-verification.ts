import type { UserId } from '../account/account.js';
import { err, ok, type Result } from '../shared/result.js';

/** Verification tokens are told apart from API tokens (`sbt_`) at a glance and by secret scanners. */
export const EMAIL_VERIFICATION_PREFIX = 'sbv_';
/** How long a verification link works: a day, like GitHub's and most services'. */
export const EMAIL_VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A pending proof that a user receives mail at `email`: a one-time token, stored only as its hash.
 * A user has at most one; asking again replaces it, so only the newest link works.
 */
export interface EmailVerification {
  readonly userId: UserId;
  /** The address the token was sent to: a token proves nothing about any other. */
  readonly email: string;
  readonly tokenHash: string;
  readonly expirationDate: Date;
  readonly creationDate: Date;
}

export function newEmailVerification(user: { readonly id: UserId; readonly email: string }, tokenHash: string, now: Date): EmailVerification {
  return { userId: user.id, email: user.email, tokenHash, expirationDate: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_MS), creationDate: now };
}

export type EmailVerificationError = 'Expired' | 'AddressChanged';

/** Whether `verification` proves the user's current address now. */
export function checkEmailVerification(
  verification: EmailVerification,
  user: { readonly email: string },
  now: Date,
): Result<void, EmailVerificationError> {
  if (now.getTime() >= verification.expirationDate.getTime()) return err('Expired');
  if (verification.email !== user.email) return err('AddressChanged');
  return ok();
}
