import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The command as installed: the package's `bin`, compiled from src/ and bundled (scripts/bundle.mjs). */
export const BIN = join(ROOT, 'dist/main/cli.bundle.js');

function newestMtime(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newestMtime(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
}

/** Builds dist/ (and the bundle) when it is missing or older than src/, so an e2e test never runs stale code. */
export function ensureBuilt(): void {
  let built: number;
  try {
    built = statSync(BIN).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newestMtime(join(ROOT, 'src'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { stdio: 'inherit' });
  }
}
