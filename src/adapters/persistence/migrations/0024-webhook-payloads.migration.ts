import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectTypes } from '../dialect.js';
import { qualified } from './qualified.js';

/**
 * An event's webhook payload is stored once, not once per delivery (ADR 0031): `webhook_payloads`
 * keyed by event id, which each delivery of the event names by its `event_id`. A fan-out to ten
 * webhooks wrote the ~500-byte body ten times, and on PostgreSQL each recording wrote it again
 * (an update rewrites the whole row). With it, the deliveries table changes its keys:
 *
 * - the primary key is `(webhook_id, id)`, which also serves the delivery log, so the log's own
 *   index `(webhook_id, id)` goes: every statement that names a delivery names its webhook too;
 * - the dispatch key's unique index leads with `event_id`, `(event_id, webhook_id, dispatch_key)`
 *   (the same rows are unique: a dispatch key is its delivery's event id), so the cleanup finds
 *   whether an event has a delivery left through it.
 *
 * PostgreSQL changes the table in place; SQLite, which can change no primary key, copies it into a
 * new one. Both carry every delivery and every payload over (an event's payload is the same in
 * each of its deliveries; its latest delivery's date is the payload's, as a new delivery of the
 * event dates it from now on). Down refuses, changing nothing, while a delivery names a payload
 * that is not there (none should: each is written before its deliveries).
 */
export class WebhookPayloads1764500000000 implements MigrationInterface {
  readonly name = 'WebhookPayloads1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    const deliveries = qualified(q, 'webhook_deliveries');
    const payloads = qualified(q, 'webhook_payloads');
    const { uuid, timestamp } = types(q);
    await q.query(`CREATE TABLE ${payloads} (event_id ${uuid} PRIMARY KEY NOT NULL, payload text NOT NULL, creation_date ${timestamp} NOT NULL)`);
    await q.query(`INSERT INTO ${payloads} (event_id, payload, creation_date) SELECT event_id, min(payload), max(creation_date) FROM ${deliveries} GROUP BY event_id`);
    await q.query(`CREATE INDEX ${q.connection.driver.escape('webhook_payloads_creation_idx')} ON ${payloads} (creation_date)`);
    if (pg) {
      await q.query(`ALTER TABLE ${deliveries} DROP COLUMN payload`);
      await q.query(`ALTER TABLE ${deliveries} DROP CONSTRAINT ${q.connection.driver.escape(await primaryKeyName(q))}, ADD PRIMARY KEY (webhook_id, id)`);
      await q.query(`DROP INDEX ${qualified(q, 'webhook_deliveries_webhook_idx')}`);
      await q.query(`DROP INDEX ${qualified(q, 'webhook_deliveries_dispatch_key')}`);
    } else {
      await copyDeliveries(q, 'PRIMARY KEY ("webhook_id", "id")', null);
    }
    await q.query(`CREATE UNIQUE INDEX ${q.connection.driver.escape('webhook_deliveries_dispatch_key')} ON ${deliveries} (event_id, webhook_id, dispatch_key)`);
    await q.getTables(['webhook_deliveries', 'webhook_payloads']);
  }

  async down(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    const deliveries = qualified(q, 'webhook_deliveries');
    const payloads = qualified(q, 'webhook_payloads');
    const orphans = (await q.query(`SELECT count(*) AS n FROM ${deliveries} d WHERE NOT EXISTS (SELECT 1 FROM ${payloads} p WHERE p.event_id = d.event_id)`)) as { n: number | string }[];
    if (Number(orphans[0]?.n ?? 0) > 0) throw new Error(`${String(orphans[0]?.n)} webhook deliveries have no payload: migration 0024 cannot be undone without losing them`);
    await q.query(`DROP INDEX ${qualified(q, 'webhook_deliveries_dispatch_key')}`);
    if (pg) {
      await q.query(`ALTER TABLE ${deliveries} ADD COLUMN payload text`);
      await q.query(`UPDATE ${deliveries} AS d SET payload = p.payload FROM ${payloads} p WHERE p.event_id = d.event_id`);
      await q.query(`ALTER TABLE ${deliveries} ALTER COLUMN payload SET NOT NULL`);
      await q.query(`ALTER TABLE ${deliveries} DROP CONSTRAINT ${q.connection.driver.escape(await primaryKeyName(q))}, ADD PRIMARY KEY (id)`);
    } else {
      await copyDeliveries(q, 'PRIMARY KEY ("id")', payloads);
    }
    await q.query(`CREATE UNIQUE INDEX ${q.connection.driver.escape('webhook_deliveries_dispatch_key')} ON ${deliveries} (webhook_id, dispatch_key)`);
    await q.query(`CREATE INDEX ${q.connection.driver.escape('webhook_deliveries_webhook_idx')} ON ${deliveries} (webhook_id, id)`);
    await q.query(`DROP TABLE ${payloads}`);
    await q.getTables(['webhook_deliveries']);
  }
}

/** The column types of a uuid and a date, as the other tables have them (dialect.ts). */
function types(q: QueryRunner): { uuid: string; timestamp: string } {
  const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
  const sized = (type: unknown, length: number | undefined): string => (length ? `${String(type)}(${length})` : String(type));
  return { uuid: sized(t.uuid, t.uuidLength), timestamp: sized(t.timestamp, t.timestampLength) };
}

async function primaryKeyName(q: QueryRunner): Promise<string> {
  const rows = (await q.query(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [qualified(q, 'webhook_deliveries')])) as { conname: string }[];
  const name = rows[0]?.conname;
  if (!name) throw new Error('webhook_deliveries has no primary key');
  return name;
}

/**
 * SQLite: the deliveries table made again with `key` as its primary key, with the payload column
 * filled from `payloads` (down) or without one (up), its rows copied over in their order, and the
 * queue and retention indexes made again (the caller makes the others).
 */
async function copyDeliveries(q: QueryRunner, key: string, payloads: string | null): Promise<void> {
  const columns = ['id', 'webhook_id', 'account_id', 'event_id', 'event', 'dispatch_key', 'state', 'attempts', 'next_attempt_date', 'creation_date'];
  await q.query(
    'CREATE TABLE "webhook_deliveries_next" ("id" varchar(36) NOT NULL, "webhook_id" varchar(36) NOT NULL, "account_id" integer NOT NULL, "event_id" varchar(36) NOT NULL, ' +
      `"event" text NOT NULL, "dispatch_key" varchar(36), ${payloads ? '"payload" text NOT NULL, ' : ''}"state" text NOT NULL, "attempts" text NOT NULL, "next_attempt_date" varchar(30), ` +
      `"creation_date" varchar(30) NOT NULL, ${key}, FOREIGN KEY ("webhook_id") REFERENCES "webhooks" ("id") ON DELETE CASCADE)`,
  );
  const list = columns.map((c) => `"${c}"`).join(', ');
  await q.query(
    payloads
      ? `INSERT INTO "webhook_deliveries_next" (${list}, "payload") SELECT ${columns.map((c) => `d."${c}"`).join(', ')}, p.payload FROM "webhook_deliveries" d JOIN ${payloads} p ON p.event_id = d.event_id ORDER BY d.rowid`
      : `INSERT INTO "webhook_deliveries_next" (${list}) SELECT ${list} FROM "webhook_deliveries" ORDER BY rowid`,
  );
  await q.query('DROP TABLE "webhook_deliveries"');
  await q.query('ALTER TABLE "webhook_deliveries_next" RENAME TO "webhook_deliveries"');
  await q.query(`CREATE INDEX "webhook_deliveries_queue_idx" ON "webhook_deliveries" ("webhook_id", "event_id", "id") WHERE state = 'pending'`);
  await q.query(`CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" ("creation_date") WHERE state <> 'pending'`);
}
