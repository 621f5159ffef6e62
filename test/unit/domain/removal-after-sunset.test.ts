import { expect } from 'chai';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { countChanges, type Change } from '../../../src/domain/spec/changes/change.js';
import { breakingThatCount, checkBreakingChangePolicy, isRemovalAfterSunset } from '../../../src/domain/spec/changes/policy.js';
import { removedAfterSunset, sunsetDay } from '../../../src/domain/spec/changes/sunset.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { doc } from '../../support/change-cases.js';
import { swagger2Of } from '../../support/swagger2-of.js';

const ok = { '200': { description: 'ok' } };
const SUNSET = '2027-06-30';

/** GET /pets, and DELETE /pets/{id} with `retired` (say, deprecated and an x-sunset). */
function api(retired: Record<string, unknown> | null, extra: Record<string, unknown> = {}): JsonObject {
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  return doc({
    paths: {
      '/pets': { get: { responses: ok, ...extra } },
      ...(retired === null ? {} : { '/pets/{id}': { delete: { parameters: [id], responses: ok, ...retired } } }),
    },
  });
}

const removal = (retired: Record<string, unknown>, today: string | undefined): Change[] =>
  classifyChanges(api(retired), api(null), today === undefined ? {} : { today }).filter((c) => c.rule === 'endpoint-removed');

describe('domain: an operation removed after its sunset (afterSunset)', () => {
  describe('classifyChanges with the day to judge by', () => {
    const deprecated = { deprecated: true, 'x-sunset': SUNSET };

    it('the day before the sunset: an endpoint-removed like any other', () => {
      expect(removal(deprecated, '2027-06-29')).to.deep.equal([
        { rule: 'endpoint-removed', level: 'breaking', location: { method: 'DELETE', path: '/pets/{id}' }, pointer: '/paths/~1pets~1{id}/delete', message: 'DELETE /pets/{id} was removed.' },
      ]);
    });

    it('the day of the sunset: still breaking, marked afterSunset, and its sentence says so', () => {
      expect(removal(deprecated, SUNSET)).to.deep.equal([
        {
          rule: 'endpoint-removed',
          level: 'breaking',
          location: { method: 'DELETE', path: '/pets/{id}' },
          pointer: '/paths/~1pets~1{id}/delete',
          message: `DELETE /pets/{id} was removed after its sunset (${SUNSET}).`,
          afterSunset: true,
        },
      ]);
    });

    it('the day after the sunset, and years after: marked afterSunset', () => {
      for (const today of ['2027-07-01', '2031-01-01']) expect(removal(deprecated, today).map((c) => [c.level, c.afterSunset]), today).to.deep.equal([['breaking', true]]);
    });

    it('not when the operation was not deprecated, though it had an x-sunset long past', () => {
      const change = removal({ 'x-sunset': SUNSET }, '2031-01-01')[0]!;
      expect(change.level).to.equal('breaking');
      expect(change).to.not.have.property('afterSunset');
    });

    it('not when the deprecated operation had no x-sunset', () => {
      expect(removal({ deprecated: true }, '2031-01-01')[0]).to.not.have.property('afterSunset');
    });

    it('not without a day to judge by: the classifier has no clock', () => {
      expect(removal(deprecated, undefined)[0]).to.not.have.property('afterSunset');
    });

    it('not when the x-sunset names no day (an HTTP date, a day that does not exist, a typo)', () => {
      for (const written of ['Wed, 30 Jun 2027 00:00:00 GMT', '2027-02-30', '2027-6-30', 'soon', '2027-06-30 or so']) {
        expect(removal({ deprecated: true, 'x-sunset': written }, '2031-01-01')[0], written).to.not.have.property('afterSunset');
      }
    });

    it('reads an x-sunset written as an RFC 3339 date-time as its day in UTC', () => {
      // 2027-06-30T22:00-05:00 is 2027-07-01 03:00 UTC.
      const late = { deprecated: true, 'x-sunset': '2027-06-30T22:00:00-05:00' };
      expect(removal(late, '2027-06-30')[0]).to.not.have.property('afterSunset');
      expect(removal(late, '2027-07-01')[0]).to.include({ afterSunset: true });
    });

    it('reads Swagger 2.0 as OpenAPI 3.0: the same verdict for the same API', () => {
      const [before, after] = [swagger2Of(api({ deprecated: true, 'x-sunset': SUNSET })) as JsonObject, swagger2Of(api(null)) as JsonObject];
      const changes = classifyChanges(before, after, { today: SUNSET }).filter((c) => c.rule === 'endpoint-removed');
      expect(changes.map((c) => [c.location, c.afterSunset])).to.deep.equal([[{ method: 'DELETE', path: '/pets/{id}' }, true]]);
    });

    it('marks nothing but the removal: what else changed in the same comparison is reported as without a day', () => {
      const before = api({ deprecated: true, 'x-sunset': SUNSET });
      const after = api(null, { deprecated: true, 'x-sunset': SUNSET, parameters: [{ name: 'limit', in: 'query', required: true, schema: { type: 'integer' } }] });
      const judged = classifyChanges(before, after, { today: '2031-01-01' });
      const plain = classifyChanges(before, after);
      expect(judged.filter((c) => c.afterSunset === true).map((c) => c.rule)).to.deep.equal(['endpoint-removed']);
      expect(judged.filter((c) => c.rule !== 'endpoint-removed')).to.deep.equal(plain.filter((c) => c.rule !== 'endpoint-removed'));
      expect(countChanges(judged), 'the counts do not move: it is still breaking').to.deep.equal(countChanges(plain));
    });
  });

  describe('sunsetDay and removedAfterSunset', () => {
    it('take a date as written, a date-time as its UTC day, and nothing else', () => {
      expect(sunsetDay('2027-06-30')).to.equal('2027-06-30');
      expect(sunsetDay('2028-02-29')).to.equal('2028-02-29');
      expect(sunsetDay('2027-02-29')).to.equal(null);
      expect(sunsetDay('2027-06-30T00:00:00Z')).to.equal('2027-06-30');
      expect(sunsetDay('2027-06-30T23:30:00.5-01:00')).to.equal('2027-07-01');
      expect(sunsetDay('2027-06-30T00:00:00')).to.equal(null);
      expect(sunsetDay(' 2027-06-30')).to.equal(null);
    });

    it('name no day for a date that does not exist: a month past 12 or 00, a day past the month’s last or 00', () => {
      for (const written of ['2027-13-01', '2027-00-10', '2027-02-30', '2027-04-31', '2027-12-32', '2027-01-00', '2027-99-99']) expect(sunsetDay(written), written).to.equal(null);
      expect(['2027-01-31', '2027-04-30', '2027-12-31', '2028-02-29'].map(sunsetDay)).to.deep.equal(['2027-01-31', '2027-04-30', '2027-12-31', '2028-02-29']);
    });

    it('read a date of the years 0000 to 0099 as that day, as they read a date-time of it', () => {
      expect(sunsetDay('0050-01-01T00:00:00Z')).to.equal('0050-01-01');
      expect(sunsetDay('0050-01-01')).to.equal('0050-01-01');
      expect(sunsetDay('0000-02-29')).to.equal('0000-02-29');
      expect(removedAfterSunset({ deprecated: true, sunset: '0099-12-31' }, '2027-07-01')).to.equal(true);
    });

    it('name no day for a date-time of a day that does not exist', () => {
      expect(sunsetDay('2027-02-30T00:00:00Z')).to.equal(null);
      expect(sunsetDay('2027-06-30T25:00:00Z')).to.equal(null);
    });

    it('count the sunset day itself as after it, and only for a deprecated operation', () => {
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, '2027-06-29')).to.equal(false);
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, SUNSET)).to.equal(true);
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, '2027-07-01')).to.equal(true);
      expect(removedAfterSunset({ deprecated: false, sunset: SUNSET }, '2027-07-01')).to.equal(false);
      expect(removedAfterSunset({ deprecated: true, sunset: null }, '2027-07-01')).to.equal(false);
    });
  });

  describe('checkBreakingChangePolicy with allowRemovalAfterSunset', () => {
    const afterSunset = removal({ deprecated: true, 'x-sunset': SUNSET }, '2027-07-01');
    const beforeSunset = removal({ deprecated: true, 'x-sunset': SUNSET }, '2027-06-29');
    const other = classifyChanges(api({}), api({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }] }), { today: '2027-07-01' });
    const changesOf = (items: Change[]) => ({ counts: countChanges(items), items });
    const check = (policy: 'allow' | 'requireMajor' | 'refuse', allowRemovalAfterSunset: boolean, items: Change[], extra: { release?: string; override?: string } = {}) =>
      checkBreakingChangePolicy({ policy, allowRemovalAfterSunset, changes: changesOf(items), release: extra.release, releases: ['1.0.0'], override: extra.override });

    it('the changes it is given are what the test means: one removal after its sunset, one before, one other breaking change', () => {
      expect(afterSunset.map(isRemovalAfterSunset)).to.deep.equal([true]);
      expect(beforeSunset.map(isRemovalAfterSunset)).to.deep.equal([false]);
      // A path parameter's type changed (which rule says so is the classifier's business): one breaking change, not a removal.
      expect(other.filter((c) => c.level === 'breaking').map((c) => [c.rule.startsWith('request-parameter-'), isRemovalAfterSunset(c)])).to.deep.equal([[true, false]]);
    });

    it('refuse with the flag: a removal after its sunset passes', () => {
      expect(check('refuse', true, afterSunset)).to.deep.equal({ ok: true, value: undefined });
    });

    it('refuse with the flag: a removal before its sunset is refused', () => {
      expect(check('refuse', true, beforeSunset)).to.deep.equal({ ok: false, error: { kind: 'BreakingChangeRefused', policy: 'refuse', counted: 1 } });
    });

    it('refuse without the flag: a removal after its sunset is refused like any breaking change', () => {
      expect(check('refuse', false, afterSunset)).to.deep.equal({ ok: false, error: { kind: 'BreakingChangeRefused', policy: 'refuse', counted: 1 } });
    });

    it('refuse with the flag: another breaking change beside the removal is refused, the removal not counted', () => {
      expect(check('refuse', true, [...other, ...afterSunset])).to.deep.equal({ ok: false, error: { kind: 'BreakingChangeRefused', policy: 'refuse', counted: 1 } });
    });

    it('requireMajor with the flag: a removal after its sunset needs no new major version; anything else still does', () => {
      expect(check('requireMajor', true, afterSunset).ok).to.equal(true);
      expect(check('requireMajor', true, [...other, ...afterSunset])).to.deep.equal({ ok: false, error: { kind: 'MajorReleaseRequired', policy: 'requireMajor', counted: 1, release: null, highestMajor: 1 } });
      expect(check('requireMajor', true, [...other, ...afterSunset], { release: '2.0.0' }).ok).to.equal(true);
    });

    it('allow, and an override, take everything as before', () => {
      expect(check('allow', false, [...other, ...beforeSunset]).ok).to.equal(true);
      expect(check('refuse', false, [...other, ...beforeSunset], { override: 'agreed with the mobile team' }).ok).to.equal(true);
    });

    it('counts a breaking change that items cut off (CHANGES_MAX_ITEMS) as one it cannot let through', () => {
      const cut = { counts: { breaking: 2, warning: 0, info: 0 }, items: afterSunset };
      expect(breakingThatCount(cut, true)).to.equal(1);
      expect(breakingThatCount(cut, false)).to.equal(2);
      expect(checkBreakingChangePolicy({ policy: 'refuse', allowRemovalAfterSunset: true, changes: cut, release: undefined, releases: [], override: undefined }).ok).to.equal(false);
    });

    it('lets through exactly an endpoint-removed at the breaking level that carries afterSunset', () => {
      const removed = afterSunset[0]!;
      expect(isRemovalAfterSunset(removed)).to.equal(true);
      expect(isRemovalAfterSunset({ ...removed, rule: 'model-removed' })).to.equal(false);
      expect(isRemovalAfterSunset({ ...removed, level: 'warning' })).to.equal(false);
      const unmarked: Change = { rule: removed.rule, level: removed.level, location: removed.location, pointer: removed.pointer, message: removed.message };
      expect(isRemovalAfterSunset(unmarked)).to.equal(false);
    });
  });
});
