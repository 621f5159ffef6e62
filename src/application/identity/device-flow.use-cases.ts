import {
  DEVICE_CODE_TTL_MS,
  DEVICE_POLL_INTERVAL_S,
  deviceAuthorizationOpen,
  formatUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
  type DeviceAuthorization,
} from '../../domain/identity/device-authorization.js';
import { widenConsent, type Grant, type GrantId } from '../../domain/identity/grant.js';
import type { OAuthClient } from '../../domain/identity/oauth-client.js';
import { parseScope, scopeClaims, type Claim } from '../../domain/identity/oauth-scope.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { DeviceAuthorizationRepository, OAuthClientRepository } from '../ports/identity-repositories.port.js';
import type { RateLimit, RateLimiter } from '../ports/rate-limiter.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { SignedIn } from './authorization.use-cases.js';
import type { IdentitySettings } from './identity-settings.js';
import { oauthError, type OAuthError } from './oauth-error.js';

/** RFC 8628 3.2: the device authorization response. */
export interface DeviceAuthorizationResponse {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
}

/** RFC 8628 3.1-3.2: a device asks for a device code and a user code to show its user. */
export class StartDeviceAuthorization {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly settings: IdentitySettings,
    private readonly clock: Clock,
  ) {}

  async execute(client: OAuthClient, scopeParam: string | undefined): Promise<Result<DeviceAuthorizationResponse, OAuthError>> {
    if (!client.allowsGrantType('urn:ietf:params:oauth:grant-type:device_code')) return err(oauthError('unauthorized_client', 'This application did not register the device code grant.'));
    const scope = parseScope(scopeParam, scopeClaims(this.settings.scopeBase));
    if (!scope.ok) return err(oauthError('invalid_scope', scope.error.kind === 'EmptyScope' ? 'The request asks for no scope.' : `Unknown scope: ${scope.error.scope}`));
    if (!client.allowsScope(scope.value.value)) return err(oauthError('invalid_scope', 'The request asks for a scope this application did not register.'));
    const now = this.clock.now();
    const device = this.generator.secret('sbd_');
    for (let attempt = 0; attempt < 5; attempt++) {
      const userCode = this.generator.pick(USER_CODE_ALPHABET, USER_CODE_LENGTH);
      const authorization: DeviceAuthorization = {
        deviceCodeHash: device.hash,
        userCodeHash: this.generator.hash(userCode),
        clientId: client.id,
        scope: scope.value.value,
        status: 'pending',
        userId: null,
        grantId: null,
        intervalS: DEVICE_POLL_INTERVAL_S,
        lastPollDate: null,
        creationDate: now,
        expirationDate: new Date(now.getTime() + DEVICE_CODE_TTL_MS),
      };
      // A user code alike to a live one (one chance in billions) is drawn again.
      const stored = await this.uow.run(async (tx) => ((await tx.deviceAuthorizations.getByUserCode(authorization.userCodeHash)) ? err('taken') : ok(await tx.deviceAuthorizations.add(authorization))));
      if (!stored.ok) continue;
      const shown = formatUserCode(userCode);
      const verification = `${this.settings.issuer}/device`;
      return ok({
        device_code: device.token,
        user_code: shown,
        verification_uri: verification,
        verification_uri_complete: `${verification}?${new URLSearchParams({ user_code: shown }).toString()}`,
        expires_in: DEVICE_CODE_TTL_MS / 1000,
        interval: DEVICE_POLL_INTERVAL_S,
      });
    }
    throw new Error('no free user code after five draws');
  }
}

/** What `/device` shows for a user code before the user decides. */
export interface DeviceRequestView {
  readonly userCode: string;
  readonly clientName: string;
  readonly claims: ReadonlySet<Claim>;
}

export type DeviceLookupError = { readonly kind: 'Unknown' } | { readonly kind: 'RateLimited'; readonly retryAfterMs: number };

/** How many user codes one person (by address, and by account) may try on `/device` in a window. */
export const USER_CODE_ATTEMPTS: RateLimit = { limit: 10, windowMs: 10 * 60_000 };

/**
 * The `/device` page's decisions: a signed-in user types (or confirms) a user code, sees which
 * application asks for what, and allows or denies it. Every code typed counts against a limit per
 * address and per user, so user codes cannot be guessed (RFC 8628 5.1); an unknown, expired or
 * used code is one answer, "unknown".
 */
export class DecideDeviceAuthorization {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly authorizations: DeviceAuthorizationRepository,
    private readonly clients: OAuthClientRepository,
    private readonly limiter: RateLimiter,
    private readonly generator: TokenGenerator,
    private readonly ids: IdGenerator,
    private readonly settings: IdentitySettings,
    private readonly clock: Clock,
  ) {}

  /** The request a typed user code names, counting the attempt. */
  async lookup(typed: string, user: SignedIn, ip: string): Promise<Result<DeviceRequestView, DeviceLookupError>> {
    const limited = await this.countAttempt(user, ip);
    if (limited) return err(limited);
    const found = await this.open(typed);
    if (!found) return err({ kind: 'Unknown' });
    const client = await this.clients.get(found.authorization.clientId);
    if (!client) return err({ kind: 'Unknown' });
    return ok({ userCode: formatUserCode(found.code), clientName: client.name, claims: scopeClaimsOf(found.authorization.scope, this.settings.scopeBase) });
  }

  /**
   * The user's answer for the code (looked up again: it may have expired or been decided
   * meanwhile). Allowing makes the grant the device's tokens will name, and records the consent.
   */
  async decide(typed: string, user: SignedIn, ip: string, allow: boolean): Promise<Result<void, DeviceLookupError>> {
    // Counted like a lookup: the decision form names a code too, and must not be a way around the limit.
    const limited = await this.countAttempt(user, ip);
    if (limited) return err(limited);
    const found = await this.open(typed);
    if (!found) return err({ kind: 'Unknown' });
    const { authorization } = found;
    const now = this.clock.now();
    const decided = await this.uow.run(async (tx) => {
      if (!allow) return (await tx.deviceAuthorizations.decide(authorization.deviceCodeHash, { status: 'denied' })) ? ok() : err('used');
      const grant: Grant = { id: this.ids.next<GrantId>(), clientId: authorization.clientId, userId: user.userId, scope: authorization.scope, offline: true, creationDate: now, revocationDate: null };
      await tx.grants.add(grant);
      if (!(await tx.deviceAuthorizations.decide(authorization.deviceCodeHash, { status: 'approved', userId: user.userId, grantId: grant.id }))) return err('used');
      const earlier = await tx.consents.get(user.userId, authorization.clientId);
      await tx.consents.save(widenConsent(earlier, { userId: user.userId, clientId: authorization.clientId, scope: authorization.scope }, now));
      return ok();
    });
    return decided.ok ? ok() : err({ kind: 'Unknown' });
  }

  /** Counts one code typed, by address and by user; the refusal once either is over its limit. */
  private async countAttempt(user: SignedIn, ip: string): Promise<DeviceLookupError | undefined> {
    const now = this.clock.now();
    for (const key of [`device-code:ip:${ip}`, `device-code:user:${user.userId}`]) {
      const decision = await this.limiter.attempt(key, USER_CODE_ATTEMPTS, now);
      if (!decision.allowed) return { kind: 'RateLimited', retryAfterMs: decision.resetMs };
    }
    return undefined;
  }

  private async open(typed: string): Promise<{ readonly code: string; readonly authorization: DeviceAuthorization } | undefined> {
    const code = normalizeUserCode(typed);
    if (code === undefined) return undefined;
    const authorization = await this.authorizations.getByUserCode(this.generator.hash(code));
    return authorization && deviceAuthorizationOpen(authorization, this.clock.now()) ? { code, authorization } : undefined;
  }
}

function scopeClaimsOf(scope: string, scopeBase: string): ReadonlySet<Claim> {
  const parsed = parseScope(scope, scopeClaims(scopeBase));
  return parsed.ok ? parsed.value.claims : new Set();
}
