import { expect } from 'chai';
import { checkPassword } from '../../../src/domain/user/password-policy.js';
import { User } from '../../../src/domain/user/user.aggregate.js';
import { accountId, userId } from '../../support/ids.js';

const NOW = new Date('2026-11-22T11:00:00.000Z');
const hash = async (p: string) => `h(${p})`;

describe('password policy', () => {
  for (const [password, rule] of [
    ['short1234', 'too_short'],
    ['x'.repeat(257), 'too_long'],
    ['aaaaaaaaaaaa', 'too_few_distinct_characters'],
    ['abababababab', 'too_few_distinct_characters'],
    ['my-ada.lovelace-pw', 'contains_email'],
  ] as const) {
    it(`refuses ${JSON.stringify(password.slice(0, 20))} for ${rule}`, () => {
      const result = checkPassword(password, 'ada.lovelace@example.com');
      expect(!result.ok && result.error.rule).to.equal(rule);
    });
  }

  it('accepts a long passphrase, counting characters not bytes', () => {
    expect(checkPassword('correct horse battery staple', 'ada@example.com').ok).to.equal(true);
    expect(checkPassword('пароль-длинный', 'ada@example.com').ok).to.equal(true);
    expect(checkPassword('ééééé1234', 'ada@example.com').ok).to.equal(false);
  });
});

describe('User aggregate', () => {
  it('registers with a normalised e-mail, a hashed password and a nickname from the e-mail', async () => {
    const result = await User.register({ email: ' Ada.L@Example.COM ', password: 'a long passphrase', emailVerified: false }, hash, NOW);
    expect(result.ok).to.equal(true);
    if (result.ok) {
      expect(result.value).to.include({ email: 'ada.l@example.com', nickname: 'ada.l', emailVerified: false });
      expect(result.value.passwordHash).to.equal('h(a long passphrase)');
    }
  });

  for (const [label, input, field] of [
    ['a malformed e-mail', { email: 'ada' }, 'email'],
    ['a weak password', { password: 'short' }, 'password'],
    ['a bad nickname', { nickname: 'Ada Lovelace' }, 'nickname'],
  ] as const) {
    it(`refuses ${label}, naming the field, without hashing`, async () => {
      let hashed = false;
      const result = await User.register(
        { email: 'ada@example.com', password: 'a long passphrase', emailVerified: false, ...input },
        async (p) => {
          hashed = true;
          return p;
        },
        NOW,
      );
      expect(!result.ok && result.error.field).to.equal(field);
      expect(hashed).to.equal(false);
    });
  }

  it('verifies an e-mail address idempotently', () => {
    const user = User.rehydrate({
      id: userId(1), accountId: accountId(1), email: 'a@b.co', emailVerified: false, passwordHash: 'x', nickname: 'a',
      name: null, givenName: null, familyName: null, picture: null, locale: null, creationDate: NOW,
    });
    user.verifyEmail();
    user.verifyEmail();
    expect(user.emailVerified).to.equal(true);
  });
});
