import type { EntityManager, EntitySchema } from 'typeorm';
import type { RetainedRowCounts, RetentionCutoffs, RetentionPurge } from '../../application/ports/retention-purge.port.js';
import { forDialect, placeholderList, tableOf, updated } from './raw-sql.js';
import { rateLimitsTable } from './typeorm-rate-limiter.js';
import type { TypeOrmDatabase } from './typeorm-database.js';

/**
 * The retention cleanup on SQLite and PostgreSQL. Each table is drained with
 * `DELETE ... WHERE key IN (SELECT key ... LIMIT n)` until a batch comes back short: one statement
 * per batch, by an indexed date (migration 0018), so no statement holds locks for long and
 * instances running it at once only share the work.
 *
 * Spec revisions go by API, each API in a transaction that first locks the API's row (as a spec
 * update does before it archives chunks), so a chunk is never deleted while a concurrent update is
 * about to list it; a chunk goes once no revision left of its API lists it.
 */
export class TypeOrmRetentionPurge implements RetentionPurge {
  private readonly s;
  private readonly dialect;

  constructor(private readonly db: TypeOrmDatabase) {
    this.s = db.schemas;
    this.dialect = db.dialect;
  }

  async purge(cutoffs: RetentionCutoffs, batchSize: number, budgetMs: number): Promise<RetainedRowCounts> {
    const n = Math.max(1, Math.floor(batchSize));
    const deadline = Date.now() + budgetMs;
    const at = (date: Date) => date.toISOString();
    // Each DELETE repeats its conditions outside the sub-select: a row that changed since it was selected stays.
    // By the deliveries' key, (webhook_id, id) since migration 0024: `id` alone has no index.
    const deliveries = await this.drain(n, deadline, (m) => {
      const t = tableOf(m, this.s.deliveries);
      return [
        `DELETE FROM ${t} WHERE (webhook_id, id) IN (SELECT webhook_id, id FROM ${t} WHERE state <> 'pending' AND creation_date < ? LIMIT ${n}) AND state <> 'pending' RETURNING id`,
        [at(cutoffs.deliveriesCreatedBefore)],
      ];
    });
    // An event's payload, once no delivery names it (the dispatch key's index leads with the event
    // id) and it is as old as the deliveries that go. Selected by its event and its date: a
    // delivery stored for it meanwhile dates it anew (TypeOrmDeliveryRepository), so on PostgreSQL
    // the DELETE, which waits for that transaction, finds the row changed and leaves it, whatever
    // the new date (a clock behind another instance's, a transaction held open past the period).
    const webhookPayloads = await this.drain(n, deadline, (m) => {
      const p = tableOf(m, this.s.payloads);
      const d = tableOf(m, this.s.deliveries);
      return [
        `DELETE FROM ${p} WHERE (event_id, creation_date) IN (SELECT x.event_id, x.creation_date FROM ${p} x WHERE x.creation_date < ? ` +
          `AND NOT EXISTS (SELECT 1 FROM ${d} e WHERE e.event_id = x.event_id) ORDER BY x.creation_date LIMIT ${n}) RETURNING event_id`,
        [at(cutoffs.deliveriesCreatedBefore)],
      ];
    });
    const outboxEvents = await this.drain(n, deadline, (m) => {
      const t = tableOf(m, this.s.outbox);
      return [`DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE dispatched_at IS NOT NULL AND dispatched_at < ? LIMIT ${n}) AND dispatched_at IS NOT NULL RETURNING id`, [at(cutoffs.eventsDispatchedBefore)]];
    });
    // The rate limiter's table has no entity (plain SQL only); its key is `key`.
    const rateLimitCounters = await this.drain(n, deadline, () => {
      const t = rateLimitsTable(this.db.schemaName);
      const before = at(cutoffs.rateLimitWindowsEndedBefore);
      return [`DELETE FROM ${t} WHERE key IN (SELECT key FROM ${t} WHERE window_end < ? LIMIT ${n}) AND window_end < ? RETURNING key`, [before, before]];
    });
    const history = cutoffs.specRevisionsCreatedBefore === null ? { specRevisions: 0, specChunks: 0 } : await this.purgeHistory(cutoffs.specRevisionsCreatedBefore, n, deadline);
    return { deliveries, webhookPayloads, outboxEvents, rateLimitCounters, ...history };
  }

  counts(): Promise<RetainedRowCounts> {
    return this.db.read(async (m) => {
      const count = (schema: EntitySchema) => m.getRepository(schema).count();
      const rateLimits = await m.query<{ n: number | string }[]>(`SELECT count(*) AS n FROM ${rateLimitsTable(this.db.schemaName)}`);
      return {
        deliveries: await count(this.s.deliveries),
        webhookPayloads: await count(this.s.payloads),
        outboxEvents: await count(this.s.outbox),
        rateLimitCounters: Number(rateLimits[0]?.n ?? 0),
        specRevisions: await count(this.s.revisions),
        specChunks: await count(this.s.chunks),
      };
    });
  }

  /**
   * Runs the DELETE `batch` gives (`?` placeholders and their values), one statement at a time,
   * until one deletes fewer than `n` rows or the deadline has passed; returns how many went.
   */
  private async drain(n: number, deadline: number, batch: (m: EntityManager) => [string, string[]]): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.read(async (m) => {
        const [sql, parameters] = batch(m);
        return (await updated(m, forDialect(this.dialect, sql), parameters)).length;
      });
      total += deleted;
      if (!more(deleted, n, deadline)) return total;
    }
  }

  /**
   * Revisions stored before `before` that are archived (not the current spec) and that no release
   * was made from, by API; then each such API's chunks no revision left lists.
   */
  private async purgeHistory(before: Date, n: number, deadline: number): Promise<{ specRevisions: number; specChunks: number }> {
    let specRevisions = 0;
    let specChunks = 0;
    for (;;) {
      const candidates = await this.db.read((m) =>
        m.query<{ api_id: string; revision: number }[]>(forDialect(this.dialect, `${this.oldRevisions(m)} LIMIT ${n}`), [before.toISOString()]),
      );
      const byApi = new Map<string, number[]>();
      for (const row of candidates) byApi.set(row.api_id, [...(byApi.get(row.api_id) ?? []), Number(row.revision)]);
      for (const [apiId, revisions] of byApi) {
        const gone = await this.db.transaction(async (m) => {
          if (this.dialect === 'postgres') await m.query(`SELECT id FROM ${tableOf(m, this.s.apis)} WHERE id = $1 FOR UPDATE`, [apiId]);
          // Every condition again, under the API's lock: what became current or released meanwhile stays.
          const r = tableOf(m, this.s.revisions);
          const deleted = await updated(
            m,
            forDialect(
              this.dialect,
              `DELETE FROM ${r} WHERE api_id = ? AND revision IN (${placeholderList(revisions.length)}) AND source_chunks IS NOT NULL AND creation_date < ? ` +
                `AND NOT EXISTS (SELECT 1 FROM ${tableOf(m, this.s.releases)} x WHERE x.api_id = ${r}.api_id AND x.revision = ${r}.revision) RETURNING revision`,
            ),
            [apiId, ...revisions, before.toISOString()],
          );
          return { revisions: deleted.length, chunks: deleted.length > 0 ? await this.unusedChunks(m, apiId) : 0 };
        });
        specRevisions += gone.revisions;
        specChunks += gone.chunks;
      }
      if (!more(candidates.length, n, deadline)) return { specRevisions, specChunks };
    }
  }

  /** Archived revisions stored before the parameter that no release of their API was made from. */
  private oldRevisions(m: EntityManager): string {
    const r = tableOf(m, this.s.revisions);
    const releases = tableOf(m, this.s.releases);
    return (
      `SELECT r.api_id, r.revision FROM ${r} r WHERE r.source_chunks IS NOT NULL AND r.creation_date < ? ` +
      `AND NOT EXISTS (SELECT 1 FROM ${releases} x WHERE x.api_id = r.api_id AND x.revision = r.revision) ORDER BY r.api_id, r.revision`
    );
  }

  /** Deletes the API's chunks that none of its revisions lists; returns how many. */
  private async unusedChunks(m: EntityManager, apiId: string): Promise<number> {
    const lists = await m.query<{ source_chunks: string | null; document_chunks: string | null }[]>(
      forDialect(this.dialect, `SELECT source_chunks, document_chunks FROM ${tableOf(m, this.s.revisions)} WHERE api_id = ? AND source_chunks IS NOT NULL`),
      [apiId],
    );
    const used = new Set<string>();
    for (const row of lists) for (const list of [row.source_chunks, row.document_chunks]) for (const key of JSON.parse(list ?? '[]') as string[]) used.add(key);
    const keys = await m.query<{ key: string }[]>(forDialect(this.dialect, `SELECT key FROM ${tableOf(m, this.s.chunks)} WHERE api_id = ?`), [apiId]);
    const unused = keys.map((row) => row.key).filter((key) => !used.has(key));
    for (let i = 0; i < unused.length; i += CHUNK_KEYS_PER_DELETE) {
      const part = unused.slice(i, i + CHUNK_KEYS_PER_DELETE);
      await m.query(forDialect(this.dialect, `DELETE FROM ${tableOf(m, this.s.chunks)} WHERE api_id = ? AND key IN (${placeholderList(part.length)})`), [apiId, ...part]);
    }
    return unused.length;
  }
}

/** Whether a drain whose last batch came back `done` of `n` goes on: a full batch, and time left. */
function more(done: number, n: number, deadline: number): boolean {
  return done >= n && Date.now() < deadline;
}

/** Chunk keys per DELETE: far below either database's parameter limit. */
const CHUNK_KEYS_PER_DELETE = 500;
