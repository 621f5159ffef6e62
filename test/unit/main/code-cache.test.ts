import { expect } from 'chai';
import { buildSync } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CODE_CACHE = pathToFileURL(join(import.meta.dirname, '../../../src/main/code-cache.ts')).href;

/** Runs `file` through runWithCodeCache in a node process of its own; what the bundle printed, then the cache's use. */
function run(file: string, cacheDirectory: string, nodeOptions: readonly string[] = []): string[] {
  const script = `const { runWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)}); const use = runWithCodeCache(${JSON.stringify(file)}); process.stdout.write(' ' + use);`;
  const output = execFileSync(process.execPath, [...nodeOptions, '--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, SPECBASE_COMPILE_CACHE: cacheDirectory }, encoding: 'utf8' });
  return output.trim().split(' ');
}

describe('runWithCodeCache: the command compiled once, then from V8 code cache', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'specbase-code-cache-'));
    bundle = join(dir, 'bundle.cjs');
    // A CommonJS module with what a bundle uses: require, module.exports, __filename, __dirname.
    writeFileSync(bundle, "#!/usr/bin/env node\nconst { sep } = require('node:path');\nmodule.exports = { sep };\nprocess.stdout.write([typeof module.exports.sep, __filename === " + JSON.stringify(join(dir, 'bundle.cjs')) + ', __dirname === ' + JSON.stringify(dir) + '].join(","));\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle as a CommonJS module, makes the cache on the first run and uses it on the next', () => {
    const cache = join(dir, 'cache');
    expect(run(bundle, cache)).to.deep.equal(['string,true,true', 'made']);
    expect(readdirSync(cache)).to.have.length(1);
    expect(run(bundle, cache)).to.deep.equal(['string,true,true', 'used']);
  });

  it('makes a new cache when the bundle changes, and removes the one of the build before', () => {
    const cache = join(dir, 'cache');
    run(bundle, cache);
    const before = readdirSync(cache);
    writeFileSync(join(cache, 'other.cjs-1-2-v0.0.0-x64.v8cache'), 'another bundle or Node: kept');
    writeFileSync(bundle, "process.stdout.write('changed');\n");
    expect(run(bundle, cache)).to.deep.equal(['changed', 'made']);
    expect(run(bundle, cache)).to.deep.equal(['changed', 'used']);
    const after = readdirSync(cache);
    expect(after).to.have.length(2);
    expect(after).to.include('other.cjs-1-2-v0.0.0-x64.v8cache');
    expect(after).to.not.include(before[0]);
  });

  it('with --enable-source-maps, requires the bundle as usual, so stack traces name the sources', () => {
    const source = join(dir, 'original.ts');
    writeFileSync(source, "export const where = (): string => new Error('here').stack?.split('\\n')[1] ?? '';\nprocess.stdout.write(where());\n");
    buildSync({ entryPoints: [source], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', sourcemap: 'linked', logLevel: 'error' });
    const [printed, use] = run(bundle, join(dir, 'cache'), ['--enable-source-maps']).join(' ').split(/ (?=\S+$)/);
    expect(use).to.equal('off');
    expect(printed).to.include('original.ts');
    expect(run(bundle, join(dir, 'cache')).join(' ')).to.include('bundle.cjs');
  });

  it('keeps nothing when told off, or when others may write to the directory', () => {
    expect(run(bundle, 'off')).to.deep.equal(['string,true,true', 'off']);
    const shared = join(dir, 'shared');
    run(bundle, shared);
    chmodSync(shared, 0o777);
    expect(run(bundle, shared)).to.deep.equal(['string,true,true', 'off']);
  });
});
