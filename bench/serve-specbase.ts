/**
 * Benchmark child: one Specbase server on 127.0.0.1 and an ephemeral port, on a fresh database.
 * The parent (bench/run.ts) chooses the database through the environment: BENCH_SQLITE_PATH for
 * SQLite, or DATABASE_URL + DATABASE_SCHEMA for PostgreSQL. Reports `{ type: 'ready', url, token,
 * accountId }` over IPC; stops on SIGTERM, SIGINT or when the parent goes away. Answers
 * bench/load.ts's memory and allocation-profile requests and bench/webhooks.ts's worker control
 * (see below).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadConfig, startServer, WebhookWorker } from '../src/index.js';

if (!process.send) throw new Error('serve-specbase.ts must be started by bench/run.ts (it reports over IPC)');

const running = await startServer({
  config: loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SQLITE_PATH: process.env['BENCH_SQLITE_PATH'] ?? '',
    SPECBASE_NO_BOOTSTRAP: 'false',
    LOG_LEVEL: 'silent',
    // The per-token limit stays on, so its cost is measured, but high enough never to refuse the load.
    RATE_LIMIT_API: '10000000',
  }),
});

let stopping = false;
function shutdown(): void {
  if (stopping) return;
  stopping = true;
  running.stop(2_000).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('serve-specbase: stop failed', error);
      process.exit(1);
    },
  );
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('disconnect', shutdown);
// For bench/load.ts: `{ type: 'memory' }` is answered with `{ type: 'memory', usage:
// process.memoryUsage() }` (the V8 heap next to the RSS it reads from /proc). `{ type:
// 'alloc-profile', action: 'start' }` starts V8's sampling heap profiler, keeping the samples of
// objects that outlived the young generation and were collected by a full GC (what makes the old
// generation grow and shrink); `{ type: 'alloc-profile', action: 'stop', file }` writes the
// .heapprofile (Chrome DevTools) and answers `{ type: 'alloc-profile', file }`.
let profiler: Session | undefined;
async function allocationProfile(action: unknown, file: unknown): Promise<void> {
  if (action === 'start' && profiler === undefined) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('HeapProfiler.enable');
    await profiler.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true } as object);
  } else if (action === 'stop' && profiler !== undefined && typeof file === 'string') {
    const { profile } = await profiler.post('HeapProfiler.stopSampling');
    profiler.disconnect();
    profiler = undefined;
    await writeFile(file, JSON.stringify(profile));
    process.send?.({ type: 'alloc-profile', file });
  }
}
// For bench/webhooks.ts: `{ type: 'worker', action: 'stop' | 'start' }` stops the in-process
// webhook worker (its lanes end, events stay in the outbox) or starts it again, and is answered
// with the same message once done.
async function controlWorker(action: unknown): Promise<void> {
  const worker = running.container.get(WebhookWorker);
  if (action === 'stop') await worker.stop();
  else if (action === 'start') worker.start();
  else return;
  process.send?.({ type: 'worker', action });
}
process.on('message', (message: unknown) => {
  const m = message as { type?: unknown; action?: unknown; file?: unknown } | null;
  if (m?.type === 'worker') controlWorker(m.action).catch((error: unknown) => console.error('serve-specbase: worker control failed', error));
  if (m?.type === 'memory') process.send?.({ type: 'memory', usage: process.memoryUsage() });
  if (m?.type === 'alloc-profile') {
    allocationProfile(m.action, m.file).catch((error: unknown) => console.error('serve-specbase: allocation profile failed', error));
  }
});

if (running.demo === null) {
  console.error('serve-specbase: the database was not empty, so no demo token was bootstrapped');
  shutdown();
} else {
  const { token, accountId, email, password } = running.demo;
  process.send({ type: 'ready', url: running.url, token, accountId, email, password });
}
