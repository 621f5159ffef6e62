import type { MigrationInterface, QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * `apis.allow_removal_after_sunset` (issue 42): whether the API's breaking-change policy lets an
 * operation removed after its `x-sunset` day through. False for every API, and by default, so a
 * row written without it (a process of the version before, during a rolling start on PostgreSQL)
 * keeps the policy as it was.
 */
export class RemovalAfterSunset1764700000000 implements MigrationInterface {
  readonly name = 'RemovalAfterSunset1764700000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    // Plain ALTER TABLE, in place on both databases (TypeORM's addColumn copies the table on SQLite).
    await q.query(`ALTER TABLE ${qualified(q, 'apis')} ADD COLUMN allow_removal_after_sunset boolean NOT NULL DEFAULT ${pg ? 'false' : '0'}`);
    await q.getTables(['apis']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${qualified(q, 'apis')} DROP COLUMN allow_removal_after_sunset`);
    // The query runner's cached table still has the column; a later down that rebuilds apis on SQLite would bring it back.
    await q.getTables(['apis']);
  }
}
