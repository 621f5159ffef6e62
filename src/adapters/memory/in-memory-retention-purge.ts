import type { RetainedRowCounts, RetentionCutoffs, RetentionPurge } from '../../application/ports/retention-purge.port.js';
import type { StateSource } from './in-memory-state.js';

/**
 * The retention cleanup over the committed state, as the database's does it. Rate-limit counters
 * are not stored in this state (InMemoryRateLimiter bounds its own), nor chunks (revisions keep
 * whole specs).
 */
export class InMemoryRetentionPurge implements RetentionPurge {
  constructor(private readonly state: StateSource) {}

  async purge(cutoffs: RetentionCutoffs): Promise<RetainedRowCounts> {
    const s = this.state();
    const before = await this.counts();
    const older = (date: Date, cutoff: Date) => date.getTime() < cutoff.getTime();
    for (const [id, row] of s.deliveries) if (row.state.state !== 'pending' && older(row.state.creationDate, cutoffs.deliveriesCreatedBefore)) s.deliveries.delete(id);
    s.outbox = s.outbox.filter((event) => !(event.dispatchedAt !== null && older(event.dispatchedAt, cutoffs.eventsDispatchedBefore)));
    const historyBefore = cutoffs.specRevisionsCreatedBefore;
    if (historyBefore !== null) {
      const current = new Map<string, number>();
      for (const entry of s.revisions.values()) current.set(entry.apiId, Math.max(current.get(entry.apiId) ?? 0, entry.revision));
      const released = new Set([...s.releases.values()].map((release) => `${release.state.apiId} ${release.revision}`));
      for (const [key, entry] of s.revisions) {
        if (entry.revision !== current.get(entry.apiId) && !released.has(key) && older(entry.creationDate, historyBefore)) s.revisions.delete(key);
      }
    }
    const after = await this.counts();
    return {
      deliveries: before.deliveries - after.deliveries,
      // Kept in each delivery here.
      webhookPayloads: 0,
      outboxEvents: before.outboxEvents - after.outboxEvents,
      rateLimitCounters: 0,
      specRevisions: before.specRevisions - after.specRevisions,
      specChunks: 0,
    };
  }

  async counts(): Promise<RetainedRowCounts> {
    const s = this.state();
    return { deliveries: s.deliveries.size, webhookPayloads: 0, outboxEvents: s.outbox.length, rateLimitCounters: 0, specRevisions: s.revisions.size, specChunks: 0 };
  }
}
