import { expect } from 'chai';
import sinon from 'sinon';
import { EntityManager } from 'typeorm';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmRetentionPurge } from '../../src/adapters/persistence/typeorm-retention-purge.js';
import { TypeOrmUnitOfWork } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { retentionCutoffs } from '../../src/application/maintenance/purge-retained.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { Uuid } from '../../src/domain/shared/ids.js';
import { ok } from '../../src/domain/shared/result.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { planNodes, type PlanNode } from '../support/query-plans.js';
import { SequentialIds } from '../support/fakes.js';
import { aNewUser } from './fixtures.js';

const ids = new UuidV7IdGenerator();
const uuid = <Id extends Uuid<string>>(): Id => ids.next<Id>();
const DAY = 24 * 3600_000;
const T0 = new Date('2026-10-01T00:00:00.000Z');
const EVENTS = 300;
const WEBHOOKS = 10;
const BATCH = 100;

/**
 * The retention cleanup's deletes of deliveries and payloads, as it sends them, read a batch's rows
 * by index, not the table: each DELETE names its rows by the table's key (the deliveries':
 * (webhook_id, id) since migration 0024, where `id` alone has no index). 3,000 finished
 * deliveries of 300 events, a batch of 100 deleted, the next batches' statements explained.
 */
forEachDatabase('retention cleanup statements', (target) => {
  it('delete a batch of deliveries and of payloads by their keys, reading no whole table', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      await db.migrate();
      const uow = new TypeOrmUnitOfWork(db, new SequentialIds());
      await uow.run(async (tx) => {
        const accountId = await tx.accounts.create(Account.open(T0, 14));
        const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
        if (!user.ok) throw new Error('user');
        const webhooks = Array.from({ length: WEBHOOKS }, () => Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0));
        const deliveries: Delivery[] = [];
        for (let n = 0; n < EVENTS; n++) {
          const eventId = uuid();
          for (const webhook of webhooks) {
            if (!webhook.ok) throw new Error('webhook');
            if (n === 0) await tx.webhooks.save(webhook.value);
            const delivery = Delivery.schedule({ id: uuid(), webhookId: webhook.value.id, accountId, eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, T0);
            delivery.recordAttempt({ status: 204, durationMs: 1, responseBody: '', error: null }, T0, { baseMs: 1000, capMs: 1000, maxAttempts: 1 }, 0.5);
            deliveries.push(delivery);
          }
        }
        return ok(await tx.deliveries.addFanOut(deliveries));
      });
      const spy = sinon.spy(EntityManager.prototype, 'query');
      const cutoffs = retentionCutoffs(new Date(T0.getTime() + 40 * DAY), { deliveriesMs: 30 * DAY, dispatchedEventsMs: 7 * DAY, rateLimitCountersMs: 3600_000, specHistoryMs: null });
      // Out of time at once: a batch of each, which leaves the rest for the plans below.
      const gone = await new TypeOrmRetentionPurge(db).purge(cutoffs, BATCH, 0);
      const sent = spy.getCalls().map((call) => ({ sql: String(call.args[0]), parameters: (call.args[1] as unknown[] | undefined) ?? [] }));
      sinon.restore();
      expect(gone).to.deep.include({ deliveries: BATCH, webhookPayloads: BATCH / WEBHOOKS });

      for (const table of ['webhook_deliveries', 'webhook_payloads']) {
        const statement = sent.find(({ sql }) => new RegExp(`^DELETE FROM \\S*${table}\\W`).test(sql));
        if (!statement) throw new Error(`no DELETE of ${table} sent`);
        if (db.dialect === 'postgres') {
          // Run again inside a transaction that is rolled back: the rows each node of the plan
          // produced. A table this small PostgreSQL reads whole whatever its indexes, so sequential
          // and bitmap scans (which read every match before a LIMIT) are set aside: one that stays
          // is a read with no index to take instead.
          const plan = await db.read(async (m) => {
            await m.query('BEGIN');
            try {
              await m.query('SET LOCAL enable_seqscan = off');
              await m.query('SET LOCAL enable_bitmapscan = off');
              const [row] = await m.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`, statement.parameters);
              return row!['QUERY PLAN'][0].Plan;
            } finally {
              await m.query('ROLLBACK');
            }
          });
          const widest = planNodes(plan).sort((a, b) => b.rows - a.rows)[0]!;
          // A batch, and the events' payloads still named by a delivery; the table holds 2,900 deliveries.
          expect(widest.rows, `${table}: ${widest.what} produced ${widest.rows} rows`).to.be.at.most(EVENTS);
        } else {
          const plan = await db.read((m) => m.query<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.parameters));
          const scans = plan.map((row) => row.detail).filter((detail) => detail.startsWith('SCAN'));
          expect(scans, `${table}: every table read by a search of an index`).to.deep.equal([]);
        }
      }
    } finally {
      sinon.restore();
      await db.close();
      await dispose();
    }
  });
});
