import type { UserId } from '../../domain/account/account.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { checkEmailVerification, EMAIL_VERIFICATION_PREFIX, newEmailVerification, type EmailVerification } from '../../domain/user/email-verification.js';
import type { Clock } from '../ports/clock.port.js';
import type { Mailer } from '../ports/mailer.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { invalid, notFound, type ApplicationError } from '../shared/application-error.js';

export interface VerificationSent {
  readonly email: string;
  readonly expirationDate: Date;
}

/**
 * Sends the user a one-time link that proves they receive mail at their address. Asking again
 * replaces the earlier link. The message goes out after the token is committed, so a link that
 * arrives always works; if handing it to the mailer fails, asking again sends a new one.
 */
export class RequestEmailVerification {
  /** @param verifyUrl where the link points, e.g. `https://docs.example.com/user/email/verify` */
  constructor(
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly verifyUrl: string,
  ) {}

  async execute(userId: UserId): Promise<Result<VerificationSent, ApplicationError>> {
    const secret = this.generator.verificationToken();
    const stored = await this.uow.run(async (tx): Promise<Result<{ nickname: string; verification: EmailVerification }, ApplicationError>> => {
      const user = await tx.users.get(userId);
      if (!user) return err(notFound('user'));
      if (user.emailVerified) return err({ kind: 'EmailAlreadyVerified' });
      const verification = newEmailVerification(user, secret.hash, this.clock.now());
      await tx.verifications.save(verification);
      return ok({ nickname: user.nickname, verification });
    });
    if (!stored.ok) return stored;
    const { nickname, verification } = stored.value;
    const link = `${this.verifyUrl}?token=${encodeURIComponent(secret.token)}`;
    await this.mailer.send({
      to: verification.email,
      subject: 'Verify your e-mail address for Specbase',
      text: [
        `Hello ${nickname},`,
        '',
        `please confirm that ${verification.email} is your e-mail address by opening this link within 24 hours:`,
        '',
        link,
        '',
        'Or send the token yourself:',
        `curl -X POST ${this.verifyUrl} -H 'Content-Type: application/json' -d '{"token":"${secret.token}"}'`,
        '',
        'If you did not ask for this, ignore this message: nothing changes without the link.',
      ].join('\n'),
    });
    return ok({ email: verification.email, expirationDate: verification.expirationDate });
  }
}

const unusable = invalid({ field: 'token', message: 'is not a verification token that is still valid: ask for a new one' });

/** Marks the address verified when the token is the user's newest, unexpired and for that address; single use. */
export class ConfirmEmailVerification {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: unknown): Promise<Result<{ readonly userId: UserId; readonly email: string }, ApplicationError>> {
    if (typeof token !== 'string' || !token.startsWith(EMAIL_VERIFICATION_PREFIX) || token.length > 100) return err(unusable);
    const hash = this.generator.hash(token);
    return this.uow.run(async (tx): Promise<Result<{ readonly userId: UserId; readonly email: string }, ApplicationError>> => {
      const verification = await tx.verifications.findByHash(hash);
      if (!verification) return err(unusable);
      const user = await tx.users.get(verification.userId);
      if (!user) return err(unusable);
      if (!checkEmailVerification(verification, user, this.clock.now()).ok) return err(unusable);
      user.verifyEmail();
      await tx.users.save(user);
      await tx.verifications.delete(user.id);
      return ok({ userId: user.id, email: user.email });
    });
  }
}
