import { expect } from 'chai';
import { CreateApi } from '../../../src/application/apis/create-api.use-case.js';
import { DeleteApi } from '../../../src/application/apis/delete-api.use-case.js';
import { GetApi } from '../../../src/application/apis/get-api.use-case.js';
import { ListApis } from '../../../src/application/apis/list-apis.use-case.js';
import { UpdateApi } from '../../../src/application/apis/update-api.use-case.js';
import { ApiAccess } from '../../../src/application/auth/api-access.js';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { Scope } from '../../../src/domain/token/scope.js';
import type { ApiId } from '../../../src/domain/api/api.aggregate.js';
import { aPrincipal } from '../../support/builders.js';
import { accountId, userId, uuid } from '../../support/ids.js';
import { Account } from '../../../src/domain/account/account.aggregate.js';
import { ok } from '../../../src/domain/shared/result.js';
import { Share } from '../../../src/domain/share/share.aggregate.js';
import { FixedClock, SequentialIds, plansOver } from '../../support/fakes.js';

async function setup() {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const repos = db.repositories;
  // The accounts of ada (1) and bob (2), on the default trial.
  for (let i = 0; i < 2; i++) await db.run(async (tx) => ok(await tx.accounts.create(Account.open(clock.now(), 14))));
  const access = new ApiAccess(repos.shares);
  return {
    clock,
    repos,
    /** Shares API `apiId` of ada's with bob, as `role`. */
    share: async (apiId: ApiId, role: 'viewer' | 'editor') => {
      const share = Share.create({ id: uuid('s1'), api: { id: apiId, accountId: accountId(1) }, grantee: { id: userId(2), accountId: accountId(2) }, role }, clock.now());
      if (!share.ok) throw new Error('setup');
      await db.run(async (tx) => ok(await tx.shares.save(share.value)));
    },
    create: new CreateApi(db, plansOver(repos, clock), ids, clock),
    list: new ListApis(access, repos.apis),
    get: new GetApi(access, repos.apis),
    update: new UpdateApi(access, db, plansOver(repos, clock), clock),
    remove: new DeleteApi(access, db, clock),
  };
}

const ada = aPrincipal({ userId: userId(1), accountId: accountId(1), nickname: 'ada', scopes: ['api'] });
const bob = aPrincipal({ userId: userId(2), accountId: accountId(2), nickname: 'bob', scopes: ['api'] });

describe('API use cases', () => {
  it('creates nothing for an account that does not exist (the plan it would count against is nobody\'s)', async () => {
    const s = await setup();
    const carl = aPrincipal({ userId: userId(3), accountId: accountId(3), nickname: 'carl', scopes: ['api'] });
    expect(await s.create.execute(carl, { accountId: accountId(3), name: 'Pets', nickname: 'pets' })).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'account' } });
    expect(await s.repos.outbox.pending(10)).to.deep.equal([]);
  });

  it('creates an API and its api.created event together', async () => {
    const s = await setup();
    const result = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    expect(result.ok).to.equal(true);
    if (!result.ok) return;
    expect(result.value).to.include({ name: 'Pets', nickname: 'pets', revision: 1, type: 'private' });
    expect(result.value.user).to.deep.equal({ id: 1, nickname: 'ada' });
    const pending = await s.repos.outbox.pending(10);
    expect(pending.map((e) => e.payload.name)).to.deep.equal(['api.created']);
    expect(pending[0]!.payload.resource).to.deep.equal(result.value);
    expect(pending[0]!.payload.id).to.equal(pending[0]!.id);
  });

  it('refuses a token without the api scope before touching data (403 naming the scope)', async () => {
    const s = await setup();
    const readonly = aPrincipal({ scopes: ['api.readonly', 'webhook'] as Scope[] });
    expect(await s.create.execute(readonly, { accountId: accountId(1), name: 'Pets', nickname: 'pets' })).to.deep.equal({
      ok: false,
      error: { kind: 'InsufficientScope', scope: 'api' },
    });
    expect(await s.list.execute(aPrincipal({ scopes: ['webhook'] as Scope[] }), accountId(1), { limit: 10 })).to.deep.equal({
      ok: false,
      error: { kind: 'InsufficientScope', scope: 'api.readonly' },
    });
    expect(await s.repos.outbox.pending(10)).to.deep.equal([]);
  });

  it("hides another account's APIs as not found", async () => {
    const s = await setup();
    const created = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    if (!created.ok) throw new Error('setup');
    const id = created.value.id;
    const notFound = { ok: false, error: { kind: 'NotFound', resource: 'account' } };
    const apiNotFound = { ok: false, error: { kind: 'NotFound', resource: 'api' } };
    expect(await s.get.execute(bob, accountId(1), id)).to.deep.equal(apiNotFound);
    expect(await s.list.execute(bob, accountId(1), { limit: 10 })).to.deep.equal(notFound);
    expect(await s.update.execute(bob, { accountId: accountId(1), apiId: id, changes: { name: 'x' } })).to.deep.equal(apiNotFound);
    expect(await s.remove.execute(bob, accountId(1), id)).to.deep.equal(apiNotFound);
    expect(await s.create.execute(bob, { accountId: accountId(1), name: 'Mine', nickname: 'mine' })).to.deep.equal(notFound);
    expect(await s.get.execute(bob, accountId(2), id)).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'api' } });
  });

  it('refuses a duplicate nickname in one account (DuplicateNickname) and writes nothing, but allows it in another', async () => {
    const s = await setup();
    await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    const duplicate = await s.create.execute(ada, { accountId: accountId(1), name: 'Other', nickname: 'pets' });
    expect(!duplicate.ok && duplicate.error).to.include({ kind: 'DuplicateNickname', nickname: 'pets' });
    expect((await s.list.execute(ada, accountId(1), { limit: 10 })).ok && (await s.repos.apis.list(accountId(1), { limit: 10 })).items).to.have.length(1);
    expect((await s.repos.outbox.pending(10)).length).to.equal(1);
    expect((await s.create.execute(bob, { accountId: accountId(2), name: 'Pets', nickname: 'pets' })).ok).to.equal(true);
  });

  it('returns validation errors naming the field', async () => {
    const s = await setup();
    const result = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'Not OK' });
    expect(!result.ok && result.error).to.deep.include({ kind: 'Validation' });
    expect(!result.ok && result.error.kind === 'Validation' && result.error.errors[0]!.field).to.equal('nickname');
  });

  it('pages the list in creation order with a cursor', async () => {
    const s = await setup();
    for (const n of ['a', 'b', 'c', 'd', 'e']) await s.create.execute(ada, { accountId: accountId(1), name: n, nickname: n });
    const first = await s.list.execute(ada, accountId(1), { limit: 2 });
    if (!first.ok) throw new Error('list');
    expect(first.value.items.map((a) => a.nickname)).to.deep.equal(['a', 'b']);
    const second = await s.list.execute(ada, accountId(1), { limit: 2, after: first.value.next ?? undefined });
    if (!second.ok) throw new Error('list');
    expect(second.value.items.map((a) => a.nickname)).to.deep.equal(['c', 'd']);
    const last = await s.list.execute(ada, accountId(1), { limit: 2, after: second.value.next ?? undefined });
    if (!last.ok) throw new Error('list');
    expect(last.value.items.map((a) => a.nickname)).to.deep.equal(['e']);
    expect(last.value.next).to.equal(null);
  });

  it('updates with a matching If-Match revision and refuses a stale one without changing anything', async () => {
    const s = await setup();
    const created = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    if (!created.ok) throw new Error('setup');
    const apiId = created.value.id;
    s.clock.advance(1000);
    const updated = await s.update.execute(ada, { accountId: accountId(1), apiId, changes: { name: 'Pet Store' }, expectedRevision: 1 });
    expect(updated.ok && updated.value).to.include({ name: 'Pet Store', revision: 2, updateDate: '2026-11-22T10:15:01.000+00:00' });
    const stale = await s.update.execute(ada, { accountId: accountId(1), apiId, changes: { name: 'Lost' }, expectedRevision: 1 });
    expect(stale).to.deep.equal({ ok: false, error: { kind: 'RevisionConflict', expected: 1, actual: 2 } });
    const current = await s.get.execute(ada, accountId(1), apiId);
    expect(current.ok && current.value).to.include({ name: 'Pet Store', revision: 2 });
  });

  it('refuses renaming to a nickname another API has', async () => {
    const s = await setup();
    await s.create.execute(ada, { accountId: accountId(1), name: 'A', nickname: 'a' });
    const b = await s.create.execute(ada, { accountId: accountId(1), name: 'B', nickname: 'b' });
    if (!b.ok) throw new Error('setup');
    const result = await s.update.execute(ada, { accountId: accountId(1), apiId: b.value.id, changes: { nickname: 'a' } });
    expect(!result.ok && result.error.kind).to.equal('DuplicateNickname');
    const current = await s.get.execute(ada, accountId(1), b.value.id);
    expect(current.ok && current.value).to.include({ nickname: 'b', revision: 1 });
  });

  it('lets a share editor change the name only: an owner-only field refuses the whole change (OwnerOnlyField naming them) and writes nothing', async () => {
    const s = await setup();
    const created = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    if (!created.ok) throw new Error('setup');
    const apiId = created.value.id;
    await s.share(apiId, 'editor');
    const target = { accountId: accountId(1), apiId };
    const refused = await s.update.execute(bob, { ...target, changes: { name: 'Mine', breakingChangePolicy: 'refuse', type: 'public' } });
    expect(refused).to.deep.equal({ ok: false, error: { kind: 'OwnerOnlyField', role: 'editor', fields: ['type', 'breakingChangePolicy'] } });
    const sameType = await s.update.execute(bob, { ...target, changes: { type: 'private' } });
    expect(sameType, 'sent at all, even with the value it has').to.deep.equal({ ok: false, error: { kind: 'OwnerOnlyField', role: 'editor', fields: ['type'] } });
    expect((await s.repos.apis.get(accountId(1), apiId))?.toRecord()).to.deep.equal(created.value);
    expect((await s.repos.outbox.pending(10)).map((e) => e.payload.name)).to.deep.equal(['api.created']);
    const renamed = await s.update.execute(bob, { ...target, changes: { name: 'Mine' } });
    expect(renamed.ok && renamed.value).to.include({ name: 'Mine', type: 'private', revision: 2 });
    const byOwner = await s.update.execute(ada, { ...target, changes: { type: 'public', nickname: 'pets-2', breakingChangePolicy: 'refuse' } });
    expect(byOwner.ok && byOwner.value).to.include({ type: 'public', nickname: 'pets-2', breakingChangePolicy: 'refuse' });
  });

  it('deletes an API and records api.deleted by the deleting user', async () => {
    const s = await setup();
    const created = await s.create.execute(ada, { accountId: accountId(1), name: 'Pets', nickname: 'pets' });
    if (!created.ok) throw new Error('setup');
    expect(await s.remove.execute(ada, accountId(1), created.value.id)).to.deep.equal({ ok: true, value: undefined });
    expect(await s.get.execute(ada, accountId(1), created.value.id)).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'api' } });
    const names = (await s.repos.outbox.pending(10)).map((e) => e.payload.name);
    expect(names).to.deep.equal(['api.created', 'api.deleted']);
    expect(await s.remove.execute(ada, accountId(1), created.value.id)).to.deep.equal({ ok: false, error: { kind: 'NotFound', resource: 'api' } });
  });
});
