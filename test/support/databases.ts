import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/adapters/persistence/typeorm-database.js';

/** A database a suite can run against: a fresh, empty one per `create()`. */
export interface DatabaseTarget {
  readonly name: 'sqlite' | 'postgres';
  create(): Promise<{ readonly config: DatabaseConfig; readonly dispose: () => Promise<void> }>;
}

const postgresUrl = process.env['TEST_DATABASE_URL'] ?? '';

/**
 * The operator key the tests' servers seal secrets with (SECRETS_KEY): PostgreSQL needs one given,
 * and processes sharing a database must share it. Never a production key.
 */
export const TEST_SECRETS_KEY = 'dGVzdHMtb25seS1ub3QtYS1yZWFsLWtleS0zMi1ieXQ=';
const requirePostgres = process.env['SPECBASE_REQUIRE_POSTGRES'] === 'true';

/** A fresh SQLite file: for suites whose subject does not depend on the database. */
export const sqlite: DatabaseTarget = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'specbase-test-'));
    return {
      config: { kind: 'sqlite', path: join(dir, 'test.sqlite') },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** Each PostgreSQL fixture lives in a schema of its own, dropped afterwards. */
const postgres: DatabaseTarget = {
  name: 'postgres',
  async create() {
    const schema = `specbase_test_${randomBytes(6).toString('hex')}`;
    return {
      config: { kind: 'postgres', url: postgresUrl, schema, poolSize: 4 },
      dispose: async () => {
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${client.escapeIdentifier(schema)} CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  },
};

let announced = false;

/**
 * The databases to run a suite on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. Without
 * it the PostgreSQL suites are registered as pending (visible as skipped) unless
 * SPECBASE_REQUIRE_POSTGRES=true, which makes the absence a failure (CI sets it).
 */
export function forEachDatabase(suite: string, body: (target: DatabaseTarget) => void): void {
  for (const target of [sqlite, postgres]) {
    if (target.name === 'postgres' && postgresUrl === '') {
      if (requirePostgres) {
        describe(`${suite} [postgres]`, () => {
          it('needs PostgreSQL: TEST_DATABASE_URL is required when SPECBASE_REQUIRE_POSTGRES=true', () => {
            throw new Error('TEST_DATABASE_URL is not set');
          });
        });
      } else {
        if (!announced) {
          announced = true;
          console.log('\n  PostgreSQL suites skipped: set TEST_DATABASE_URL=postgres://... to run them.\n');
        }
        describe.skip(`${suite} [postgres] (skipped: TEST_DATABASE_URL not set)`, () => {
          it('runs against PostgreSQL');
        });
      }
      continue;
    }
    describe(`${suite} [${target.name}]`, () => body(target));
  }
}
