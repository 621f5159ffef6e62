import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerViolations } from '../support/import-graph.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

describe('architecture: the dependency rule', () => {
  it('holds for src/: no layer imports what it may not', () => {
    expect(layerViolations(SRC)).to.deep.equal([]);
  });

  describe('the check itself catches each kind of breach', () => {
    let root: string;
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    before(() => {
      root = mkdtempSync(join(tmpdir(), 'specbase-arch-'));
      write('domain/ok.ts', "import { x } from './other.js';\n");
      write('domain/bad.ts', "import { DataSource } from 'typeorm';\nimport { readFile } from 'node:fs/promises';\nexport * from '../application/use.js';\n");
      write('application/bad.ts', "import Koa from 'koa';\nimport type { Container } from 'inversify';\nconst pg = await import('pg');\nimport { x } from '../adapters/http/app.js';\n");
      write('application/more.ts', "import { SignJWT } from 'jose';\nimport Database from 'better-sqlite3';\nimport sqlite3 from 'sqlite3';\nimport http from 'node:http';\n");
      write('adapters/http/bad.ts', "import { TypeOrmDatabase } from '../persistence/db.js';\nimport Koa from 'koa';\nimport { Mutex } from '../shared/mutex.js';\n");
      write('main/ok.ts', "import { TypeOrmDatabase } from '../adapters/persistence/db.js';\nimport { Container } from 'inversify';\n");
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('reports exactly the forbidden imports', () => {
      const found = layerViolations(root).map((v) => `${v.file}: ${v.specifier}`);
      expect(found.sort()).to.deep.equal(
        [
          'domain/bad.ts: typeorm',
          'domain/bad.ts: node:fs/promises',
          'domain/bad.ts: ../application/use.js',
          'application/bad.ts: koa',
          'application/bad.ts: inversify',
          'application/bad.ts: pg',
          'application/bad.ts: ../adapters/http/app.js',
          'application/more.ts: jose',
          'application/more.ts: better-sqlite3',
          'application/more.ts: sqlite3',
          'application/more.ts: node:http',
          'adapters/http/bad.ts: ../persistence/db.js',
        ].sort(),
      );
    });
  });
});
