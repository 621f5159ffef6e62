import { checkDevicePoll, DEVICE_CODE_TTL_MS, deviceAuthorizationOpen, formatUserCode, normalizeUserCode, type DeviceAuthorization } from '../../../src/domain/identity/device-authorization.js';
import { expect } from 'chai';
import { checkCodeRedemption, checkRefresh, consentCovers, SESSION_TTL_MS, sessionIsLive, widenConsent, type AuthorizationCode, type RefreshToken, type Session } from '../../../src/domain/identity/grant.js';
import { OAuthClient, type ClientRegistration, type GrantType } from '../../../src/domain/identity/oauth-client.js';
import { isSubScope, parseScope, scopeClaims, type Claim } from '../../../src/domain/identity/oauth-scope.js';
import { purgeCutoffs } from '../../../src/domain/identity/retention.js';
import { userId, uuid } from '../../support/ids.js';

const NOW = new Date('2026-11-22T10:15:00.000Z');
const BASE = 'https://docs.example.com';

describe('identity rules', () => {
  describe('scopes', () => {
    // Made in each test, not when the file loads: StrykerJS counts only what a test runs.
    let known: ReadonlyMap<string, Claim>;
    beforeEach(() => {
      known = scopeClaims(BASE);
    });
    it('accepts Google’s names under the scope base and the OpenID names, with the same meaning', () => {
      const parsed = parseScope(`${BASE}/auth/userinfo.email openid ${BASE}/auth/userinfo.email profile ${BASE}/auth/plus.me`, known);
      expect(parsed.ok && parsed.value.value).to.equal(`${BASE}/auth/userinfo.email openid profile ${BASE}/auth/plus.me`);
      expect(parsed.ok && [...parsed.value.claims].sort()).to.deep.equal(['email', 'openid', 'profile']);
    });
    it('gives each name its claim: openid, email and profile, by their OpenID names and by Google’s under the scope base', () => {
      const claimsOf = (scope: string) => {
        const parsed = parseScope(scope, known);
        return parsed.ok ? [...parsed.value.claims] : parsed.error;
      };
      expect(claimsOf('openid')).to.deep.equal(['openid']);
      expect(claimsOf('email')).to.deep.equal(['email']);
      expect(claimsOf('profile')).to.deep.equal(['profile']);
      expect(claimsOf(`${BASE}/auth/plus.me`)).to.deep.equal(['openid']);
      expect(claimsOf(`${BASE}/auth/userinfo.email`)).to.deep.equal(['email']);
      expect(claimsOf(`${BASE}/auth/userinfo.profile`)).to.deep.equal(['profile']);
      expect([...known.keys()], 'and no other name').to.deep.equal(['openid', 'email', 'profile', `${BASE}/auth/plus.me`, `${BASE}/auth/userinfo.email`, `${BASE}/auth/userinfo.profile`]);
    });
    it('refuses an unknown or empty scope, and names under another base', () => {
      expect(parseScope('openid admin', known)).to.deep.equal({ ok: false, error: { kind: 'UnknownScope', scope: 'admin' } });
      expect(parseScope('  ', known)).to.deep.equal({ ok: false, error: { kind: 'EmptyScope' } });
      expect(parseScope(undefined, known), 'none sent').to.deep.equal({ ok: false, error: { kind: 'EmptyScope' } });
      expect(parseScope('https://www.googleapis.com/auth/userinfo.email', known).ok).to.equal(false);
    });
    it('lets a refresh narrow a scope, never widen it', () => {
      expect(isSubScope('email', 'openid email')).to.equal(true);
      expect(isSubScope('email profile', 'openid email')).to.equal(false);
    });
  });

  describe('authorization codes', () => {
    const code: AuthorizationCode = {
      codeHash: 'h',
      grantId: uuid('g'),
      clientId: 'app',
      userId: userId(1),
      redirectUri: 'https://app.example.com/cb',
      scope: 'openid',
      codeChallenge: 'challenge',
      nonce: null,
      offline: false,
      authTime: NOW,
      expirationDate: new Date(NOW.getTime() + 60_000),
      consumptionDate: null,
    };
    const request = { clientId: 'app', redirectUri: 'https://app.example.com/cb', verifierChallenge: 'challenge' };
    it('redeem once, by their client, with their redirect URI and verifier, within 60 s', () => {
      expect(checkCodeRedemption(code, request, NOW).ok).to.equal(true);
      expect(checkCodeRedemption({ ...code, consumptionDate: NOW }, request, NOW)).to.deep.equal({ ok: false, error: 'AlreadyUsed' });
      expect(checkCodeRedemption(code, request, new Date(NOW.getTime() + 60_000))).to.deep.equal({ ok: false, error: 'Expired' });
      expect(checkCodeRedemption(code, { ...request, clientId: 'other' }, NOW)).to.deep.equal({ ok: false, error: 'WrongClient' });
      expect(checkCodeRedemption(code, { ...request, redirectUri: undefined }, NOW)).to.deep.equal({ ok: false, error: 'WrongRedirectUri' });
      expect(checkCodeRedemption(code, { ...request, verifierChallenge: null }, NOW)).to.deep.equal({ ok: false, error: 'PkceMismatch' });
      expect(checkCodeRedemption({ ...code, codeChallenge: null }, request, NOW), 'a verifier where no challenge was sent').to.deep.equal({ ok: false, error: 'PkceMismatch' });
    });
  });

  it('refresh tokens: used by their client only; a rotated one used again is a replay', () => {
    const token: RefreshToken = { tokenHash: 'h', grantId: uuid('g'), clientId: 'app', userId: userId(1), scope: 'openid', creationDate: NOW, rotationDate: null };
    expect(checkRefresh(token, 'app').ok).to.equal(true);
    expect(checkRefresh(token, 'other')).to.deep.equal({ ok: false, error: 'WrongClient' });
    expect(checkRefresh({ ...token, rotationDate: NOW }, 'app')).to.deep.equal({ ok: false, error: 'Reused' });
  });

  it('sign-in sessions last 7 days from sign-in, to the millisecond', () => {
    const session: Session = { idHash: 'h', userId: userId(1), authTime: NOW, expirationDate: new Date(NOW.getTime() + SESSION_TTL_MS) };
    expect(session.expirationDate).to.deep.equal(new Date('2026-11-29T10:15:00.000Z'));
    expect(sessionIsLive(session, NOW)).to.equal(true);
    expect(sessionIsLive(session, new Date('2026-11-29T10:14:59.999Z')), 'its last millisecond').to.equal(true);
    expect(sessionIsLive(session, new Date('2026-11-29T10:15:00.000Z')), 'the moment it expires').to.equal(false);
  });

  it('consents accumulate and cover what was allowed, nothing more', () => {
    const first = widenConsent(undefined, { userId: userId(1), clientId: 'app', scope: 'openid email' }, NOW);
    expect(consentCovers(first, 'email')).to.equal(true);
    expect(consentCovers(first, 'email profile')).to.equal(false);
    expect(consentCovers(widenConsent(first, { userId: userId(1), clientId: 'app', scope: 'profile' }, NOW), 'openid email profile')).to.equal(true);
    expect(consentCovers(undefined, 'openid')).to.equal(false);
  });

  it('consents keep the date they were first given and their last use when widened', () => {
    const LATER = new Date(NOW.getTime() + 60_000);
    const first = widenConsent(undefined, { userId: userId(1), clientId: 'app', scope: 'openid' }, NOW);
    expect(first).to.include({ creationDate: NOW, lastUseDate: null });
    const wider = widenConsent({ ...first, lastUseDate: NOW }, { userId: userId(1), clientId: 'app', scope: 'email' }, LATER);
    expect(wider).to.deep.include({ date: LATER, creationDate: NOW, lastUseDate: NOW, scope: 'openid email' });
  });

  describe('clients', () => {
    const client = () => {
      const made = OAuthClient.create({ id: 'c', name: 'App', secretHash: 'old', redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: ['https://app.example.com/bye'] }, NOW);
      if (!made.ok) throw new Error('invalid');
      return made.value;
    };

    const refused = (field: string, message: string) => ({ ok: false, error: { kind: 'InvalidField', field, message } });
    const withRedirectUris = (redirectUris: readonly string[], postLogoutRedirectUris: readonly string[] = []) =>
      OAuthClient.create({ id: 'c', name: 'App', secretHash: null, redirectUris, postLogoutRedirectUris }, NOW);

    it('redirect URIs: absolute, without fragment, https unless loopback (private-use schemes for native apps); no javascript:, data: or file:', () => {
      for (const good of ['https://app.example.com/cb', 'http://127.0.0.1:8000/cb', 'http://localhost/cb', 'http://[::1]/cb', 'com.example.app:/oauth2redirect']) {
        expect(withRedirectUris([good]).ok, good).to.equal(true);
      }
      for (const [bad, problem] of [
        ['/relative', 'must be an absolute URI'],
        ['not a uri', 'must be an absolute URI'],
        ['https://app.example.com/cb#frag', 'must not have a fragment'],
        ['https://app.example.com/cb#', 'must not have a fragment'],
        ['http://app.example.com/cb', 'must use https (http only for loopback)'],
        ['http://localhost.example.com/cb', 'must use https (http only for loopback)'],
        ['javascript:alert(1)', 'must not use javascript:'],
        ['data:text/html,x', 'must not use data:'],
        ['file:///etc/passwd', 'must not use file:'],
      ]) {
        expect(withRedirectUris(['https://app.example.com/cb', bad!]), bad).to.deep.equal(refused('redirectUri', `${bad}: ${problem}`));
      }
    });

    it('redirect URIs: at most 2000 characters, 20 of each kind, at least one to redirect to', () => {
      const long = `https://app.example.com/${'a'.repeat(2000 - 24)}`;
      expect(long).to.have.length(2000);
      expect(withRedirectUris([long]).ok).to.equal(true);
      expect(withRedirectUris([`${long}a`])).to.deep.equal(refused('redirectUri', `${long}a: must be at most 2000 characters`));
      const uris = Array.from({ length: 21 }, (_, i) => `https://app.example.com/${i}`);
      expect(withRedirectUris(uris.slice(0, 20), uris.slice(0, 20)).ok).to.equal(true);
      expect(withRedirectUris(uris)).to.deep.equal(refused('redirectUri', 'at most 20'));
      expect(withRedirectUris(['https://app.example.com/cb'], uris)).to.deep.equal(refused('postLogoutRedirectUri', 'at most 20'));
      expect(withRedirectUris([])).to.deep.equal(refused('redirectUri', 'at least one is required'));
    });

    it('a name of 1-100 characters, not only spaces', () => {
      const named = (name: string) => OAuthClient.create({ id: 'c', name, secretHash: null, redirectUris: ['https://app.example.com/cb'] }, NOW);
      expect(named('x'.repeat(100)).ok).to.equal(true);
      for (const name of ['', '   ', 'x'.repeat(101)]) expect(named(name), name).to.deep.equal(refused('name', 'must be 1-100 characters'));
    });

    it('an operator’s client: its URIs each once, verified, every grant, response type and scope', () => {
      const made = OAuthClient.create(
        { id: 'c', name: 'App', secretHash: 's', redirectUris: ['https://app.example.com/cb', 'https://app.example.com/cb'], postLogoutRedirectUris: ['https://app.example.com/bye', 'https://app.example.com/bye'] },
        NOW,
      );
      if (!made.ok) throw new Error('refused');
      expect(made.value.snapshot()).to.deep.equal({
        id: 'c',
        name: 'App',
        secretHash: 's',
        redirectUris: ['https://app.example.com/cb'],
        postLogoutRedirectUris: ['https://app.example.com/bye'],
        previousSecretHash: null,
        previousSecretExpirationDate: null,
        registration: null,
        redirectUrisVerified: true,
        creationDate: NOW,
      });
      expect([made.value.id, made.value.name, made.value.secretHash, made.value.isPublic, made.value.redirectUrisVerified, made.value.registration]).to.deep.equal(['c', 'App', 's', false, true, null]);
      expect(made.value.allowsGrantType('implicit')).to.equal(true);
      expect(made.value.allowsResponseType('token')).to.equal(true);
      expect(made.value.allowsScope('openid email profile')).to.equal(true);
      const noSecret = withRedirectUris(['https://app.example.com/cb']);
      expect(noSecret.ok && noSecret.value.isPublic, 'no secret: public').to.equal(true);
    });

    it('redirects to its redirect URIs exactly as registered', () => {
      expect(client().allowsRedirectTo('https://app.example.com/cb')).to.equal(true);
      for (const other of ['https://app.example.com/cb/', 'https://app.example.com/CB', 'https://app.example.com/cb?x=1', 'https://app.example.com/bye']) expect(client().allowsRedirectTo(other), other).to.equal(false);
    });

    describe('registered by itself (RFC 7591)', () => {
      const registration: ClientRegistration = { tokenEndpointAuthMethod: 'none', grantTypes: ['authorization_code', 'refresh_token'], responseTypes: ['code'], scope: 'openid email', accessTokenHash: 'rat' };
      const registered = (fields: Partial<Parameters<typeof OAuthClient.create>[0]> = {}) => {
        const made = OAuthClient.create({ id: 'r', name: 'Registered', secretHash: null, redirectUris: ['https://app.example.com/cb'], registration, ...fields }, NOW);
        if (!made.ok) throw new Error('refused');
        return made.value;
      };

      it('has unverified redirect URIs unless the operator vouched for them (an initial access token)', () => {
        expect(registered().redirectUrisVerified).to.equal(false);
        expect(registered({ redirectUrisVerified: true }).redirectUrisVerified).to.equal(true);
        const unverified = OAuthClient.create({ id: 'o', name: 'Operator’s', secretHash: null, redirectUris: ['https://app.example.com/cb'], redirectUrisVerified: false }, NOW);
        expect(unverified.ok && unverified.value.redirectUrisVerified, 'an operator may say so of its own').to.equal(false);
        expect(registered().registration).to.deep.equal(registration);
        expect(registered().snapshot().postLogoutRedirectUris, 'none given: none').to.deep.equal([]);
      });

      it('uses only the grants and response types it registered', () => {
        expect(['authorization_code', 'refresh_token', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'].map((g) => registered().allowsGrantType(g as GrantType))).to.deep.equal([true, true, false, false]);
        expect([registered().allowsResponseType('code'), registered().allowsResponseType('token')]).to.deep.equal([true, false]);
      });

      it('asks only for the scope names it registered; any when it registered none', () => {
        expect(registered().allowsScope('openid')).to.equal(true);
        expect(registered().allowsScope('email openid')).to.equal(true);
        expect(registered().allowsScope('openid profile')).to.equal(false);
        expect(registered({ registration: { ...registration, scope: null } }).allowsScope('openid profile')).to.equal(true);
      });

      it('re-registers with new metadata, keeping its id, secret and management token; by the same field rules', () => {
        const changed = registered().reregister(
          { name: 'Renamed', redirectUris: ['https://app.example.com/new'], postLogoutRedirectUris: ['https://app.example.com/bye'] },
          { tokenEndpointAuthMethod: 'client_secret_post', grantTypes: ['implicit'], responseTypes: ['token'], scope: null },
        );
        if (!changed.ok) throw new Error('refused');
        expect(changed.value.snapshot()).to.deep.include({
          id: 'r',
          name: 'Renamed',
          secretHash: null,
          redirectUris: ['https://app.example.com/new'],
          postLogoutRedirectUris: ['https://app.example.com/bye'],
          registration: { tokenEndpointAuthMethod: 'client_secret_post', grantTypes: ['implicit'], responseTypes: ['token'], scope: null, accessTokenHash: 'rat' },
        });
        expect(registered().reregister({ name: '', redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: [] }, registration)).to.deep.equal(refused('name', 'must be 1-100 characters'));
        expect(() => client().reregister({ name: 'x', redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: [] }, registration)).to.throw('the operator registered this client');
      });
    });

    it('post-logout redirect URIs follow the redirect URI rules and are compared exactly', () => {
      expect(client().allowsPostLogoutRedirectTo('https://app.example.com/bye')).to.equal(true);
      for (const other of ['https://app.example.com/bye/', 'https://app.example.com/BYE', 'https://app.example.com/cb']) expect(client().allowsPostLogoutRedirectTo(other), other).to.equal(false);
      for (const bad of ['javascript:alert(1)', 'http://evil.example/bye', 'https://app.example.com/bye#x']) {
        const made = OAuthClient.create({ id: 'c', name: 'App', secretHash: null, redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: [bad] }, NOW);
        expect(made.ok ? 'accepted' : made.error.field, bad).to.equal('postLogoutRedirectUri');
      }
    });

    it('update changes only what it is given, by the same rules', () => {
      const renamed = client().update({ name: 'Renamed' });
      if (!renamed.ok) throw new Error('refused');
      expect(renamed.value.snapshot()).to.deep.include({ name: 'Renamed', redirectUris: ['https://app.example.com/cb'], postLogoutRedirectUris: ['https://app.example.com/bye'], secretHash: 'old' });
      expect(client().update({ redirectUris: [] })).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'redirectUri', message: 'at least one is required' } });
      expect(client().update({ name: ' ' }).ok).to.equal(false);
      const noPostLogout = client().update({ postLogoutRedirectUris: [] });
      expect(noPostLogout.ok && noPostLogout.value.snapshot().postLogoutRedirectUris, 'no post-logout URI is fine').to.deep.equal([]);
      const moved = client().update({ redirectUris: ['https://app.example.com/new', 'https://app.example.com/new'], postLogoutRedirectUris: ['https://app.example.com/out', 'https://app.example.com/out'] });
      expect(moved.ok && moved.value.snapshot(), 'each URI once').to.deep.include({ name: 'App', redirectUris: ['https://app.example.com/new'], postLogoutRedirectUris: ['https://app.example.com/out'] });
      expect(client().update({ postLogoutRedirectUris: ['http://app.example.com/out'] })).to.deep.equal({ ok: false, error: { kind: 'InvalidField', field: 'postLogoutRedirectUri', message: 'http://app.example.com/out: must use https (http only for loopback)' } });
    });

    it('a rotated secret replaces the old one, which works during the overlap only', () => {
      const rotated = client().rotateSecret('new', 60_000, NOW);
      if (!rotated.ok) throw new Error('refused');
      expect(rotated.value.secretHashesAt(NOW)).to.deep.equal(['new', 'old']);
      expect(rotated.value.secretHashesAt(new Date(NOW.getTime() + 59_999))).to.deep.equal(['new', 'old']);
      expect(rotated.value.secretHashesAt(new Date(NOW.getTime() + 60_000))).to.deep.equal(['new']);
      expect(rotated.value.snapshot()).to.deep.include({ secretHash: 'new', previousSecretHash: 'old', previousSecretExpirationDate: new Date(NOW.getTime() + 60_000) });
      for (const overlapMs of [0, -1]) {
        const noOverlap = client().rotateSecret('new', overlapMs, NOW);
        expect(noOverlap.ok && noOverlap.value.secretHashesAt(NOW), `overlap ${overlapMs}`).to.deep.equal(['new']);
        expect(noOverlap.ok && noOverlap.value.snapshot(), 'the old secret forgotten').to.deep.include({ secretHash: 'new', previousSecretHash: null, previousSecretExpirationDate: null });
      }
      const stored = rotated.value.snapshot();
      expect(OAuthClient.rehydrate({ ...stored, previousSecretExpirationDate: null }).secretHashesAt(NOW), 'a previous secret without an end is not kept').to.deep.equal(['new']);
      expect(OAuthClient.rehydrate({ ...stored, previousSecretHash: null }).secretHashesAt(NOW)).to.deep.equal(['new']);
      const twice = rotated.value.rotateSecret('newer', 60_000, NOW);
      expect(twice.ok && twice.value.secretHashesAt(NOW), 'only the secret just replaced overlaps').to.deep.equal(['newer', 'new']);
      const publicClient = OAuthClient.create({ id: 'p', name: 'Mobile', secretHash: null, redirectUris: ['com.example.app:/cb'] }, NOW);
      expect(publicClient.ok && publicClient.value.rotateSecret('x', 0, NOW)).to.deep.equal({ ok: false, error: { kind: 'PublicClient' } });
      expect(publicClient.ok && publicClient.value.secretHashesAt(NOW)).to.deep.equal([]);
    });
  });
});

describe('identity retention (docs/identity.md)', () => {
  it('purges codes an hour after they expire, sessions once expired, online grants after a day, revoked grants and rotated refresh tokens after 30 days, initial access tokens a day after expiry', () => {
    expect(purgeCutoffs(new Date('2026-11-22T10:15:00.000Z'))).to.deep.equal({
      codesExpiredBefore: new Date('2026-11-22T09:15:00.000Z'),
      sessionsExpiredBefore: new Date('2026-11-22T10:15:00.000Z'),
      grantsRevokedBefore: new Date('2026-10-23T10:15:00.000Z'),
      onlineGrantsCreatedBefore: new Date('2026-11-21T10:15:00.000Z'),
      refreshTokensRotatedBefore: new Date('2026-10-23T10:15:00.000Z'),
      initialAccessTokensExpiredBefore: new Date('2026-11-21T10:15:00.000Z'),
    });
  });
});

describe('device authorizations (RFC 8628)', () => {
  const NOW = new Date('2026-11-22T10:15:00.000Z');
  const pending: DeviceAuthorization = {
    deviceCodeHash: 'd',
    userCodeHash: 'u',
    clientId: 'tv',
    scope: 'openid',
    status: 'pending',
    userId: null,
    grantId: null,
    intervalS: 5,
    lastPollDate: null,
    creationDate: NOW,
    expirationDate: new Date(NOW.getTime() + DEVICE_CODE_TTL_MS),
  };
  const at = (ms: number) => new Date(NOW.getTime() + ms);

  it('user codes: 8 letters without vowels, case, dashes and spaces ignored', () => {
    expect(normalizeUserCode('bcdf-ghjk')).to.equal('BCDFGHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).to.equal('BCDFGHJK');
    expect(normalizeUserCode(`BCDF${' '.repeat(56)}GHJK`), 'typed with 64 characters').to.equal('BCDFGHJK');
    expect(normalizeUserCode(`BCDF${' '.repeat(57)}GHJK`), 'typed with 65 characters').to.equal(undefined);
    for (const bad of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', 'BCDF_GHJK', '', 'B'.repeat(100)]) expect(normalizeUserCode(bad), bad).to.equal(undefined);
    expect(formatUserCode('BCDFGHJK')).to.equal('BCDF-GHJK');
  });

  it('a poll: pending, then slow_down when sooner than the interval, approved, denied, used, expired, another client', () => {
    expect(checkDevicePoll(pending, 'tv', NOW)).to.deep.equal({ ok: false, error: 'Pending' });
    const polled = { ...pending, lastPollDate: NOW };
    expect(checkDevicePoll(polled, 'tv', at(4_999))).to.deep.equal({ ok: false, error: 'SlowDown' });
    expect(checkDevicePoll(polled, 'tv', at(5_000))).to.deep.equal({ ok: false, error: 'Pending' });
    expect(checkDevicePoll({ ...polled, status: 'approved' }, 'tv', at(1)).ok, 'approved: no waiting for the interval').to.equal(true);
    expect(checkDevicePoll({ ...pending, status: 'denied' }, 'tv', NOW)).to.deep.equal({ ok: false, error: 'Denied' });
    expect(checkDevicePoll({ ...pending, status: 'consumed' }, 'tv', NOW)).to.deep.equal({ ok: false, error: 'Used' });
    expect(checkDevicePoll({ ...pending, status: 'approved' }, 'tv', at(DEVICE_CODE_TTL_MS))).to.deep.equal({ ok: false, error: 'Expired' });
    expect(checkDevicePoll({ ...pending, status: 'approved' }, 'cli', NOW)).to.deep.equal({ ok: false, error: 'WrongClient' });
  });

  it('can be decided while pending and live only', () => {
    expect(deviceAuthorizationOpen(pending, NOW)).to.equal(true);
    expect(deviceAuthorizationOpen(pending, at(DEVICE_CODE_TTL_MS))).to.equal(false);
    expect(deviceAuthorizationOpen({ ...pending, status: 'approved' }, NOW)).to.equal(false);
  });
});
