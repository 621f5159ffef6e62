import { expect } from 'chai';
import { isShareRole, OWNER_ONLY_FIELDS, ownerOnlyFieldsOf, rolePermits, Share, SHARE_ROLES } from '../../../src/domain/share/share.aggregate.js';
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

  it('refuses an unknown role naming the roles there are', () => {
    for (const role of ['owner', 'Viewer', '', 1, null]) {
      expect(Share.create({ id: uuid('s2'), api, grantee: grace, role }, NOW), String(role)).to.deep.equal({
        ok: false,
        error: { kind: 'InvalidField', field: 'role', message: 'must be one of viewer, editor' },
      });
    }
    expect(SHARE_ROLES.filter(isShareRole)).to.deep.equal(['viewer', 'editor']);
    expect(isShareRole('toString')).to.equal(false);
  });

  it('leaves name changes to editors and every other field of the API to its owner', () => {
    expect(OWNER_ONLY_FIELDS).to.deep.equal(['nickname', 'type', 'breakingChangePolicy', 'allowRemovalAfterSunset']);
    expect(ownerOnlyFieldsOf({ name: 'New' })).to.deep.equal([]);
    expect(ownerOnlyFieldsOf({})).to.deep.equal([]);
    expect(ownerOnlyFieldsOf({ allowRemovalAfterSunset: false, name: 'New', type: 'private' }), 'sent at all, even unchanged').to.deep.equal(['type', 'allowRemovalAfterSunset']);
    expect(ownerOnlyFieldsOf({ nickname: 'n', type: 'public', breakingChangePolicy: 'refuse', allowRemovalAfterSunset: true })).to.deep.equal(OWNER_ONLY_FIELDS);
  });

  it('shows the grantee by email, id and nickname, with its dates', () => {
    const created = Share.create({ id: uuid('s1'), api, grantee: grace, role: 'editor' }, NOW);
    if (!created.ok) throw new Error('setup');
    created.value.changeRole('viewer', new Date(NOW.getTime() + 1000));
    expect([created.value.id, created.value.role]).to.deep.equal(['s1', 'viewer']);
    expect(Share.rehydrate(created.value.snapshot()).toRecord({ id: userId(7), nickname: 'grace', email: 'grace@example.com' })).to.deep.equal({
      id: 's1',
      email: 'grace@example.com',
      role: 'viewer',
      user: { id: 7, nickname: 'grace' },
      creationDate: '2026-11-22T10:15:00.000+00:00',
      updateDate: '2026-11-22T10:15:01.000+00:00',
    });
  });

  it('changes its role, or nothing when the role is unknown', () => {
    const created = Share.create({ id: uuid('s1'), api, grantee: grace, role: 'viewer' }, NOW);
    if (!created.ok) throw new Error('setup');
    const later = new Date(NOW.getTime() + 1000);
    expect(created.value.changeRole('admin', later)).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'role', message: 'must be one of viewer, editor' } });
    expect(created.value.snapshot()).to.include({ role: 'viewer', updateDate: NOW });
    expect(created.value.changeRole('editor', later)).to.deep.equal({ ok: true, value: undefined });
    expect(created.value.snapshot()).to.include({ role: 'editor', updateDate: later });
    expect(created.value.permits('api', 'write')).to.equal(true);
    expect(created.value.permits('api_share', 'read')).to.equal(false);
  });
});
