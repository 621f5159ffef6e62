import type { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';

/** Waits for `condition`, checking every few milliseconds; fails after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * PostgreSQL: returns once this instance has heard the notifications of everything committed
 * before (its own writes notify too, and each such notification makes the next read miss once).
 * Notifications arrive in commit order, so hearing a marker sent now is enough.
 */
export async function settle(db: TypeOrmDatabase): Promise<void> {
  const changes = db.postgresChanges;
  if (changes === undefined) return;
  await until(() => changes.isListening);
  const marker = `settle:${Math.random()}`;
  const heard = new Promise<void>((resolve) => {
    const stop = changes.onNotification((payload) => {
      if (payload !== marker) return;
      stop();
      resolve();
    });
  });
  await db.read((m) => m.query("SELECT pg_notify('specbase_changes', $1)", [marker]));
  await heard;
}
