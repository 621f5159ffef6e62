/**
 * Reads of SQLite remembered until anything in the database changes. The key of validity is the
 * database's own change counter, read with one prepared statement (about a microsecond):
 * `total_changes()` counts the rows this connection inserted, updated or deleted (the server's
 * one connection), and `data_version` changes when another connection (a `specbase worker`, the
 * CLI) commits. So an entry can never be stale: a write anywhere, committed or about to be,
 * changes the counter and every entry misses. Under a read-mostly load repeated reads cost no
 * query; under writes it costs one cheap statement per read. PostgreSQL has no such local counter
 * and is not cached (docs/performance.md).
 */
export class SqliteReadCache {
  private readonly entries = new Map<string, { readonly version: string; readonly value: unknown }>();

  /**
   * @param version the database's change counter (`TypeOrmDatabase.sqliteVersion`)
   * @param maxEntries least recently used entries go first
   */
  constructor(
    private readonly version: () => string,
    private readonly maxEntries = 1_000,
  ) {}

  /** The value remembered for `key`, if nothing changed in the database since it was read. */
  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== this.version()) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  /** The version to pass to `put`: take it under the database lock, before the read. */
  current(): string {
    return this.version();
  }

  /** Remembers what was read at `version`; values must not be changed afterwards by anyone. */
  put(key: string, version: string, value: unknown): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
