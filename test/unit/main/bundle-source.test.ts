import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { BIN, ensureBuilt, ROOT } from '../../support/built-cli.js';

const { asciiSource } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)) as { asciiSource: (source: string) => string };

describe('the command bundle: an ASCII source', () => {
  it('escapes characters above U+007F so that regular expressions and strings mean what they meant', () => {
    const source = "const a = /ẞ|…|😀|é/g; const b = /[“”]/u; // a — comment\nconst c = 'ü';";
    const escaped = asciiSource(source);
    expect(escaped).to.not.match(/[\u0080-\uffff]/);
    const run = (text: string) => JSON.parse(runInNewContext(`${text}; JSON.stringify(['xẞy…😀é'.replace(a, '_'), b.test('“'), c])`) as string) as unknown[];
    expect(run(escaped)).to.deep.equal(run(source)).and.to.deep.equal(['x_y___', true, 'ü']);
    expect(escaped).to.include('// a \\u2014 comment');
  });

  it('refuses a character above U+007F written after a backslash (its escape would mean something else)', () => {
    expect(() => asciiSource('const a = /\\…/;')).to.throw(/after a backslash/);
    expect(() => asciiSource('const a = /\\é/;')).to.throw(/after a backslash/);
  });

  it('holds no character above U+007F in the built bundle: read as latin1 it is the source UTF-8 would give, and V8 keeps it as a one-byte string', function () {
    this.timeout(180_000);
    ensureBuilt();
    const bytes = readFileSync(BIN.replace(/\.js$/, '.cjs'));
    expect(bytes.length).to.be.greaterThan(1_000_000);
    expect(bytes.findIndex((byte) => byte > 0x7f)).to.equal(-1);
    expect(bytes.toString('latin1')).to.equal(bytes.toString('utf8'));
  });
});

describe('the build: the fresh SQLite image', () => {
  it('is made next to the command with every migration the code knows applied, so that a first start runs none', async function () {
    this.timeout(180_000);
    ensureBuilt();
    const { default: Database } = await import('better-sqlite3');
    const { MIGRATIONS } = await import('../../../src/adapters/persistence/migrations/index.js');
    const { freshSqliteImageIn } = await import('../../../src/adapters/persistence/fresh-sqlite.js');
    // Read from a copy: a reader of a WAL database leaves -shm and -wal files beside it.
    const dir = mkdtempSync(join(tmpdir(), 'specbase-image-'));
    copyFileSync(freshSqliteImageIn(join(ROOT, 'dist/main')), join(dir, 'fresh.sqlite'));
    const image = new Database(join(dir, 'fresh.sqlite'), { readonly: true, fileMustExist: true });
    try {
      expect(image.prepare('SELECT name FROM migrations ORDER BY id').pluck().all()).to.deep.equal(MIGRATIONS.map((m) => new m().name));
    } finally {
      image.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
