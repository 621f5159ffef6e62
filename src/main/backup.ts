import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { SEALED_PREFIX } from '../adapters/persistence/secret-box.js';

/**
 * `specbase backup`: a SQLite database copied while the server may be running and writing, with
 * SQLite's online backup API (better-sqlite3's `backup`): pages are copied in steps and the copy
 * starts over when another connection writes in between, so the file it leaves is one consistent
 * state of the database, whatever was in the write-ahead log included. The target must not exist.
 * The backup holds the secrets sealed: it is read with the operator keys it was sealed with, whose
 * ids it returns (docs/operations.md, "SQLite: backup and restore").
 */
export async function backupSqlite(source: string, target: string): Promise<{ readonly bytes: number; readonly secretsKeyIds: readonly string[] }> {
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
  let secretsKeyIds: string[];
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new Error(`the backup at ${target} fails its integrity check: ${String(result)}`);
    // The keys the copy's secrets are sealed with, as the copy says (not the process's configuration).
    const id = (column: string) => `SELECT DISTINCT substr(${column}, ${SEALED_PREFIX.length + 1}, 16) AS id FROM`;
    secretsKeyIds = check
      .prepare(`${id('secret')} webhooks WHERE secret LIKE '${SEALED_PREFIX}%' UNION ${id('private_key_pem')} signing_keys WHERE private_key_pem LIKE '${SEALED_PREFIX}%' ORDER BY id`)
      .pluck()
      .all() as string[];
  } finally {
    check.close();
  }
  return { bytes: statSync(target).size, secretsKeyIds };
}
