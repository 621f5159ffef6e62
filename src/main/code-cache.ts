import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** After this long a server writes the cache it would otherwise write when it stops. */
const WRITE_AFTER_MS = 10_000;

/**
 * Where the compiled code is kept: SPECBASE_COMPILE_CACHE (a directory; `off` for none), else a
 * directory of this user's own under the system's temporary one, as Node 22's compile cache
 * does. A directory another user could write to is not used: what it holds is run as code.
 */
function cacheDirectory(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env['SPECBASE_COMPILE_CACHE'];
  if (chosen === 'off') return undefined;
  const uid = process.getuid?.();
  const directory = chosen !== undefined && chosen !== '' ? chosen : join(tmpdir(), `specbase-compile-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = statSync(directory);
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return directory;
  } catch {
    return undefined;
  }
}

/** What became of the cache: none kept (`off`, or a directory that may not be used), made by this run, or used. */
export type CodeCacheUse = 'off' | 'made' | 'used';

/**
 * Runs the CommonJS bundle `file` (the command, scripts/bundle.mjs) with V8's code cache: the
 * first run compiles it and keeps V8's compiled code, with every function it compiled while
 * running, in the cache directory; later runs hand that to V8 instead of parsing and compiling
 * 9 MB of JavaScript again, which was a third of a start (docs/performance.md, 7; ADR 0027).
 * Node 20 has no compile cache of its own for the command (`module.enableCompileCache` came in
 * Node 22.1). The cache is keyed by the bundle's size and time and Node's version; V8 refuses
 * data made by another V8 or with other flags, and then it is made again. Any failure to read or
 * write the cache only costs the compilation.
 */
export function runWithCodeCache(file: string, env: NodeJS.ProcessEnv = process.env): CodeCacheUse {
  // Node maps stack traces (--enable-source-maps) only for what its own loaders load, never for a
  // node:vm script: then the bundle is required as usual, without the cache.
  if ([...process.execArgv, ...(env['NODE_OPTIONS'] ?? '').split(/\s+/)].includes('--enable-source-maps')) {
    createRequire(file)(file);
    return 'off';
  }
  // The bundle is ASCII (scripts/bundle.mjs), which latin1 reads as UTF-8 would, by a copy instead
  // of decoding: half the time for its 6 MB.
  const source = readFileSync(file, 'latin1').replace(/^#!.*/, '');
  const directory = cacheDirectory(env);
  const stat = statSync(file);
  // <bundle>-<size>-<time>-<node>-<arch>.v8cache: the build before differs only in size and time.
  const [prefix, suffix] = [`${basename(file)}-`, `-${process.version}-${process.arch}.v8cache`];
  const cacheFile = directory === undefined ? undefined : join(directory, `${prefix}${stat.size}-${Math.trunc(stat.mtimeMs)}${suffix}`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  if (directory !== undefined && cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      try {
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile);
        // The caches of earlier builds of this bundle are of no more use (another Node's stays).
        for (const name of readdirSync(directory)) {
          if (name.startsWith(prefix) && name.endsWith(suffix) && join(directory, name) !== cacheFile) rmSync(join(directory, name), { force: true });
        }
      } catch {
        // A read-only or full disk: the next start compiles again.
      }
    };
    // After the run, so the functions it compiled are in the cache too: at exit for a one-shot
    // command, a little after the start for a server.
    process.once('exit', write);
    setTimeout(write, WRITE_AFTER_MS).unref();
  }
  const module = new Module(file);
  module.filename = file;
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (cacheFile === undefined) return 'off';
  return cachedData !== undefined && script.cachedDataRejected !== true ? 'used' : 'made';
}
