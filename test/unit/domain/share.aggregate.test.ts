import { expect } from 'chai';
import { rolePermits, Share, SHARE_ROLES } from '../../../src/domain/share/share.aggregate.js';
import type { ApiId } from '../../../src/domain/api/api.aggregate.js';
import { AREAS } from '../../../src/domain/token/scope.js';
import { accountId, userId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T10:15:00.000Z');
const api = { id: uuid<ApiId>('00000000-0000-7000-9000-000000000001'), accountId: accountId(1) };
const grace = { id: userId(7), accountId: accountId(2) };

describe('Share', () => {
  it('gives viewers reads and editors reads and writes of the API, its releases and pages, and nothing else', () => {
    const expected: Record<string, string[]> = {
      viewer: ['api:read', 'api_release:read', 'api_page:read'],
      editor: ['api:read', 'api:write', 'api_release:read', 'api_release:write', 'api_page:read', 'api_page:write'],
    };
    for (const role of SHARE_ROLES) {
      const granted = AREAS.flatMap((area) => (['read', 'write'] as const).filter((access) => rolePermits(role, area, access)).map((access) => `${area}:${access}`));
      expect(granted, role).to.deep.equal(expected[role]);
    }
  });

  it('is created for a user of another account with a known role only', () => {
    const share = Share.create({ id: uuid('s1'), api, grantee: grace, role: 'viewer' }, NOW);
    expect(share.ok && share.value.snapshot()).to.deep.equal({ id: 's1', apiId: api.id, accountId: 1, userId: 7, role: 'viewer', creationDate: NOW, updateDate: NOW });
    expect(Share.create({ id: uuid('s2'), api, grantee: grace, role: 'owner' }, NOW)).to.deep.include({ ok: false });
    expect(Share.create({ id: uuid('s3'), api, grantee: { id: userId(1), accountId: accountId(1) }, role: 'editor' }, NOW)).to.deep.equal({ ok: false, error: { kind: 'OwnAccount' } });
  });

  it('changes its role, or nothing when the role is unknown', () => {
    const created = Share.create({ id: uuid('s1'), api, grantee: grace, role: 'viewer' }, NOW);
    if (!created.ok) throw new Error('setup');
    const later = new Date(NOW.getTime() + 1000);
    expect(created.value.changeRole('admin', later).ok).to.equal(false);
    expect(created.value.snapshot()).to.include({ role: 'viewer', updateDate: NOW });
    expect(created.value.changeRole('editor', later).ok).to.equal(true);
    expect(created.value.snapshot()).to.include({ role: 'editor', updateDate: later });
    expect(created.value.permits('api', 'write')).to.equal(true);
  });
});
