/**
 * Reads remembered until the database changes. The key of validity is a change version of the
 * database (`TypeOrmDatabase.changeVersion`), taken before the read and compared on every hit, so
 * an entry is never served once a write it could miss has been counted:
 *
 * - SQLite: the database's own counter, read with one prepared statement (about a microsecond):
 *   `total_changes()` counts the rows this connection changed (the server's one connection), and
 *   `data_version` changes when another connection (a `specbase worker`, the CLI) commits. Exact.
 * - PostgreSQL: PostgresChangeVersion, bumped by this process right after its own commits (exact
 *   read-your-writes) and by NOTIFY from triggers for other instances' commits (a few milliseconds
 *   behind them); a fresh value per call while not listening, so nothing is served then.
 *
 * Under a read-mostly load repeated reads cost no query; under writes they cost a miss. The
 * repositories use it as decorators (cached-repositories.ts), outside transactions only.
 */
interface Entry {
  readonly version: string;
  readonly value: unknown;
  /** `placed` when the entry was last put at the end of the order. */
  at: number;
}

export class ReadCache {
  /** In order of use, least recent first (a Map iterates in insertion order). */
  private readonly entries = new Map<string, Entry>();
  /** Entries put at the end of the order so far. */
  private placed = 0;

  /**
   * @param version the database's change version (`TypeOrmDatabase.changeVersion`)
   * @param maxEntries least recently used entries go first; an entry used again while fewer than
   *   half this many others were put after it keeps its place (it is that far from going), which
   *   spares the hot path moving it on every hit
   */
  constructor(
    private readonly version: () => string,
    private readonly maxEntries = 1_000,
  ) {}

  /** The value remembered for `key` (`null`: remembered as not found), if nothing changed in the database since it was read. */
  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== this.version()) return undefined;
    if (this.placed - entry.at > this.maxEntries / 2) {
      this.entries.delete(key);
      entry.at = ++this.placed;
      this.entries.set(key, entry);
    }
    return entry.value as T;
  }

  /**
   * `read()`, remembered under `key` at the version taken just before it (call this where the read
   * runs: on SQLite under the database lock). Nothing found (`undefined`) is remembered too. What
   * `read` returns must not be changed afterwards by anyone.
   */
  async remember<T>(key: string, read: () => Promise<T>): Promise<T> {
    const version = this.version();
    const value = await read();
    this.entries.delete(key);
    this.entries.set(key, { version, value: value ?? null, at: ++this.placed });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
    return value;
  }
}
