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
