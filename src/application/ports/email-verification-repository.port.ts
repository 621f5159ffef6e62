import type { UserId } from '../../domain/account/account.js';
import type { EmailVerification } from '../../domain/user/email-verification.js';
import { token } from '../shared/token.js';

export interface EmailVerificationRepository {
  /** Stores the user's pending verification, replacing any earlier one of theirs. */
  save(verification: EmailVerification): Promise<void>;
  /** undefined when no pending verification has this token hash. */
  findByHash(tokenHash: string): Promise<EmailVerification | undefined>;
  /** Removes the user's pending verification; a no-op when there is none. */
  delete(userId: UserId): Promise<void>;
}
export const EmailVerificationRepository = token<EmailVerificationRepository>('EmailVerificationRepository');
