// Bundles the compiled command (dist/main/cli.js) and every package it loads into one file,
// dist/main/cli.bundle.cjs, and its entry (dist/main/cli-entry.js) into dist/main/cli.bundle.js:
// the `specbase` bin and `npm start`, which runs the bundle through V8's code cache. Node then
// reads, resolves and compiles one file instead of about 2,000 (docs/performance.md, 7b;
// docs/adr/0018-bundled-command.md), and after the first run does not compile it at all
// (docs/adr/0027-code-cache.md). The library (dist/index.js) is not bundled: an embedding
// service loads it with its own dependencies.
//
// `node scripts/bundle.mjs` after `tsc -p tsconfig.build.json` (`npm run build` runs both).
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The options for bundling `entry` into `outfile`. The output goes next to the compiled entry
 * (dist/main/), so paths the code takes from its own location (`../../package.json`, packages'
 * files resolved with createRequire) mean what they mean in dist/.
 */
export function bundleOptions(entry, outfile) {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A native addon, and pg's optional native binding (never installed): loaded from node_modules.
    external: ['better-sqlite3', 'pg-native'],
    // CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __specbaseCreateRequire } from 'node:module'; const require = __specbaseCreateRequire(import.meta.url);" },
    // Not keepNames: it wraps every named function, closures made per request too, in a helper
    // that sets `name` (5% of a cached read's CPU time). esbuild renames a top-level class or
    // function of an ES module only where two would collide; nothing depends on those names
    // (the migrations carry their own `name`, error classes set theirs).
    // For a stack trace of the bundle: node --enable-source-maps (not on by default: it slows every throw).
    sourcemap: 'linked',
    legalComments: 'linked',
    // Without the whitespace, the comments and the longer spellings: 8.8 MB -> 6.0 MB, so 30%
    // less to read, decode and hand to V8 with its code cache at every start (docs/performance.md,
    // 7b). Not minifyIdentifiers (4.5 MB): it renames every class and function, so the error
    // types in log lines (pino's `type`), the names in stack traces and in the dependencies' own
    // messages would say `Xe` instead of `QueryFailedError`. (minifySyntax drops only the name of a
    // function or class expression nothing refers to by that name; top-level classes keep theirs.)
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  };
}

/**
 * The command's bundle as CommonJS, which node:vm compiles with a code cache (Node 20 has none for
 * ES modules): `import.meta.url` becomes the bundle's own file URL.
 */
export function commandBundleOptions(entry, outfile) {
  const options = bundleOptions(entry, outfile);
  return {
    ...options,
    format: 'cjs',
    banner: { js: "const __specbaseImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__specbaseImportMetaUrl' },
  };
}

/**
 * `source` with every character above U+007F written as a `\uXXXX` escape. esbuild writes strings
 * ASCII-only but leaves regular expression literals (`/ẞ/g`, `/…/`) and comments as they are. The
 * command reads an ASCII bundle as latin1, which is a copy, where UTF-8 must be decoded (27-35 ms
 * against 50-60 ms for 8.8 MB on a slow machine: code-cache.ts); and one character above U+00FF
 * would make V8 hold the whole source, which it keeps for as long as the process runs, as a
 * two-byte string (twice the resident memory). An escape means the same character in a regular
 * expression and nothing in a comment; one after a backslash would not, so the build stops there.
 */
export function asciiSource(source) {
  return source.replace(/(\\)?([\u0080-\uffff])/g, (match, backslash, char, offset) => {
    if (backslash !== undefined) throw new Error(`a character above U+007F after a backslash at offset ${offset}: cannot escape it`);
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Rewrites the bundle at `file` with `asciiSource`. */
export async function makeAscii(file) {
  await writeFile(file, asciiSource(await readFile(file, 'utf8')), 'latin1');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = join(ROOT, 'dist/main/cli.bundle.cjs');
  await build(commandBundleOptions(join(ROOT, 'dist/main/cli.js'), command));
  await makeAscii(command);
  await build({ ...bundleOptions(join(ROOT, 'dist/main/cli-entry.js'), join(ROOT, 'dist/main/cli.bundle.js')), sourcemap: false, legalComments: 'none' });
  // The fresh SQLite image a first start copies instead of running every migration (src/main/container.ts).
  const { writeFreshSqlite } = await import(pathToFileURL(join(ROOT, 'dist/adapters/persistence/typeorm-database.js')).href);
  await writeFreshSqlite(join(ROOT, 'dist/main'));
}
