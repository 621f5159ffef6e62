import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { WebhookPayloads1764500000000 } from '../../src/adapters/persistence/migrations/0024-webhook-payloads.migration.js';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { tableOf } from '../../src/adapters/persistence/raw-sql.js';
import { TypeOrmRetentionPurge } from '../../src/adapters/persistence/typeorm-retention-purge.js';
import { TypeOrmUnitOfWork } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { ok } from '../../src/domain/shared/result.js';
import { Delivery, type DeliveryState } from '../../src/domain/webhook/delivery.aggregate.js';
import { type Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { FixedClock, SequentialIds } from '../support/fakes.js';
import { insertBefore0024 } from './deliveries-before-0024.js';
import { seedWebhooks, undoThrough } from './migration-steps.js';

/**
 * Migration 0024 moves each event's payload out of its deliveries into `webhook_payloads`, once an
 * event, and makes `(webhook_id, id)` the deliveries' key: every delivery and payload is carried
 * over, and down puts each payload back into its deliveries.
 */
forEachDatabase('migration 0024, webhook payloads', (target) => {
  it('carries every delivery over with its payload, stores each event\'s payload once, keeps a fan-out once per event and webhook, and goes down again', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    const clock = new FixedClock();
    const ids = new UuidV7IdGenerator();
    try {
      await db.open();
      await db.migrate();
      const undo0024 = () => undoThrough(db, WebhookPayloads1764500000000);
      await undo0024();
      const uow = new TypeOrmUnitOfWork(db, new SequentialIds());
      const { accountId, webhooks } = await seedWebhooks(db, clock.now(), ids, ['one', 'two']);
      const [one, two] = webhooks as [Webhook, Webhook];
      const events = [ids.next(), ids.next()];
      const delivery = (webhook: Webhook, n: number) => Delivery.schedule({ id: ids.next(), webhookId: webhook.id, accountId, eventId: events[n]!, event: 'api.created', payload: `{"n":${n}}` }, clock.now());
      const fanOut = [delivery(one, 0), delivery(two, 0), delivery(one, 1), delivery(two, 1)];
      fanOut[0]!.recordAttempt({ status: 204, durationMs: 3, responseBody: 'ok', error: null }, clock.now(), { baseMs: 1000, capMs: 60_000, maxAttempts: 3 }, 0.5);
      clock.advance(60_000);
      const redelivery = delivery(one, 0);
      for (const d of fanOut) await insertBefore0024(db, d, d.eventId);
      await insertBefore0024(db, redelivery, null);
      const snapshots = (webhook: Webhook): DeliveryState[] => [...fanOut, redelivery].filter((d) => d.webhookId === webhook.id).map((d) => d.snapshot()).reverse();

      await db.migrate();
      const log = async (webhook: Webhook) => {
        const listed = await uow.run(async (tx) => ok((await tx.deliveries.list(webhook.id, { limit: 10 })).items.map((d) => d.snapshot())));
        return listed.ok ? listed.value : [];
      };
      expect(await log(one)).to.deep.equal(snapshots(one));
      expect(await log(two)).to.deep.equal(snapshots(two));
      expect((await new TypeOrmRetentionPurge(db).counts()).webhookPayloads, 'one a event').to.equal(2);
      const dated = await db.read((m) => m.query<{ id: string; date: Date | string }[]>(`SELECT event_id AS id, creation_date AS date FROM ${tableOf(m, db.schemas.payloads)}`));
      const dates = Object.fromEntries(dated.map((row) => [row.id, new Date(row.date).toISOString()]));
      expect(dates, "each its latest delivery's date").to.deep.equal({ [events[0]!]: redelivery.snapshot().creationDate.toISOString(), [events[1]!]: fanOut[2]!.snapshot().creationDate.toISOString() });
      const repeated = await uow.run(async (tx) => ok(await tx.deliveries.addFanOut([delivery(one, 0), delivery(two, 1)])));
      expect(repeated, 'each event already went to each webhook').to.deep.equal({ ok: true, value: 0 });

      // A delivery whose payload is missing would lose it on the way down: down refuses, changing nothing.
      await db.read((m) => m.query(`DELETE FROM ${tableOf(m, db.schemas.payloads)} WHERE event_id = '${events[1]!}'`));
      let refused: unknown;
      await undo0024().catch((error: unknown) => (refused = error));
      expect(String(refused)).to.include('2 webhook deliveries have no payload');
      const count = async () => Number((await db.read((m) => m.query<{ n: number | string }[]>(`SELECT count(*) AS n FROM ${tableOf(m, db.schemas.deliveries)}`)))[0]!.n);
      expect(await count(), 'every delivery still there').to.equal(5);
      await db.read((m) => m.query(`INSERT INTO ${tableOf(m, db.schemas.payloads)} (event_id, payload, creation_date) VALUES ('${events[1]!}', '{"n":1}', '${fanOut[2]!.snapshot().creationDate.toISOString()}')`));
      expect(await log(two)).to.deep.equal(snapshots(two));
      await undo0024();
      const rows = await db.read((m) => m.query<{ id: string; payload: string }[]>(`SELECT id, payload FROM ${tableOf(m, db.schemas.deliveries)} ORDER BY id`));
      expect(rows).to.deep.equal([...fanOut, redelivery].map((d) => ({ id: d.id, payload: d.payload })).sort((a, b) => (a.id < b.id ? -1 : 1)));
      await db.migrate();
      expect(await log(one)).to.deep.equal(snapshots(one));
    } finally {
      await db.close();
      await dispose();
    }
  });
});
