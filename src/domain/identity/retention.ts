/**
 * How long the identity service keeps what has stopped working (docs/identity.md, "Retention"), so
 * its tables do not grow without bound. Kept a while after they end, so that a replay is still
 * recognised as one (a used code, a rotated refresh token) while it could matter.
 */
export const IDENTITY_RETENTION = {
  /** Authorization codes and device codes: an hour after they expire (used or not). */
  expiredCodesMs: 3600_000,
  /** Sessions: once they expire. */
  expiredSessionsMs: 0,
  /** Grants revoked 30 days ago (with their codes and refresh tokens). */
  revokedGrantsMs: 30 * 24 * 3600_000,
  /** Live grants holding no refresh token, a day after they were made: every token they issued expired after an hour, their codes sooner. */
  onlineGrantsMs: 24 * 3600_000,
  /** Refresh tokens rotated 30 days ago: a replay after that is an unknown token, no longer a revocation. */
  rotatedRefreshTokensMs: 30 * 24 * 3600_000,
  /** Initial access tokens: a day after they expire. */
  expiredInitialAccessTokensMs: 24 * 3600_000,
} as const;

/** Rows of the identity tables that may grow with use: what the purge keeps bounded. */
export interface IdentityRowCounts {
  readonly codes: number;
  readonly deviceCodes: number;
  readonly sessions: number;
  readonly grants: number;
  readonly refreshTokens: number;
  readonly initialAccessTokens: number;
}

/** The moments before which each kind of ended row goes, at `now`. */
export interface PurgeCutoffs {
  readonly codesExpiredBefore: Date;
  readonly sessionsExpiredBefore: Date;
  readonly grantsRevokedBefore: Date;
  readonly onlineGrantsCreatedBefore: Date;
  readonly refreshTokensRotatedBefore: Date;
  readonly initialAccessTokensExpiredBefore: Date;
}

export function purgeCutoffs(now: Date): PurgeCutoffs {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    codesExpiredBefore: before(IDENTITY_RETENTION.expiredCodesMs),
    sessionsExpiredBefore: before(IDENTITY_RETENTION.expiredSessionsMs),
    grantsRevokedBefore: before(IDENTITY_RETENTION.revokedGrantsMs),
    onlineGrantsCreatedBefore: before(IDENTITY_RETENTION.onlineGrantsMs),
    refreshTokensRotatedBefore: before(IDENTITY_RETENTION.rotatedRefreshTokensMs),
    initialAccessTokensExpiredBefore: before(IDENTITY_RETENTION.expiredInitialAccessTokensMs),
  };
}
