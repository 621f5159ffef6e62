import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type pg from 'pg';
import { DataSource, type AfterQueryEvent, type DataSourceOptions, type EntityManager, type EntitySubscriberInterface } from 'typeorm';
import { Mutex } from '../shared/mutex.js';
import type { Dialect } from './dialect.js';
import { SecretBox } from './secret-box.js';
import { StoredSecrets } from './stored-secrets.js';
import { isConnectionFailure } from './connection-errors.js';
import { StorageUnavailableError } from '../../application/ports/unit-of-work.port.js';
import { MIGRATIONS } from './migrations/index.js';
import { PostgresChangeVersion, type PostgresChangeVersionOptions } from './postgres-change-version.js';
import { importPg, loadedPg } from './pg-driver.js';
import { schemas, type Schemas } from './schema.js';
import { freshSqliteImageIn, startFromFreshSqlite } from './fresh-sqlite.js';

export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string; readonly cacheMb?: number | undefined }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string | undefined; readonly poolSize?: number | undefined };

interface VersionStatement {
  get(): unknown;
}

export interface TypeOrmDatabaseOptions {
  /**
   * PostgreSQL: keep a change version for ReadCache (`changeVersion`), which costs one more
   * connection that LISTENs. Without it `changeVersion` never repeats, so nothing is cached.
   */
  readonly trackChanges?: boolean;
  readonly changes?: PostgresChangeVersionOptions;
  /**
   * Seals webhook secrets and private signing keys at rest with the operator's key. Default: a
   * key made for this instance alone, which nothing after it can read (tests, throwaway databases).
   */
  readonly secrets?: SecretBox;
  /**
   * SQLite: a fresh image (`writeFreshSqlite`) copied in place of a database file that does not
   * exist yet, so that a first start does not run every migration (`startFromFreshSqlite`).
   */
  readonly freshSqlite?: string;
}

/** SQLite's page cache per connection unless SQLITE_CACHE_MB says otherwise. */
export const DEFAULT_SQLITE_CACHE_MB = 4;

/** Runs `work` with an entity manager: outside a transaction, or inside one. */
export type Run = <T>(work: (manager: EntityManager) => Promise<T>) => Promise<T>;

/** PostgreSQL's timestamp and timestamptz type ids. */
const TIMESTAMP_TYPES = new Set([1114, 1184]);

/**
 * Timestamps reach the repositories as PostgreSQL's text ("2026-11-22 10:15:00.123+00"), which the
 * column transformer and `dateOf` turn into a Date with the built-in parser. pg's own parsing
 * (postgres-date) made the most short-lived garbage of the PostgreSQL read path under load
 * (docs/performance.md). Set on this pool only, not on pg's global type table.
 */
const asText = (value: string): string => value;
const TEXT_TIMESTAMPS = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    TIMESTAMP_TYPES.has(oid) ? asText : (loadedPg().types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

/** Any 32-bit key of our own: serialises migrations of instances starting together on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 0x5bec_ba5e & 0x7fffffff;

/**
 * The TypeORM data source for SQLite (better-sqlite3) or PostgreSQL, with the one rule that makes
 * SQLite safe: TypeORM drives it through a single shared connection, so every read and every
 * transaction takes the same lock. Without it, a read could see another request's uncommitted
 * writes, and two transactions would collide on the one connection.
 */
export class TypeOrmDatabase {
  readonly dialect: Dialect;
  readonly schemas: Schemas;
  readonly dataSource: DataSource;
  readonly secrets: SecretBox;
  private readonly lock: Mutex | undefined;
  private readonly changes: PostgresChangeVersion | undefined;
  private readonly freshSqlite: string | undefined;
  /** Whether `open` made the file from the fresh image, until `migrate` has reported the image's migrations. */
  private startedFresh = false;
  private untracked = 0;

  constructor(
    private readonly config: DatabaseConfig,
    tracking: TypeOrmDatabaseOptions = {},
  ) {
    this.dialect = config.kind;
    this.schemas = schemas(this.dialect);
    this.secrets = tracking.secrets ?? SecretBox.throwaway();
    this.freshSqlite = tracking.freshSqlite;
    const entities = Object.values(this.schemas);
    const options: DataSourceOptions =
      config.kind === 'sqlite'
        ? {
            type: 'better-sqlite3',
            database: config.path,
            entities,
            migrations: MIGRATIONS,
            enableWAL: config.path !== ':memory:',
            prepareDatabase: (db: { pragma(source: string): unknown }) => {
              db.pragma('foreign_keys = ON');
              db.pragma('synchronous = NORMAL');
              db.pragma('busy_timeout = 5000');
              // SQLITE_CACHE_MB: better-sqlite3 builds SQLite with a 16 MB page cache; pages it
              // does not hold come from the operating system's file cache.
              db.pragma(`cache_size = ${-1024 * (config.cacheMb ?? DEFAULT_SQLITE_CACHE_MB)}`);
            },
          }
        : {
            type: 'postgres',
            url: config.url,
            ...(config.schema ? { schema: config.schema } : {}),
            entities,
            migrations: MIGRATIONS,
            // A connection that does not come within 5 s fails (a stopped server accepts TCP and never
            // answers); TCP keepalive from 10 s of silence finds a connection that died without a word.
            extra: { max: config.poolSize ?? 10, types: TEXT_TIMESTAMPS, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 },
          };
    this.dataSource = new DataSource(options);
    this.lock = config.kind === 'sqlite' ? new Mutex() : undefined;
    this.changes = config.kind === 'postgres' && tracking.trackChanges === true ? new PostgresChangeVersion(config.url, tracking.changes) : undefined;
  }

  /**
   * What ReadCache keys on: a string that changes whenever a row the cached reads return may have
   * changed, taken before the read. SQLite: the database's own counter (`sqliteVersion`), exact
   * across processes. PostgreSQL: PostgresChangeVersion, exact for this process's writes and a
   * NOTIFY's delivery behind for other instances' (docs/architecture.md); a new value on every call
   * when changes are not tracked or not being heard.
   */
  changeVersion(): string {
    if (this.dialect === 'sqlite') return this.sqliteVersion();
    return this.changes?.version() ?? `untracked:${++this.untracked}`;
  }

  /** PostgreSQL with `trackChanges`: the change version, for tests and diagnostics. */
  get postgresChanges(): PostgresChangeVersion | undefined {
    return this.changes;
  }

  /**
   * SQLite only: a string that changes whenever a row of the database changes, from this
   * connection (`total_changes()`) or another (`data_version`).
   *
   * Read once per turn of the event loop: the value is kept until the next `setImmediate`, or
   * until any SQLite connection of this process runs a statement (before and after it:
   * `forgetSqliteVersions`, subscribed in `open`), since only a statement of ours can change
   * `total_changes()` and a commit of another connection of ours must show at once. Another
   * process's commit is seen from the next turn on. Nothing that follows that commit can reach
   * this process sooner: a request sent after it was not among the events this turn's poll picked
   * up before the value was read. The statement cost 3-5 µs a call, 10% of a cached read's CPU
   * time.
   */
  sqliteVersion(): string {
    if (this.version !== undefined) return this.version;
    if (this.versionStatements === undefined) {
      const connection = (this.dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): { pluck(): VersionStatement } } }).databaseConnection;
      // Two statements rather than one over pragma_data_version: the table-valued function cost
      // 2.7 µs a call, the PRAGMA 1.7 µs and total_changes() 0.06 µs (better-sqlite3, this machine).
      this.versionStatements = [connection.prepare('SELECT total_changes()').pluck(), connection.prepare('PRAGMA data_version').pluck()];
    }
    const [changes, dataVersion] = this.versionStatements;
    const version = `${String(changes.get())}:${String(dataVersion.get())}`;
    this.version = version;
    remembering.add(this);
    setImmediate(forgetSqliteVersions);
    return version;
  }

  private versionStatements: readonly [VersionStatement, VersionStatement] | undefined;
  /** @internal the version read in this turn, if any (see sqliteVersion) */
  version: string | undefined;

  /** The PostgreSQL schema (DATABASE_SCHEMA) tables live in, if one is set. */
  get schemaName(): string | undefined {
    return this.config.kind === 'postgres' ? this.config.schema : undefined;
  }

  /** Connects; `migrate` applies the schema. */
  async open(): Promise<void> {
    if (this.dataSource.isInitialized) return;
    if (this.config.kind === 'sqlite' && this.config.path !== ':memory:') {
      mkdirSync(dirname(this.config.path), { recursive: true });
      if (this.freshSqlite !== undefined) this.startedFresh ||= startFromFreshSqlite(this.config.path, this.freshSqlite);
    }
    // The pool's type parsers (TEXT_TIMESTAMPS) take node-postgres's own for all but timestamps.
    if (this.config.kind === 'postgres') await importPg();
    if (this.config.kind === 'postgres' && this.config.schema) await createSchema(this.config.url, this.config.schema);
    await this.dataSource.initialize();
    if (this.dialect === 'sqlite') this.dataSource.subscribers.push({ beforeQuery: forgetSqliteVersions, afterQuery: forgetSqliteVersions });
    if (this.changes !== undefined) {
      this.dataSource.subscribers.push(bumpAfterWrites(this.changes));
      await this.changes.start();
    }
  }

  /**
   * Applies pending migrations and returns the names of those this database got: the ones run,
   * and on a SQLite file this process started from the fresh image, the image's before them. Then
   * seals the secrets stored in clear (before issue 14) and checks that every stored secret opens
   * with a key this process was given, throwing SecretsKeyError if not. Safe with several
   * instances starting at once.
   */
  async migrate(): Promise<string[]> {
    if (this.dialect === 'sqlite') {
      const applied = await this.exclusive(() => this.dataSource.runMigrations({ transaction: 'all' }));
      await new StoredSecrets(this).sealAndCheck();
      if (!this.startedFresh) return applied.map((m) => m.name);
      this.startedFresh = false;
      return (await this.read((m) => m.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id'))).map((row) => row.name);
    }
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const applied = await this.dataSource.runMigrations({ transaction: 'all' });
      await new StoredSecrets(this).sealAndCheck();
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await runner.release();
    }
  }

  async close(): Promise<void> {
    this.versionStatements = undefined;
    this.version = undefined;
    await this.changes?.stop();
    if (this.dataSource.isInitialized) await this.exclusive(() => this.dataSource.destroy());
  }

  /** Whether the database answers a trivial query. */
  async ping(): Promise<boolean> {
    try {
      await this.read((m) => m.query('SELECT 1'));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether the database answers and every migration this code knows is recorded as applied: what
   * `/readyz` asks. Reads the migrations table only (TypeORM's `showMigrations` would create it).
   */
  async ready(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    const schema = this.schemaName;
    const table = schema ? `"${schema.replaceAll('"', '""')}"."migrations"` : '"migrations"';
    try {
      const rows = await this.read((m) => m.query<{ name: string }[]>(`SELECT name FROM ${table}`));
      const applied = new Set(rows.map((row) => row.name));
      return this.dataSource.migrations.every((migration) => applied.has(migration.name ?? migration.constructor.name));
    } catch {
      return false;
    }
  }

  /** Outside a transaction; a connection-level failure becomes StorageUnavailableError. */
  readonly read: Run = (work) => this.exclusive(() => work(this.dataSource.manager)).catch(unavailable);

  /** In one transaction; a connection-level failure becomes StorageUnavailableError. */
  readonly transaction: Run = (work) => this.exclusive(() => this.dataSource.transaction((manager) => work(manager))).catch(unavailable);

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.lock ? this.lock.run(work) : work();
  }
}

/**
 * Writes the fresh SQLite image of this code's migrations into `dir` (`freshSqliteImageIn`) and
 * returns its path: a new database with every migration applied, closed, with no WAL beside it;
 * what `freshSqlite` copies for a first start. Images of other migrations in `dir` are removed.
 * `npm run build` makes the one in dist/main/ with it (scripts/bundle.mjs).
 */
export async function writeFreshSqlite(dir: string): Promise<string> {
  const image = freshSqliteImageIn(dir);
  const building = `${image}.building-${process.pid}`;
  rmSync(building, { force: true });
  const db = new TypeOrmDatabase({ kind: 'sqlite', path: building });
  try {
    await db.open();
    await db.migrate();
  } finally {
    await db.close();
  }
  for (const beside of ['-wal', '-shm']) if (existsSync(`${building}${beside}`)) throw new Error(`${building}${beside} was left after closing the image`);
  for (const name of readdirSync(dir)) if (/^fresh-[0-9a-f]{16}\.sqlite(-wal|-shm)?$/.test(name) && join(dir, name) !== image) rmSync(join(dir, name), { force: true });
  renameSync(building, image);
  return image;
}

/** Rethrows `error`, as StorageUnavailableError when the database did not answer. */
function unavailable(error: unknown): never {
  throw isConnectionFailure(error) && !(error instanceof StorageUnavailableError) ? new StorageUnavailableError(error) : error;
}

/** Command tags of statements that change no row: anything else counts as a write. */
const READ_ONLY_COMMANDS = new Set(['SELECT', 'SHOW', 'START', 'BEGIN', 'SET', 'SAVEPOINT', 'RELEASE', 'ROLLBACK', 'LISTEN']);

/**
 * A statement that writes `rate_limits` and nothing else: no cached read returns that table and
 * no foreign key leads from it, while the rate limiters write it on most requests on PostgreSQL
 * (BatchedRateLimiter every FLUSH_EVERY_MS): counting those would empty the cache as often.
 */
const RATE_LIMITS_WRITE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"(?:[^"]|"")*"\.)?"?rate_limits"?[\s(]/i;

/** The SQLite databases of this process holding a version read in this turn (sqliteVersion). */
const remembering = new Set<TypeOrmDatabase>();

function forgetSqliteVersions(): void {
  for (const db of remembering) db.version = undefined;
  remembering.clear();
}

/**
 * Every statement of this process passes through a TypeORM query runner; this bumps the change
 * version right after a write outside a transaction, or the COMMIT of a transaction that wrote,
 * returns (before the caller goes on to answer), whether it succeeded or not: a bump too many
 * costs a cache miss, one too late a stale read. Inside a transaction nothing is visible to
 * other connections until COMMIT.
 */
function bumpAfterWrites(changes: PostgresChangeVersion): EntitySubscriberInterface {
  const wrote = new WeakSet<object>();
  return {
    afterQuery(event: AfterQueryEvent): void {
      const runner = event.queryRunner;
      const command = (event.rawResults as { command?: string } | undefined)?.command;
      if (runner.isTransactionActive) {
        if (event.query === 'COMMIT' || event.query === 'ROLLBACK') {
          if (wrote.delete(runner) && event.query === 'COMMIT') changes.bump();
        } else if (isWrite(event.query, command)) wrote.add(runner);
      } else if (isWrite(event.query, command)) changes.bump();
    },
  };
}

/** `command`: pg's command tag, undefined when the statement failed (then it counts, to be safe). */
function isWrite(query: string, command: string | undefined): boolean {
  return !(command !== undefined && READ_ONLY_COMMANDS.has(command)) && !RATE_LIMITS_WRITE.test(query);
}

async function createSchema(url: string, schema: string): Promise<void> {
  const client = new (await importPg()).Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.escapeIdentifier(schema)}`);
  } finally {
    await client.end();
  }
}

/** PostgreSQL text cannot hold U+0000 and refuses a query comparing with it; to a repository such a key is simply not there. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

/** A unique-constraint violation, as either driver reports it. */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } } | undefined)?.driverError ?? error;
  const code = (driverError as { code?: string } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
