import type { MigrationInterface, QueryRunner } from 'typeorm';
import { qualified } from './qualified.js';

/**
 * The columns that hold whole documents: megabytes a row, TOASTed on PostgreSQL. Not the history's
 * chunks (`spec_chunks.data`), deflated before they are stored, which pglz gives up on at once.
 */
const DOCUMENT_COLUMNS: readonly (readonly [string, string])[] = [
  ['api_specs', 'source'],
  ['api_specs', 'document'],
  ['api_releases', 'source'],
  ['api_releases', 'document'],
];

/**
 * PostgreSQL: the document columns compressed with LZ4 instead of pglz, the default. An import
 * stores the spec's text and its canonical JSON (GitHub's REST API: 5.7 MB each), and pglz
 * compressing them was a good part of what PostgreSQL's import costs over SQLite's
 * (docs/performance.md, 3). Values written before stay as they are (both read back the same);
 * a server built without LZ4 (or before PostgreSQL 14) keeps pglz. SQLite: nothing to do.
 */
export class Lz4Documents1764400000000 implements MigrationInterface {
  readonly name = 'Lz4Documents1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await compressDocuments(q, 'lz4');
  }

  async down(q: QueryRunner): Promise<void> {
    await compressDocuments(q, 'default');
  }
}

async function compressDocuments(q: QueryRunner, method: 'lz4' | 'default'): Promise<void> {
  if (!(await lz4Available(q))) return;
  for (const [table, column] of DOCUMENT_COLUMNS) await q.query(`ALTER TABLE ${qualified(q, table)} ALTER COLUMN ${q.connection.driver.escape(column)} SET COMPRESSION ${method}`);
}

async function lz4Available(q: QueryRunner): Promise<boolean> {
  if (q.connection.options.type !== 'postgres') return false;
  const rows = (await q.query("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")) as unknown[];
  return rows.length > 0;
}
