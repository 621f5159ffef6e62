import { expect } from 'chai';
import { CreateApi } from '../../src/application/apis/create-api.use-case.js';
import type { UnitOfWork } from '../../src/application/ports/unit-of-work.port.js';
import type { AccountId, UserId } from '../../src/domain/account/account.js';
import { Api, type ApiId } from '../../src/domain/api/api.aggregate.js';
import type { Uuid } from '../../src/domain/shared/ids.js';
import { err, ok } from '../../src/domain/shared/result.js';
import { ApiToken } from '../../src/domain/token/api-token.aggregate.js';
import { Release } from '../../src/domain/release/release.aggregate.js';
import { deriveResources } from '../../src/domain/spec/derived-resources.js';
import type { StoredSpec } from '../../src/application/ports/spec-repository.port.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { Page } from '../../src/domain/page/page.aggregate.js';
import { Share } from '../../src/domain/share/share.aggregate.js';
import { aPrincipal } from '../support/builders.js';
import { accountId, userId } from '../support/ids.js';
import { FixedClock, SequentialIds, plansOver } from '../support/fakes.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';

const T0 = new Date('2026-11-22T10:15:00.000Z');
const T1 = new Date('2026-11-22T10:16:00.000Z');
let idCounter = 0;
const uuid = <Id extends Uuid<string>>(): Id => `00000000-0000-7000-9000-${(++idCounter).toString(16).padStart(12, '0')}` as Id;

/** An account with one user; returns their ids. */
async function seedUser(f: PersistenceFixture, email = 'ada@example.com') {
  const result = await f.uow.run(async (tx) => {
    const accountId = await tx.accounts.create(Account.open(T0, 14));
    const user = await tx.users.add(aNewUser(accountId, email));
    if (!user.ok) return err('duplicate');
    return ok({ accountId, userId: user.value.id, nickname: user.value.nickname });
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function newApi(owner: { accountId: AccountId; userId: UserId; nickname: string }, nickname: string, id = uuid<ApiId>()): Api {
  const result = Api.create({ id, accountId: owner.accountId, owner: { id: owner.userId, nickname: owner.nickname }, name: `API ${nickname}`, nickname }, T0);
  if (!result.ok) throw new Error('invalid api');
  return result.value;
}

async function saved(f: PersistenceFixture, api: Api) {
  return f.uow.run(async (tx) => {
    const result = await tx.apis.save(api);
    if (!result.ok) return result;
    await tx.outbox.append(api.pullEvents());
    return ok(undefined);
  });
}

forEachImplementation('persistence contract', (make) => {
  let f: PersistenceFixture;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => {
    await f.dispose();
  });

  describe('AccountRepository and UserRepository', () => {
    it('gives accounts and users positive, distinct integer ids', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      for (const id of [a.accountId, a.userId, b.accountId, b.userId]) expect(Number.isSafeInteger(id) && id > 0).to.equal(true);
      expect(a.accountId).to.not.equal(b.accountId);
      expect(a.userId).to.not.equal(b.userId);
      expect(await f.repos.accounts.exists(a.accountId)).to.equal(true);
      expect(await f.repos.accounts.exists(accountId(987654))).to.equal(false);
    });

    it('finds users by id and e-mail, and reports whether any exist', async () => {
      expect(await f.repos.users.any()).to.equal(false);
      const a = await seedUser(f);
      expect(await f.repos.users.any()).to.equal(true);
      const byId = await f.repos.users.get(a.userId);
      expect(byId?.snapshot()).to.deep.equal({ ...aNewUser(a.accountId, 'ada@example.com'), id: a.userId });
      expect((await f.repos.users.getByEmail('ada@example.com'))?.id).to.equal(a.userId);
      expect(await f.repos.users.getByEmail('nobody@example.com')).to.equal(undefined);
      expect(await f.repos.users.get(userId(424242))).to.equal(undefined);
    });

    it('refuses a second user with the same e-mail', async () => {
      const a = await seedUser(f);
      const again = await f.uow.run((tx) => tx.users.add(aNewUser(a.accountId, 'ada@example.com')));
      expect(again).to.deep.equal({ ok: false, error: { kind: 'DuplicateEmail' } });
    });

    it('saves a verified e-mail address', async () => {
      const a = await seedUser(f);
      await f.uow.run(async (tx) => {
        const user = await tx.users.get(a.userId);
        user!.verifyEmail();
        await tx.users.save(user!);
        return ok(undefined);
      });
      expect((await f.repos.users.get(a.userId))?.emailVerified).to.equal(true);
    });
  });

  describe('AccountRepository: plans and the trial reminder', () => {
    const DAY = 24 * 60 * 60 * 1000;
    async function opened(account: Parameters<PersistenceFixture['repos']['accounts']['create']>[0]) {
      const result = await f.uow.run(async (tx) => ok(await tx.accounts.create(account)));
      if (!result.ok) throw new Error('setup');
      return result.value;
    }

    it('stores a new account on its trial, reads it back (for update too) and saves a plan change', async () => {
      const id = await opened(Account.open(T0, 14));
      const read = await f.repos.accounts.get(id);
      expect(read?.snapshot()).to.deep.equal({ id, creationDate: T0, plan: 'private', trialEndDate: new Date(T0.getTime() + 14 * DAY), trialReminderDate: null });
      const locked = await f.uow.run(async (tx) => ok((await tx.accounts.getForUpdate(id))?.snapshot()));
      expect(locked).to.deep.equal({ ok: true, value: read?.snapshot() });
      await f.uow.run(async (tx) => {
        const account = await tx.accounts.getForUpdate(id);
        account!.changePlan('private', undefined, T1);
        await tx.accounts.save(account!);
        return ok(undefined);
      });
      expect((await f.repos.accounts.get(id))?.planAt(new Date(T0.getTime() + 100 * DAY))).to.deep.equal({ name: 'private', trial: false, trialEndDate: null });
      expect(await f.repos.accounts.get(accountId(987654))).to.equal(undefined);
    });

    it("getForUpdate holds the account against other holders but not against writes of rows that refer to it (PostgreSQL; SQLite's writers take turns)", async () => {
      const a = await seedUser(f);
      const events: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      // A quota check in progress: the account held until its transaction ends.
      const holder = f.uow.run(async (tx) => {
        await tx.accounts.getForUpdate(a.accountId);
        held();
        await released;
        events.push('holder ends');
        return ok(undefined);
      });
      await holding;
      // Another transaction stores a webhook of that account: its foreign key is checked against the account row.
      const webhook = Webhook.create({ id: uuid(), accountId: a.accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0);
      if (!webhook.ok) throw new Error('invalid webhook');
      const writer = f.uow.run(async (tx) => ok(await tx.webhooks.save(webhook.value))).then(() => events.push('writer done'));
      // A second holder waits for the first on either database.
      const second = f.uow.run(async (tx) => ok(await tx.accounts.getForUpdate(a.accountId))).then(() => events.push('second holder'));
      if (f.dialect === 'postgres') {
        // The writer ends while the holder holds: waited for (up to 10 s, for a loaded machine), not timed.
        const first = await Promise.race([writer.then(() => 'writer'), new Promise((resolve) => setTimeout(() => resolve('the holder still holds'), 10_000))]);
        expect(first).to.equal('writer');
      }
      // Time for the second holder to queue on the first (a late one could only pass, not fail, the check below).
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await Promise.all([holder, writer, second]);
      // FOR UPDATE made the writer's foreign-key check (FOR KEY SHARE of the account) wait for the
      // holder: every API created, webhook recorded or event stored for an account queued behind its quota checks.
      expect(events).to.deep.equal(f.dialect === 'postgres' ? ['writer done', 'holder ends', 'second holder'] : ['holder ends', 'writer done', 'second holder']);
      expect(await f.repos.webhooks.get(a.accountId, webhook.value.id)).to.not.equal(undefined);
    });

    it('lists the trials ending within a window, soonest first, and lets one caller claim each reminder', async () => {
      const soon = await opened({ creationDate: T0, plan: 'private', trialEndDate: new Date(T0.getTime() + 2 * DAY) });
      const sooner = await opened({ creationDate: T0, plan: 'private', trialEndDate: new Date(T0.getTime() + 1 * DAY) });
      await opened({ creationDate: T0, plan: 'private', trialEndDate: new Date(T0.getTime() + 10 * DAY) });
      await opened({ creationDate: T0, plan: 'private', trialEndDate: new Date(T0.getTime() - 1 * DAY) });
      await opened({ creationDate: T0, plan: 'free', trialEndDate: null });
      await opened({ creationDate: T0, plan: 'private', trialEndDate: null });
      const by = new Date(T0.getTime() + 3 * DAY);
      expect(await f.repos.accounts.trialsEnding(T0, by, 10)).to.deep.equal([sooner, soon]);
      expect(await f.repos.accounts.trialsEnding(T0, by, 1)).to.deep.equal([sooner]);
      const soonerEnd = new Date(T0.getTime() + 1 * DAY);
      expect(await f.repos.accounts.claimTrialReminder(sooner, new Date(T0.getTime() + 5 * DAY), T1), 'another trial than the one read').to.equal(false);
      expect(await f.repos.accounts.claimTrialReminder(sooner, soonerEnd, T1)).to.equal(true);
      expect(await f.repos.accounts.claimTrialReminder(sooner, soonerEnd, T1), 'claimed already').to.equal(false);
      expect(await f.repos.accounts.trialsEnding(T0, by, 10)).to.deep.equal([soon]);
      expect((await f.repos.accounts.get(sooner))?.snapshot().trialReminderDate).to.deep.equal(T1);
      await f.repos.accounts.releaseTrialReminder(sooner);
      expect(await f.repos.accounts.trialsEnding(T0, by, 10)).to.deep.equal([sooner, soon]);
    });

    it("finds an account's first user, and counts what a plan limits: APIs (and private ones), webhooks, tokens, pages", async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      expect((await f.repos.users.ownerOf(a.accountId))?.id).to.equal(a.userId);
      expect(await f.repos.users.ownerOf(accountId(987654))).to.equal(undefined);
      const pub = newApi(a, 'open');
      pub.update({ type: 'public' }, undefined, { id: a.userId, nickname: a.nickname }, T0);
      for (const api of [newApi(a, 'one'), newApi(a, 'two'), pub, newApi(b, 'other')]) await saved(f, api);
      expect(await f.repos.apis.countInAccount(a.accountId)).to.deep.equal({ all: 3, private: 2 });
      expect(await f.repos.apis.countInAccount(accountId(987654))).to.deep.equal({ all: 0, private: 0 });
      await f.uow.run(async (tx) => {
        for (const [accountId, active] of [[a.accountId, true], [a.accountId, false], [b.accountId, true]] as const) {
          const hook = Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active }, T0);
          if (!hook.ok) throw new Error('invalid webhook');
          await tx.webhooks.save(hook.value);
        }
        for (const [userId, hash] of [[a.userId, 'h-1'], [a.userId, 'h-2'], [b.userId, 'h-3']] as const) {
          const token = ApiToken.create({ id: uuid(), userId, name: hash, scopes: ['api'], tokenHash: hash }, T0);
          if (!token.ok) throw new Error('invalid token');
          await tx.tokens.add(token.value);
        }
        const page = Page.create({ id: uuid(), apiId: pub.id, accountId: a.accountId, title: 'Guide', slug: 'guide', body: '# Guide', position: 0 }, T0);
        if (!page.ok) throw new Error('invalid page');
        await tx.pages.save(page.value);
        return ok(undefined);
      });
      expect(await f.repos.webhooks.countInAccount(a.accountId)).to.equal(2);
      expect(await f.repos.tokens.countInAccount(a.accountId)).to.equal(2);
      expect(await f.repos.tokens.countInAccount(b.accountId)).to.equal(1);
      expect(await f.repos.pages.count(pub.id)).to.equal(1);
      expect(await f.repos.pages.count(uuid())).to.equal(0);
    });
  });

  describe('ApiTokenRepository', () => {
    function aToken(userId: UserId, name: string, hash: string) {
      const result = ApiToken.create({ id: uuid(), userId, name, scopes: ['api', 'webhook.readonly'], tokenHash: hash }, T0);
      if (!result.ok) throw new Error('invalid token');
      return result.value;
    }

    it('finds a token by hash only, lists a user’s tokens in creation order and records use', async () => {
      const a = await seedUser(f);
      const first = aToken(a.userId, 'first', 'hash-1');
      const second = aToken(a.userId, 'second', 'hash-2');
      await f.uow.run(async (tx) => {
        await tx.tokens.add(first);
        await tx.tokens.add(second);
        return ok(undefined);
      });
      expect((await f.repos.tokens.findByHash('hash-2'))?.snapshot()).to.deep.equal(second.snapshot());
      expect(await f.repos.tokens.findByHash('hash-3')).to.equal(undefined);
      expect((await f.repos.tokens.listByUser(a.userId)).map((t) => t.name)).to.deep.equal(['first', 'second']);
      await f.repos.tokens.recordUse(first.id, T1);
      expect((await f.repos.tokens.findByHash('hash-1'))?.lastUseDate?.toISOString()).to.equal(T1.toISOString());
    });

    it('finds the holders of many hashes in one read, with the user a principal needs, and none of a deleted token', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      const tokens = [aToken(a.userId, 'one', 'hash-1'), aToken(a.userId, 'two', 'hash-2'), aToken(b.userId, 'three', 'hash-3')];
      await f.uow.run(async (tx) => {
        for (const token of tokens) await tx.tokens.add(token);
        return ok(undefined);
      });
      await f.repos.tokens.recordUse(tokens[1]!.id, T1);
      const holders = await f.repos.tokens.findHolders(['hash-3', 'hash-2', 'hash-9', 'hash\u0000', 'hash-1']);
      const byHash = new Map(holders.map((h) => [h.token.tokenHash, h]));
      expect([...byHash.keys()].sort()).to.deep.equal(['hash-1', 'hash-2', 'hash-3']);
      expect(byHash.get('hash-1')!.user).to.deep.equal({ id: a.userId, accountId: a.accountId, nickname: a.nickname });
      expect(byHash.get('hash-3')!.user.id).to.equal(b.userId);
      expect(byHash.get('hash-1')!.token.snapshot()).to.deep.equal(tokens[0]!.snapshot());
      expect(byHash.get('hash-2')!.token.lastUseDate?.toISOString()).to.equal(T1.toISOString());
      expect(await f.repos.tokens.delete(a.userId, tokens[0]!.id)).to.equal(true);
      expect((await f.repos.tokens.findHolders(['hash-1', 'hash-2'])).map((h) => h.token.name)).to.deep.equal(['two']);
      expect(await f.repos.tokens.findHolders([])).to.deep.equal([]);
    });

    it("deletes only the user's own token", async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      const token = aToken(a.userId, 'ci', 'hash-a');
      await f.uow.run(async (tx) => ok(await tx.tokens.add(token)));
      expect(await f.repos.tokens.delete(b.userId, token.id)).to.equal(false);
      expect(await f.repos.tokens.findByHash('hash-a')).to.not.equal(undefined);
      expect(await f.repos.tokens.delete(a.userId, token.id)).to.equal(true);
      expect(await f.repos.tokens.findByHash('hash-a')).to.equal(undefined);
    });
  });

  describe('ApiRepository', () => {
    it('stores and reads back an API with its owner, only within its account', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      expect(await saved(f, api)).to.deep.equal({ ok: true, value: undefined });
      const read = await f.repos.apis.get(a.accountId, api.id);
      expect(read?.toRecord()).to.deep.equal(api.toRecord());
      expect(await f.repos.apis.get(accountId(a.accountId + 1), api.id)).to.equal(undefined);
      expect(await f.repos.apis.get(a.accountId, uuid())).to.equal(undefined);
    });

    it('finds an API by its nickname within its account only', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      const mine = newApi(a, 'pets');
      await saved(f, mine);
      await saved(f, newApi(b, 'pets'));
      expect((await f.repos.apis.findByNickname(a.accountId, 'pets'))?.toRecord()).to.deep.equal(mine.toRecord());
      expect(await f.repos.apis.findByNickname(a.accountId, 'PETS'), 'nicknames compare exactly').to.equal(undefined);
      expect(await f.repos.apis.findByNickname(a.accountId, 'cats')).to.equal(undefined);
      expect((await f.repos.apis.findByNickname(b.accountId, 'pets'))?.id).to.not.equal(mine.id);
    });

    it('lists in creation order, a page at a time, per account', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      for (const n of ['n1', 'n2', 'n3']) await saved(f, newApi(a, n));
      await saved(f, newApi(b, 'other'));
      const first = await f.repos.apis.list(a.accountId, { limit: 2 });
      expect(first.items.map((x) => x.nickname)).to.deep.equal(['n1', 'n2']);
      expect(first.next).to.equal(first.items[1]!.id);
      const rest = await f.repos.apis.list(a.accountId, { limit: 2, after: first.next! });
      expect(rest.items.map((x) => x.nickname)).to.deep.equal(['n3']);
      expect(rest.next).to.equal(null);
      const exact = await f.repos.apis.list(a.accountId, { limit: 3 });
      expect(exact.next).to.equal(null);
    });

    it('refuses a nickname taken in the same account, not in another', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      await saved(f, newApi(a, 'pets'));
      expect(await saved(f, newApi(a, 'pets'))).to.deep.equal({ ok: false, error: { kind: 'DuplicateNickname' } });
      expect((await saved(f, newApi(b, 'pets'))).ok).to.equal(true);
      expect((await f.repos.apis.list(a.accountId, { limit: 10 })).items).to.have.length(1);
    });

    it('updates only from the stored revision: a second writer on the same revision loses', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const one = (await f.repos.apis.get(a.accountId, api.id))!;
      const two = (await f.repos.apis.get(a.accountId, api.id))!;
      one.update({ name: 'One' }, undefined, { id: userId(1), nickname: 'ada' }, T1);
      two.update({ name: 'Two' }, undefined, { id: userId(1), nickname: 'ada' }, T1);
      expect(await saved(f, one)).to.deep.equal({ ok: true, value: undefined });
      expect(await saved(f, two)).to.deep.equal({ ok: false, error: { kind: 'ConcurrentModification' } });
      expect((await f.repos.apis.get(a.accountId, api.id))?.toRecord()).to.include({ name: 'One', revision: 2 });
    });

    it('getForUpdate lets concurrent writers of one API take turns: every one lands', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const results = await Promise.all(
        ['w1', 'w2', 'w3', 'w4', 'w5'].map((name) =>
          f.uow.run(async (tx) => {
            const loaded = (await tx.apis.getForUpdate(a.accountId, api.id))!;
            loaded.update({ name }, undefined, { id: userId(1), nickname: 'ada' }, T1);
            return tx.apis.save(loaded);
          }),
        ),
      );
      expect(results.map((r) => r.ok)).to.deep.equal([true, true, true, true, true]);
      expect((await f.repos.apis.get(a.accountId, api.id))?.revision).to.equal(6);
    });

    it('refuses renaming onto a taken nickname', async () => {
      const a = await seedUser(f);
      await saved(f, newApi(a, 'one'));
      const two = newApi(a, 'two');
      await saved(f, two);
      const loaded = (await f.repos.apis.get(a.accountId, two.id))!;
      loaded.update({ nickname: 'one' }, undefined, { id: userId(1), nickname: 'ada' }, T1);
      expect(await saved(f, loaded)).to.deep.equal({ ok: false, error: { kind: 'DuplicateNickname' } });
      expect((await f.repos.apis.get(a.accountId, two.id))?.nickname).to.equal('two');
    });

    it('deletes within the account only', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      await f.uow.run(async (tx) => ok(await tx.apis.delete(accountId(a.accountId + 1), api.id)));
      expect(await f.repos.apis.get(a.accountId, api.id)).to.not.equal(undefined);
      await f.uow.run(async (tx) => ok(await tx.apis.delete(a.accountId, api.id)));
      expect(await f.repos.apis.get(a.accountId, api.id)).to.equal(undefined);
    });
  });

  describe('SpecRepository', () => {
    const document = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      schemes: ['https', 'http'],
      paths: Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`/p${i}`, { get: { operationId: `op${i}` }, post: {} }])),
      definitions: { A: { type: 'object' }, B: { $ref: '#/definitions/A' } },
      securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    };
    const spec: StoredSpec = { syntax: 'yaml', source: 'swagger: "2.0"\n# as uploaded, comments and all\n', documentJson: JSON.stringify(document) };

    const entry = (owner: { userId: UserId; nickname: string }, revision = 1) => ({ revision, creationDate: T0, actor: { id: owner.userId, nickname: owner.nickname }, specFormat: 'swagger-2.0' as const, changes: null, reason: null });

    it('keeps the text as uploaded and the canonical JSON; nothing for an API without a spec', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      expect(await f.repos.specs.get(api.id)).to.equal(undefined);
      await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, spec, deriveResources(document), entry(a))));
      expect(await f.repos.specs.get(api.id)).to.deep.equal(spec);
    });

    it('pages derived resources in document order, per kind, and replaces them with the spec', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const derived = deriveResources(document);
      await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, spec, derived, entry(a))));
      const first = await f.repos.specs.listDerived(api.id, 'endpoints', { limit: 5 });
      expect(first.items).to.deep.equal(derived.endpoints.slice(0, 5));
      expect(first.next).to.equal(4);
      const rest = await f.repos.specs.listDerived(api.id, 'endpoints', { limit: 100, after: first.next! });
      expect(rest.items).to.deep.equal(derived.endpoints.slice(5));
      expect(rest.next).to.equal(null);
      expect((await f.repos.specs.listDerived(api.id, 'models', { limit: 10 })).items).to.deep.equal(derived.models);
      expect((await f.repos.specs.listDerived(api.id, 'environments', { limit: 10 })).items).to.deep.equal(derived.environments);
      expect((await f.repos.specs.listDerived(api.id, 'authAdapters', { limit: 10 })).items).to.deep.equal(derived.authAdapters);

      const smaller = { ...document, paths: { '/only': { get: {} } } };
      await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, { ...spec, documentJson: JSON.stringify(smaller) }, deriveResources(smaller), entry(a, 2))));
      expect((await f.repos.specs.listDerived(api.id, 'endpoints', { limit: 100 })).items.map((e) => e.path)).to.deep.equal(['/only']);
    });

    it('goes with its API', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, spec, deriveResources(document), entry(a))));
      await f.uow.run(async (tx) => ok(await tx.apis.delete(a.accountId, api.id)));
      expect(await f.repos.specs.get(api.id)).to.equal(undefined);
      expect((await f.repos.specs.listDerived(api.id, 'endpoints', { limit: 10 })).items).to.deep.equal([]);
    });
  });

  describe('ReleaseRepository', () => {
    const NO_CHANGES = { since: null, counts: { breaking: 0, warning: 0, info: 0 }, items: [] };
    const snapshot = (n: number): StoredSpec => ({ syntax: 'json', source: `{"swagger":"2.0","n":${n}}`, documentJson: `{"swagger":"2.0","n":${n}}` });
    function aRelease(api: Api, version: string, at = T0) {
      const result = Release.release({ id: uuid(), api: api.asReleased(), version, actor: { id: userId(1), nickname: 'ada' } }, at);
      if (!result.ok) throw new Error('invalid release');
      return result.value;
    }

    it('stores releases with frozen snapshots, lists them by release date and refuses a taken label', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const one = aRelease(api, '1.0.0');
      const two = aRelease(api, '2.0.0', T1);
      expect(await f.uow.run((tx) => tx.releases.add(one, snapshot(1), 1, NO_CHANGES))).to.deep.equal({ ok: true, value: undefined });
      expect(await f.uow.run((tx) => tx.releases.add(two, snapshot(2), 1, NO_CHANGES))).to.deep.equal({ ok: true, value: undefined });
      expect(await f.uow.run((tx) => tx.releases.add(aRelease(api, '1.0.0'), snapshot(3), 1, NO_CHANGES))).to.deep.equal({ ok: false, error: { kind: 'DuplicateVersion' } });
      expect((await f.repos.releases.get(api.id, '2.0.0'))?.snapshot()).to.deep.equal(two.snapshot());
      expect(await f.repos.releases.get(api.id, '3.0.0')).to.equal(undefined);
      expect(await f.repos.releases.snapshot(api.id, '1.0.0')).to.deep.equal(snapshot(1));
      const page = await f.repos.releases.list(api.id, { limit: 1 });
      expect(page.items.map((r) => r.version)).to.deep.equal(['1.0.0']);
      expect((await f.repos.releases.list(api.id, { limit: 1, after: page.next! })).items.map((r) => r.version)).to.deep.equal(['2.0.0']);
    });

    it('stores a status change, and frees a label on delete', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const release = aRelease(api, '1.0.0');
      await f.uow.run((tx) => tx.releases.add(release, snapshot(1), 1, NO_CHANGES));
      await f.uow.run(async (tx) => {
        const loaded = (await tx.releases.getForUpdate(api.id, '1.0.0'))!;
        loaded.deprecate(api.asReleased(), { id: userId(1), nickname: 'ada' }, T1);
        return ok(await tx.releases.save(loaded));
      });
      expect((await f.repos.releases.get(api.id, '1.0.0'))?.status).to.equal('deprecated');
      await f.uow.run(async (tx) => ok(await tx.releases.delete(api.id, release.id)));
      expect(await f.repos.releases.get(api.id, '1.0.0')).to.equal(undefined);
      expect(await f.repos.releases.snapshot(api.id, '1.0.0')).to.equal(undefined);
      expect((await f.uow.run((tx) => tx.releases.add(aRelease(api, '1.0.0'), snapshot(9), 1, NO_CHANGES))).ok).to.equal(true);
    });

    it('goes with its API', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      await f.uow.run((tx) => tx.releases.add(aRelease(api, '1.0.0'), snapshot(1), 1, NO_CHANGES));
      await f.uow.run(async (tx) => ok(await tx.apis.delete(a.accountId, api.id)));
      expect((await f.repos.releases.list(api.id, { limit: 10 })).items).to.deep.equal([]);
    });
  });

  describe('ReleaseRepository: the changelog', () => {
    const NO_CHANGES = { since: null, counts: { breaking: 0, warning: 0, info: 0 }, items: [] };
    const snapshot = (n: number): StoredSpec => ({ syntax: 'json', source: `{"n":${n}}`, documentJson: `{"n":${n}}` });
    const changed = (since: string) => ({ since, counts: { breaking: 1, warning: 0, info: 0 }, items: [{ rule: 'endpoint-removed' as const, level: 'breaking' as const, location: { method: 'GET', path: '/a' }, pointer: '/paths/~1a/get', message: 'GET /a was removed.' }] });
    function aRelease(api: Api, version: string, at: Date) {
      const result = Release.release({ id: uuid(), api: api.asReleased(), version, actor: { id: userId(1), nickname: 'ada' } }, at);
      if (!result.ok) throw new Error('invalid release');
      return result.value;
    }

    it('keeps what each release changed and the revision it froze; gives the latest and the neighbours of one, and the changelog newest first', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      expect(await f.repos.releases.latest(api.id)).to.equal(undefined);
      const [one, two, three] = [aRelease(api, '1.0.0', T0), aRelease(api, '2.0.0', T0), aRelease(api, '3.0.0', T1)];
      await f.uow.run((tx) => tx.releases.add(one, snapshot(1), 1, NO_CHANGES));
      await f.uow.run((tx) => tx.releases.add(two, snapshot(2), 4, changed('1.0.0')));
      await f.uow.run((tx) => tx.releases.add(three, snapshot(3), 7, NO_CHANGES));
      expect((await f.repos.releases.latest(api.id))?.version).to.equal('3.0.0');
      const around = await f.repos.releases.neighbours(api.id, two.id);
      expect([around.previous?.version, around.next?.version]).to.deep.equal(['1.0.0', '3.0.0']);
      expect(await f.repos.releases.revisionOf(api.id, '2.0.0')).to.equal(4);
      expect(await f.repos.releases.revisionOf(api.id, '9.9.9')).to.equal(undefined);
      const first = await f.repos.releases.changelog(api.id, { limit: 2 });
      expect(first.items.map((e) => [e.release.version, e.revision, e.changes?.since])).to.deep.equal([
        ['3.0.0', 7, null],
        ['2.0.0', 4, '1.0.0'],
      ]);
      expect(first.items[1]!.changes).to.deep.equal(changed('1.0.0'));
      const second = await f.repos.releases.changelog(api.id, { limit: 2, after: first.next! });
      expect(second).to.deep.include({ next: null });
      expect(second.items.map((e) => e.release.version)).to.deep.equal(['1.0.0']);
      await f.uow.run(async (tx) => ok(await tx.releases.setChanges(api.id, three.id, changed('2.0.0'))));
      expect((await f.repos.releases.changelog(api.id, { limit: 1 })).items[0]!.changes).to.deep.equal(changed('2.0.0'));
    });
  });

  describe('SpecRevisionRepository (the history SpecRepository.save keeps)', () => {
    const text = (n: number) => `{"swagger":"2.0","n":${n},"pad":"${'é😀'.repeat(20_000)}${n}"}`;
    const spec = (n: number): StoredSpec => ({ syntax: n % 2 === 0 ? 'yaml' : 'json', source: `# revision ${n}\n${text(n)}`, documentJson: text(n) });
    const document = (n: number) => JSON.parse(text(n)) as JsonObject;
    const entry = (n: number, actor: { id: UserId; nickname: string }) => ({
      revision: n,
      creationDate: new Date(T0.getTime() + n * 1000),
      actor,
      specFormat: 'swagger-2.0' as const,
      changes: n === 1 ? null : { counts: { breaking: 0, warning: 1, info: 0 }, items: [] },
      reason: n === 3 ? 'on purpose' : null,
    });

    it('keeps every spec by revision, byte for byte, the current one and those it replaced; lists them newest first and tells the one before', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const actor = { id: a.userId, nickname: a.nickname };
      for (const n of [1, 3, 4]) await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, spec(n), deriveResources(document(n)), entry(n, actor))));
      for (const n of [1, 3, 4]) expect((await f.repos.revisions.get(api.id, n))?.spec, `revision ${n}`).to.deep.equal(spec(n));
      expect(await f.repos.specs.get(api.id)).to.deep.equal(spec(4));
      expect(await f.repos.revisions.get(api.id, 2)).to.equal(undefined);
      const page = await f.repos.revisions.list(api.id, { limit: 2 });
      expect(page.items.map((r) => [r.revision, r.counts, r.reason, r.user])).to.deep.equal([
        [4, { breaking: 0, warning: 1, info: 0 }, null, actor],
        [3, { breaking: 0, warning: 1, info: 0 }, 'on purpose', actor],
      ]);
      expect(page.items[0]!.creationDate).to.deep.equal(new Date(T0.getTime() + 4000));
      expect((await f.repos.revisions.list(api.id, { limit: 2, after: page.next! })).items.map((r) => [r.revision, r.counts])).to.deep.equal([[1, null]]);
      expect([await f.repos.revisions.previous(api.id, 4), await f.repos.revisions.previous(api.id, 3), await f.repos.revisions.previous(api.id, 1)]).to.deep.equal([3, 1, undefined]);
      expect(await f.repos.revisions.changes(api.id, 1, 0)).to.equal(null);
      expect(await f.repos.revisions.changes(api.id, 3, 1)).to.deep.equal({ counts: { breaking: 0, warning: 1, info: 0 }, items: [] });
      expect(await f.repos.revisions.changes(api.id, 3, 0), 'recorded against revision 1, not another').to.equal(null);
      expect(await f.repos.revisions.changes(api.id, 2, 1)).to.equal(undefined);
    });

    it('goes with its API', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      const actor = { id: a.userId, nickname: a.nickname };
      for (const n of [1, 2]) await f.uow.run(async (tx) => ok(await tx.specs.save(api.id, spec(n), deriveResources(document(n)), entry(n, actor))));
      await f.uow.run(async (tx) => ok(await tx.apis.delete(a.accountId, api.id)));
      expect((await f.repos.revisions.list(api.id, { limit: 10 })).items).to.deep.equal([]);
      expect(await f.repos.revisions.get(api.id, 1)).to.equal(undefined);
    });
  });

  describe('WebhookRepository and DeliveryRepository', () => {
    const policy = { baseMs: 1000, capMs: 60_000, maxAttempts: 3 };
    async function aWebhook(accountId: AccountId, fields: Record<string, unknown> = {}) {
      const result = Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true, ...fields }, T0);
      if (!result.ok) throw new Error('invalid webhook');
      await f.uow.run(async (tx) => ok(await tx.webhooks.save(result.value)));
      return result.value;
    }
    const aDelivery = (webhook: Webhook, eventId = uuid(), at = T0) =>
      Delivery.schedule({ id: uuid(), webhookId: webhook.id, accountId: webhook.accountId, eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, at);
    const add = (delivery: Delivery, key: string | null) => f.uow.run(async (tx) => ok(await tx.deliveries.add(delivery, key)));
    /** A lease of 30 s from `now`, with a token of its own (or `token`). */
    const leaseFrom = (now: Date, token: string = uuid()) => ({ token, until: new Date(now.getTime() + 30_000) });
    const claim = (now: Date, token: string = uuid()) => f.uow.run(async (tx) => ok(await tx.deliveries.claimDue(now, leaseFrom(now, token), 10)));
    /** What a lane's recording does: saves the run's deliveries and ends the webhook's lease. */
    const record = (webhook: Webhook, done: Delivery[], token: string) =>
      f.uow.run(async (tx) => ok({ saved: await tx.deliveries.saveAll(webhook.id, done, token), released: await tx.deliveries.release(webhook.id, token) }));

    it('stores webhooks per account and finds the active subscribers of an event', async () => {
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      const one = await aWebhook(a.accountId);
      await aWebhook(a.accountId, { active: false });
      await aWebhook(a.accountId, { events: ['api.deleted'] });
      await aWebhook(b.accountId);
      expect((await f.repos.webhooks.get(a.accountId, one.id))?.snapshot()).to.deep.equal(one.snapshot());
      expect(await f.repos.webhooks.get(b.accountId, one.id)).to.equal(undefined);
      expect((await f.repos.webhooks.list(a.accountId, { limit: 10 })).items).to.have.length(3);
      expect((await f.repos.webhooks.subscribers(a.accountId, 'api.created')).map((w) => w.id)).to.deep.equal([one.id]);
    });

    it('counts the active webhooks of every account', async () => {
      expect(await f.repos.webhooks.countActive()).to.equal(0);
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      await aWebhook(a.accountId);
      await aWebhook(a.accountId, { active: false });
      const later = await aWebhook(a.accountId, { events: ['api.deleted'] });
      await aWebhook(b.accountId);
      expect(await f.repos.webhooks.countActive()).to.equal(3);
      later.deactivate('by hand', T1);
      await f.uow.run(async (tx) => ok(await tx.webhooks.save(later)));
      expect(await f.repos.webhooks.countActive()).to.equal(2);
    });

    it('keeps the last response and a deactivation', async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      webhook.recordResponse({ status: 500, body: 'boom', durationMs: 12 }, T1);
      webhook.deactivate('gave up', T1);
      await f.uow.run(async (tx) => ok(await tx.webhooks.save(webhook)));
      expect((await f.repos.webhooks.get(a.accountId, webhook.id))?.snapshot()).to.deep.equal(webhook.snapshot());
    });

    it('fans an event out to a webhook once: a second add with the same dispatch key is refused', async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      const eventId = uuid();
      expect(await add(aDelivery(webhook, eventId), eventId)).to.deep.equal({ ok: true, value: true });
      expect(await add(aDelivery(webhook, eventId), eventId)).to.deep.equal({ ok: true, value: false });
      expect(await add(aDelivery(webhook, eventId), null), 'a redelivery has no key').to.deep.equal({ ok: true, value: true });
      expect((await f.repos.deliveries.list(webhook.id, { limit: 10 })).items).to.have.length(2);
    });

    it('stores payloads and attempts as they were, whatever characters they hold, through a fan-out, a claim and a recording', async () => {
      const a = await seedUser(f);
      const webhooks = [await aWebhook(a.accountId), await aWebhook(a.accountId)];
      // Quotes, backslashes, braces, commas and NULL as text: what an array literal (PostgreSQL) must escape.
      const payload = JSON.stringify({ name: 'a "quoted" \\ {braced}, NULL', text: 'caf\u00e9 \u{1F600} \u0000 \n' });
      const eventId = uuid();
      const fanOut = webhooks.map((webhook) => Delivery.schedule({ id: uuid(), webhookId: webhook.id, accountId: a.accountId, eventId, event: 'api.created', payload }, T0));
      expect(await f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut(fanOut)))).to.deep.equal({ ok: true, value: 2 });
      const claimed = await f.uow.run(async (tx) => ok(await tx.deliveries.claimDue(T0, leaseFrom(T0, 'run'), 10, 10)));
      if (!claimed.ok) throw new Error('claim');
      expect(claimed.value.map((d) => d.payload)).to.deep.equal([payload, payload]);
      const [first] = claimed.value.filter((d) => d.webhookId === webhooks[0]!.id);
      first!.recordAttempt({ status: 500, durationMs: 3, responseBody: 'a "quoted" \\ {body}, NULL \u00e9', error: null }, T1, policy, 0.5);
      expect(await record(webhooks[0]!, [first!], 'run')).to.deep.equal({ ok: true, value: { saved: 1, released: true } });
      expect((await f.repos.deliveries.get(webhooks[0]!.id, first!.id))?.snapshot()).to.deep.equal(first!.snapshot());
    });

    it('stores a fan-out and records a run longer than one statement takes (SQLite 512 rows, PostgreSQL 5,000), once', async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      // The SQL stores' chunks; the in-memory one has none (and checks each key against the rest).
      const count = f.sql ? 5_100 : 700;
      const fanOut = Array.from({ length: count }, () => aDelivery(webhook));
      expect(await f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut(fanOut)))).to.deep.equal({ ok: true, value: count });
      expect(await f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut(fanOut))), 'each event already went to the webhook').to.deep.equal({ ok: true, value: 0 });
      const claimed = await f.uow.run(async (tx) => ok(await tx.deliveries.claimDue(T0, leaseFrom(T0, 'run'), 600, 600)));
      if (!claimed.ok) throw new Error('claim');
      expect(claimed.value.map((d) => d.id)).to.deep.equal(fanOut.slice(0, 600).map((d) => d.id));
      for (const d of claimed.value) d.recordAttempt({ status: 204, durationMs: 1, responseBody: '', error: null }, T1, policy, 0.5);
      expect(await record(webhook, claimed.value, 'run')).to.deep.equal({ ok: true, value: { saved: 600, released: true } });
      const log = (await f.repos.deliveries.list(webhook.id, { limit: count })).items;
      expect(log.filter((d) => d.toRecord().state === 'succeeded').map((d) => d.id).sort()).to.deep.equal(fanOut.slice(0, 600).map((d) => d.id).sort());
      expect(log.map((d) => d.payload)).to.deep.equal([...fanOut].reverse().map((d) => d.payload));
    });

    it('lists a delivery log newest first and stores attempts', async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      const first = aDelivery(webhook);
      const second = aDelivery(webhook);
      await add(first, null);
      await add(second, null);
      first.recordAttempt({ status: 500, durationMs: 3, responseBody: 'no', error: null }, T1, policy, 0.5);
      await f.uow.run(async (tx) => ok(await tx.deliveries.save(first)));
      const page = await f.repos.deliveries.list(webhook.id, { limit: 1 });
      expect(page.items.map((d) => d.id)).to.deep.equal([second.id]);
      const rest = await f.repos.deliveries.list(webhook.id, { limit: 1, after: page.next! });
      expect(rest.items[0]?.snapshot()).to.deep.equal(first.snapshot());
    });

    it("claims due deliveries, each webhook's oldest first, and not again while leased", async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const d1 = aDelivery(w1);
      const d2 = aDelivery(w1);
      const d3 = aDelivery(w2);
      const future = aDelivery(w2, uuid(), new Date(T1.getTime() + 3600_000));
      for (const d of [d1, d2, d3, future]) await add(d, null);
      const token = uuid();
      const first = await claim(T1, token);
      expect(first.ok && first.value.map((d) => d.id)).to.deep.equal([d1.id, d3.id]);
      const whileLeased = await claim(T1);
      expect(whileLeased.ok && whileLeased.value).to.deep.equal([], "a leased webhook holds its queue");
      d1.recordAttempt({ status: 204, durationMs: 3, responseBody: '', error: null }, T1, policy, 0.5);
      expect(await record(w1, [d1], token)).to.deep.equal({ ok: true, value: { saved: 1, released: true } });
      const next = await claim(T1);
      expect(next.ok && next.value.map((d) => d.id)).to.deep.equal([d2.id]);
      const afterLease = await claim(new Date(T1.getTime() + 31_000));
      expect(afterLease.ok && afterLease.value.map((d) => d.id).sort()).to.deep.equal([d2.id, d3.id].sort(), 'an expired lease is claimed again');
    });

    const claimRun = (now: Date, limit: number, perWebhook: number, token: string = uuid()) =>
      f.uow.run(async (tx) => ok((await tx.deliveries.claimDue(now, leaseFrom(now, token), limit, perWebhook)).map((d) => d.id)));
    const succeeded = (d: Delivery) => d.recordAttempt({ status: 204, durationMs: 3, responseBody: '', error: null }, T1, policy, 0.5);

    it('claims several due deliveries per webhook in event order, nothing of a webhook while one is leased, and releases', async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const [d1, d2, d3] = [aDelivery(w1), aDelivery(w1), aDelivery(w1)];
      const d4 = aDelivery(w2);
      const future = aDelivery(w1, uuid(), new Date(T1.getTime() + 3600_000));
      for (const d of [d1, d2, d3, d4, future]) await add(d, null);
      const token = uuid();
      expect(await claimRun(T1, 10, 2, token)).to.deep.equal({ ok: true, value: [d1.id, d2.id, d4.id] });
      expect(await claimRun(T1, 10, 2), 'every webhook has one leased').to.deep.equal({ ok: true, value: [] });
      succeeded(d1);
      expect(await record(w1, [d1], token), 'd2 unsent').to.deep.equal({ ok: true, value: { saved: 1, released: true } });
      expect(await claimRun(T1, 10, 5), 'released at once; w2 still leased').to.deep.equal({ ok: true, value: [d2.id, d3.id] });
      expect(await claimRun(new Date(T1.getTime() + 31_000), 2, 5), 'the limit cuts in event order').to.deep.equal({ ok: true, value: [d2.id, d3.id] });
    });

    it("claims a webhook's next run in the transaction that recorded its last: in event order, due ones only, nothing while another holds it", async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const [d1, d2, d3, d4] = [aDelivery(w1), aDelivery(w1), aDelivery(w1), aDelivery(w1)];
      const other = aDelivery(w2);
      const future = aDelivery(w1, uuid(), new Date(T1.getTime() + 3600_000));
      for (const d of [d1, d2, d3, d4, other, future]) await add(d, null);
      let token = uuid();
      expect(await claimRun(T1, 10, 1, token)).to.deep.equal({ ok: true, value: [d1.id, other.id] });
      const recordAndClaim = (done: Delivery[], limit: number) =>
        f.uow.run(async (tx) => {
          for (const d of done) succeeded(d);
          await tx.deliveries.saveAll(w1.id, done, token);
          await tx.deliveries.release(w1.id, token);
          token = uuid();
          return ok((await tx.deliveries.claimNext(w1.id, T1, leaseFrom(T1, token), limit)).map((d) => d.id));
        });
      expect(await recordAndClaim([d1], 2), 'the next two of w1 only, oldest first').to.deep.equal({ ok: true, value: [d2.id, d3.id] });
      expect(await claimRun(T1, 10, 5), 'w1 stays leased; w2 is held too').to.deep.equal({ ok: true, value: [] });
      expect(
        await f.uow.run(async (tx) => ok(await tx.deliveries.claimNext(w1.id, T1, leaseFrom(T1), 5))),
        'nothing while a lease of w1 is live',
      ).to.deep.equal({ ok: true, value: [] });
      expect(await recordAndClaim([d2, d3], 5), 'the one not in the future').to.deep.equal({ ok: true, value: [d4.id] });
      expect(await recordAndClaim([d4], 5), 'nothing due').to.deep.equal({ ok: true, value: [] });
      expect(await claimRun(new Date(T1.getTime() + 3600_000), 10, 5), 'nothing of w1 left leased; the lease of w2 ran out').to.deep.equal({ ok: true, value: [other.id, future.id] });
    });

    it("records many deliveries at once while the webhook holds the run's lease, and ends the lease", async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      const batch = [aDelivery(webhook), aDelivery(webhook), aDelivery(webhook)];
      for (const d of batch) await add(d, null);
      const token = uuid();
      expect(await claimRun(T1, 10, 10, token)).to.deep.equal({ ok: true, value: batch.map((d) => d.id) });
      const recorded = await f.uow.run(async (tx) => {
        expect(await tx.deliveries.holds(webhook.id, token)).to.equal(true);
        batch[0]!.recordAttempt({ status: 204, durationMs: 3, responseBody: 'ok', error: null }, T1, policy, 0.5);
        batch[1]!.recordAttempt({ status: 500, durationMs: 4, responseBody: 'no', error: null }, T1, policy, 0.5);
        batch[2]!.abandon('the webhook is inactive', T1);
        expect(await tx.deliveries.saveAll(webhook.id, [batch[2]!, batch[0]!, batch[1]!], token)).to.equal(3);
        expect(await tx.deliveries.release(webhook.id, token)).to.equal(true);
        expect(await tx.deliveries.holds(webhook.id, token), 'the lease ended').to.equal(false);
        return ok(batch.map((d) => d.snapshot()));
      });
      expect(recorded.ok && recorded.value.map((d) => d.id).sort()).to.deep.equal(batch.map((d) => d.id).sort());
      for (const state of recorded.ok ? recorded.value : []) expect((await f.repos.deliveries.get(webhook.id, state.id))?.snapshot()).to.deep.equal(state);
      const retry = recorded.ok ? recorded.value.find((d) => d.id === batch[1]!.id)!.nextAttemptDate! : T1;
      expect(await claimRun(new Date(retry.getTime() - 1), 10, 10), 'the lease ended; the retry is not due yet').to.deep.equal({ ok: true, value: [] });
      expect(await claimRun(retry, 10, 10)).to.deep.equal({ ok: true, value: [batch[1]!.id] });
    });

    it("fences a run's writes with its lease: a lease that ran out still holds until another claim takes the webhook; then the run saves and releases nothing", async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      const [d1, d2] = [aDelivery(webhook), aDelivery(webhook)];
      for (const d of [d1, d2]) await add(d, null);
      const stale = uuid();
      expect(await claimRun(T1, 10, 10, stale)).to.deep.equal({ ok: true, value: [d1.id, d2.id] });
      // The lease runs out before the run is recorded: untaken, it still holds.
      const holds = (token: string) => f.uow.run(async (tx) => ok(await tx.deliveries.holds(webhook.id, token)));
      expect(await holds(stale), 'ran out, not taken').to.deep.equal({ ok: true, value: true });
      // Another worker claims both.
      const fresh = uuid();
      expect(await claimRun(new Date(T1.getTime() + 31_000), 10, 10, fresh)).to.deep.equal({ ok: true, value: [d1.id, d2.id] });
      const late = await f.uow.run(async (tx) => {
        const held = await tx.deliveries.holds(webhook.id, stale);
        succeeded(d1);
        return ok({ held, saved: await tx.deliveries.saveAll(webhook.id, [d1], stale), released: await tx.deliveries.release(webhook.id, stale) });
      });
      expect(late).to.deep.equal({ ok: true, value: { held: false, saved: 0, released: false } });
      expect((await f.repos.deliveries.get(webhook.id, d1.id))?.snapshot().state, 'the stale outcome was not written').to.equal('pending');
      expect(await claimRun(new Date(T1.getTime() + 32_000), 10, 10), "the new claim's lease stands").to.deep.equal({ ok: true, value: [] });
      const current = await f.uow.run(async (tx) => ok({ held: await tx.deliveries.holds(webhook.id, fresh), released: await tx.deliveries.release(webhook.id, fresh) }));
      expect(current).to.deep.equal({ ok: true, value: { held: true, released: true } });
    });

    it("keeps a lane's lease when the webhook is saved, and fences by webhook: a token holds only the webhook it leased", async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const [d1, d2] = [aDelivery(w1), aDelivery(w2)];
      for (const d of [d1, d2]) await add(d, null);
      // One claim, one token, both webhooks: what a pass of the worker does.
      const token = uuid();
      expect(await claimRun(T1, 10, 1, token)).to.deep.equal({ ok: true, value: [d1.id, d2.id] });
      succeeded(d2);
      const across = await f.uow.run(async (tx) => ok(await tx.deliveries.saveAll(w1.id, [d2], token)));
      expect(across, "w2's delivery is not written through w1, though one token holds both").to.deep.equal({ ok: true, value: 0 });
      expect((await f.repos.deliveries.get(w2.id, d2.id))?.snapshot().state).to.equal('pending');
      // What the recording and the owner's edits do meanwhile: save the aggregate.
      const edited = (await f.repos.webhooks.get(a.accountId, w1.id))!;
      edited.recordResponse({ status: 204, body: '', durationMs: 2 }, T1);
      await f.uow.run(async (tx) => ok(await tx.webhooks.save(edited)));
      expect(await claimRun(T1, 10, 1), 'w1 still leased after its save').to.deep.equal({ ok: true, value: [] });
      expect(await record(w1, [d1], token), 'w1 ends its lease').to.deep.equal({ ok: true, value: { saved: 1, released: true } });
      expect(await f.uow.run(async (tx) => ok([await tx.deliveries.holds(w1.id, token), await tx.deliveries.holds(w2.id, token)])), 'w2 still holds the claim').to.deep.equal({ ok: true, value: [false, true] });
      expect(await record(w2, [d2], token)).to.deep.equal({ ok: true, value: { saved: 1, released: true } });
    });

    it('fans out many deliveries at once, each (webhook, event) once', async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const [e1, e2] = [uuid(), uuid()];
      const fanOut = (deliveries: Delivery[]) => f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut(deliveries)));
      expect(await fanOut([aDelivery(w1, e1), aDelivery(w2, e1)])).to.deep.equal({ ok: true, value: 2 });
      expect(await fanOut([aDelivery(w1, e1), aDelivery(w1, e2), aDelivery(w2, e2)]), 'w1 already has e1').to.deep.equal({ ok: true, value: 2 });
      expect((await f.repos.deliveries.list(w1.id, { limit: 10 })).items.map((d) => d.eventId).sort()).to.deep.equal([e1, e2].sort());
      expect(await add(aDelivery(w2, e2), e2), 'the same key as add').to.deep.equal({ ok: true, value: false });
    });

    it('never gives two claimers deliveries of one webhook at once, not even ones fanned out in between', async () => {
      const a = await seedUser(f);
      const w1 = await aWebhook(a.accountId);
      const w2 = await aWebhook(a.accountId);
      const [d1, d2, d3] = [aDelivery(w1), aDelivery(w1), aDelivery(w2)];
      for (const d of [d1, d2, d3]) await add(d, null);
      // The first claimer holds its transaction open a while (on PostgreSQL: its row locks, its
      // leases not yet visible); meanwhile more of w1's deliveries arrive and a second claimer runs.
      const first = f.uow.run(async (tx) => {
        const got = await tx.deliveries.claimDue(T1, leaseFrom(T1), 10, 2);
        await new Promise((resolve) => setTimeout(resolve, 150));
        return ok(got.map((d) => d.id));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const later = aDelivery(w1);
      await add(later, null);
      const second = await claimRun(T1, 10, 10);
      expect(await first).to.deep.equal({ ok: true, value: [d1.id, d2.id, d3.id] });
      expect(second, "nothing of a webhook the other claimer holds, in whatever order they ran").to.deep.equal({ ok: true, value: [] });
      expect(await claimRun(new Date(T1.getTime() + 31_000), 10, 10), 'after the leases: all, in order').to.deep.equal({ ok: true, value: [d1.id, d2.id, d3.id, later.id] });
    });

    it('goes with its webhook', async () => {
      const a = await seedUser(f);
      const webhook = await aWebhook(a.accountId);
      await add(aDelivery(webhook), null);
      await f.uow.run(async (tx) => ok(await tx.webhooks.delete(a.accountId, webhook.id)));
      expect(await f.repos.webhooks.get(a.accountId, webhook.id)).to.equal(undefined);
      expect((await f.repos.deliveries.list(webhook.id, { limit: 10 })).items).to.deep.equal([]);
    });
  });

  describe('PageRepository', () => {
    async function aPage(api: Api, slug: string, position: number) {
      const result = Page.create({ id: uuid(), apiId: api.id, accountId: api.accountId, title: slug, slug, body: `# ${slug}\r\n`, position }, T0);
      if (!result.ok) throw new Error('invalid page');
      return result.value;
    }

    it('orders by position then creation, pages with a cursor, knows the next position and refuses a taken slug', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'docs');
      await saved(f, api);
      expect(await f.repos.pages.nextPosition(api.id)).to.equal(0);
      const pages = [await aPage(api, 'b', 5), await aPage(api, 'a', 1), await aPage(api, 'c', 5)];
      for (const page of pages) expect(await f.uow.run((tx) => tx.pages.save(page))).to.deep.equal({ ok: true, value: undefined });
      expect(await f.repos.pages.nextPosition(api.id)).to.equal(6);
      const first = await f.repos.pages.list(api.id, { limit: 2 });
      expect(first.items.map((p) => p.slug)).to.deep.equal(['a', 'b']);
      const rest = await f.repos.pages.list(api.id, { limit: 2, after: first.next! });
      expect(rest.items.map((p) => p.slug)).to.deep.equal(['c']);
      expect(rest.next).to.equal(null);
      expect((await f.repos.pages.get(api.id, pages[0]!.id))?.snapshot()).to.deep.equal(pages[0]!.snapshot());
      expect(await f.uow.run(async (tx) => tx.pages.save(await aPage(api, 'a', 9)))).to.deep.equal({ ok: false, error: { kind: 'DuplicateSlug' } });
    });

    it('finds a page by its slug within its API only', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'docs');
      const other = newApi(a, 'other');
      await saved(f, api);
      await saved(f, other);
      const intro = await aPage(api, 'intro', 0);
      await f.uow.run((tx) => tx.pages.save(intro));
      expect((await f.repos.pages.findBySlug(api.id, 'intro'))?.snapshot()).to.deep.equal(intro.snapshot());
      expect(await f.repos.pages.findBySlug(other.id, 'intro')).to.equal(undefined);
      expect(await f.repos.pages.findBySlug(api.id, 'outro')).to.equal(undefined);
    });

    it('goes with its API', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'docs');
      await saved(f, api);
      const page = await aPage(api, 'intro', 0);
      await f.uow.run((tx) => tx.pages.save(page));
      await f.uow.run(async (tx) => ok(await tx.apis.delete(a.accountId, api.id)));
      expect(await f.repos.pages.get(api.id, page.id)).to.equal(undefined);
    });
  });

  describe('ShareRepository', () => {
    function aShare(api: Api, grantee: { userId: UserId; accountId: AccountId }, role: 'viewer' | 'editor' = 'viewer') {
      const result = Share.create({ id: uuid(), api: { id: api.id, accountId: api.accountId }, grantee: { id: grantee.userId, accountId: grantee.accountId }, role }, T0);
      if (!result.ok) throw new Error('invalid share');
      return result.value;
    }

    it('stores shares with the grantee joined, lists them by a cursor, finds one for its grantee and refuses a second per user', async () => {
      const owner = await seedUser(f, 'owner@example.com');
      const grace = await seedUser(f, 'grace@example.com');
      const bob = await seedUser(f, 'bob@example.com');
      const api = newApi(owner, 'shared');
      const other = newApi(owner, 'other');
      await saved(f, api);
      await saved(f, other);
      const toGrace = aShare(api, grace, 'editor');
      const toBob = aShare(api, bob);
      for (const share of [toGrace, toBob]) expect(await f.uow.run((tx) => tx.shares.save(share))).to.deep.equal({ ok: true, value: undefined });

      const read = await f.repos.shares.get(api.id, toGrace.id);
      expect(read?.share.snapshot()).to.deep.equal(toGrace.snapshot());
      expect(read?.grantee).to.deep.equal({ id: grace.userId, nickname: grace.nickname, email: 'grace@example.com' });
      expect(await f.repos.shares.get(other.id, toGrace.id), 'a share belongs to its API').to.equal(undefined);

      const first = await f.repos.shares.list(api.id, { limit: 1 });
      const rest = await f.repos.shares.list(api.id, { limit: 1, after: first.next! });
      expect([...first.items, ...rest.items].map((v) => v.share.id)).to.deep.equal([toGrace.id, toBob.id]);
      expect(rest.next).to.equal(null);

      expect((await f.repos.shares.findForGrantee(owner.accountId, api.id, grace.userId))?.role).to.equal('editor');
      expect(await f.repos.shares.findForGrantee(owner.accountId, other.id, grace.userId), 'only the shared API').to.equal(undefined);
      expect(await f.repos.shares.findForGrantee(grace.accountId, api.id, grace.userId), 'only under the owner’s account').to.equal(undefined);
      expect(await f.repos.shares.anyInAccount(owner.accountId, grace.userId)).to.equal(true);
      expect(await f.repos.shares.anyInAccount(grace.accountId, bob.userId)).to.equal(false);
      expect((await f.repos.apis.listSharedWith(owner.accountId, grace.userId, { limit: 10 })).items.map((a) => a.nickname)).to.deep.equal(['shared']);

      expect(await f.uow.run((tx) => tx.shares.save(aShare(api, grace)))).to.deep.equal({ ok: false, error: { kind: 'DuplicateShare' } });
      toBob.changeRole('editor', T1);
      await f.uow.run((tx) => tx.shares.save(toBob));
      expect((await f.repos.shares.get(api.id, toBob.id))?.share.snapshot()).to.deep.include({ role: 'editor', updateDate: T1 });
      await f.uow.run(async (tx) => ok(await tx.shares.delete(api.id, toBob.id)));
      expect(await f.repos.shares.findForGrantee(owner.accountId, api.id, bob.userId)).to.equal(undefined);
    });

    it('goes with its API', async () => {
      const owner = await seedUser(f, 'owner@example.com');
      const grace = await seedUser(f, 'grace@example.com');
      const api = newApi(owner, 'gone');
      await saved(f, api);
      const share = aShare(api, grace);
      await f.uow.run((tx) => tx.shares.save(share));
      await f.uow.run(async (tx) => ok(await tx.apis.delete(owner.accountId, api.id)));
      expect(await f.repos.shares.get(api.id, share.id)).to.equal(undefined);
      expect(await f.repos.shares.anyInAccount(owner.accountId, grace.userId)).to.equal(false);
    });
  });

  describe('text keys from a request that PostgreSQL cannot compare', () => {
    it('finds no user, release or OAuth client by a text key holding U+0000, without an error', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      expect(await f.repos.users.getByEmail('ada@example.com\u0000')).to.equal(undefined);
      expect(await f.repos.releases.get(api.id, '1.0.0\u0000')).to.equal(undefined);
      expect(await f.repos.releases.snapshot(api.id, '\u0000')).to.equal(undefined);
      expect(await f.repos.apis.findByNickname(a.accountId, 'pets\u0000')).to.equal(undefined);
      expect(await f.repos.pages.findBySlug(api.id, 'intro\u0000')).to.equal(undefined);
      expect(await f.repos.oauthClients.get('a\u0000b.apps.specbase')).to.equal(undefined);
    });
  });

  describe('EventOutbox backlog', () => {
    it('counts the undispatched events of every account and dates the oldest', async () => {
      expect(await f.repos.outbox.backlog()).to.deep.equal({ pending: 0, oldestOccurredAt: null });
      const a = await seedUser(f, 'a@example.com');
      const b = await seedUser(f, 'b@example.com');
      const api = newApi(a, 'first');
      await saved(f, api);
      api.delete({ id: a.userId, nickname: a.nickname }, T1);
      await f.uow.run(async (tx) => {
        await tx.apis.delete(a.accountId, api.id);
        await tx.outbox.append(api.pullEvents());
        return ok(undefined);
      });
      await saved(f, newApi(b, 'second'));
      const all = await f.repos.outbox.backlog();
      expect(all.pending).to.equal(3);
      expect(all.oldestOccurredAt?.toISOString()).to.equal(T0.toISOString());
      const dispatch = (n: number) =>
        f.uow.run(async (tx) => {
          const events = await tx.outbox.claimPending(n);
          await tx.outbox.markDispatched(
            events.map((e) => e.id),
            T1,
          );
          return ok(undefined);
        });
      await dispatch(1);
      const rest = await f.repos.outbox.backlog();
      expect(rest.pending).to.equal(2);
      expect(rest.oldestOccurredAt?.toISOString(), 'the api.deleted event is now the oldest').to.equal(T1.toISOString());
      await dispatch(10);
      expect(await f.repos.outbox.backlog()).to.deep.equal({ pending: 0, oldestOccurredAt: null });
    });
  });

  describe('EventOutbox claims', () => {
    it('claims undispatched events oldest first and marks them dispatched', async () => {
      const a = await seedUser(f);
      for (const n of ['o1', 'o2', 'o3']) await saved(f, newApi(a, n));
      const claimed = await f.uow.run(async (tx) => {
        const events = await tx.outbox.claimPending(2);
        await tx.outbox.markDispatched(
          events.map((e) => e.id),
          T1,
        );
        return ok(events.map((e) => (e.payload.resource as { nickname: string }).nickname));
      });
      expect(claimed).to.deep.equal({ ok: true, value: ['o1', 'o2'] });
      expect((await f.repos.outbox.pending(10)).map((e) => (e.payload.resource as { nickname: string }).nickname)).to.deep.equal(['o3']);
    });
  });

  describe('EventOutbox and UnitOfWork', () => {
    it('keeps events with their payload, oldest first', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      await saved(f, api);
      api.delete({ id: a.userId, nickname: a.nickname }, T1);
      await f.uow.run(async (tx) => {
        await tx.apis.delete(a.accountId, api.id);
        await tx.outbox.append(api.pullEvents());
        return ok(undefined);
      });
      const pending = await f.repos.outbox.pending(10);
      expect(pending.map((e) => e.payload.name)).to.deep.equal(['api.created', 'api.deleted']);
      expect(pending[1]).to.deep.include({ accountId: a.accountId, dispatched: false });
      expect(pending[1]!.payload).to.deep.include({ id: pending[1]!.id, timestamp: '2026-11-22T10:16:00.000+00:00', resourceType: 'Api' });
      expect(pending[1]!.payload.user).to.deep.equal({ id: a.userId, nickname: a.nickname });
      expect(await f.repos.outbox.pending(1)).to.have.length(1);
    });

    it('rolls back everything when the work returns an error result', async () => {
      const a = await seedUser(f);
      const api = newApi(a, 'pets');
      const result = await f.uow.run(async (tx) => {
        await tx.apis.save(api);
        await tx.outbox.append(api.pullEvents());
        return err('changed my mind');
      });
      expect(result).to.deep.equal({ ok: false, error: 'changed my mind' });
      expect(await f.repos.apis.get(a.accountId, api.id)).to.equal(undefined);
      expect(await f.repos.outbox.pending(10)).to.deep.equal([]);
    });

    it('creating an API that fails after its row was written leaves neither the API nor its api.created event', async () => {
      const a = await seedUser(f);
      let rowWasWritten = false;
      const failingAfterWrites: UnitOfWork = {
        run: (work) =>
          f.uow.run((tx) =>
            work({
              ...tx,
              outbox: {
                pending: (limit) => tx.outbox.pending(limit),
                claimPending: (limit) => tx.outbox.claimPending(limit),
                markDispatched: (ids, at) => tx.outbox.markDispatched(ids, at),
                backlog: () => tx.outbox.backlog(),
                append: async (events) => {
                  await tx.outbox.append(events);
                  const inTransaction = await tx.apis.list(a.accountId, { limit: 10 });
                  rowWasWritten = inTransaction.items.length === 1 && (await tx.outbox.pending(10)).length === 1;
                  throw new Error('disk full');
                },
              },
            }),
          ),
      };
      const createApi = new CreateApi(failingAfterWrites, plansOver(f.repos, new FixedClock()), new SequentialIds(), new FixedClock());
      let thrown: unknown;
      try {
        await createApi.execute(aPrincipal({ userId: a.userId, accountId: a.accountId, nickname: a.nickname }), {
          accountId: a.accountId,
          name: 'Pets',
          nickname: 'pets',
        });
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error | undefined)?.message).to.equal('disk full');
      expect(rowWasWritten, 'the API and event rows existed inside the transaction').to.equal(true);
      expect((await f.repos.apis.list(a.accountId, { limit: 10 })).items).to.deep.equal([]);
      expect(await f.repos.outbox.pending(10)).to.deep.equal([]);
    });

    it('runs concurrent transactions without losing either', async () => {
      const a = await seedUser(f);
      const results = await Promise.all(['c1', 'c2', 'c3', 'c4'].map((n) => saved(f, newApi(a, n))));
      expect(results.every((r) => r.ok)).to.equal(true);
      expect((await f.repos.apis.list(a.accountId, { limit: 10 })).items).to.have.length(4);
      expect(await f.repos.outbox.pending(10)).to.have.length(4);
    });
  });
});
