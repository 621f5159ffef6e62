import { Account } from '../../../src/domain/account/account.aggregate.js';
import type { AccountId, UserId } from '../../../src/domain/account/account.js';
import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import { ApiAccess } from '../../../src/application/auth/api-access.js';
import { ReadableApis } from '../../../src/application/docs/readable-api.js';
import { ViewApiDocs } from '../../../src/application/docs/view-api-docs.use-case.js';
import { ViewApiGuide } from '../../../src/application/docs/view-api-guide.use-case.js';
import { Api } from '../../../src/domain/api/api.aggregate.js';
import { Page } from '../../../src/domain/page/page.aggregate.js';
import { Release, type ReleaseId } from '../../../src/domain/release/release.aggregate.js';
import { Share } from '../../../src/domain/share/share.aggregate.js';
import { ok } from '../../../src/domain/shared/result.js';
import { deriveResources } from '../../../src/domain/spec/derived-resources.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { aNewUser } from '../../contract/fixtures.js';
import { FixedClock, SequentialIds } from '../../support/fakes.js';
import { accountId, userId } from '../../support/ids.js';

const T0 = new FixedClock().now();

function document(version: string, path: string): JsonObject {
  return { swagger: '2.0', info: { title: 'Pets', version }, paths: { [path]: { get: { summary: `read ${path}`, responses: { '200': { description: 'ok' } } } } } };
}

/** Ada (account 1) owns `public-pets` (public, a spec, releases 1.0.0 deprecated and 2.0.0, two guides) and `secret` (private); Grace (account 2) and Bob (account 3) own nothing. */
async function setup() {
  const ids = new SequentialIds();
  const db = new InMemoryDatabase(ids);
  const repos = db.repositories;
  const people = await db.run(async (tx) => {
    const made = [];
    for (const email of ['ada@example.com', 'grace@example.com', 'bob@example.com']) {
      const accountId = await tx.accounts.create(Account.open(T0, 14));
      const user = await tx.users.add(aNewUser(accountId, email));
      if (!user.ok) throw new Error('user');
      made.push({ userId: user.value.id, accountId });
    }
    return ok(made);
  });
  if (!people.ok) throw new Error('setup');
  const [ada, grace, bob] = people.value as [{ userId: UserId; accountId: AccountId }, { userId: UserId; accountId: AccountId }, { userId: UserId; accountId: AccountId }];
  const owner = { id: ada.userId, nickname: 'ada' };

  async function anApi(nickname: string, type: 'public' | 'private', spec?: JsonObject): Promise<Api> {
    const created = Api.create({ id: ids.next(), accountId: ada.accountId, owner, name: `API ${nickname}`, nickname, type, description: 'All about **pets**' }, T0);
    if (!created.ok) throw new Error('api');
    await db.run(async (tx) => {
      await tx.apis.save(created.value);
      if (spec) {
        const entry = { revision: 1, creationDate: T0, actor: owner, specFormat: 'swagger-2.0' as const, changes: null, reason: null };
        await tx.specs.save(created.value.id, { syntax: 'json', source: JSON.stringify(spec), documentJson: JSON.stringify(spec) }, deriveResources(spec), entry);
      }
      return ok();
    });
    return created.value;
  }
  const pets = await anApi('public-pets', 'public', document('3.0.0', '/v3/pets'));
  const secret = await anApi('secret', 'private', document('1.0.0', '/secret'));
  await anApi('empty', 'public');

  const releaseIds: ReleaseId[] = [];
  for (const [version, path] of [['1.0.0', '/v1/pets'], ['2.0.0', '/v2/pets']] as const) {
    const release = Release.release({ id: ids.next(), api: pets.asReleased(), version, actor: owner }, T0);
    if (!release.ok) throw new Error('release');
    if (version === '1.0.0') release.value.deprecate(pets.asReleased(), owner, T0);
    releaseIds.push(release.value.id);
    const spec = document(version, path);
    await db.run(async (tx) => ok(await tx.releases.add(release.value, { syntax: 'json', source: '', documentJson: JSON.stringify(spec) }, 1, { since: null, counts: { breaking: 0, warning: 0, info: 0 }, items: [] })));
  }
  for (const [slug, position] of [['second', 20], ['first', 10]] as const) {
    const page = Page.create({ id: ids.next(), apiId: pets.id, accountId: ada.accountId, title: `The ${slug} guide`, slug, body: `# ${slug}\n`, position }, T0);
    if (!page.ok) throw new Error('page');
    await db.run((tx) => tx.pages.save(page.value));
  }
  const share = Share.create({ id: ids.next(), api: { id: secret.id, accountId: ada.accountId }, grantee: { id: grace.userId, accountId: grace.accountId }, role: 'viewer' }, T0);
  if (!share.ok) throw new Error('share');
  await db.run((tx) => tx.shares.save(share.value));

  const readable = new ReadableApis(repos.apis, repos.users, new ApiAccess(repos.shares), repos.releases, repos.pages);
  const deleteRelease = (index: number) => db.run(async (tx) => ok(await tx.releases.delete(pets.id, releaseIds[index]!)));
  const renamePets = (name: string) =>
    db.run(async (tx) => {
      const api = await tx.apis.get(ada.accountId, pets.id);
      if (!api?.update({ name }, undefined, owner, T0).ok) throw new Error('rename');
      return tx.apis.save(api);
    });
  // What the use case reads from storage, counted: a view whose text the caller holds reads no spec.
  const reads = { specs: 0, snapshots: 0 };
  const specs: typeof repos.specs = Object.assign(Object.create(repos.specs) as typeof repos.specs, {
    get: (apiId: Api['id']) => {
      reads.specs++;
      return repos.specs.get(apiId);
    },
  });
  const releases: typeof repos.releases = Object.assign(Object.create(repos.releases) as typeof repos.releases, {
    snapshot: (apiId: Api['id'], version: string) => {
      reads.snapshots++;
      return repos.releases.snapshot(apiId, version);
    },
  });
  return { ada, grace, bob, deleteRelease, renamePets, reads, view: new ViewApiDocs(readable, specs, releases), guide: new ViewApiGuide(readable, repos.pages) };
}

const NOT_FOUND = { ok: false, error: { kind: 'NotFound' } };
const SIGN_IN = { ok: false, error: { kind: 'SignInRequired' } };

describe('docs use cases (ViewApiDocs, ViewApiGuide)', () => {
  it('shows a public API to anyone: the current spec’s reference, every release by date and the guides by position', async () => {
    const s = await setup();
    const result = await s.view.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'public-pets' });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const view = result.value;
    expect(view.api).to.deep.equal({ accountId: s.ada.accountId, nickname: 'public-pets', name: 'API public-pets', description: 'All about **pets**', type: 'public', version: null });
    expect(view.edition).to.deep.equal({ kind: 'latest' });
    expect(view.reference?.groups[0]?.operations.map((op) => op.path)).to.deep.equal(['/v3/pets']);
    expect(view.releases.map((r) => [r.version, r.status])).to.deep.equal([
      ['1.0.0', 'deprecated'],
      ['2.0.0', 'released'],
    ]);
    expect(view.guides).to.deep.equal([
      { slug: 'first', title: 'The first guide' },
      { slug: 'second', title: 'The second guide' },
    ]);
  });

  it('shows a release’s frozen spec and status; an unknown, malformed or deleted version is not found', async () => {
    const s = await setup();
    const target = { viewer: undefined, accountId: s.ada.accountId, nickname: 'public-pets' };
    const old = await s.view.execute({ ...target, version: '1.0.0' });
    if (!old.ok) throw new Error(JSON.stringify(old.error));
    expect(old.value.edition).to.deep.include({ kind: 'release' });
    expect(old.value.edition.kind === 'release' && old.value.edition.release).to.deep.include({ version: '1.0.0', status: 'deprecated' });
    expect(old.value.reference?.groups[0]?.operations.map((op) => op.path)).to.deep.equal(['/v1/pets']);
    expect(await s.view.execute({ ...target, version: '9.9.9' })).to.deep.equal(NOT_FOUND);
    expect(await s.view.execute({ ...target, version: '../1.0.0' })).to.deep.equal(NOT_FOUND);
    await s.deleteRelease(0);
    expect(await s.view.execute({ ...target, version: '1.0.0' })).to.deep.equal(NOT_FOUND);
    const latest = await s.view.execute(target);
    expect(latest.ok && latest.value.releases.map((r) => r.version)).to.deep.equal(['2.0.0']);
  });

  it('names the text a page shows (textKey): the same while nothing changes, another after a change of the API, another for each release', async () => {
    const s = await setup();
    const target = { viewer: undefined, accountId: s.ada.accountId, nickname: 'public-pets' };
    const keyOf = async (version?: string) => {
      const result = await s.view.execute({ ...target, version });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      return result.value.textKey;
    };
    const keys = [await keyOf(), await keyOf('1.0.0'), await keyOf('2.0.0')];
    expect(new Set(keys).size).to.equal(3);
    expect([await keyOf(), await keyOf('1.0.0'), await keyOf('2.0.0')]).to.deep.equal(keys);
    await s.renamePets('Pets, renamed');
    const renamed = [await keyOf(), await keyOf('1.0.0'), await keyOf('2.0.0')];
    for (const [i, key] of renamed.entries()) expect(key).to.not.equal(keys[i]);
  });

  it('reads no spec when the caller holds what it made of the view’s textKey (held), and reads it when it does not', async () => {
    const s = await setup();
    const target = { viewer: undefined, accountId: s.ada.accountId, nickname: 'public-pets' };
    const asked: string[] = [];
    for (const version of [undefined, '1.0.0']) {
      const held = await s.view.execute({ ...target, version, held: (key) => asked.push(key) > 0 });
      if (!held.ok) throw new Error(JSON.stringify(held.error));
      expect(held.value.reference).to.equal(undefined);
      expect(asked.at(-1)).to.equal(held.value.textKey);
    }
    expect(s.reads).to.deep.equal({ specs: 0, snapshots: 0 });
    const latest = await s.view.execute({ ...target, held: () => false });
    const old = await s.view.execute({ ...target, version: '1.0.0', held: () => false });
    expect(latest.ok && latest.value.reference?.groups[0]?.operations.map((op) => op.path)).to.deep.equal(['/v3/pets']);
    expect(old.ok && old.value.reference?.groups[0]?.operations.map((op) => op.path)).to.deep.equal(['/v1/pets']);
    expect(s.reads).to.deep.equal({ specs: 1, snapshots: 1 });
    expect(await s.view.execute({ ...target, version: '9.9.9', held: () => true }), 'an unknown release is not found, held or not').to.deep.equal(NOT_FOUND);
  });

  it('shows an API created empty without a reference', async () => {
    const s = await setup();
    const result = await s.view.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'empty' });
    expect(result.ok && result.value.reference).to.equal(null);
  });

  it('asks a viewer who is not signed in to sign in for a private API and for one that does not exist alike', async () => {
    const s = await setup();
    expect(await s.view.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'secret' })).to.deep.equal(SIGN_IN);
    expect(await s.view.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'no-such-api' })).to.deep.equal(SIGN_IN);
    expect(await s.view.execute({ viewer: undefined, accountId: accountId(999), nickname: 'secret' })).to.deep.equal(SIGN_IN);
    expect(await s.guide.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'secret', slug: 'first' })).to.deep.equal(SIGN_IN);
  });

  it('shows a private API to its owner’s account and to a grantee; another signed-in person finds nothing, as for an API that does not exist', async () => {
    const s = await setup();
    const secret = { accountId: s.ada.accountId, nickname: 'secret' };
    expect((await s.view.execute({ ...secret, viewer: s.ada.userId })).ok).to.equal(true);
    expect((await s.view.execute({ ...secret, viewer: s.grace.userId })).ok, 'grace holds a viewer share').to.equal(true);
    expect(await s.view.execute({ ...secret, viewer: s.bob.userId })).to.deep.equal(NOT_FOUND);
    expect(await s.view.execute({ accountId: s.ada.accountId, nickname: 'no-such-api', viewer: s.bob.userId })).to.deep.equal(NOT_FOUND);
    expect(await s.view.execute({ ...secret, viewer: userId(4242) }), 'a session of a user who no longer exists').to.deep.equal(SIGN_IN);
  });

  it('refuses names no API can have before reading anything, signed in or not', async () => {
    const s = await setup();
    // Account ids no account can have never reach the use case: AccountId is parsed at the edge (docs-pages.http.test.ts).
    for (const [account, nickname] of [[s.ada.accountId, 'Secret'], [s.ada.accountId, ''], [s.ada.accountId, '..']] as const) {
      expect(await s.view.execute({ viewer: undefined, accountId: account, nickname }), `${account}/${nickname}`).to.deep.equal(NOT_FOUND);
    }
    expect(await s.guide.execute({ viewer: undefined, accountId: s.ada.accountId, nickname: 'secret', slug: 'Not_A_Slug' })).to.deep.equal(NOT_FOUND);
  });

  it('shows a guide by slug with the frame around it; an unknown slug is not found', async () => {
    const s = await setup();
    const target = { viewer: undefined, accountId: s.ada.accountId, nickname: 'public-pets' };
    const result = await s.guide.execute({ ...target, slug: 'second' });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    expect(result.value.guide).to.deep.equal({ slug: 'second', title: 'The second guide', body: '# second\n' });
    expect(result.value.guides.map((g) => g.slug)).to.deep.equal(['first', 'second']);
    expect(result.value.releases).to.have.length(2);
    expect(await s.guide.execute({ ...target, slug: 'third' })).to.deep.equal(NOT_FOUND);
  });
});
