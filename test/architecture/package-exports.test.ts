import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as specbase from '../../src/index.js';
import { ROOT } from '../support/built-cli.js';

const PORTS = join(ROOT, 'src/application/ports');

/** The names a module exports, types included, as the compiler sees them. */
function exportedNames(checker: ts.TypeChecker, file: ts.SourceFile): string[] {
  const symbol = checker.getSymbolAtLocation(file);
  if (!symbol) throw new Error(`${file.fileName} is not a module`);
  return checker.getExportsOfModule(symbol).map((s) => s.name);
}

describe('the package entry (src/index.ts)', () => {
  it('exports every name of every port: interfaces, their tokens and the types they speak', async function () {
    this.timeout(60_000);
    const portFiles = readdirSync(PORTS).filter((f) => f.endsWith('.port.ts')).map((f) => join(PORTS, f));
    const entry = join(ROOT, 'src/index.ts');
    const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, noEmit: true, noLib: true, types: [] };
    // Only our own files' exports matter: packages' declarations are stubbed, which saves most of the time.
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, ...rest) =>
      fileName.includes('/node_modules/') ? ts.createSourceFile(fileName, 'export {};', language) : read(fileName, language, ...rest);
    const program = ts.createProgram([entry, ...portFiles], options, host);
    const checker = program.getTypeChecker();
    const fromEntry = new Set(exportedNames(checker, program.getSourceFile(entry)!));
    const missing: string[] = [];
    let counted = 0;
    for (const file of portFiles) {
      const names = exportedNames(checker, program.getSourceFile(file)!);
      expect(names, file).to.not.be.empty;
      counted += names.length;
      for (const name of names) if (!fromEntry.has(name)) missing.push(`${name} (${file.slice(PORTS.length + 1)})`);
      // The runtime half: each value is there, and a token (a registered symbol) is the port's own.
      // (A dynamic import under tsx loads a second instance of the module: objects compare unequal.)
      const module = (await import(file.replace(/\.ts$/, '.js'))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        const exported = (specbase as Record<string, unknown>)[name];
        if (typeof value === 'symbol') expect(exported, name).to.equal(value);
        else expect(typeof exported, name).to.equal(typeof value);
      }
    }
    expect(missing).to.deep.equal([]);
    expect(counted, "names found in the port files").to.be.greaterThan(50);
  });
});
