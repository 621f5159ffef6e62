import { expect } from 'chai';
import { RegisterUser } from '../../src/application/users/register-user.use-case.js';
import type { PasswordHasher } from '../../src/application/ports/password-hasher.port.js';
import { FixedClock, PlainPasswordHasher, PLAN_SETTINGS } from '../support/fakes.js';
import { forEachImplementation } from './fixtures.js';

/** A hasher whose `hash` waits for `release`, saying when it was asked: a slow scrypt held open. */
function heldHasher(): { hasher: PasswordHasher; asked: Promise<void>; release: () => void } {
  const plain = new PlainPasswordHasher();
  let release!: () => void;
  let ask!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked = new Promise<void>((resolve) => (ask = resolve));
  const hasher: PasswordHasher = {
    hash: async (password) => {
      ask();
      await released;
      return plain.hash(password);
    },
    verify: (password, hash) => plain.verify(password, hash),
  };
  return { hasher, asked, release };
}

forEachImplementation('RegisterUser and the database while the password is hashed', (make) => {
  it('hashes outside its transaction: other reads and writes go on meanwhile (on SQLite they waited out the hash)', async () => {
    const f = await make();
    try {
      const held = heldHasher();
      const register = new RegisterUser(f.uow, held.hasher, PLAN_SETTINGS, new FixedClock());
      const registering = register.execute({ email: 'ada@example.com', password: 'a long passphrase', verified: true });
      await held.asked;
      // Another request's write and read, with the hash still running; the hash ends only after
      // them (or after 2 s, which fails the test: they waited for it).
      const outcome = await Promise.race([
        (async () => {
          const other = await new RegisterUser(f.uow, new PlainPasswordHasher(), PLAN_SETTINGS, new FixedClock()).execute({ email: 'bob@example.com', password: 'another passphrase', verified: true });
          expect(other.ok).to.equal(true);
          expect(await f.repos.users.getByEmail('bob@example.com')).to.not.equal(undefined);
          return 'went on';
        })(),
        new Promise((resolve) => setTimeout(() => resolve('waited for the hash'), 2_000)),
      ]);
      held.release();
      expect(outcome).to.equal('went on');
      const registered = await registering;
      expect(registered.ok).to.equal(true);
      expect((await f.repos.users.getByEmail('ada@example.com'))?.passwordHash).to.equal('plain$a long passphrase');
    } finally {
      await f.dispose();
    }
  });
});
