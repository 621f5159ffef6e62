import { expect } from 'chai';
import Database from 'better-sqlite3';
import sinon from 'sinon';
import type { MigrationInterface } from 'typeorm';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { freshSqliteImageIn, startFromFreshSqlite } from '../../src/adapters/persistence/fresh-sqlite.js';
import { TypeOrmDatabase, writeFreshSqlite } from '../../src/adapters/persistence/typeorm-database.js';
import { MIGRATIONS } from '../../src/adapters/persistence/migrations/index.js';

/** What a SQLite file holds of its own making: every schema object's SQL, the migrations recorded, and its journal mode. */
function shapeOf(file: string): { objects: unknown[]; migrations: unknown[]; journal: unknown; rows: Record<string, number> } {
  const db = new Database(file, { readonly: true });
  try {
    const objects = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all();
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
    const rows = Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number]));
    return { objects, migrations: db.prepare('SELECT id, timestamp, name FROM migrations ORDER BY id').all(), journal: db.pragma('journal_mode', { simple: true }), rows };
  } finally {
    db.close();
  }
}

/**
 * The fresh SQLite image (`npm run build` makes dist/main/fresh.sqlite): a first start copies it
 * instead of running every migration, and must end up with exactly the database the migrations
 * would have made.
 */
describe('the fresh SQLite image', () => {
  let dir: string;
  let image: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'specbase-fresh-'));
    writeFileSync(join(dir, 'fresh-0123456789abcdef.sqlite'), 'an image of other migrations');
    image = await writeFreshSqlite(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is named by the migrations it holds; an image of other migrations is removed and never found', () => {
    expect(image).to.equal(freshSqliteImageIn(dir)).and.to.match(/fresh-[0-9a-f]{16}\.sqlite$/);
    expect(readdirSync(dir).filter((name) => name.startsWith('fresh-'))).to.deep.equal([basename(image)]);
    class Later1799999999999 {
      readonly name = 'Later1799999999999';
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    }
    (MIGRATIONS as unknown as (new () => MigrationInterface)[]).push(Later1799999999999);
    try {
      expect(freshSqliteImageIn(dir), 'the code with one more migration').to.not.equal(image);
    } finally {
      MIGRATIONS.pop();
    }
    expect(freshSqliteImageIn(dir)).to.equal(image);
  });

  it('is a database with every migration applied and no row but the migrations table', () => {
    expect(existsSync(`${image}-wal`)).to.equal(false);
    const { migrations, journal, rows } = shapeOf(image);
    expect(migrations.map((m) => (m as { name: string }).name)).to.deep.equal(MIGRATIONS.map((m) => new m().name));
    expect(journal).to.equal('wal');
    for (const [table, count] of Object.entries(rows)) expect(count, table).to.equal(table === 'migrations' || table === 'sqlite_sequence' ? count : 0);
  });

  it('gives a first start the schema and migrations the migrations make, runs none of them and reports them all as applied', async () => {
    const migrated = join(dir, 'migrated.sqlite');
    const plain = new TypeOrmDatabase({ kind: 'sqlite', path: migrated });
    await plain.open();
    expect(await plain.migrate()).to.have.length(MIGRATIONS.length);
    await plain.close();

    const started = join(dir, 'started', 'specbase.sqlite');
    const db = new TypeOrmDatabase({ kind: 'sqlite', path: started }, { freshSqlite: image });
    const ups = MIGRATIONS.map((m) => sinon.spy(m.prototype, 'up'));
    await db.open();
    try {
      expect(await db.migrate()).to.deep.equal(MIGRATIONS.map((m) => new m().name));
      expect(ups.filter((up) => up.called)).to.deep.equal([]);
      expect(await db.migrate(), 'the second time').to.deep.equal([]);
      expect(await db.ready()).to.equal(true);
    } finally {
      sinon.restore();
      await db.close();
    }
    expect(shapeOf(started)).to.deep.equal(shapeOf(migrated));
    expect(readdirSync(join(dir, 'started')).filter((name) => name.includes('.fresh-'))).to.deep.equal([]);
  });

  it('never replaces a database that exists: its rows stay', async () => {
    const path = join(dir, 'existing.sqlite');
    const first = new TypeOrmDatabase({ kind: 'sqlite', path });
    await first.open();
    await first.migrate();
    await first.transaction((m) => m.query(`INSERT INTO accounts (creation_date, plan) VALUES ('2026-11-28 00:00:00.000', 'kept')`));
    await first.close();

    const again = new TypeOrmDatabase({ kind: 'sqlite', path }, { freshSqlite: image });
    await again.open();
    try {
      expect(await again.read((m) => m.query<{ plan: string }[]>('SELECT plan FROM accounts'))).to.deep.equal([{ plan: 'kept' }]);
    } finally {
      await again.close();
    }
  });

  it('copies only where nothing of a database is: no file, even empty, and no WAL, shared memory or journal left beside it', () => {
    const path = join(dir, 'copied.sqlite');
    expect([startFromFreshSqlite(path, image), startFromFreshSqlite(path, image)]).to.deep.equal([true, false]);
    expect(shapeOf(path)).to.deep.equal(shapeOf(image));
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    expect(startFromFreshSqlite(empty, image)).to.equal(false);
    for (const beside of ['-wal', '-shm', '-journal']) {
      // A leftover WAL would be replayed over the copy; over a new file SQLite discards it.
      const lonely = join(dir, `lonely${beside}.sqlite`);
      writeFileSync(`${lonely}${beside}`, 'left from a database deleted without it');
      expect(startFromFreshSqlite(lonely, image), beside).to.equal(false);
      expect(existsSync(lonely), beside).to.equal(false);
    }
    expect(readdirSync(dir).filter((name) => name.includes('.fresh-'))).to.deep.equal([]);
  });

  it('never replaces what appeared at the path after it looked (the link fails), and leaves no copy behind', () => {
    // A dangling symbolic link: existsSync follows it and sees nothing, as when another process links its copy in between.
    const path = join(dir, 'raced.sqlite');
    symlinkSync(join(dir, 'nowhere.sqlite'), path);
    expect(startFromFreshSqlite(path, image)).to.equal(false);
    expect(lstatSync(path).isSymbolicLink()).to.equal(true);
    expect(readlinkSync(path)).to.equal(join(dir, 'nowhere.sqlite'));
    expect(readdirSync(dir).filter((name) => name.includes('.fresh-'))).to.deep.equal([]);
  });

  it("makes the file with the process's umask, as SQLite would, not with the image's mode", () => {
    const readOnly = join(dir, 'read-only', 'image.sqlite');
    const path = join(dir, 'from-read-only.sqlite');
    rmSync(dirname(readOnly), { recursive: true, force: true });
    mkdirSync(dirname(readOnly));
    copyFileSync(image, readOnly);
    chmodSync(readOnly, 0o444);
    expect(startFromFreshSqlite(path, readOnly)).to.equal(true);
    expect(statSync(path).mode & 0o777).to.equal(0o666 & ~process.umask());
  });

  it('without an image (code run from src/) leaves the file to the migrations', async () => {
    const path = join(dir, 'no-image.sqlite');
    const db = new TypeOrmDatabase({ kind: 'sqlite', path }, { freshSqlite: join(dir, 'missing.sqlite') });
    await db.open();
    try {
      expect(await db.migrate()).to.have.length(MIGRATIONS.length);
    } finally {
      await db.close();
    }
  });
});
