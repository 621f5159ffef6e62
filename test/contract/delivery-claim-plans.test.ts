import { expect } from 'chai';
import sinon from 'sinon';
import { EntityManager } from 'typeorm';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { AccountId } from '../../src/domain/account/account.js';
import type { Uuid } from '../../src/domain/shared/ids.js';
import { ok } from '../../src/domain/shared/result.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { planNodes, type PlanNode } from '../support/query-plans.js';
import { FixedClock, SequentialIds } from '../support/fakes.js';
import { aNewUser } from './fixtures.js';

/**
 * The webhook claim's statements on PostgreSQL as a fan-out runs them: on a deliveries table that
 * grew by thousands of rows since its last ANALYZE (none here: a fresh schema). Issue 15 found
 * them reading every pending delivery, and the lanes' recording holding up the fan-out's inserts.
 */

const ids = new UuidV7IdGenerator();
const uuid = <Id extends Uuid<string>>(): Id => ids.next<Id>();

/** Pending deliveries of the busy webhook: a fan-out's backlog. */
const BACKLOG = 3_000;
const PER_RUN = 128;

forEachDatabase('webhook claim statements', (target) => {
  if (target.name !== 'postgres') return;
  let db: TypeOrmDatabase;
  let dispose: () => Promise<void>;
  let uow: TypeOrmUnitOfWork;
  const clock = new FixedClock();

  beforeEach(async () => {
    const created = await target.create();
    dispose = created.dispose;
    db = new TypeOrmDatabase(created.config);
    await db.open();
    await db.migrate();
    uow = new TypeOrmUnitOfWork(db, new SequentialIds());
  });
  afterEach(async () => {
    sinon.restore();
    await db.close();
    await dispose();
  });

  /** An account with a webhook per name, and `pending[i]` deliveries for the i-th. */
  async function seed(pending: readonly number[]): Promise<{ accountId: AccountId; webhooks: Webhook[] }> {
    const seeded = await uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(clock.now(), 14));
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('user');
      const webhooks: Webhook[] = [];
      for (const count of pending) {
        const webhook = Webhook.create({ id: uuid(), accountId, targetUrl: 'http://127.0.0.1:9/hook', events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
        if (!webhook.ok) throw new Error('webhook');
        await tx.webhooks.save(webhook.value);
        webhooks.push(webhook.value);
        const deliveries = Array.from({ length: count }, () => {
          const eventId = uuid();
          return Delivery.schedule({ id: uuid(), webhookId: webhook.value.id, accountId, eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, clock.now());
        });
        await tx.deliveries.addFanOut(deliveries);
      }
      return ok({ accountId, webhooks });
    });
    if (!seeded.ok) throw new Error('seed');
    return seeded.value;
  }

  it("claims and records a run by reading and writing the webhook's first due deliveries, not its whole pending queue", async () => {
    const { webhooks } = await seed([BACKLOG, 10]);
    const sent: { sql: string; parameters: unknown[] }[] = [];
    // What the repositories send: they run plain SQL through the transaction's EntityManager.
    const spy = sinon.spy(EntityManager.prototype, 'query');
    const lease = { token: uuid(), until: new Date(clock.now().getTime() + 60_000) };
    const claimed = await uow.run(async (tx) => ok(await tx.deliveries.claimDue(clock.now(), lease, 256, PER_RUN)));
    if (!claimed.ok) throw new Error('claim');
    expect(claimed.value).to.have.length(PER_RUN + 10);
    // The busy webhook's run recorded as a lane does: checked, saved, the lease ended.
    const busy = claimed.value.filter((d) => d.webhookId === webhooks[0]!.id);
    for (const delivery of busy) delivery.recordAttempt({ status: 204, durationMs: 1, responseBody: '', error: null }, clock.now(), { baseMs: 1000, capMs: 60_000, maxAttempts: 3 }, 0.5);
    await uow.run(async (tx) => {
      if (!(await tx.deliveries.holds(webhooks[0]!.id, lease.token))) throw new Error('not held');
      return ok({ saved: await tx.deliveries.saveAll(webhooks[0]!.id, busy, lease.token), released: await tx.deliveries.release(webhooks[0]!.id, lease.token) });
    });
    for (const call of spy.getCalls()) sent.push({ sql: String(call.args[0]), parameters: (call.args[1] as unknown[] | undefined) ?? [] });
    sinon.restore();

    const statements = sent.filter(({ sql }) => /^\s*(SELECT|WITH)/i.test(sql) && sql.includes('webhook_deliveries'));
    expect(statements.map(({ sql }) => sql.slice(0, 16)), "the claim (candidates, per-webhook runs) and the recording's update").to.have.length.of.at.least(3);
    for (const { sql, parameters } of statements) {
      // Run again as it was sent, inside a transaction that is rolled back (the recording writes),
      // with the webhooks' leases run out, so the candidates' probes run as they did (the token
      // stays: the recording's update is written only while the webhook holds it).
      const plan = await db.read(async (m) => {
        await m.query('BEGIN');
        try {
          await m.query(`UPDATE ${db.schemaName ? `"${db.schemaName}".` : ''}webhooks SET lease_until = NULL`);
          const [row] = await m.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, parameters);
          return row!['QUERY PLAN'][0].Plan;
        } finally {
          await m.query('ROLLBACK');
        }
      });
      const widest = planNodes(plan).sort((a, b) => b.rows - a.rows)[0]!;
      // At most a run per webhook and the webhooks themselves; the backlog is 3,000.
      expect(widest.rows, `${sql.slice(0, 80)}...: ${widest.what} produced ${widest.rows} rows`).to.be.at.most(2 * PER_RUN + 20);
    }
  });

  it("lets a fan-out insert a webhook's deliveries while a lane records a run of it (holding the webhook's row lock)", async () => {
    const { accountId, webhooks } = await seed([1]);
    const webhook = webhooks[0]!;
    let inserted!: () => void;
    const insertedWhileLocked = new Promise<void>((resolve) => (inserted = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const fanOut = (async () => {
      // Once the recording holds the lock: the recording below waits for this insert to commit.
      await lockTaken;
      await uow.run(async (tx) => {
        const eventId = uuid();
        await tx.deliveries.addFanOut([Delivery.schedule({ id: uuid(), webhookId: webhook.id, accountId, eventId, event: 'api.created', payload: '{}' }, clock.now())]);
        return ok(undefined);
      });
      inserted();
    })();
    const recording = uow.run(async (tx) => {
      const held = await tx.webhooks.getForUpdate(accountId, webhook.id);
      if (!held) throw new Error('webhook');
      held.recordResponse({ status: 204, body: '', durationMs: 1 }, clock.now());
      await tx.webhooks.save(held);
      locked();
      const outcome = await Promise.race([insertedWhileLocked.then(() => 'inserted'), new Promise((resolve) => setTimeout(() => resolve('waited 5 s'), 5_000))]);
      return ok(outcome);
    });
    const outcome = await recording;
    await fanOut;
    expect(outcome.ok && outcome.value, 'the insert, while the webhook is locked and saved').to.equal('inserted');
  });

  it("leases nothing a claim committed after this claimer's first statement: the lease is checked again on the locked row", async () => {
    await seed([5, 5]);
    // The method itself, taken before the stub replaces it.
    const query = Object.getOwnPropertyDescriptor(EntityManager.prototype, 'query')!.value as EntityManager['query'];
    const original = (manager: EntityManager, sql: string, parameters: Parameters<EntityManager['query']>[1]) => Reflect.apply(query, manager, [sql, parameters]) as Promise<unknown>;
    let candidatesRead!: () => void;
    const read = new Promise<void>((resolve) => (candidatesRead = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let pauseNext = true;
    sinon.stub(EntityManager.prototype, 'query').callsFake(async function (this: EntityManager, sql: string, parameters?: Parameters<EntityManager['query']>[1]) {
      const result = await original(this, sql, parameters);
      if (pauseNext && sql.startsWith('SELECT q.id FROM')) {
        pauseNext = false;
        candidatesRead();
        await resumed;
      }
      return result;
    });
    const leaseOf = () => ({ token: uuid(), until: new Date(clock.now().getTime() + 60_000) });
    // B reads its candidates (both webhooks, free) and waits; A claims both and commits; B goes on.
    const b = uow.run(async (tx) => ok((await tx.deliveries.claimDue(clock.now(), leaseOf(), 10, 5)).length));
    await read;
    const a = await uow.run(async (tx) => ok((await tx.deliveries.claimDue(clock.now(), leaseOf(), 10, 5)).length));
    resume();
    expect(a).to.deep.equal({ ok: true, value: 10 });
    expect(await b, 'the webhooks A leased meanwhile').to.deep.equal({ ok: true, value: 0 });
  });
});
