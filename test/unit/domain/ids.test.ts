import { expect } from 'chai';
import fc from 'fast-check';
import type { AccountId } from '../../../src/domain/account/account.js';
import type { ApiId } from '../../../src/domain/api/api.aggregate.js';
import { parseIntegerKey, parseIntegerKeyText, parseUuid } from '../../../src/domain/shared/ids.js';

// The repositories trust these parsers: what they let through must be a key PostgreSQL can compare
// (uuid and 32-bit integer columns) and SQLite finds the same way (ids are stored lowercase).
describe('ids parsed where they enter', () => {
  describe('parseUuid', () => {
    it('takes a UUID in the lowercase form this service issues', () => {
      expect(parseUuid<ApiId>('01930000-0000-7000-8000-0000000000aa')).to.equal('01930000-0000-7000-8000-0000000000aa');
      expect(parseUuid<ApiId>('00000000-0000-0000-0000-000000000000')).to.equal('00000000-0000-0000-0000-000000000000');
    });

    it('refuses what is not one: other shapes, uppercase (SQLite would not find it), NUL, padding', () => {
      for (const text of ['', 'not-a-uuid', '01930000000070008000000000aa', '01930000-0000-7000-8000-0000000000a', '01930000-0000-7000-8000-0000000000aaa', '01930000-0000-7000-8000-0000000000AA', '{01930000-0000-7000-8000-0000000000aa}', ' 01930000-0000-7000-8000-0000000000aa', '01930000-0000-7000-8000-0000000000aa\u0000', 'g1930000-0000-7000-8000-0000000000aa']) {
        expect(parseUuid<ApiId>(text), JSON.stringify(text)).to.equal(undefined);
      }
    });

    it('takes every UUID fast-check makes, lowercased, and nothing else of 36 characters', () => {
      fc.assert(fc.property(fc.uuid(), (id) => parseUuid<ApiId>(id.toLowerCase()) === id.toLowerCase()));
      fc.assert(fc.property(fc.string({ minLength: 36, maxLength: 36 }), (text) => (parseUuid<ApiId>(text) === undefined) === !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(text)));
    });
  });

  describe('parseIntegerKey', () => {
    it('takes positive integers up to 2^31 - 1, the largest an integer column holds', () => {
      for (const n of [1, 42, 2_147_483_647]) expect(parseIntegerKey<AccountId>(n)).to.equal(n);
    });

    it('refuses zero, negatives, fractions and anything beyond 32 bits', () => {
      for (const n of [0, -1, 1.5, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity]) {
        expect(parseIntegerKey<AccountId>(n), String(n)).to.equal(undefined);
      }
    });
  });

  describe('parseIntegerKeyText', () => {
    it('takes the decimal text of a key', () => {
      expect(parseIntegerKeyText<AccountId>('1')).to.equal(1);
      expect(parseIntegerKeyText<AccountId>('2147483647')).to.equal(2_147_483_647);
    });

    it('refuses other spellings of a number and numbers no row can have', () => {
      for (const text of ['', '0', '01', '+1', '-1', '1.0', '1e3', ' 1', '1 ', '0x10', '2147483648', '4294967296', '9007199254740993', '99999999999999999999', '１']) {
        expect(parseIntegerKeyText<AccountId>(text), JSON.stringify(text)).to.equal(undefined);
      }
    });
  });
});
