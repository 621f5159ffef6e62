import type pg from 'pg';

let loaded: typeof pg | undefined;

/**
 * node-postgres, imported when PostgreSQL is first used rather than with the module: importing it
 * looks for Cloudflare Workers by making a fetch `Response`, which loads Node's fetch (undici),
 * 30 ms of a SQLite start that never needs either (docs/performance.md, 7b). TypeORM's own driver
 * loads it the same way, when a PostgreSQL data source is made.
 */
export async function importPg(): Promise<typeof pg> {
  loaded ??= (await import('pg')).default;
  return loaded;
}

/** node-postgres once `importPg` has loaded it; throws before. */
export function loadedPg(): typeof pg {
  if (loaded === undefined) throw new Error('node-postgres is used before importPg() loaded it');
  return loaded;
}
