import { expect } from 'chai';
import { dayOf, formatTimestamp } from '../../../src/domain/shared/time.js';

describe('times on the wire', () => {
  it('are ISO 8601 in UTC to the millisecond, with an explicit +00:00 offset', () => {
    expect(formatTimestamp(new Date('2026-11-22T10:15:00.123Z'))).to.equal('2026-11-22T10:15:00.123+00:00');
    expect(formatTimestamp(new Date('2026-11-22T23:30:00.000-02:00'))).to.equal('2026-11-23T01:30:00.000+00:00');
  });

  it('format each Date once, the same text each time after', () => {
    const date = new Date('2026-11-22T10:15:00.000Z');
    let formatted = 0;
    const toISOString = date.toISOString.bind(date);
    date.toISOString = () => {
      formatted += 1;
      return toISOString();
    };
    expect([formatTimestamp(date), formatTimestamp(date)]).to.deep.equal(['2026-11-22T10:15:00.000+00:00', '2026-11-22T10:15:00.000+00:00']);
    expect(formatted).to.equal(1);
  });

  it('fall on their UTC calendar day', () => {
    expect(dayOf(new Date('2026-11-22T23:59:59.999Z'))).to.equal('2026-11-22');
    expect(dayOf(new Date('2026-11-22T23:30:00.000-02:00'))).to.equal('2026-11-23');
  });
});
