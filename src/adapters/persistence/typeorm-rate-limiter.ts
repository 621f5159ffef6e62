import type { RateDecision, RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import type { TypeOrmDatabase } from './typeorm-database.js';

/** Rows whose window ended this long ago are removed now and then. */
const SWEEP_AFTER_MS = 3600_000;

/**
 * Fixed-window counters in PostgreSQL, so a limit holds across every instance: one upsert per
 * attempt, which also resets a window that has ended. Ended windows are swept now and then.
 */
export class TypeOrmRateLimiter implements RateLimiter {
  private attempts = 0;

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
    if (++this.attempts % 1000 === 0) void this.sweep(now);
    const count = Number(row.count);
    return { allowed: count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: new Date(row.window_end).getTime() - now.getTime() };
  }

  async release(key: string, now: Date): Promise<void> {
    await this.db.read((m) => m.query(`UPDATE ${this.table()} SET count = count - 1 WHERE key = $1 AND window_end > $2 AND count > 0`, [key, now.toISOString()]));
  }

  private async sweep(now: Date): Promise<void> {
    try {
      await this.db.read((m) => m.query(`DELETE FROM ${this.table()} WHERE window_end < $1`, [new Date(now.getTime() - SWEEP_AFTER_MS).toISOString()]));
    } catch {
      // A missed sweep only leaves rows for the next one.
    }
  }

  /** The table, qualified by DATABASE_SCHEMA when one is set. */
  private table(): string {
    const schema = this.db.schemaName;
    return schema ? `"${schema.replace(/"/g, '""')}".rate_limits` : 'rate_limits';
  }
}
