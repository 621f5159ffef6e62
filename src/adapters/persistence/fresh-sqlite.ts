import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from './migrations/index.js';

/**
 * The fresh SQLite image's file in `dir`: `fresh-<fingerprint>.sqlite`, the fingerprint taken from
 * the names of the migrations this code has, in order. An image made by other code (older, newer,
 * or a branch whose migrations differ) has another name, so it is never found: an image is only
 * ever a database with exactly this code's migrations applied.
 */
export function freshSqliteImageIn(dir: string): string {
  const names = MIGRATIONS.map((migration) => new migration().name ?? migration.name).join('\n');
  return join(dir, `fresh-${createHash('sha256').update(names).digest('hex').slice(0, 16)}.sqlite`);
}

/** The image next to the module at `moduleUrl` (dist/main/ for the build), or undefined where that is not a file. */
export function freshSqliteImageBeside(moduleUrl: string): string | undefined {
  return moduleUrl.startsWith('file:') ? freshSqliteImageIn(fileURLToPath(new URL('.', moduleUrl))) : undefined;
}

/**
 * Copies the fresh SQLite image at `image` (a database with every migration applied and nothing
 * else in it: `writeFreshSqlite`, made by `npm run build` in dist/main/) to `path` when there is
 * no database there yet; returns whether it did. A first start then opens a database whose
 * migrations are all recorded, as a restart does, instead of running them one by one: on SQLite
 * TypeORM rebuilds a table for every column a migration adds, 30-45 ms of a first start on a
 * 2-core machine against about a millisecond for the copy (docs/performance.md, 7b).
 *
 * Not when anything of a database is at `path`: the file, or a `-wal`, `-shm` or `-journal` left
 * beside it (SQLite would replay a leftover WAL over the copy, where it discards it for a new
 * file). The copy is written beside `path` with the process's umask (as SQLite creates a file, not
 * with the image's mode) and linked into place, which fails if `path` appeared meanwhile (another
 * process starting on the same file): nobody opens a half-copied file, and a file that exists is
 * never replaced. Without an image (code run from src/) or where the copy or the link cannot be
 * made, nothing happens and the migrations make the schema as before.
 */
export function startFromFreshSqlite(path: string, image: string): boolean {
  if (!existsSync(image) || [path, `${path}-wal`, `${path}-shm`, `${path}-journal`].some((file) => existsSync(file))) return false;
  const copy = `${path}.fresh-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(copy, readFileSync(image), { flag: 'wx', mode: 0o666 });
    linkSync(copy, path);
    return true;
  } catch {
    // EEXIST: another process made the file first; anything else: SQLite and the migrations make it.
    return false;
  } finally {
    try {
      unlinkSync(copy);
    } catch {
      // Never made.
    }
  }
}
