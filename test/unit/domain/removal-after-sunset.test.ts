import { expect } from 'chai';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { countChanges, type Change } from '../../../src/domain/spec/changes/change.js';
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

    it('count the sunset day itself as after it, and only for a deprecated operation', () => {
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, '2027-06-29')).to.equal(false);
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, SUNSET)).to.equal(true);
      expect(removedAfterSunset({ deprecated: true, sunset: SUNSET }, '2027-07-01')).to.equal(true);
      expect(removedAfterSunset({ deprecated: false, sunset: SUNSET }, '2027-07-01')).to.equal(false);
      expect(removedAfterSunset({ deprecated: true, sunset: null }, '2027-07-01')).to.equal(false);
    });
  });
});
