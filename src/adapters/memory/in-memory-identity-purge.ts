import type { IdentityPurge } from '../../application/ports/identity-repositories.port.js';
import type { IdentityRowCounts, PurgeCutoffs } from '../../domain/identity/retention.js';
import type { StateSource } from './in-memory-state.js';

/** The identity tables' cleanup over the committed state, as the database's does it (a grant takes its codes, refresh tokens and device codes). */
export class InMemoryIdentityPurge implements IdentityPurge {
  constructor(private readonly state: StateSource) {}

  async purge(cutoffs: PurgeCutoffs, _batchSize: number): Promise<IdentityRowCounts> {
    const s = this.state();
    const before = await this.counts();
    const ended = (date: Date | null, cutoff: Date) => date !== null && date.getTime() < cutoff.getTime();
    for (const [key, code] of s.codes) if (ended(code.expirationDate, cutoffs.codesExpiredBefore)) s.codes.delete(key);
    for (const [key, device] of s.deviceCodes) if (ended(device.expirationDate, cutoffs.codesExpiredBefore)) s.deviceCodes.delete(key);
    for (const [key, session] of s.sessions) if (ended(session.expirationDate, cutoffs.sessionsExpiredBefore)) s.sessions.delete(key);
    for (const [key, token] of s.refreshTokens) if (ended(token.rotationDate, cutoffs.refreshTokensRotatedBefore)) s.refreshTokens.delete(key);
    for (const [key, grant] of s.grants) {
      const unused = grant.revocationDate === null && ended(grant.creationDate, cutoffs.onlineGrantsCreatedBefore) && ![...s.refreshTokens.values()].some((t) => t.grantId === key);
      if (!ended(grant.revocationDate, cutoffs.grantsRevokedBefore) && !unused) continue;
      s.grants.delete(key);
      for (const [code, row] of s.codes) if (row.grantId === key) s.codes.delete(code);
      for (const [hash, row] of s.refreshTokens) if (row.grantId === key) s.refreshTokens.delete(hash);
      for (const [hash, row] of s.deviceCodes) if (row.grantId === key) s.deviceCodes.delete(hash);
    }
    for (const [key, token] of s.initialAccessTokens) if (ended(token.expirationDate, cutoffs.initialAccessTokensExpiredBefore)) s.initialAccessTokens.delete(key);
    const after = await this.counts();
    return {
      codes: before.codes - after.codes,
      deviceCodes: before.deviceCodes - after.deviceCodes,
      sessions: before.sessions - after.sessions,
      grants: before.grants - after.grants,
      refreshTokens: before.refreshTokens - after.refreshTokens,
      initialAccessTokens: before.initialAccessTokens - after.initialAccessTokens,
    };
  }

  async counts(): Promise<IdentityRowCounts> {
    const s = this.state();
    return { codes: s.codes.size, deviceCodes: s.deviceCodes.size, sessions: s.sessions.size, grants: s.grants.size, refreshTokens: s.refreshTokens.size, initialAccessTokens: s.initialAccessTokens.size };
  }
}
