import type { IdentityRowCounts, PurgeCutoffs } from '../../domain/identity/retention.js';
import type { DeviceAuthorization } from '../../domain/identity/device-authorization.js';
import type { UserId } from '../../domain/account/account.js';
import type { AuthorizationCode, Consent, Grant, GrantId, RefreshToken, Session } from '../../domain/identity/grant.js';
import type { OAuthClient, OAuthClientId } from '../../domain/identity/oauth-client.js';
import { token } from '../shared/token.js';

export interface OAuthClientRepository {
  /** undefined when no client has this id. */
  get(id: OAuthClientId): Promise<OAuthClient | undefined>;
  /** Every client, oldest first. */
  list(): Promise<OAuthClient[]>;
  add(client: OAuthClient): Promise<void>;
  /** Stores the client's changed fields (name, URIs, secrets). */
  save(client: OAuthClient): Promise<void>;
  /** Removes the client; false when there was none. Its grants are revoked by the caller. */
  delete(id: OAuthClientId): Promise<boolean>;
}
export const OAuthClientRepository = token<OAuthClientRepository>('OAuthClientRepository');

export interface GrantRepository {
  add(grant: Grant): Promise<void>;
  /** undefined when absent. */
  get(id: GrantId): Promise<Grant | undefined>;
  /** Marks the grant revoked (a no-op when it is already); every token naming it stops working. */
  revoke(id: GrantId, now: Date): Promise<void>;
  /** Revokes every grant of the user (a password change). */
  revokeAllOfUser(userId: UserId, now: Date): Promise<void>;
  /** Revokes every grant of the client (the client deleted), or of the client for one user (`userId`: the user withdrew it). */
  revokeAllOfClient(clientId: OAuthClientId, now: Date, userId?: UserId): Promise<void>;
}
export const GrantRepository = token<GrantRepository>('GrantRepository');

export interface AuthorizationCodeRepository {
  add(code: AuthorizationCode): Promise<void>;
  /** undefined when no code has this hash. */
  get(codeHash: string): Promise<AuthorizationCode | undefined>;
  /**
   * Marks the code used if nobody has: true for exactly one caller however many race, across
   * instances (a conditional update), so a code is never redeemed twice.
   */
  consume(codeHash: string, now: Date): Promise<boolean>;
}
export const AuthorizationCodeRepository = token<AuthorizationCodeRepository>('AuthorizationCodeRepository');

export interface RefreshTokenRepository {
  add(token: RefreshToken): Promise<void>;
  /** undefined when no refresh token has this hash. */
  get(tokenHash: string): Promise<RefreshToken | undefined>;
  /** Marks the token rotated if it was not: true for exactly one caller, like `consume`. */
  rotate(tokenHash: string, now: Date): Promise<boolean>;
}
export const RefreshTokenRepository = token<RefreshTokenRepository>('RefreshTokenRepository');

export interface SessionRepository {
  add(session: Session): Promise<void>;
  /** undefined when absent. */
  get(idHash: string): Promise<Session | undefined>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of the user (a password change). */
  deleteAllOfUser(userId: UserId): Promise<void>;
}
export const SessionRepository = token<SessionRepository>('SessionRepository');

export interface ConsentRepository {
  /** undefined when the user never consented to the client. */
  get(userId: UserId, clientId: OAuthClientId): Promise<Consent | undefined>;
  /** The user's consents (their connected applications), oldest first. */
  listOfUser(userId: UserId): Promise<Consent[]>;
  /** Inserts or replaces the user's consent to the client. */
  save(consent: Consent): Promise<void>;
  /** Records that the client got tokens for the user at `now` (no-op without a consent). */
  touch(userId: UserId, clientId: OAuthClientId, now: Date): Promise<void>;
  /** Removes the user's consent to the client (`userId`), or every consent to it; false when there was none. */
  delete(clientId: OAuthClientId, userId?: UserId): Promise<boolean>;
}
export const ConsentRepository = token<ConsentRepository>('ConsentRepository');

export interface DeviceAuthorizationRepository {
  add(authorization: DeviceAuthorization): Promise<void>;
  /** undefined when no device authorization has this device code hash. */
  getByDeviceCode(deviceCodeHash: string): Promise<DeviceAuthorization | undefined>;
  /** undefined when no device authorization has this user code hash. */
  getByUserCode(userCodeHash: string): Promise<DeviceAuthorization | undefined>;
  /** Records a poll of a pending one at `at`, with its interval (grown after a `slow_down`). */
  recordPoll(deviceCodeHash: string, at: Date, intervalS: number): Promise<void>;
  /**
   * Approves it for the user and grant, or denies it, if it is still pending: true for exactly one
   * caller (a conditional update), so a user code is used once.
   */
  decide(deviceCodeHash: string, decision: { readonly status: 'approved'; readonly userId: UserId; readonly grantId: GrantId } | { readonly status: 'denied' }): Promise<boolean>;
  /** Marks an approved one consumed: true for exactly one caller, so its tokens are issued once. */
  consume(deviceCodeHash: string): Promise<boolean>;
}
export const DeviceAuthorizationRepository = token<DeviceAuthorizationRepository>('DeviceAuthorizationRepository');

/** An operator's initial access token (RFC 7591 3): good for one registration before it expires. */
export interface InitialAccessToken {
  readonly tokenHash: string;
  readonly creationDate: Date;
  readonly expirationDate: Date;
}

export interface InitialAccessTokenRepository {
  add(token: InitialAccessToken): Promise<void>;
  /** Marks it used if it is unused and not expired at `now`: true for exactly one caller. */
  consume(tokenHash: string, now: Date): Promise<boolean>;
}
export const InitialAccessTokenRepository = token<InitialAccessTokenRepository>('InitialAccessTokenRepository');

/** The scheduled cleanup of the identity tables (outside any transaction: each batch is its own). */
export interface IdentityPurge {
  /**
   * Deletes what ended before the cutoffs, `batchSize` rows per statement until none is left, so
   * no statement holds a lock for long; several instances may run it at once. Returns how many
   * rows went from each table.
   */
  purge(cutoffs: PurgeCutoffs, batchSize: number): Promise<IdentityRowCounts>;
  /** How many rows each table holds (the metric, and the tests of the bound). */
  counts(): Promise<IdentityRowCounts>;
}
export const IdentityPurge = token<IdentityPurge>('IdentityPurge');

/** A signing key pair as stored: the private half as PKCS#8 PEM. */
export interface StoredSigningKey {
  readonly kid: string;
  readonly privateKeyPem: string;
  /** The public JWK (kty, n, e). */
  readonly publicJwk: Readonly<Record<string, string>>;
  /** A self-signed X.509 certificate of the public key, PEM, for `/oauth2/v1/certs`. */
  readonly certificatePem: string;
  readonly creationDate: Date;
  /**
   * When it starts to sign. A rotated-in key is published ahead of that, so clients that cache the
   * key set (for minutes) know it before the first token it signs reaches them.
   */
  readonly activationDate: Date;
}

export interface SigningKeyRepository {
  /** Every stored key, latest activation first. */
  list(): Promise<StoredSigningKey[]>;
  add(key: StoredSigningKey): Promise<void>;
}
export const SigningKeyRepository = token<SigningKeyRepository>('SigningKeyRepository');
