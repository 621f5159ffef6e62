import { expect } from 'chai';
import { ApiToken, isWellFormedApiToken, LAST_USE_RESOLUTION_MS } from '../../../src/domain/token/api-token.aggregate.js';
import { userId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T11:00:00.000Z');
const make = (fields: Record<string, unknown>) =>
  ApiToken.create({ id: uuid('t1'), userId: userId(1), name: 'ci', scopes: ['api'], tokenHash: 'h', ...fields }, NOW);

describe('ApiToken aggregate', () => {
  it('keeps name and scopes, collapsing duplicates', () => {
    const result = make({ name: ' deploy ', scopes: ['api', 'api_release', 'api'] });
    expect(result.ok).to.equal(true);
    if (result.ok) {
      expect(result.value.name).to.equal('deploy');
      expect(result.value.scopes).to.deep.equal(['api', 'api_release']);
      expect(result.value.lastUseDate).to.equal(null);
    }
  });

  for (const [label, fields, error] of [
    ['an empty name', { name: '' }, { field: 'name', message: 'must be 1-100 characters' }],
    ['a name of only spaces', { name: '   ' }, { field: 'name', message: 'must be 1-100 characters' }],
    ['a 101-character name', { name: 'x'.repeat(101) }, { field: 'name', message: 'must be 1-100 characters' }],
    ['a name that is not a string', { name: 3 }, { field: 'name', message: 'must be 1-100 characters' }],
    ['no scopes', { scopes: [] }, { field: 'scopes', message: 'must be a non-empty list of scopes' }],
    ['scopes that are not a list', { scopes: 'api' }, { field: 'scopes', message: 'must be a non-empty list of scopes' }],
    ['an unknown scope', { scopes: ['api', 'admin'] }, { field: 'scopes', message: 'unknown scope: admin' }],
    ['a scope that is not a string', { scopes: ['api', 3] }, { field: 'scopes', message: 'unknown scope: 3' }],
  ] as const) {
    it(`refuses ${label}`, () => {
      expect(make(fields)).to.deep.equal({ ok: false, error: { kind: 'InvalidField', ...error } });
    });
  }

  it('accepts exactly 100 characters of name', () => {
    expect(make({ name: 'x'.repeat(100) }).ok).to.equal(true);
  });

  it('recognises the token format: sbt_ and 43 base64url characters', () => {
    expect(isWellFormedApiToken(`sbt_${'A'.repeat(43)}`)).to.equal(true);
    expect(isWellFormedApiToken(`sbt_${'a-_9'.repeat(10)}abc`)).to.equal(true);
    expect(isWellFormedApiToken(`sbt_${'A'.repeat(42)}`)).to.equal(false);
    expect(isWellFormedApiToken(`sbx_${'A'.repeat(43)}`)).to.equal(false);
    expect(isWellFormedApiToken(`sbt_${'A'.repeat(42)}=`)).to.equal(false);
  });

  it('writes a use back at most once per resolution window', () => {
    const fresh = make({});
    if (!fresh.ok) throw new Error('expected ok');
    expect(fresh.value.useIsWorthRecording(NOW)).to.equal(true);
    const used = ApiToken.rehydrate({ ...fresh.value.snapshot(), lastUseDate: NOW });
    expect(used.useIsWorthRecording(new Date(NOW.getTime() + LAST_USE_RESOLUTION_MS - 1))).to.equal(false);
    expect(used.useIsWorthRecording(new Date(NOW.getTime() + LAST_USE_RESOLUTION_MS))).to.equal(true);
  });
});
