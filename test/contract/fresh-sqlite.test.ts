import { expect } from 'chai';
import Database from 'better-sqlite3';
import sinon from 'sinon';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFromFreshSqlite } from '../../src/adapters/persistence/fresh-sqlite.js';
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
    image = join(dir, 'fresh.sqlite');
    await writeFreshSqlite(image);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

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

  it('copies only where no file is, once among starts racing for the same path, and never a half-made file', () => {
    const path = join(dir, 'raced.sqlite');
    expect([startFromFreshSqlite(path, image), startFromFreshSqlite(path, image)]).to.deep.equal([true, false]);
    expect(shapeOf(path)).to.deep.equal(shapeOf(image));
    const empty = join(dir, 'empty.sqlite');
    writeFileSync(empty, '');
    expect(startFromFreshSqlite(empty, image)).to.equal(false);
    expect(readdirSync(dir).filter((name) => name.includes('.fresh-'))).to.deep.equal([]);
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
