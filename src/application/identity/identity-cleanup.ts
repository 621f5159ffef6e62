import { purgeCutoffs, type IdentityRowCounts } from '../../domain/identity/retention.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdentityPurge } from '../ports/identity-repositories.port.js';

/** Rows per delete statement of the cleanup. */
export const PURGE_BATCH = 500;

/**
 * The identity service's scheduled cleanup (a chore of the worker): expired codes, device codes
 * and sessions, old revoked grants and rotated refresh tokens, spent initial access tokens, each
 * kept as long as `IDENTITY_RETENTION` says.
 */
export class PurgeIdentity {
  constructor(
    private readonly store: IdentityPurge,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<IdentityRowCounts> {
    return this.store.purge(purgeCutoffs(this.clock.now()), PURGE_BATCH);
  }
}
