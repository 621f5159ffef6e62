/**
 * Benchmark child: one Specbase server on 127.0.0.1 and an ephemeral port, on a fresh database.
 * The parent (bench/run.ts) chooses the database through the environment: BENCH_SQLITE_PATH for
 * SQLite, or DATABASE_URL + DATABASE_SCHEMA for PostgreSQL. Reports `{ type: 'ready', url, token,
 * accountId }` over IPC; stops on SIGTERM, SIGINT or when the parent goes away.
 */
import { loadConfig, startServer } from '../src/index.js';

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

if (running.demo === null) {
  console.error('serve-specbase: the database was not empty, so no demo token was bootstrapped');
  shutdown();
} else {
  process.send({ type: 'ready', url: running.url, token: running.demo.token, accountId: running.demo.accountId });
}
