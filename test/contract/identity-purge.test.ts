import { expect } from 'chai';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { UserId } from '../../src/domain/account/account.js';
import type { DeviceAuthorization } from '../../src/domain/identity/device-authorization.js';
import type { Grant, GrantId } from '../../src/domain/identity/grant.js';
import { OAuthClient } from '../../src/domain/identity/oauth-client.js';
import { IDENTITY_RETENTION, purgeCutoffs, type IdentityRowCounts } from '../../src/domain/identity/retention.js';
import { err, ok } from '../../src/domain/shared/result.js';
import { uuid } from '../support/ids.js';
import { IdentityPurge } from '../../src/application/ports/identity-repositories.port.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { hiddenFields } from '../support/form-browser.js';
import { startTestServerOn } from '../support/http-server.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';

const DAY = 24 * 3600_000;
const START = new Date('2026-11-01T00:00:00.000Z');

/**
 * Done-when 3 of issue 13: the identity tables stay bounded. Thirty days of use, a day at a time,
 * with a clock that moves: each day makes codes, device codes, sessions, grants with and without
 * refresh tokens, revocations and rotations, and the day's cleanup runs. The rows left never
 * exceed what the retention periods keep, however many days go by; and what is still live or
 * still needed for replay detection is kept.
 */
forEachImplementation('identity tables stay bounded under the cleanup', (make) => {
  let f: PersistenceFixture;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => {
    await f.dispose();
  });

  let n = 0;
  const next = () => (++n).toString(16).padStart(12, '0');

  async function setup(): Promise<{ user: UserId; clientId: string }> {
    const created = await f.uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(START, 14));
      const user = await tx.users.add(aNewUser(accountId, `user${next()}@example.com`));
      if (!user.ok) return err('duplicate');
      const client = OAuthClient.create({ id: 'purge.apps.specbase', name: 'App', secretHash: 'h', redirectUris: ['https://app.example.com/cb'] }, START);
      if (!client.ok) return err('client');
      await tx.oauthClients.add(client.value);
      return ok({ user: user.value.id, clientId: client.value.id });
    });
    if (!created.ok) throw new Error(created.error);
    return created.value;
  }

  /** One day's traffic at `day`: what a busy client and its users leave behind. */
  async function oneDay(day: Date, user: UserId, clientId: string): Promise<void> {
    const at = (ms: number) => new Date(day.getTime() + ms);
    await f.uow.run(async (tx) => {
      for (let i = 0; i < 3; i++) {
        const online: Grant = { id: uuid<GrantId>(`00000000-0000-7000-8000-${next()}`), clientId, userId: user, scope: 'openid', offline: false, creationDate: day, revocationDate: null };
        await tx.grants.add(online);
        await tx.codes.add({ codeHash: `code-${next()}`, grantId: online.id, clientId, userId: user, redirectUri: 'https://app.example.com/cb', scope: 'openid', codeChallenge: null, nonce: null, offline: false, authTime: day, expirationDate: at(60_000), consumptionDate: day });
        const offline: Grant = { ...online, id: uuid<GrantId>(`00000000-0000-7000-8000-${next()}`), offline: true };
        await tx.grants.add(offline);
        // A public client's refresh token rotated once: the old one kept for replay detection, the new one live.
        await tx.refreshTokens.add({ tokenHash: `rt-${next()}`, grantId: offline.id, clientId, userId: user, scope: 'openid', creationDate: day, rotationDate: at(3600_000) });
        await tx.refreshTokens.add({ tokenHash: `rt-${next()}`, grantId: offline.id, clientId, userId: user, scope: 'openid', creationDate: at(3600_000), rotationDate: null });
        // Half the offline grants are revoked the same day (a user withdrew the app, a replay was caught).
        if (i % 2 === 0) await tx.grants.revoke(offline.id, at(7200_000));
        await tx.sessions.add({ idHash: `s-${next()}`, userId: user, authTime: day, expirationDate: at(DAY / 2) });
        const device: DeviceAuthorization = {
          deviceCodeHash: `d-${next()}`,
          userCodeHash: `u-${next()}`,
          clientId,
          scope: 'openid',
          status: 'pending',
          userId: null,
          grantId: null,
          intervalS: 5,
          lastPollDate: null,
          creationDate: day,
          expirationDate: at(600_000),
        };
        await tx.deviceAuthorizations.add(device);
        await tx.initialAccessTokens.add({ tokenHash: `iat-${next()}`, creationDate: day, expirationDate: at(DAY) });
      }
      return ok();
    });
  }

  it('keeps every table within its retention bound over 30 days, and keeps what is live', async function () {
    this.timeout(120_000);
    const { user, clientId } = await setup();
    const history: IdentityRowCounts[] = [];
    for (let d = 0; d < 30; d++) {
      const day = new Date(START.getTime() + d * DAY);
      await oneDay(day, user, clientId);
      // The cleanup runs at the end of the day.
      await f.purge.purge(purgeCutoffs(new Date(day.getTime() + DAY - 1)), 7);
      history.push(await f.purge.counts());
    }
    const last = history.at(-1)!;
    // Per day: 3 codes, 3 device codes, 3 sessions, 3 initial access tokens, all ended within a day: only the day's are left.
    expect([last.codes, last.deviceCodes, last.sessions]).to.deep.equal([0, 0, 0]);
    expect(last.initialAccessTokens, 'kept a day after they expire').to.be.at.most(6);
    // Grants: online ones go after a day; of the day's three offline ones, one stays live (until
    // revoked) and two are revoked, kept 30 days; their refresh tokens go with them.
    const days = Math.ceil(IDENTITY_RETENTION.revokedGrantsMs / DAY);
    expect(last.grants, "and the last day's three online grants").to.be.at.most(30 + 2 * days + 3);
    expect(last.refreshTokens).to.be.at.most(6 * 30);
    // Bounded: after the first month the counts of everything but live grants no longer grow.
    const growth = history.slice(-5).map((c) => c.codes + c.deviceCodes + c.sessions + c.initialAccessTokens);
    expect(Math.max(...growth) - Math.min(...growth)).to.equal(0);
  });

  it('removes a live grant that holds no refresh token a day after it was made (a code never redeemed), and keeps one that holds one', async () => {
    const { user, clientId } = await setup();
    const grant = (offline: boolean): Grant => ({ id: uuid<GrantId>(`00000000-0000-7000-8000-${next()}`), clientId, userId: user, scope: 'openid', offline, creationDate: START, revocationDate: null });
    const unredeemed = grant(true);
    const refreshed = grant(true);
    await f.uow.run(async (tx) => {
      await tx.grants.add(unredeemed);
      await tx.grants.add(refreshed);
      await tx.refreshTokens.add({ tokenHash: `rt-${next()}`, grantId: refreshed.id, clientId, userId: user, scope: 'openid', creationDate: START, rotationDate: null });
      return ok();
    });
    expect(await f.purge.purge(purgeCutoffs(new Date(START.getTime() + DAY - 1000)), 500), 'within the day').to.deep.include({ grants: 0 });
    expect(await f.purge.purge(purgeCutoffs(new Date(START.getTime() + DAY + 1000)), 500)).to.deep.include({ grants: 1 });
    expect(await f.repos.grants.get(unredeemed.id)).to.equal(undefined);
    expect(await f.repos.grants.get(refreshed.id)).to.deep.equal(refreshed);
  });

  it('deletes nothing that still works or still guards against a replay', async () => {
    const { user, clientId } = await setup();
    await oneDay(START, user, clientId);
    const before = await f.purge.counts();
    // An hour in: the codes expired, but are kept an hour more; nothing else has ended.
    expect(await f.purge.purge(purgeCutoffs(new Date(START.getTime() + 3600_000)), 500)).to.deep.equal({ codes: 0, deviceCodes: 0, sessions: 0, grants: 0, refreshTokens: 0, initialAccessTokens: 0 });
    expect(await f.purge.counts()).to.deep.equal(before);
    // Two days in: codes, device codes, sessions, online grants and expired initial access tokens go;
    // offline grants, revoked or not, and every refresh token stay (revoked ones for 30 days).
    const removed = await f.purge.purge(purgeCutoffs(new Date(START.getTime() + 2 * DAY + 1)), 500);
    expect(removed).to.deep.equal({ codes: 3, deviceCodes: 3, sessions: 3, grants: 3, refreshTokens: 0, initialAccessTokens: 3 });
    expect(await f.purge.counts()).to.deep.include({ grants: 3, refreshTokens: 6 });
    // 31 days in: the revoked grants go, with their refresh tokens; the rotated ones of the live grant go too.
    const later = await f.purge.purge(purgeCutoffs(new Date(START.getTime() + 31 * DAY)), 500);
    expect(later).to.deep.include({ grants: 2 });
    expect(await f.purge.counts()).to.deep.include({ grants: 1, refreshTokens: 1 });
  });
});

forEachDatabase('identity cleanup as a chore of the worker', (target) => {
  it('runs on its interval in a serving instance and removes an expired session', async function () {
    this.timeout(30_000);
    const clock = new ShiftedClock();
    const server = await startTestServerOn(target, { WEBHOOK_WORKER: 'true', WEBHOOK_POLL_MS: '20', IDENTITY_CLEANUP_INTERVAL_MS: '1000' }, (c) => {
      c.rebind(Clock).toConstantValue(clock);
    });
    try {
      const ada = await server.user('ada@example.com', 'ada');
      const browser = server.browser();
      await browser.get('/login');
      expect((await browser.post('/login', { ...hiddenFields(browser.lastPage), email: ada.email, password: ada.password })).status).to.equal(303);
      const purge = server.running.container.get<IdentityPurge>(IdentityPurge);
      expect((await purge.counts()).sessions).to.equal(1);
      clock.advance(8 * DAY);
      const deadline = Date.now() + 10_000;
      while ((await purge.counts()).sessions > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await purge.counts()).sessions, 'gone within the interval and a poll').to.equal(0);
    } finally {
      await server.stop();
    }
  });
});
