import type { EntityManager, EntitySchema } from 'typeorm';
import type { RetainedRowCounts, RetentionCutoffs, RetentionPurge } from '../../application/ports/retention-purge.port.js';
import { forDialect, placeholderList, tableOf, updated } from './raw-sql.js';
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
  /** Until when this run may go on (set by `purge`). */
  private stopAt = Infinity;

  constructor(private readonly db: TypeOrmDatabase) {
    this.s = db.schemas;
    this.dialect = db.dialect;
  }

  async purge(cutoffs: RetentionCutoffs, batchSize: number, stopAt: number): Promise<RetainedRowCounts> {
    const n = Math.max(1, Math.floor(batchSize));
    this.stopAt = stopAt;
    // The outer conditions repeat the inner ones: a row that changed since it was selected stays.
    const deliveries = await this.drain(this.s.deliveries, (t) => `SELECT id FROM ${t} WHERE state <> 'pending' AND creation_date < ? LIMIT ${n}`, "state <> 'pending'", [cutoffs.deliveriesCreatedBefore], n);
    const outboxEvents = await this.drain(this.s.outbox, (t) => `SELECT id FROM ${t} WHERE dispatched_at IS NOT NULL AND dispatched_at < ? LIMIT ${n}`, 'dispatched_at IS NOT NULL', [cutoffs.eventsDispatchedBefore], n);
    const rateLimitCounters = await this.drainRateLimits(cutoffs.rateLimitWindowsEndedBefore, n);
    const history = cutoffs.specRevisionsCreatedBefore === null ? { specRevisions: 0, specChunks: 0 } : await this.purgeHistory(cutoffs.specRevisionsCreatedBefore, n);
    return { deliveries, outboxEvents, rateLimitCounters, ...history };
  }

  /** Whether a drain whose last batch came back `deleted` of `n` should go on. */
  private more(deleted: number, n: number): boolean {
    return deleted >= n && Date.now() < this.stopAt;
  }

  counts(): Promise<RetainedRowCounts> {
    return this.db.read(async (m) => {
      const count = (schema: EntitySchema) => m.getRepository(schema).count();
      const rateLimits = await m.query<{ n: number | string }[]>(`SELECT count(*) AS n FROM ${this.rateLimitTable(m)}`);
      return {
        deliveries: await count(this.s.deliveries),
        outboxEvents: await count(this.s.outbox),
        rateLimitCounters: Number(rateLimits[0]?.n ?? 0),
        specRevisions: await count(this.s.revisions),
        specChunks: await count(this.s.chunks),
      };
    });
  }

  /** Deletes the rows `select` (given the quoted table, selecting at most `n` ids) names and that still meet `still`, batch after batch. */
  private async drain(schema: EntitySchema, select: (table: string) => string, still: string, parameters: readonly Date[], n: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.read(async (m) => {
        const table = tableOf(m, schema);
        const sql = `DELETE FROM ${table} WHERE id IN (${select(table)}) AND ${still} RETURNING id`;
        return (await updated(m, forDialect(this.dialect, sql), parameters.map((d) => d.toISOString()))).length;
      });
      total += deleted;
      if (!this.more(deleted, n)) return total;
    }
  }

  /** The rate limiter's table has no entity (it is written in plain SQL only): its key is `key`. */
  private async drainRateLimits(before: Date, n: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.read(async (m) => {
        const table = this.rateLimitTable(m);
        // The date again outside: a counter whose window an upsert has just restarted stays.
        const sql = `DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE window_end < ? LIMIT ${n}) AND window_end < ? RETURNING key`;
        return (await updated(m, forDialect(this.dialect, sql), [before.toISOString(), before.toISOString()])).length;
      });
      total += deleted;
      if (!this.more(deleted, n)) return total;
    }
  }

  /** The table, qualified by DATABASE_SCHEMA when one is set. */
  private rateLimitTable(m: EntityManager): string {
    const schema = this.db.schemaName;
    return schema ? `${m.connection.driver.escape(schema)}.rate_limits` : 'rate_limits';
  }

  /**
   * Revisions stored before `before` that are archived (not the current spec) and that no release
   * was made from, by API; then each such API's chunks no revision left lists.
   */
  private async purgeHistory(before: Date, n: number): Promise<{ specRevisions: number; specChunks: number }> {
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
      if (!this.more(candidates.length, n)) return { specRevisions, specChunks };
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

/** Chunk keys per DELETE: far below either database's parameter limit. */
const CHUNK_KEYS_PER_DELETE = 500;
