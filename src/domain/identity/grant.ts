import type { UserId } from '../account/account.js';
import { err, ok, type Result } from '../shared/result.js';
import type { OAuthClientId } from './oauth-client.js';
import type { Uuid } from '../shared/ids.js';

export type GrantId = Uuid<'Grant'>;

/** Lifetimes of the identity service: the contract's where it names one. */
export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_S = 3600;
export const ID_TOKEN_TTL_S = 3600;
/** A browser session of the login page. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

/**
 * What a user allowed a client, once: the access tokens, refresh tokens and ID tokens issued for it
 * all name it, so revoking it (a reused code or refresh token, RFC 7009 revocation, a password
 * change) ends every one of them at once.
 */
export interface Grant {
  readonly id: GrantId;
  readonly clientId: OAuthClientId;
  readonly userId: UserId;
  /** As granted, space-separated. */
  readonly scope: string;
  /** `access_type=offline`: a refresh token was issued with it. */
  readonly offline: boolean;
  readonly creationDate: Date;
  readonly revocationDate: Date | null;
}

/** A one-time authorization code (RFC 6749 4.1.2), stored as its hash, bound to client, redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  readonly codeHash: string;
  readonly grantId: GrantId;
  readonly clientId: OAuthClientId;
  readonly userId: UserId;
  readonly redirectUri: string;
  readonly scope: string;
  /** S256 challenge (base64url SHA-256 of the verifier), or null when the client sent none (confidential clients only). */
  readonly codeChallenge: string | null;
  /** OpenID Connect `nonce`, echoed in the ID token. */
  readonly nonce: string | null;
  readonly offline: boolean;
  /** When the user signed in, for the ID token's `auth_time`. */
  readonly authTime: Date;
  readonly expirationDate: Date;
  readonly consumptionDate: Date | null;
}

export type CodeRedemptionError =
  /** Used before: the caller must revoke what the first use issued (RFC 6749 4.1.2). */
  | 'AlreadyUsed'
  | 'Expired'
  | 'WrongClient'
  | 'WrongRedirectUri'
  /** A verifier whose S256 is not the challenge, or none where a challenge was sent, or one where none was. */
  | 'PkceMismatch';

/**
 * Whether a token request may redeem `code`. `verifierChallenge` is the S256 of the `code_verifier`
 * sent (null when none was sent), computed by the caller.
 */
export function checkCodeRedemption(
  code: AuthorizationCode,
  request: { readonly clientId: OAuthClientId; readonly redirectUri: string | undefined; readonly verifierChallenge: string | null },
  now: Date,
): Result<void, CodeRedemptionError> {
  if (code.consumptionDate !== null) return err('AlreadyUsed');
  if (now.getTime() >= code.expirationDate.getTime()) return err('Expired');
  if (request.clientId !== code.clientId) return err('WrongClient');
  if (request.redirectUri !== code.redirectUri) return err('WrongRedirectUri');
  if (code.codeChallenge !== request.verifierChallenge) return err('PkceMismatch');
  return ok();
}

/** A refresh token (RFC 6749 6), stored as its hash. */
export interface RefreshToken {
  readonly tokenHash: string;
  readonly grantId: GrantId;
  readonly clientId: OAuthClientId;
  readonly userId: UserId;
  readonly scope: string;
  readonly creationDate: Date;
  /** Set when a public client's token was rotated: any later use of it is a replay. */
  readonly rotationDate: Date | null;
}

export type RefreshError = 'Reused' | 'WrongClient';

/**
 * Whether `clientId` may use `token`. Confidential clients keep theirs (Google's libraries hold on
 * to the first refresh token); public clients get a new one each time, and a rotated token used
 * again means it was stolen: the caller revokes the whole grant (RFC 9700 4.14.2).
 */
export function checkRefresh(token: RefreshToken, clientId: OAuthClientId): Result<void, RefreshError> {
  if (token.clientId !== clientId) return err('WrongClient');
  if (token.rotationDate !== null) return err('Reused');
  return ok();
}

/** A browser session of the login page, stored by the hash of its cookie value. */
export interface Session {
  readonly idHash: string;
  readonly userId: UserId;
  readonly authTime: Date;
  readonly expirationDate: Date;
}

export function sessionIsLive(session: Session, now: Date): boolean {
  return now.getTime() < session.expirationDate.getTime();
}

/** The scope names a user allowed a client, accumulated over consents: a connected application of the user. */
export interface Consent {
  readonly userId: UserId;
  readonly clientId: OAuthClientId;
  readonly scope: string;
  /** When the user last allowed it something. */
  readonly date: Date;
  /** When the user first allowed it anything. */
  readonly creationDate: Date;
  /** When it last got tokens for the user (a code redeemed, a refresh); null before the first. */
  readonly lastUseDate: Date | null;
}

export function consentCovers(consent: Consent | undefined, requested: string): boolean {
  if (!consent) return false;
  const allowed = new Set(consent.scope.split(' '));
  return requested.split(' ').every((name) => allowed.has(name));
}

export function widenConsent(consent: Consent | undefined, input: { readonly userId: UserId; readonly clientId: OAuthClientId; readonly scope: string }, now: Date): Consent {
  const names = new Set([...(consent?.scope.split(' ') ?? []), ...input.scope.split(' ')]);
  return { userId: input.userId, clientId: input.clientId, scope: [...names].join(' '), date: now, creationDate: consent?.creationDate ?? now, lastUseDate: consent?.lastUseDate ?? null };
}
