import { expect } from 'chai';
import { checkEmailVerification, newEmailVerification } from '../../../src/domain/user/email-verification.js';
import { checkPassword } from '../../../src/domain/user/password-policy.js';
import { isValidEmail, User, type UserState } from '../../../src/domain/user/user.aggregate.js';
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

  it('names the rule broken in its message', () => {
    expect(checkPassword('short', 'zed@example.com')).to.deep.equal({ ok: false, error: { rule: 'too_short', message: 'must be at least 10 characters' } });
    expect(checkPassword('abcde'.repeat(52), 'zed@example.com')).to.deep.equal({ ok: false, error: { rule: 'too_long', message: 'must be at most 256 characters' } });
    expect(checkPassword('abcdabcdab', 'zed@example.com')).to.deep.equal({ ok: false, error: { rule: 'too_few_distinct_characters', message: 'must contain at least 5 different characters' } });
    expect(checkPassword('my-zedd-password', 'zedd@example.com')).to.deep.equal({ ok: false, error: { rule: 'contains_email', message: 'must not contain the e-mail address or its local part' } });
  });

  it('takes 10 to 256 characters with at least 5 different ones', () => {
    expect(checkPassword('abcdeabcde', 'zed@example.com')).to.deep.equal({ ok: true, value: undefined });
    expect(checkPassword('abcdeabcd', 'zed@example.com').ok, '9 characters').to.equal(false);
    expect(checkPassword(`${'abcde'.repeat(51)}a`, 'zed@example.com').ok, '256 characters').to.equal(true);
    expect(checkPassword(`${'abcde'.repeat(51)}ab`, 'zed@example.com').ok, '257 characters').to.equal(false);
  });

  it('refuses the e-mail address in any case, and its local part from 4 characters on', () => {
    expect(checkPassword('xx-bo@example.com-yy', 'Bo@Example.COM').ok, 'the whole address').to.equal(false);
    expect(checkPassword('my-bob-password', 'bob@example.com').ok, 'a 3-character local part is too common to refuse').to.equal(true);
    expect(checkPassword('MY-BOBB-PASSWORD', 'Bobb@example.com').ok, 'a 4-character one').to.equal(false);
  });

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

  it('registers with the name given, the e-mail verified when the caller says so, and an empty profile otherwise', async () => {
    const result = await User.register({ email: 'ada@example.com', password: 'a long passphrase', nickname: 'lovelace', name: 'Ada Lovelace', emailVerified: true }, hash, NOW);
    expect(result).to.deep.equal({
      ok: true,
      value: {
        email: 'ada@example.com', emailVerified: true, passwordHash: 'h(a long passphrase)', nickname: 'lovelace', name: 'Ada Lovelace',
        givenName: null, familyName: null, picture: null, locale: null, creationDate: NOW,
      },
    });
  });

  it('makes a nickname of the e-mail’s local part: lower case, other characters as "-", at most 64, "user" for dots only', async () => {
    const nicknameOf = async (email: string) => {
      const result = await User.register({ email, password: 'a long passphrase', emailVerified: false }, hash, NOW);
      return result.ok ? result.value.nickname : result.error;
    };
    expect(await nicknameOf('Ada+Docs@example.com')).to.equal('ada-docs');
    expect(await nicknameOf('a_b.c-d@example.com')).to.equal('a_b.c-d');
    expect(await nicknameOf(`${'x'.repeat(70)}@example.com`)).to.equal('x'.repeat(64));
    expect(await nicknameOf('...@example.com')).to.equal('user');
    expect(await nicknameOf('.a.@example.com')).to.equal('.a.');
  });

  for (const [label, input, error] of [
    ['an e-mail without a domain', { email: 'ada@example' }, { field: 'email', message: 'must be an e-mail address' }],
    ['an e-mail with a space', { email: 'ada lovelace@example.com' }, { field: 'email', message: 'must be an e-mail address' }],
    ['a nickname of dots', { nickname: '..' }, { field: 'nickname', message: 'must be 1-64 of a-z, 0-9, "-", "_", "."' }],
    ['a 65-character nickname', { nickname: 'x'.repeat(65) }, { field: 'nickname', message: 'must be 1-64 of a-z, 0-9, "-", "_", "."' }],
    ['an empty name', { name: '' }, { field: 'name', message: 'must be 1-200 characters, not only spaces' }],
    ['a name of only spaces, as a profile change would', { name: '   ' }, { field: 'name', message: 'must be 1-200 characters, not only spaces' }],
    ['a 201-character name', { name: 'x'.repeat(201) }, { field: 'name', message: 'must be 1-200 characters, not only spaces' }],
    ['a password containing the e-mail', { password: 'ada@example.com!!' }, { field: 'password', message: 'must not contain the e-mail address or its local part' }],
  ] as const) {
    it(`refuses ${label}`, async () => {
      const result = await User.register({ email: 'ada@example.com', password: 'a long passphrase', emailVerified: false, ...input }, hash, NOW);
      expect(result).to.deep.equal({ ok: false, error: { kind: 'InvalidField', ...error } });
    });
  }

  it('takes a nickname with dots, but not of dots only', async () => {
    for (const nickname of ['.ada', 'ada.', 'a.da']) {
      const result = await User.register({ email: 'ada@example.com', password: 'a long passphrase', nickname, emailVerified: false }, hash, NOW);
      expect(result.ok && result.value.nickname, nickname).to.equal(nickname);
    }
  });

  it('takes a name of 200 characters and a nickname of 64', async () => {
    const result = await User.register({ email: 'ada@example.com', password: 'a long passphrase', nickname: 'x'.repeat(64), name: 'y'.repeat(200), emailVerified: false }, hash, NOW);
    expect(result.ok && [result.value.nickname, result.value.name]).to.deep.equal(['x'.repeat(64), 'y'.repeat(200)]);
  });

  it('takes e-mail addresses of up to 254 characters', () => {
    const address = (length: number) => `${'a'.repeat(length - 12)}@example.com`;
    expect(isValidEmail(address(254))).to.equal(true);
    expect(isValidEmail(address(255))).to.equal(false);
  });

  const state: UserState = {
    id: userId(1), accountId: accountId(2), email: 'a@b.co', emailVerified: false, passwordHash: 'x', nickname: 'a',
    name: null, givenName: null, familyName: null, picture: null, locale: null, creationDate: NOW,
  };

  it('verifies an e-mail address idempotently', () => {
    const user = User.rehydrate(state);
    user.verifyEmail();
    user.verifyEmail();
    expect(user.emailVerified).to.equal(true);
    expect(user.snapshot()).to.deep.equal({ ...state, emailVerified: true });
  });

  it('shows its profile, never its password hash, and changes the hash only when told', () => {
    const user = User.rehydrate(state);
    expect([user.id, user.accountId, user.email, user.emailVerified, user.nickname, user.passwordHash]).to.deep.equal([1, 2, 'a@b.co', false, 'a', 'x']);
    user.changePassword('y');
    expect(user.passwordHash).to.equal('y');
    expect(user.toProfile()).to.deep.equal({ id: 1, email: 'a@b.co', emailVerified: false, nickname: 'a', name: null, givenName: null, familyName: null, picture: null, locale: null, accountId: 2 });
  });

  describe('profile changes', () => {
    const change = (changes: Record<string, unknown>) => {
      const user = User.rehydrate(state);
      const result = user.updateProfile(changes);
      return result.ok ? user.toProfile() : result.error;
    };
    const refused = (field: string, message: string) => ({ kind: 'InvalidField', field, message });

    it('sets each field, clears the optional ones with null, and leaves out what is undefined', () => {
      const changes = { nickname: 'ada', name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace', picture: 'https://example.com/ada.png', locale: 'en' };
      expect(change(changes)).to.deep.include(changes);
      const user = User.rehydrate({ ...state, ...changes });
      expect(user.updateProfile({ name: null, givenName: null, familyName: null, picture: null, locale: null, nickname: undefined })).to.deep.equal({ ok: true, value: undefined });
      expect(user.toProfile()).to.deep.include({ nickname: 'ada', name: null, givenName: null, familyName: null, picture: null, locale: null });
    });

    it('takes names of 1-200 characters, not only spaces', () => {
      for (const field of ['name', 'givenName', 'familyName']) {
        expect(change({ [field]: 'x'.repeat(200) }), field).to.deep.include({ [field]: 'x'.repeat(200) });
        for (const value of ['', '  ', 'x'.repeat(201)]) expect(change({ [field]: value }), `${field} ${value.length}`).to.deep.equal(refused(field, 'must be 1-200 characters, not only spaces'));
      }
    });

    it('takes a nickname of 1-64 of a-z, 0-9, "-", "_", ".", not only dots, and never null', () => {
      for (const nickname of ['a.b_c-9', '.ada', 'ada.']) expect(change({ nickname }), nickname).to.deep.include({ nickname });
      for (const nickname of ['', '...', 'Ada', 'x'.repeat(65), null, 3]) expect(change({ nickname }), String(nickname)).to.deep.equal(refused('nickname', 'must be 1-64 of a-z, 0-9, "-", "_", "."'));
    });

    it('takes a picture as an http or https URL of at most 2048 characters', () => {
      const long = `https://example.com/${'p'.repeat(2048 - 20)}`;
      for (const picture of ['http://example.com/a.png', long]) expect(change({ picture }), picture.slice(0, 30)).to.deep.include({ picture });
      for (const picture of [`${long}p`, 'ftp://example.com/a.png', 'javascript:alert(1)', 'example.com/a.png']) {
        expect(change({ picture }), picture.slice(0, 30)).to.deep.equal(refused('picture', 'must be an http or https URL'));
      }
    });

    it('takes a locale as a language tag', () => {
      for (const locale of ['en', 'pt-BR', 'zh-Hant-TW', 'ast', 'de-CH-1996']) expect(change({ locale }), locale).to.deep.include({ locale });
      for (const locale of ['e', 'english', 'pt_BR', 'en-', ' en', 'en-a-b-c-d']) expect(change({ locale }), locale).to.deep.equal(refused('locale', 'must be a language tag such as "en" or "pt-BR"'));
    });

    it('refuses what is neither a string nor null, and applies nothing of a change it refuses', () => {
      expect(change({ name: 3 })).to.deep.equal(refused('name', 'must be a string or null'));
      const user = User.rehydrate(state);
      expect(user.updateProfile({ name: 'Ada', locale: 'english' })).to.deep.equal({ ok: false, error: refused('locale', 'must be a language tag such as "en" or "pt-BR"') });
      expect(user.snapshot()).to.deep.equal(state);
    });
  });
});

describe('e-mail verification', () => {
  const user = { id: userId(1), email: 'ada@example.com' };

  it('works for a day, for the address it was sent to', () => {
    const verification = newEmailVerification(user, 'hash', NOW);
    expect(verification).to.deep.equal({ userId: 1, email: 'ada@example.com', tokenHash: 'hash', expirationDate: new Date('2026-11-23T11:00:00.000Z'), creationDate: NOW });
    expect(checkEmailVerification(verification, user, new Date('2026-11-23T10:59:59.999Z'))).to.deep.equal({ ok: true, value: undefined });
    expect(checkEmailVerification(verification, user, new Date('2026-11-23T11:00:00.000Z'))).to.deep.equal({ ok: false, error: 'Expired' });
    expect(checkEmailVerification(verification, { email: 'ada@example.org' }, NOW)).to.deep.equal({ ok: false, error: 'AddressChanged' });
  });
});
