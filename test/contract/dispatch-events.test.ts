import { expect } from 'chai';
import { DispatchEvents } from '../../src/application/webhooks/dispatch-events.service.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { AccountId } from '../../src/domain/account/account.js';
import { Api, type ApiId } from '../../src/domain/api/api.aggregate.js';
import { err, ok } from '../../src/domain/shared/result.js';
import { Webhook, type WebhookId } from '../../src/domain/webhook/webhook.aggregate.js';
import { FixedClock, SequentialIds } from '../support/fakes.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';

/**
 * DispatchEvents stores a batch's deliveries grouped by webhook, each webhook's in event order:
 * a lane's run then rewrites a few pages of the deliveries table, not one page per delivery (the
 * fan-out benchmark's 1,000 events x 10 webhooks interleaved a run's 128 rows over as many pages).
 */

const T0 = new Date('2026-11-22T10:15:00.000Z');
const ids = new SequentialIds();

async function anAccount(f: PersistenceFixture) {
  const result = await f.uow.run(async (tx) => {
    const accountId = await tx.accounts.create(Account.open(T0, 14));
    const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
    if (!user.ok) return err('duplicate');
    return ok({ accountId, userId: user.value.id, nickname: user.value.nickname });
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

async function aWebhook(f: PersistenceFixture, accountId: AccountId): Promise<WebhookId> {
  const created = Webhook.create({ id: ids.next(), accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0);
  if (!created.ok) throw new Error('invalid webhook');
  await f.uow.run(async (tx) => ok(await tx.webhooks.save(created.value)));
  return created.value.id;
}

forEachImplementation('DispatchEvents', (make) => {
  let f: PersistenceFixture;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => {
    await f.dispose();
  });

  it("stores a batch's deliveries side by side per webhook, each webhook's in event order", async () => {
    const owner = await anAccount(f);
    const webhooks = [await aWebhook(f, owner.accountId), await aWebhook(f, owner.accountId), await aWebhook(f, owner.accountId)];
    const apis: ApiId[] = [];
    for (const nickname of ['first', 'second', 'third', 'fourth']) {
      const api = Api.create({ id: ids.next(), accountId: owner.accountId, owner: { id: owner.userId, nickname: owner.nickname }, name: nickname, nickname }, T0);
      if (!api.ok) throw new Error('invalid api');
      await f.uow.run(async (tx) => {
        await tx.apis.save(api.value);
        await tx.outbox.append(api.value.pullEvents());
        return ok(undefined);
      });
      apis.push(api.value.id);
    }

    expect(await new DispatchEvents(f.uow, ids, new FixedClock(T0)).execute(10)).to.deep.equal({ events: 4, deliveries: 12 });

    for (const webhook of webhooks) {
      const listed = (await f.repos.deliveries.list(webhook, { limit: 10 })).items;
      expect(
        listed.map((d) => (JSON.parse(d.payload) as { resource: { id: string } }).resource.id),
        'newest first: ids follow the order the events occurred in',
      ).to.deep.equal([...apis].reverse());
    }
    if (f.sql && f.table) {
      // Where the rows are: SQLite's rowid order, PostgreSQL's heap order.
      const physical = f.dialect === 'postgres' ? 'ctid' : 'rowid';
      const rows = (await f.sql(`SELECT webhook_id AS "webhookId" FROM ${f.table('webhook_deliveries')} ORDER BY ${physical}`)) as { webhookId: string }[];
      expect(rows.map((row) => webhooks.indexOf(row.webhookId as WebhookId))).to.deep.equal([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    }
  });
});
