import { expect } from 'chai';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { BIN, ensureBuilt, ROOT } from '../../support/built-cli.js';

const { latin1Source } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)) as { latin1Source: (source: string) => string };

describe('the command bundle: a one-byte source', () => {
  it('escapes characters above U+00FF so that regular expressions and strings mean what they meant', () => {
    const source = "const a = /ẞ|…|😀/g; const b = /[“”]/u; // a — comment\nconst c = 'ü';";
    const escaped = latin1Source(source);
    expect(escaped).to.not.match(/[\u0100-\uffff]/);
    const run = (text: string) => JSON.parse(runInNewContext(`${text}; JSON.stringify(['xẞy…😀'.replace(a, '_'), b.test('“'), c])`) as string) as unknown[];
    expect(run(escaped)).to.deep.equal(run(source)).and.to.deep.equal(['x_y__', true, 'ü']);
    expect(escaped).to.include('// a \\u2014 comment');
  });

  it('refuses a character above U+00FF written after a backslash (its escape would mean something else)', () => {
    expect(() => latin1Source('const a = /\\…/;')).to.throw(/after a backslash/);
  });

  it('holds no character above U+00FF in the built bundle, which V8 would keep as a two-byte string (17.6 MB, not 8.8)', function () {
    this.timeout(180_000);
    ensureBuilt();
    const bundle = readFileSync(BIN.replace(/\.js$/, '.cjs'), 'utf8');
    expect(bundle.length).to.be.greaterThan(1_000_000);
    expect(/[\u0100-\uffff]/.exec(bundle)?.[0]).to.equal(undefined);
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
