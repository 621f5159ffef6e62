import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';

/**
 * `specbase backup`: a SQLite database copied while the server may be running and writing, with
 * SQLite's online backup API (better-sqlite3's `backup`): pages are copied in steps and the copy
 * starts over when another connection writes in between, so the file it leaves is one consistent
 * state of the database, whatever was in the write-ahead log included. The target must not exist.
 * The backup holds the secrets sealed: it is read with the operator key it was sealed with
 * (docs/operations.md, "SQLite: backup and restore").
 */
export async function backupSqlite(source: string, target: string): Promise<{ readonly bytes: number }> {
  if (!existsSync(source)) throw new Error(`there is no database at ${source}`);
  if (existsSync(target)) throw new Error(`${target} exists: a backup never overwrites a file`);
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target);
  } finally {
    db.close();
  }
  const check = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`the backup at ${target} fails its integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
  return { bytes: statSync(target).size };
}
