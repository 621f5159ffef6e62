import { expect } from 'chai';
import { AuthenticateToken } from '../../../src/application/auth/authenticate-token.use-case.js';
import { DEFAULT_TOKEN_CACHE, TokenCache } from '../../../src/application/auth/token-cache.js';
import { BootstrapDemo } from '../../../src/application/bootstrap/bootstrap-demo.use-case.js';
import { CreateApiToken } from '../../../src/application/tokens/create-api-token.use-case.js';
import { RegisterUser } from '../../../src/application/users/register-user.use-case.js';
import { VerifyEmail } from '../../../src/application/users/verify-email.use-case.js';
import { RandomTokenGenerator } from '../../../src/adapters/crypto/random-token-generator.js';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import { SCOPES } from '../../../src/domain/token/scope.js';
import { FixedClock, PLAN_SETTINGS, PlainPasswordHasher, SequentialIds, plansOver } from '../../support/fakes.js';
import { accountId, userId } from '../../support/ids.js';

function setup() {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const generator = new RandomTokenGenerator();
  const register = new RegisterUser(db, new PlainPasswordHasher(), PLAN_SETTINGS, clock);
  const createToken = new CreateApiToken(db, plansOver(db.repositories, clock), ids, generator, clock);
  return {
    clock,
    repos: db.repositories,
    register,
    verify: new VerifyEmail(db),
    createToken,
    authenticate: new AuthenticateToken(db.repositories.tokens, generator, clock, new TokenCache(DEFAULT_TOKEN_CACHE, (hashes) => db.repositories.tokens.findHolders(hashes))),
    bootstrap: new BootstrapDemo(db.repositories.users, register, createToken, generator),
  };
}

const ada = { email: 'ada@example.com', password: 'a long passphrase', verified: false };

describe('user and token use cases', () => {
  it('registers a user with a personal account of its own', async () => {
    const s = setup();
    const first = await s.register.execute(ada);
    const second = await s.register.execute({ ...ada, email: 'bob@example.com' });
    expect(first).to.deep.equal({ ok: true, value: { userId: 1, accountId: 1 } });
    expect(second).to.deep.equal({ ok: true, value: { userId: 2, accountId: 2 } });
  });

  it('refuses a second user with the same e-mail, in any case, and leaves no orphan account', async () => {
    const s = setup();
    await s.register.execute(ada);
    const again = await s.register.execute({ ...ada, email: 'ADA@example.com' });
    expect(!again.ok && again.error.kind).to.equal('DuplicateEmail');
    expect(await s.repos.accounts.exists(accountId(2))).to.equal(false);
  });

  it('refuses a token before the e-mail is verified and issues one after', async () => {
    const s = setup();
    await s.register.execute(ada);
    const before = await s.createToken.execute({ email: 'ada@example.com' }, { name: 'ci', scopes: ['api'] });
    expect(before).to.deep.equal({ ok: false, error: { kind: 'EmailNotVerified' } });
    expect(await s.verify.execute('Ada@Example.com')).to.deep.equal({ ok: true, value: { userId: 1 } });
    const after = await s.createToken.execute({ userId: userId(1) }, { name: 'ci', scopes: ['api', 'api_release'] });
    expect(after.ok && after.value.token).to.match(/^sbt_[A-Za-z0-9_-]{43}$/);
    expect(after.ok && after.value.scopes).to.deep.equal(['api', 'api_release']);
  });

  it('refuses an unknown scope naming the field', async () => {
    const s = setup();
    await s.register.execute({ ...ada, verified: true });
    const result = await s.createToken.execute({ userId: userId(1) }, { name: 'ci', scopes: ['api', 'root'] });
    expect(!result.ok && result.error.kind === 'Validation' && result.error.errors[0]).to.deep.equal({ field: 'scopes', message: 'unknown scope: root' });
  });

  it('authenticates a token into a principal and stores only its hash', async () => {
    const s = setup();
    await s.register.execute({ ...ada, verified: true, nickname: 'ada' });
    const created = await s.createToken.execute({ userId: userId(1) }, { name: 'ci', scopes: ['api.readonly'] });
    if (!created.ok) throw new Error('setup');
    const principal = await s.authenticate.execute(created.value.token);
    expect(principal).to.deep.equal({ ok: true, value: { userId: 1, accountId: 1, nickname: 'ada', scopes: ['api.readonly'], tokenId: created.value.id } });
    const [stored] = await s.repos.tokens.listByUser(userId(1));
    expect(stored!.tokenHash).to.not.include(created.value.token.slice(4));
    expect(stored!.lastUseDate?.toISOString()).to.equal('2026-11-22T10:15:00.000Z');
  });

  for (const presented of ['', 'garbage', `sbt_${'A'.repeat(43)}`, `sbt_${'A'.repeat(44)}`]) {
    it(`refuses ${JSON.stringify(presented.slice(0, 12))}... as Unauthenticated`, async () => {
      const s = setup();
      expect(await s.authenticate.execute(presented)).to.deep.equal({ ok: false, error: { kind: 'Unauthenticated' } });
    });
  }

  it('stops accepting a token once it is deleted', async () => {
    const s = setup();
    await s.register.execute({ ...ada, verified: true });
    const created = await s.createToken.execute({ userId: userId(1) }, { name: 'ci', scopes: ['api'] });
    if (!created.ok) throw new Error('setup');
    expect(await s.repos.tokens.delete(userId(1), created.value.id)).to.equal(true);
    expect((await s.authenticate.execute(created.value.token)).ok).to.equal(false);
  });

  it('bootstraps a verified demo user with an all-scopes token once, on an empty database only', async () => {
    const s = setup();
    const first = await s.bootstrap.execute();
    if (!first.ok || first.value === null) throw new Error('expected credentials');
    const principal = await s.authenticate.execute(first.value.token);
    expect(principal.ok && [...principal.value.scopes].sort()).to.deep.equal([...SCOPES].sort());
    expect((await s.repos.users.getByEmail(first.value.email))?.emailVerified).to.equal(true);
    expect(await s.bootstrap.execute()).to.deep.equal({ ok: true, value: null });
  });

  it('lets two instances bootstrap the same empty database at once: one creates, the other stands down', async () => {
    const s = setup();
    const results = await Promise.all([s.bootstrap.execute(), s.bootstrap.execute()]);
    expect(results.every((r) => r.ok)).to.equal(true);
    expect(results.filter((r) => r.ok && r.value !== null)).to.have.length(1);
  });
});
