import { copyFileSync, existsSync, linkSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * Copies the fresh SQLite image at `image` (a database with every migration applied and nothing
 * else in it: `writeFreshSqlite`, made by `npm run build` as dist/main/fresh.sqlite) to `path`
 * when `path` does not exist; returns whether it did. A first start then opens a database whose
 * migrations are all recorded, as a restart does, instead of running them one by one: on SQLite
 * TypeORM rebuilds a table for every column a migration adds, 30-45 ms of a first start on a
 * 2-core machine against about a millisecond for the copy (docs/performance.md, 7b). An image made
 * by older code is only a database some migrations behind, which `migrate` brings up to date.
 *
 * The copy is made beside `path` and linked into place, which fails if `path` appeared meanwhile
 * (another process starting on the same file): nobody opens a half-copied file, and a file that
 * exists is never replaced. Without an image (code run from src/) or where the copy or the link
 * cannot be made, nothing happens and the migrations make the schema as before.
 */
export function startFromFreshSqlite(path: string, image: string): boolean {
  if (existsSync(path) || !existsSync(image)) return false;
  const copy = `${path}.fresh-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    copyFileSync(image, copy);
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
