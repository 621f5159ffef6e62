import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/** Fixed-window rate-limit counters shared by every instance (used on PostgreSQL; SQLite counts in process). */
export class RateLimits1763850000000 implements MigrationInterface {
  readonly name = 'RateLimits1763850000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    await q.createTable(
      new Table({
        name: 'rate_limits',
        columns: [
          { name: 'key', type: 'text', isPrimary: true },
          { name: 'window_end', type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}) },
          { name: 'count', type: 'integer' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('rate_limits');
  }
}
