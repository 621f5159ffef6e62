import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts worker threads whose entry is a TypeScript module, for the tests (the service is run from
 * src/ there): tsx is loaded through its API in the thread, which a worker thread does not take
 * over from its parent. Production starts the built JavaScript entry and never needs tsx.
 */
export function tsWorker(script: URL): (options: WorkerOptions) => Worker {
  const code = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); })`;
  return (options) => new Worker(code, { ...options, eval: true });
}

/**
 * The URL of tsx's ES-module API (its `import` export): import.meta.resolve where there is one;
 * under tsx's CommonJS output (mocha's) there is none, and require would pick the CommonJS build,
 * which cannot register tsx in a thread, so the export is read from tsx's package.json.
 */
function tsxEsmApi(): string {
  if (typeof import.meta.resolve === 'function') return import.meta.resolve('tsx/esm/api');
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/** The service's own sender-thread entry, from source. */
export const SENDER_THREAD_FROM_SOURCE = tsWorker(new URL('../../src/main/webhook-sender.thread.ts', import.meta.url));
