import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import { ApiAccess } from '../../../src/application/auth/api-access.js';
import type { ApiId } from '../../../src/domain/api/api.aggregate.js';
import { Share } from '../../../src/domain/share/share.aggregate.js';
import { ok } from '../../../src/domain/shared/result.js';
import { aPrincipal } from '../../support/builders.js';
import { accountId, userId, uuid } from '../../support/ids.js';
import { FixedClock, SequentialIds } from '../../support/fakes.js';

const API = uuid<ApiId>('00000000-0000-7000-9000-0000000000aa');

async function setup(role: 'viewer' | 'editor' | null) {
  const db = new InMemoryDatabase(new SequentialIds());
  const now = new FixedClock().now();
  // The access check reads shares only; the API row it names need not exist for this unit.
  if (role) {
    const share = Share.create({ id: uuid('s1'), api: { id: API, accountId: accountId(1) }, grantee: { id: userId(2), accountId: accountId(2) }, role }, now);
    if (!share.ok) throw new Error('setup');
    await db.run(async (tx) => ok(await tx.shares.save(share.value)));
  }
  return new ApiAccess(db.repositories.shares);
}

const owner = aPrincipal({ userId: userId(1), accountId: accountId(1), scopes: ['api', 'api_share'] });
const grace = aPrincipal({ userId: userId(2), accountId: accountId(2), scopes: ['api', 'api_share', 'api_release.readonly'] });
const target = { accountId: accountId(1), apiId: API };

describe('ApiAccess', () => {
  it('checks the token scope first, whoever asks', async () => {
    const access = await setup('editor');
    expect(await access.check(grace, 'api_release', 'write', target)).to.deep.equal({ ok: false, error: { kind: 'InsufficientScope', scope: 'api_release' } });
    expect(await access.check(owner, 'api_page', 'read', target)).to.deep.equal({ ok: false, error: { kind: 'InsufficientScope', scope: 'api_page.readonly' } });
  });

  it('lets the owner’s account do what its scopes allow, owner-only operations included', async () => {
    const access = await setup(null);
    expect(await access.check(owner, 'api', 'write', target, { action: 'deleteApi' })).to.deep.equal({ ok: true, value: undefined });
    expect(await access.check(owner, 'api', 'write', target, { fields: ['type', 'nickname'] })).to.deep.equal({ ok: true, value: undefined });
    expect(await access.checkAccount(owner, 'api', 'read', accountId(1))).to.deep.equal({ ok: true, value: 'owner' });
  });

  it('answers 404 to a user without a share, for the API and for the account', async () => {
    const access = await setup(null);
    expect(await access.check(grace, 'api', 'read', target)).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'api' } });
    expect(await access.checkAccount(grace, 'api', 'read', accountId(1))).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'account' } });
  });

  it('lets a viewer read, refuses its writes (ShareRoleForbids) and every owner-only operation (OwnerOnly)', async () => {
    const access = await setup('viewer');
    expect((await access.check(grace, 'api', 'read', target)).ok).to.equal(true);
    expect(await access.check(grace, 'api', 'write', target)).to.deep.include({ ok: false, error: { kind: 'ShareRoleForbids', role: 'viewer' } });
    expect(await access.check(grace, 'api_share', 'read', target, { action: 'listShares' })).to.deep.equal({ ok: false, error: { kind: 'OwnerOnly', role: 'viewer', action: 'listShares' } });
    expect(await access.checkAccount(grace, 'api', 'read', accountId(1))).to.deep.equal({ ok: true, value: 'grantee' });
    expect((await access.check(grace, 'api', 'read', { accountId: accountId(1), apiId: uuid('00000000-0000-7000-9000-0000000000bb') })).ok, 'another API of the account').to.equal(false);
  });

  it('lets a signed-in person (no token scopes) read their own account’s APIs and those shared with them, in either role', async () => {
    const ownerPerson = { userId: userId(1), accountId: accountId(1) };
    const gracePerson = { userId: userId(2), accountId: accountId(2) };
    expect(await (await setup(null)).mayRead(ownerPerson, target)).to.equal(true);
    expect(await (await setup(null)).mayRead(gracePerson, target)).to.equal(false);
    expect(await (await setup('viewer')).mayRead(gracePerson, target)).to.equal(true);
    expect(await (await setup('editor')).mayRead(gracePerson, target)).to.equal(true);
    expect(await (await setup('viewer')).mayRead(gracePerson, { accountId: accountId(1), apiId: uuid('00000000-0000-7000-9000-0000000000bb') }), 'another API of the account').to.equal(false);
    expect(await (await setup('viewer')).mayRead({ userId: userId(3), accountId: accountId(2) }, target), 'another user of the grantee’s account').to.equal(false);
  });

  it('lets an editor write, still neither owner-only operations nor owner-only fields', async () => {
    const access = await setup('editor');
    expect((await access.check(grace, 'api', 'write', target)).ok).to.equal(true);
    expect((await access.check(grace, 'api', 'write', target, { fields: [] })).ok, 'a change of editor fields only').to.equal(true);
    expect(await access.check(grace, 'api', 'write', target, { action: 'deleteApi' })).to.deep.equal({ ok: false, error: { kind: 'OwnerOnly', role: 'editor', action: 'deleteApi' } });
    expect(await access.check(grace, 'api', 'write', target, { fields: ['type', 'breakingChangePolicy'] })).to.deep.equal({
      ok: false,
      error: { kind: 'OwnerOnlyField', role: 'editor', fields: ['type', 'breakingChangePolicy'] },
    });
  });
});
