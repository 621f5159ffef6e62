import { expect } from 'chai';
import { RandomTokenGenerator } from '../../../src/adapters/crypto/random-token-generator.js';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { MailMessage, Mailer } from '../../../src/application/ports/mailer.port.js';
import { ConfirmEmailVerification, RequestEmailVerification } from '../../../src/application/users/email-verification.use-cases.js';
import { RegisterUser } from '../../../src/application/users/register-user.use-case.js';
import { FixedClock, PLAN_SETTINGS, SequentialIds } from '../../support/fakes.js';
import { ScryptPasswordHasher } from '../../../src/adapters/crypto/scrypt-password-hasher.js';

class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

async function setup() {
  const clock = new FixedClock();
  const db = new InMemoryDatabase(new SequentialIds());
  const generator = new RandomTokenGenerator();
  const mailer = new RecordingMailer();
  const registered = await new RegisterUser(db, new ScryptPasswordHasher(), PLAN_SETTINGS, clock).execute({ email: 'Dee@Example.com', password: 'a long passphrase', verified: false });
  if (!registered.ok) throw new Error('setup');
  return {
    clock,
    db,
    mailer,
    userId: registered.value.userId,
    request: new RequestEmailVerification(db, generator, mailer, clock, 'https://docs.example.com/user/email/verify'),
    confirm: new ConfirmEmailVerification(db, generator, clock),
    tokenOf: (message: MailMessage | undefined) => /\?token=(sbv_[A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1] ?? '',
  };
}

const unusable = { ok: false, error: { kind: 'Validation', errors: [{ field: 'token', message: 'is not a verification token that is still valid: ask for a new one' }] } };

describe('e-mail verification use cases', () => {
  it('mails a link to the user’s address and keeps only the token’s hash', async () => {
    const s = await setup();
    const sent = await s.request.execute(s.userId);
    expect(sent).to.deep.equal({ ok: true, value: { email: 'dee@example.com', expirationDate: new Date(s.clock.now().getTime() + 86_400_000) } });
    expect(s.mailer.sent).to.have.length(1);
    expect(s.mailer.sent[0]).to.include({ to: 'dee@example.com', subject: 'Verify your e-mail address for Specbase' });
    const token = s.tokenOf(s.mailer.sent[0]);
    expect(token).to.have.length(47);
    const stored = await s.db.repositories.verifications.findByHash(new RandomTokenGenerator().hash(token));
    expect(stored).to.deep.include({ userId: s.userId, email: 'dee@example.com' });
    expect(await s.db.repositories.verifications.findByHash(token), 'never the token itself').to.equal(undefined);
  });

  it('verifies once, within 24 hours, with the newest token only', async () => {
    const s = await setup();
    await s.request.execute(s.userId);
    await s.request.execute(s.userId);
    const [older, newer] = s.mailer.sent.map(s.tokenOf);
    expect(await s.confirm.execute(older)).to.deep.equal(unusable);
    s.clock.advance(86_400_000 - 1);
    expect(await s.confirm.execute(newer)).to.deep.equal({ ok: true, value: { userId: s.userId, email: 'dee@example.com' } });
    expect((await s.db.repositories.users.get(s.userId))?.emailVerified).to.equal(true);
    expect(await s.confirm.execute(newer), 'single use').to.deep.equal(unusable);
    expect(await s.request.execute(s.userId)).to.deep.include({ ok: false, error: { kind: 'EmailAlreadyVerified' } });
  });

  it('refuses an expired token and leaves the address unverified', async () => {
    const s = await setup();
    await s.request.execute(s.userId);
    s.clock.advance(86_400_000);
    expect(await s.confirm.execute(s.tokenOf(s.mailer.sent[0]))).to.deep.equal(unusable);
    expect((await s.db.repositories.users.get(s.userId))?.emailVerified).to.equal(false);
  });

  it('refuses what is not a verification token without a lookup', async () => {
    const s = await setup();
    for (const token of [undefined, 42, '', 'sbt_abc', `sbv_${'x'.repeat(200)}`]) expect(await s.confirm.execute(token)).to.deep.equal(unusable);
  });
});
