import type { RateDecision, RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import type { TypeOrmDatabase } from './typeorm-database.js';

/**
 * Fixed-window counters in PostgreSQL, so a limit holds across every instance: one upsert per
 * attempt, which also resets a window that has ended. Ended windows are deleted by the retention
 * cleanup (PurgeRetained, `RATE_LIMIT_COUNTER_RETENTION`).
 */
export class TypeOrmRateLimiter implements RateLimiter {
  constructor(private readonly db: TypeOrmDatabase) {}

  async attempt(key: string, rule: RateLimit, now: Date): Promise<RateDecision> {
    const table = this.table();
    const end = new Date(now.getTime() + rule.windowMs);
    type Row = { count: number; window_end: Date | string };
    const rows = await this.db.read<Row[]>(
      (m) =>
        m.query(
          `INSERT INTO ${table} (key, window_end, count) VALUES ($1, $2, 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN ${table}.window_end <= $3 THEN 1 ELSE ${table}.count + 1 END,
             window_end = CASE WHEN ${table}.window_end <= $3 THEN $2 ELSE ${table}.window_end END
           RETURNING count, window_end`,
          [key, end.toISOString(), now.toISOString()],
        ),
    );
    const row = rows[0];
    if (!row) throw new Error('rate limit upsert returned no row');
    const count = Number(row.count);
    return { allowed: count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: new Date(row.window_end).getTime() - now.getTime() };
  }

  /**
   * Adds counted attempts to several keys in one statement (windows that have ended start again
   * with the added count); returns each key's count and window end as the database now holds them.
   */
  async addCounts(additions: readonly { readonly key: string; readonly count: number; readonly windowMs: number }[], now: Date): Promise<Map<string, { count: number; windowEnd: number }>> {
    const table = this.table();
    type Row = { key: string; count: number; window_end: Date | string };
    const rows = await this.db.read<Row[]>((m) =>
      m.query(
        `INSERT INTO ${table} (key, window_end, count)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::integer[])
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN ${table}.window_end <= $4 THEN EXCLUDED.count ELSE ${table}.count + EXCLUDED.count END,
           window_end = CASE WHEN ${table}.window_end <= $4 THEN EXCLUDED.window_end ELSE ${table}.window_end END
         RETURNING key, count, window_end`,
        [
          additions.map((a) => a.key),
          additions.map((a) => new Date(now.getTime() + a.windowMs).toISOString()),
          additions.map((a) => a.count),
          now.toISOString(),
        ],
      ),
    );
    return new Map(rows.map((row) => [row.key, { count: Number(row.count), windowEnd: new Date(row.window_end).getTime() }]));
  }

  async release(key: string, now: Date): Promise<void> {
    await this.db.read((m) => m.query(`UPDATE ${this.table()} SET count = count - 1 WHERE key = $1 AND window_end > $2 AND count > 0`, [key, now.toISOString()]));
  }

  private table(): string {
    return rateLimitsTable(this.db.schemaName);
  }
}

/** The counters' table, qualified by DATABASE_SCHEMA when one is set (it has no entity: plain SQL only). */
export function rateLimitsTable(schema: string | undefined): string {
  return schema ? `"${schema.replace(/"/g, '""')}".rate_limits` : 'rate_limits';
}

/** How often a BatchedRateLimiter writes the attempts it counted to the database. */
export const FLUSH_EVERY_MS = 250;

interface Window {
  readonly rule: RateLimit;
  /** The database's count at the last write, this instance's attempts included. */
  known: number;
  /** Attempts counted here since then. */
  pending: number;
  windowEnd: number;
}

/**
 * The per-token API limit on PostgreSQL without a query per request: the first attempt of a key's
 * window is counted in the database at once (as TypeOrmRateLimiter does), later ones are counted
 * here and written every FLUSH_EVERY_MS, all keys in one statement, which also brings back what
 * the other instances counted. Between two writes an instance does not see the others' attempts:
 * with N instances a token can get up to (N - 1) x FLUSH_EVERY_MS of extra requests at its
 * request rate before the 429s start (docs/security.md). Attempts counted in the last interval
 * before the process ends are not written. Password and token-endpoint limits stay exact.
 */
export class BatchedRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: TypeOrmRateLimiter) {}

  async attempt(key: string, rule: RateLimit, now: Date): Promise<RateDecision> {
    const at = now.getTime();
    let window = this.windows.get(key);
    if (window === undefined || window.windowEnd <= at) {
      const decision = await this.store.attempt(key, rule, now);
      window = { rule, known: rule.limit - decision.remaining, pending: 0, windowEnd: at + decision.resetMs };
      // The first attempt of a window is in the database already; a count beyond the limit shows as `known`.
      if (!decision.allowed) window.known = rule.limit + 1;
      this.windows.set(key, window);
      return decision;
    }
    return this.countHere(window, rule, at);
  }

  /** Only within a window this instance has counted in already (its first attempt goes to the database). */
  attemptAtOnce(key: string, rule: RateLimit, now: Date): RateDecision | undefined {
    const at = now.getTime();
    const window = this.windows.get(key);
    if (window === undefined || window.windowEnd <= at || window.known + window.pending >= rule.limit) return undefined;
    return this.countHere(window, rule, at);
  }

  /** One attempt counted in a window this instance knows, written with the next flush. */
  private countHere(window: Window, rule: RateLimit, at: number): RateDecision {
    window.pending++;
    this.scheduleFlush();
    const count = window.known + window.pending;
    return { allowed: count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: window.windowEnd - at };
  }

  async release(key: string, now: Date): Promise<void> {
    await this.store.release(key, now);
    const window = this.windows.get(key);
    if (window && window.known > 0) window.known--;
  }

  /** Writes what is pending now; for tests and shutdown. */
  async flush(): Promise<void> {
    await this.flushing;
    this.flushing = this.write().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private scheduleFlush(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => {
        // The counts stay pending and go with the next write.
      });
    }, FLUSH_EVERY_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const now = Date.now();
    const batch: { key: string; count: number; windowMs: number; window: Window }[] = [];
    for (const [key, window] of this.windows) {
      if (window.windowEnd <= now) this.windows.delete(key);
      else if (window.pending > 0) batch.push({ key, count: window.pending, windowMs: window.rule.windowMs, window });
    }
    if (batch.length === 0) return;
    const written = await this.store.addCounts(batch, new Date(now));
    for (const { key, count, window } of batch) {
      const row = written.get(key);
      window.pending -= count;
      if (row === undefined) continue;
      window.known = row.count;
      window.windowEnd = row.windowEnd;
    }
  }
}
