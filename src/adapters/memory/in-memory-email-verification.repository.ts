import type { UserId } from '../../domain/account/account.js';
import type { EmailVerificationRepository } from '../../application/ports/email-verification-repository.port.js';
import type { EmailVerification } from '../../domain/user/email-verification.js';
import type { StateSource } from './in-memory-state.js';

export class InMemoryEmailVerificationRepository implements EmailVerificationRepository {
  constructor(private readonly state: StateSource) {}

  async save(verification: EmailVerification): Promise<void> {
    this.state().verifications.set(verification.userId, verification);
  }

  async findByHash(tokenHash: string): Promise<EmailVerification | undefined> {
    return [...this.state().verifications.values()].find((v) => v.tokenHash === tokenHash);
  }

  async delete(userId: UserId): Promise<void> {
    this.state().verifications.delete(userId);
  }
}
