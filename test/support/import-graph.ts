import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface Violation {
  readonly file: string;
  readonly specifier: string;
  readonly rule: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static and dynamic imports, re-exports, `import x = require()`. */
function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName);
}

/** `domain`, `application`, `adapters/<name>`, `main` or `root` for a path under src/. */
function layerOf(srcRoot: string, file: string): string {
  const parts = relative(srcRoot, file).split(sep);
  if (parts[0] === 'adapters') return `adapters/${parts[1] ?? ''}`;
  return parts.length > 1 ? (parts[0] ?? 'root') : 'root';
}

/**
 * The dependency rule of DESIGN.md, checked on the import graph of `srcRoot`:
 * domain imports only domain; application imports domain and application; neither imports any
 * package or node: module (so no koa, typeorm, inversify, pg, sqlite3, jose or I/O); an adapter
 * imports the core, its own folder and adapters/shared, never another adapter; only main (and the
 * package entry) imports adapters.
 */
export function layerViolations(srcRoot: string): Violation[] {
  const violations: Violation[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const from = layerOf(srcRoot, file);
    for (const specifier of specifiers(file)) {
      const report = (rule: string) => violations.push({ file: relative(srcRoot, file).split(sep).join('/'), specifier, rule });
      const isRelative = specifier.startsWith('.');
      if (!isRelative) {
        if (from === 'domain' || from === 'application') report(`${from} may not import packages or node: modules`);
        continue;
      }
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(srcRoot + sep)) {
        report('imports from outside src/');
        continue;
      }
      const to = layerOf(srcRoot, target);
      const allowed: Record<string, (to: string) => boolean> = {
        domain: (t) => t === 'domain',
        application: (t) => t === 'domain' || t === 'application',
        main: () => true,
        root: () => true,
      };
      const check = allowed[from] ?? ((t: string) => t === 'domain' || t === 'application' || t === from || t === 'adapters/shared');
      if (!check(to)) report(`${from} may not import ${to}`);
    }
  }
  return violations;
}
