import { expect } from 'chai';
import type { StoredSigningKey } from '../../src/application/ports/identity-repositories.port.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { AuthorizationCode, Consent, Grant, RefreshToken, Session } from '../../src/domain/identity/grant.js';
import { OAuthClient } from '../../src/domain/identity/oauth-client.js';
import type { DeviceAuthorization } from '../../src/domain/identity/device-authorization.js';
import { err, ok } from '../../src/domain/shared/result.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';
import type { UserId } from '../../src/domain/account/account.js';
import type { GrantId } from '../../src/domain/identity/grant.js';
import { uuid } from '../support/ids.js';

const T0 = new Date('2026-11-22T10:15:00.000Z');
const T1 = new Date('2026-11-22T10:16:00.000Z');
const T2 = new Date('2026-11-22T10:17:00.000Z');

/**
 * The identity service's repositories, run on memory, SQLite and PostgreSQL: the same answers from
 * each, and above all the same "exactly one caller wins" from `consume` and `rotate`, where a fake
 * and a database most easily disagree.
 */
forEachImplementation('identity repositories contract', (make) => {
  let f: PersistenceFixture;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => {
    await f.dispose();
  });

  let n = 0;
  async function aUser(): Promise<UserId> {
    n += 1;
    const created = await f.uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(T0, 14));
      const user = await tx.users.add(aNewUser(accountId, `user${n}@example.com`));
      return user.ok ? ok(user.value.id) : err('duplicate');
    });
    if (!created.ok) throw new Error('setup');
    return created.value;
  }

  async function aClient(id = `client-${++n}.apps.specbase`, secretHash: string | null = 'secret-hash'): Promise<OAuthClient> {
    const client = OAuthClient.create({ id, name: 'Dashboard', secretHash, redirectUris: ['https://app.example.com/cb', 'http://127.0.0.1:8000/cb'] }, T0);
    if (!client.ok) throw new Error('invalid client');
    await f.uow.run(async (tx) => ok(await tx.oauthClients.add(client.value)));
    return client.value;
  }

  async function aGrant(userId: UserId, clientId: string, id = uuid<GrantId>(`00000000-0000-7000-8000-${(++n).toString(16).padStart(12, '0')}`)): Promise<Grant> {
    const grant: Grant = { id, clientId, userId, scope: 'openid email', offline: true, creationDate: T0, revocationDate: null };
    await f.uow.run(async (tx) => ok(await tx.grants.add(grant)));
    return grant;
  }

  describe('OAuthClientRepository', () => {
    it('stores a client and reads it back, confidential or public; an unknown or unstorable id is absent', async () => {
      const confidential = await aClient();
      const pub = await aClient('mobile.apps.specbase', null);
      expect((await f.repos.oauthClients.get(confidential.id))?.snapshot()).to.deep.equal(confidential.snapshot());
      expect((await f.repos.oauthClients.get(pub.id))?.snapshot()).to.deep.equal(pub.snapshot());
      expect(await f.repos.oauthClients.get('nobody.apps.specbase')).to.equal(undefined);
      expect(await f.repos.oauthClients.get('bad\u0000id')).to.equal(undefined);
    });

    it('keeps whether the redirect URIs are verified: the operator\'s client and one registered with an initial access token are, an open registration is not', async () => {
      const registration = { tokenEndpointAuthMethod: 'client_secret_basic' as const, grantTypes: ['authorization_code' as const], responseTypes: ['code' as const], scope: null, accessTokenHash: 'rat-hash' };
      const clients = [
        OAuthClient.create({ id: 'operator.apps.specbase', name: 'Operator', secretHash: 'h', redirectUris: ['https://app.example.com/cb'] }, T0),
        OAuthClient.create({ id: 'token.apps.specbase', name: 'With a token', secretHash: 'h', redirectUris: ['https://app.example.com/cb'], registration, redirectUrisVerified: true }, T0),
        OAuthClient.create({ id: 'open.apps.specbase', name: 'Anyone', secretHash: 'h', redirectUris: ['https://evil.example/cb'], registration }, T0),
      ].map((made) => {
        if (!made.ok) throw new Error('invalid client');
        return made.value;
      });
      for (const client of clients) await f.uow.run(async (tx) => ok(await tx.oauthClients.add(client)));
      expect(clients.map((c) => c.redirectUrisVerified)).to.deep.equal([true, true, false]);
      for (const client of clients) expect((await f.repos.oauthClients.get(client.id))?.snapshot(), client.id).to.deep.equal(client.snapshot());
      const renamed = clients[2]!.reregister({ name: 'Renamed', redirectUris: ['https://evil.example/other'], postLogoutRedirectUris: [] }, registration);
      if (!renamed.ok) throw new Error('invalid change');
      await f.uow.run(async (tx) => ok(await tx.oauthClients.save(renamed.value)));
      expect((await f.repos.oauthClients.get('open.apps.specbase'))?.redirectUrisVerified, 'changing its URIs itself verifies nothing').to.equal(false);
    });

    it('lists clients oldest first, saves changed fields and a rotated secret, deletes one', async () => {
      const first = await aClient();
      const second = await aClient();
      expect((await f.repos.oauthClients.list()).map((c) => c.id)).to.deep.equal([first.id, second.id]);
      const updated = first.update({ name: 'Renamed', redirectUris: ['https://new.example.com/cb'], postLogoutRedirectUris: ['https://new.example.com/bye'] });
      if (!updated.ok) throw new Error('invalid');
      const rotated = updated.value.rotateSecret('new-hash', 60_000, T1);
      if (!rotated.ok) throw new Error('public');
      await f.uow.run(async (tx) => ok(await tx.oauthClients.save(rotated.value)));
      const read = await f.repos.oauthClients.get(first.id);
      expect(read?.snapshot()).to.deep.equal(rotated.value.snapshot());
      expect(read?.secretHashesAt(T1)).to.deep.equal(['new-hash', 'secret-hash']);
      expect(read?.secretHashesAt(new Date(T1.getTime() + 60_000))).to.deep.equal(['new-hash']);
      expect(await f.uow.run(async (tx) => ok(await tx.oauthClients.delete(second.id)))).to.deep.equal({ ok: true, value: true });
      expect(await f.uow.run(async (tx) => ok(await tx.oauthClients.delete(second.id)))).to.deep.equal({ ok: true, value: false });
      expect((await f.repos.oauthClients.list()).map((c) => c.id)).to.deep.equal([first.id]);
    });

    it("takes a deleted client's grants, codes, refresh tokens and consents with it, and no other client's", async () => {
      const ada = await aUser();
      const gone = await aClient();
      const kept = await aClient();
      const goneGrant = await aGrant(ada, gone.id);
      const keptGrant = await aGrant(ada, kept.id);
      const refresh = (hash: string, grant: Grant): RefreshToken => ({ tokenHash: hash, grantId: grant.id, clientId: grant.clientId, userId: ada, scope: 'openid', creationDate: T0, rotationDate: null });
      await f.uow.run(async (tx) => {
        await tx.refreshTokens.add(refresh('r-gone', goneGrant));
        await tx.refreshTokens.add(refresh('r-kept', keptGrant));
        for (const client of [gone, kept]) await tx.consents.save({ userId: ada, clientId: client.id, scope: 'openid', date: T0, creationDate: T0, lastUseDate: null });
        await tx.deviceAuthorizations.add({ deviceCodeHash: 'd-gone', userCodeHash: 'u-gone', clientId: gone.id, scope: 'openid', status: 'pending', userId: null, grantId: null, intervalS: 5, lastPollDate: null, creationDate: T0, expirationDate: T2 });
        return ok(await tx.oauthClients.delete(gone.id));
      });
      expect(await f.repos.deviceAuthorizations.getByDeviceCode('d-gone'), 'its device codes').to.equal(undefined);
      expect(await f.repos.grants.get(goneGrant.id)).to.equal(undefined);
      expect(await f.repos.refreshTokens.get('r-gone')).to.equal(undefined);
      expect(await f.repos.consents.get(ada, gone.id)).to.equal(undefined);
      expect(await f.repos.grants.get(keptGrant.id)).to.deep.equal(keptGrant);
      expect(await f.repos.refreshTokens.get('r-kept')).to.not.equal(undefined);
      expect(await f.repos.consents.get(ada, kept.id)).to.not.equal(undefined);
    });
  });

  describe('GrantRepository', () => {
    it('stores a grant, revokes it once (a second revocation keeps the first date), and all of a user at once', async () => {
      const ada = await aUser();
      const bob = await aUser();
      const client = await aClient();
      const first = await aGrant(ada, client.id);
      const second = await aGrant(ada, client.id);
      const bobs = await aGrant(bob, client.id);
      expect(await f.repos.grants.get(first.id)).to.deep.equal(first);
      expect(await f.repos.grants.get(uuid('00000000-0000-7000-8000-ffffffffffff'))).to.equal(undefined);
      await f.uow.run(async (tx) => ok(await tx.grants.revoke(first.id, T1)));
      await f.uow.run(async (tx) => ok(await tx.grants.revoke(first.id, T2)));
      expect((await f.repos.grants.get(first.id))?.revocationDate).to.deep.equal(T1);
      await f.uow.run(async (tx) => ok(await tx.grants.revokeAllOfUser(ada, T2)));
      expect((await f.repos.grants.get(first.id))?.revocationDate, 'already revoked: unchanged').to.deep.equal(T1);
      expect((await f.repos.grants.get(second.id))?.revocationDate).to.deep.equal(T2);
      expect((await f.repos.grants.get(bobs.id))?.revocationDate, "another user's grant").to.equal(null);
    });

    it("revokes a client's grants for one user, or for everyone", async () => {
      const ada = await aUser();
      const bob = await aUser();
      const client = await aClient();
      const other = await aClient();
      const adas = await aGrant(ada, client.id);
      const bobs = await aGrant(bob, client.id);
      const adasOther = await aGrant(ada, other.id);
      await f.uow.run(async (tx) => ok(await tx.grants.revokeAllOfClient(client.id, T1, ada)));
      expect((await f.repos.grants.get(adas.id))?.revocationDate).to.deep.equal(T1);
      expect((await f.repos.grants.get(bobs.id))?.revocationDate, "another user's grant").to.equal(null);
      expect((await f.repos.grants.get(adasOther.id))?.revocationDate, "another client's grant").to.equal(null);
      await f.uow.run(async (tx) => ok(await tx.grants.revokeAllOfClient(client.id, T2)));
      expect((await f.repos.grants.get(adas.id))?.revocationDate, 'already revoked: unchanged').to.deep.equal(T1);
      expect((await f.repos.grants.get(bobs.id))?.revocationDate).to.deep.equal(T2);
      expect((await f.repos.grants.get(adasOther.id))?.revocationDate).to.equal(null);
    });
  });

  describe('AuthorizationCodeRepository', () => {
    async function aCode(hash: string): Promise<AuthorizationCode> {
      const user = await aUser();
      const client = await aClient();
      const grant = await aGrant(user, client.id);
      const code: AuthorizationCode = {
        codeHash: hash,
        grantId: grant.id,
        clientId: client.id,
        userId: user,
        redirectUri: 'https://app.example.com/cb',
        scope: 'openid email',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        nonce: 'n-0S6_WzA2Mj',
        offline: true,
        authTime: T0,
        expirationDate: T1,
        consumptionDate: null,
      };
      await f.uow.run(async (tx) => ok(await tx.codes.add(code)));
      return code;
    }

    it('stores a code and reads it back whole; consumes it once', async () => {
      const code = await aCode('code-hash-1');
      expect(await f.repos.codes.get(code.codeHash)).to.deep.equal(code);
      expect(await f.repos.codes.get('no-such-hash')).to.equal(undefined);
      expect(await f.repos.codes.consume(code.codeHash, T1)).to.equal(true);
      expect(await f.repos.codes.consume(code.codeHash, T2)).to.equal(false);
      expect((await f.repos.codes.get(code.codeHash))?.consumptionDate).to.deep.equal(T1);
      expect(await f.repos.codes.consume('no-such-hash', T1)).to.equal(false);
    });

    it('lets exactly one of many concurrent consumers have the code', async () => {
      const code = await aCode('code-hash-race');
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => f.uow.run(async (tx) => ok(await tx.codes.consume(code.codeHash, T1)))));
      expect(outcomes.filter((o) => o.ok && o.value)).to.have.length(1);
    });
  });

  describe('RefreshTokenRepository', () => {
    async function aToken(hash: string): Promise<RefreshToken> {
      const user = await aUser();
      const client = await aClient();
      const grant = await aGrant(user, client.id);
      const token: RefreshToken = { tokenHash: hash, grantId: grant.id, clientId: client.id, userId: user, scope: 'openid', creationDate: T0, rotationDate: null };
      await f.uow.run(async (tx) => ok(await tx.refreshTokens.add(token)));
      return token;
    }

    it('stores a refresh token and reads it back; rotates it once', async () => {
      const token = await aToken('refresh-hash-1');
      expect(await f.repos.refreshTokens.get(token.tokenHash)).to.deep.equal(token);
      expect(await f.repos.refreshTokens.get('no-such-hash')).to.equal(undefined);
      expect(await f.repos.refreshTokens.rotate(token.tokenHash, T1)).to.equal(true);
      expect(await f.repos.refreshTokens.rotate(token.tokenHash, T2)).to.equal(false);
      expect((await f.repos.refreshTokens.get(token.tokenHash))?.rotationDate).to.deep.equal(T1);
    });

    it('lets exactly one of many concurrent refreshes rotate the token', async () => {
      const token = await aToken('refresh-hash-race');
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => f.uow.run(async (tx) => ok(await tx.refreshTokens.rotate(token.tokenHash, T1)))));
      expect(outcomes.filter((o) => o.ok && o.value)).to.have.length(1);
    });
  });

  describe('SessionRepository', () => {
    it('stores sessions, deletes one, and all of a user', async () => {
      const ada = await aUser();
      const bob = await aUser();
      const sessions: Session[] = [
        { idHash: 's-1', userId: ada, authTime: T0, expirationDate: T2 },
        { idHash: 's-2', userId: ada, authTime: T1, expirationDate: T2 },
        { idHash: 's-3', userId: bob, authTime: T0, expirationDate: T2 },
      ];
      await f.uow.run(async (tx) => {
        for (const session of sessions) await tx.sessions.add(session);
        return ok(undefined);
      });
      expect(await f.repos.sessions.get('s-2')).to.deep.equal(sessions[1]);
      await f.uow.run(async (tx) => ok(await tx.sessions.delete('s-1')));
      expect(await f.repos.sessions.get('s-1')).to.equal(undefined);
      await f.uow.run(async (tx) => ok(await tx.sessions.deleteAllOfUser(ada)));
      expect(await f.repos.sessions.get('s-2')).to.equal(undefined);
      expect(await f.repos.sessions.get('s-3'), "another user's session").to.deep.equal(sessions[2]);
      await f.uow.run(async (tx) => ok(await tx.sessions.delete('no-such-session')));
    });
  });

  describe('ConsentRepository', () => {
    it("stores a user's consent to a client, replaces it, and keeps each pair apart", async () => {
      const ada = await aUser();
      const client = await aClient();
      const other = await aClient();
      const consent: Consent = { userId: ada, clientId: client.id, scope: 'openid', date: T0, creationDate: T0, lastUseDate: null };
      await f.uow.run(async (tx) => ok(await tx.consents.save(consent)));
      expect(await f.repos.consents.get(ada, client.id)).to.deep.equal(consent);
      const wider: Consent = { ...consent, scope: 'openid email profile', date: T1 };
      await f.uow.run(async (tx) => ok(await tx.consents.save(wider)));
      expect(await f.repos.consents.get(ada, client.id)).to.deep.equal(wider);
      expect(await f.repos.consents.get(ada, other.id)).to.equal(undefined);
    });

    it("lists a user's consents oldest first, records their last use, and deletes one or every consent to a client", async () => {
      const ada = await aUser();
      const bob = await aUser();
      const first = await aClient();
      const second = await aClient();
      const consent = (userId: UserId, clientId: string, creationDate: Date): Consent => ({ userId, clientId, scope: 'openid', date: creationDate, creationDate, lastUseDate: null });
      await f.uow.run(async (tx) => {
        await tx.consents.save(consent(ada, second.id, T1));
        await tx.consents.save(consent(ada, first.id, T0));
        await tx.consents.save(consent(bob, first.id, T0));
        return ok();
      });
      expect((await f.repos.consents.listOfUser(ada)).map((c) => c.clientId)).to.deep.equal([first.id, second.id]);
      await f.uow.run(async (tx) => ok(await tx.consents.touch(ada, second.id, T2)));
      await f.uow.run(async (tx) => ok(await tx.consents.touch(ada, 'nobody.apps.specbase', T2)));
      expect((await f.repos.consents.get(ada, second.id))?.lastUseDate).to.deep.equal(T2);
      expect((await f.repos.consents.get(bob, first.id))?.lastUseDate).to.equal(null);
      expect(await f.uow.run(async (tx) => ok(await tx.consents.delete(second.id, ada)))).to.deep.equal({ ok: true, value: true });
      expect(await f.uow.run(async (tx) => ok(await tx.consents.delete(second.id, ada)))).to.deep.equal({ ok: true, value: false });
      expect(await f.uow.run(async (tx) => ok(await tx.consents.delete(first.id)))).to.deep.equal({ ok: true, value: true });
      expect(await f.repos.consents.listOfUser(ada)).to.deep.equal([]);
      expect(await f.repos.consents.listOfUser(bob)).to.deep.equal([]);
      expect(await f.repos.consents.get(ada, 'bad\u0000id')).to.equal(undefined);
    });
  });

  describe('DeviceAuthorizationRepository', () => {
    const pending = (clientId: string, n: number): DeviceAuthorization => ({
      deviceCodeHash: `device-${n}`,
      userCodeHash: `user-${n}`,
      clientId,
      scope: 'openid',
      status: 'pending',
      userId: null,
      grantId: null,
      intervalS: 5,
      lastPollDate: null,
      creationDate: T0,
      expirationDate: T2,
    });

    it('finds one by either code, records polls, and decides it exactly once however many race', async () => {
      const ada = await aUser();
      const client = await aClient();
      const authorization = pending(client.id, 1);
      await f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.add(authorization)));
      expect(await f.repos.deviceAuthorizations.getByDeviceCode('device-1')).to.deep.equal(authorization);
      expect(await f.repos.deviceAuthorizations.getByUserCode('user-1')).to.deep.equal(authorization);
      expect(await f.repos.deviceAuthorizations.getByUserCode('user-2')).to.equal(undefined);
      await f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.recordPoll('device-1', T1, 10)));
      expect(await f.repos.deviceAuthorizations.getByDeviceCode('device-1')).to.deep.include({ lastPollDate: T1, intervalS: 10 });

      const grant = await aGrant(ada, client.id);
      const decisions = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.decide('device-1', i % 2 === 0 ? { status: 'approved', userId: ada, grantId: grant.id } : { status: 'denied' }))),
        ),
      );
      expect(decisions.filter((d) => d.ok && d.value)).to.have.length(1);
      const decided = await f.repos.deviceAuthorizations.getByDeviceCode('device-1');
      const expected = decided?.status === 'approved' ? { userId: ada, grantId: grant.id } : { status: 'denied', userId: null, grantId: null };
      expect(decided).to.deep.include(expected);
    });

    it('consumes an approved one exactly once, and never a pending or denied one', async () => {
      const ada = await aUser();
      const client = await aClient();
      const grant = await aGrant(ada, client.id);
      await f.uow.run(async (tx) => {
        for (const n of [1, 2, 3]) await tx.deviceAuthorizations.add(pending(client.id, n));
        await tx.deviceAuthorizations.decide('device-1', { status: 'approved', userId: ada, grantId: grant.id });
        await tx.deviceAuthorizations.decide('device-3', { status: 'denied' });
        return ok();
      });
      const consumed = await Promise.all(Array.from({ length: 4 }, () => f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.consume('device-1')))));
      expect(consumed.filter((c) => c.ok && c.value)).to.have.length(1);
      expect((await f.repos.deviceAuthorizations.getByDeviceCode('device-1'))?.status).to.equal('consumed');
      expect(await f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.consume('device-2')))).to.deep.equal({ ok: true, value: false });
      expect(await f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.consume('device-3')))).to.deep.equal({ ok: true, value: false });
      expect(await f.uow.run(async (tx) => ok(await tx.deviceAuthorizations.decide('device-1', { status: 'denied' }))), 'decided once').to.deep.equal({ ok: true, value: false });
    });
  });

  describe('InitialAccessTokenRepository', () => {
    it('spends a token once, never after it expires', async () => {
      await f.uow.run(async (tx) => {
        await tx.initialAccessTokens.add({ tokenHash: 'once', creationDate: T0, expirationDate: T2 });
        await tx.initialAccessTokens.add({ tokenHash: 'late', creationDate: T0, expirationDate: T1 });
        return ok();
      });
      const spent = await Promise.all(Array.from({ length: 4 }, () => f.uow.run(async (tx) => ok(await tx.initialAccessTokens.consume('once', T1)))));
      expect(spent.filter((r) => r.ok && r.value)).to.have.length(1);
      expect(await f.uow.run(async (tx) => ok(await tx.initialAccessTokens.consume('late', T1))), 'expires at its date').to.deep.equal({ ok: true, value: false });
      expect(await f.uow.run(async (tx) => ok(await tx.initialAccessTokens.consume('unknown', T0)))).to.deep.equal({ ok: true, value: false });
    });
  });

  describe('SigningKeyRepository', () => {
    it('lists the keys latest activation first', async () => {
      const key = (kid: string, activationDate: Date): StoredSigningKey => ({
        kid,
        privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${kid}\n-----END PRIVATE KEY-----\n`,
        publicJwk: { kty: 'RSA', n: `n-${kid}`, e: 'AQAB' },
        certificatePem: `-----BEGIN CERTIFICATE-----\n${kid}\n-----END CERTIFICATE-----\n`,
        creationDate: T0,
        activationDate,
      });
      expect(await f.repos.signingKeys.list()).to.deep.equal([]);
      const keys = [key('old', T0), key('new', T2), key('middle', T1)];
      await f.uow.run(async (tx) => {
        for (const k of keys) await tx.signingKeys.add(k);
        return ok(undefined);
      });
      expect((await f.repos.signingKeys.list()).map((k) => k.kid)).to.deep.equal(['new', 'middle', 'old']);
      expect((await f.repos.signingKeys.list())[0]).to.deep.equal(keys[1]);
    });
  });
});
