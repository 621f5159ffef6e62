import type { EntityManager, EntitySchema } from 'typeorm';
import type { IdentityPurge } from '../../application/ports/identity-repositories.port.js';
import type { IdentityRowCounts, PurgeCutoffs } from '../../domain/identity/retention.js';
import { tableOf } from './raw-sql.js';
import type { Schemas } from './schema.js';
import type { Run } from './typeorm-database.js';

/**
 * The identity tables' cleanup: for each, `DELETE ... WHERE key IN (SELECT key ... LIMIT n)` until
 * a batch comes back short. Each statement is its own transaction and touches at most `n` rows
 * (by indexed dates), so it never holds locks for long and instances running it at once only
 * share the work. Deleting a grant takes its codes, refresh tokens and device codes with it.
 */
export class TypeOrmIdentityPurge implements IdentityPurge {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  async purge(cutoffs: PurgeCutoffs, batchSize: number): Promise<IdentityRowCounts> {
    const iso = (date: Date) => date.toISOString();
    return {
      codes: await this.drain(this.s.codes, 'code_hash', () => 'expiration_date < :cutoff', { cutoff: iso(cutoffs.codesExpiredBefore) }, batchSize),
      deviceCodes: await this.drain(this.s.deviceCodes, 'device_code_hash', () => 'expiration_date < :cutoff', { cutoff: iso(cutoffs.codesExpiredBefore) }, batchSize),
      sessions: await this.drain(this.s.sessions, 'id_hash', () => 'expiration_date < :cutoff', { cutoff: iso(cutoffs.sessionsExpiredBefore) }, batchSize),
      refreshTokens: await this.drain(this.s.refreshTokens, 'token_hash', () => 'rotation_date IS NOT NULL AND rotation_date < :cutoff', { cutoff: iso(cutoffs.refreshTokensRotatedBefore) }, batchSize),
      grants: await this.drain(
        this.s.grants,
        'id',
        // Revoked long enough ago; or live, old, and holding no refresh token (an online grant, a code never
        // redeemed, a device never polled): nothing of it can still be used.
        (m) =>
          `(revocation_date IS NOT NULL AND revocation_date < :revoked) OR (revocation_date IS NULL AND creation_date < :online AND NOT EXISTS (SELECT 1 FROM ${tableOf(m, this.s.refreshTokens)} r WHERE r.grant_id = g.id))`,
        { revoked: iso(cutoffs.grantsRevokedBefore), online: iso(cutoffs.onlineGrantsCreatedBefore) },
        batchSize,
      ),
      initialAccessTokens: await this.drain(this.s.initialAccessTokens, 'token_hash', () => 'expiration_date < :cutoff', { cutoff: iso(cutoffs.initialAccessTokensExpiredBefore) }, batchSize),
    };
  }

  counts(): Promise<IdentityRowCounts> {
    return this.run(async (m) => {
      const count = (schema: EntitySchema) => m.getRepository(schema).count();
      return {
        codes: await count(this.s.codes),
        deviceCodes: await count(this.s.deviceCodes),
        sessions: await count(this.s.sessions),
        grants: await count(this.s.grants),
        refreshTokens: await count(this.s.refreshTokens),
        initialAccessTokens: await count(this.s.initialAccessTokens),
      };
    });
  }

  private async drain(schema: EntitySchema, key: string, condition: (m: EntityManager) => string, parameters: Record<string, string>, batchSize: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.run((m: EntityManager) =>
        m
          .createQueryBuilder()
          .delete()
          .from(schema)
          .where(`${key} IN (SELECT g.${key} FROM ${tableOf(m, schema)} g WHERE ${condition(m)} LIMIT ${Math.max(1, Math.floor(batchSize))})`, parameters)
          .execute(),
      );
      const affected = deleted.affected ?? 0;
      total += affected;
      if (affected < batchSize) return total;
    }
  }
}
