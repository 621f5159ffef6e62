import type { UserId } from '../../domain/account/account.js';
import type { EmailVerificationRepository } from '../../application/ports/email-verification-repository.port.js';
import type { EmailVerification } from '../../domain/user/email-verification.js';
import type { Schemas } from './schema.js';
import type { Run } from './typeorm-database.js';
import { storedKey } from './raw-sql.js';

export class TypeOrmEmailVerificationRepository implements EmailVerificationRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  save(verification: EmailVerification): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.verifications).upsert({ ...verification }, ['userId']);
    });
  }

  findByHash(tokenHash: string): Promise<EmailVerification | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.verifications).findOneBy({ tokenHash });
      return row ? { ...row, userId: storedKey(row.userId) } : undefined;
    });
  }

  delete(userId: UserId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.verifications).delete({ userId });
    });
  }
}
