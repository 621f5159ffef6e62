import { expect } from 'chai';
import { listBody } from '../../../src/adapters/http/pagination.js';
import { listJson, recordJson } from '../../../src/adapters/http/record-json.js';

describe('record JSON: the text Koa would send, serialised once per frozen record', () => {
  const record = (n: number) => Object.freeze({ id: `id-${n}`, name: `API "${n}" é\u2028`, revision: n, user: Object.freeze({ id: n, nickname: 'ada' }), description: null });

  it('writes a page exactly as JSON.stringify writes listBody, with and without a next cursor', () => {
    const items = [record(1), record(2), record(3)];
    expect(listJson(items, null)).to.equal(JSON.stringify(listBody(items, null)));
    expect(listJson(items, 'after-3')).to.equal(JSON.stringify(listBody(items, 'after-3')));
    expect(listJson([], { after: 7 })).to.equal(JSON.stringify(listBody([], { after: 7 })));
  });

  it('gives a page of the same frozen records and cursor the same text, and writes any other page afresh', () => {
    const [a, b, c] = [record(5), record(6), record(7)];
    const page = listJson([a, b], 'after-6');
    expect(listJson([a, b], 'after-6')).to.equal(page).and.to.equal(JSON.stringify(listBody([a, b], 'after-6')));
    // The same first record, with other records after it, another cursor, or fewer records.
    expect(listJson([a, c], 'after-7')).to.equal(JSON.stringify(listBody([a, c], 'after-7')));
    expect(listJson([a, c], null)).to.equal(JSON.stringify(listBody([a, c], null)));
    expect(listJson([a], null)).to.equal(JSON.stringify(listBody([a], null)));
    expect(listJson([a, b], 'after-6'), 'back to the first page').to.equal(JSON.stringify(listBody([a, b], 'after-6')));
    // A record that is not frozen may change between answers: never kept.
    const open = { id: 'open', name: 'before' };
    expect(listJson([a, open], null)).to.include('"before"');
    open.name = 'after';
    expect(listJson([a, open], null)).to.include('"after"');
    // Nor a cursor that is an object.
    const cursor = { after: 1 };
    expect(listJson([a], cursor)).to.equal(JSON.stringify(listBody([a], cursor)));
    cursor.after = 2;
    expect(listJson([a], cursor)).to.equal(JSON.stringify(listBody([a], cursor)));
  });

  it('keeps the text of a frozen record, and serialises anything else afresh', () => {
    const frozen = record(4);
    expect(recordJson(frozen)).to.equal(JSON.stringify(frozen));
    expect(recordJson(frozen)).to.equal(recordJson(frozen));
    const open: { name: string } = { name: 'before' };
    expect(recordJson(open)).to.equal('{"name":"before"}');
    open.name = 'after';
    expect(recordJson(open)).to.equal('{"name":"after"}');
  });
});
