import { expect } from 'chai';
import type { Change, ChangeCounts } from '../../../src/domain/spec/changes/change.js';
import { checkBreakingChangePolicy, majorOf, type BreakingChangePolicy } from '../../../src/domain/spec/changes/policy.js';

const removal: Change = { rule: 'endpoint-removed', level: 'breaking', location: { method: 'GET', path: '/pets' }, pointer: '/paths/~1pets/get', message: 'GET /pets was removed.' };
const added: Change = { rule: 'endpoint-added', level: 'info', location: { method: 'GET', path: '/cats' }, pointer: '/paths/~1cats/get', message: 'GET /cats was added.' };

function changesOf(items: readonly Change[]): { counts: ChangeCounts; items: readonly Change[] } {
  const counts = { breaking: 0, warning: 0, info: 0 };
  for (const item of items) counts[item.level] += 1;
  return { counts, items };
}

function check(policy: BreakingChangePolicy, items: readonly Change[], release: string | undefined, releases: readonly string[], override?: string) {
  return checkBreakingChangePolicy({ policy, allowRemovalAfterSunset: false, changes: changesOf(items), release, releases, override });
}

describe('domain: the breaking-change policy (checkBreakingChangePolicy)', () => {
  describe('majorOf: the major version of a release label', () => {
    it('is the leading number, after an optional v in either case', () => {
      expect(['2.1.0', 'v3', 'V3.0', '2026.11', '0.9.1', '7', '10-beta', '4+build'].map(majorOf)).to.deep.equal([2, 3, 3, 2026, 0, 7, 10, 4]);
    });

    it('is none for a label that does not start with a number, a number with a leading zero, or a number glued to letters', () => {
      expect(['latest', '', 'x1', '01.2', '2a', 'v', ' 2.0', 'release-2'].map(majorOf)).to.deep.equal([null, null, null, null, null, null, null, null]);
    });

    it('takes up to fifteen digits, and no more (a number JavaScript still counts exactly)', () => {
      expect(majorOf('123456789012345.0')).to.equal(123456789012345);
      expect(majorOf('1234567890123456.0')).to.equal(null);
    });
  });

  describe('with nothing breaking', () => {
    it('takes the spec under every policy, even with only added endpoints', () => {
      for (const policy of ['allow', 'requireMajor', 'refuse'] as const) {
        expect(check(policy, [added], undefined, ['1.0.0']).ok, policy).to.equal(true);
      }
    });
  });

  describe('refuse', () => {
    it('refuses a breaking change, saying how many it counted', () => {
      const result = check('refuse', [removal, removal, added], undefined, []);
      expect(result).to.deep.equal({ ok: false, error: { kind: 'BreakingChangeRefused', policy: 'refuse', counted: 2 } });
    });

    it('refuses it even as a release of a new major version', () => {
      expect(check('refuse', [removal], '2.0.0', ['1.0.0']).ok).to.equal(false);
    });

    it('takes it with an override, whatever the reason says (an empty reason too)', () => {
      expect(check('refuse', [removal], undefined, [], 'clients moved').ok).to.equal(true);
      expect(check('refuse', [removal], undefined, [], '').ok).to.equal(true);
    });
  });

  describe('allow', () => {
    it('takes a breaking change without a release or an override', () => {
      expect(check('allow', [removal], undefined, ['1.0.0']).ok).to.equal(true);
    });
  });

  describe('requireMajor', () => {
    it('takes a breaking change released as a major version above the highest existing one', () => {
      expect(check('requireMajor', [removal], '3.0.0', ['1.0.0', '2.4.1']).ok).to.equal(true);
    });

    it('compares with the highest existing major, not the lowest or the last listed', () => {
      const result = check('requireMajor', [removal], '2.0.0', ['3.0.0', '1.0.0']);
      expect(result).to.deep.equal({ ok: false, error: { kind: 'MajorReleaseRequired', policy: 'requireMajor', counted: 1, release: '2.0.0', highestMajor: 3 } });
    });

    it('refuses a release of the same major as the highest existing one', () => {
      const result = check('requireMajor', [removal], '2.5.0', ['1.0.0', '2.0.0']);
      expect(result).to.deep.equal({ ok: false, error: { kind: 'MajorReleaseRequired', policy: 'requireMajor', counted: 1, release: '2.5.0', highestMajor: 2 } });
    });

    it('takes any numbered release when no existing release has a major version', () => {
      expect(check('requireMajor', [removal], '0.1.0', []).ok).to.equal(true);
      expect(check('requireMajor', [removal], '1.0.0', ['latest', 'beta']).ok).to.equal(true);
    });

    it('ignores existing labels without a major version when finding the highest', () => {
      expect(check('requireMajor', [removal], '2.0.0', ['latest', '1.2.0', 'nightly']).ok).to.equal(true);
    });

    it('refuses without a release, and with a release label that has no major version', () => {
      expect(check('requireMajor', [removal], undefined, ['1.0.0'])).to.deep.equal({
        ok: false,
        error: { kind: 'MajorReleaseRequired', policy: 'requireMajor', counted: 1, release: null, highestMajor: 1 },
      });
      expect(check('requireMajor', [removal], 'next', [])).to.deep.equal({
        ok: false,
        error: { kind: 'MajorReleaseRequired', policy: 'requireMajor', counted: 1, release: 'next', highestMajor: null },
      });
    });

    it('takes it with an override and no release', () => {
      expect(check('requireMajor', [removal], undefined, ['1.0.0'], 'agreed with every client').ok).to.equal(true);
    });
  });
});
