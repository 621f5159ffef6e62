import { expect } from 'chai';
import { retentionCutoffs, type RetentionSettings } from '../../src/application/maintenance/purge-retained.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import { Api } from '../../src/domain/api/api.aggregate.js';
import { Release } from '../../src/domain/release/release.aggregate.js';
import { ok } from '../../src/domain/shared/result.js';
import { deriveResources } from '../../src/domain/spec/derived-resources.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { Webhook, type WebhookId } from '../../src/domain/webhook/webhook.aggregate.js';
import type { Uuid } from '../../src/domain/shared/ids.js';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';

const ids = new UuidV7IdGenerator();
const uuid = <Id extends Uuid<string>>(): Id => ids.next<Id>();
const DAY = 24 * 3600_000;
const T0 = new Date('2026-10-01T00:00:00.000Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const SETTINGS: RetentionSettings = { deliveriesMs: 30 * DAY, dispatchedEventsMs: 7 * DAY, rateLimitCountersMs: 3600_000, specHistoryMs: 10 * DAY };

/**
 * The retention cleanup of issue 14 on each store: what finished before its retention period goes,
 * in batches; what is pending, current, released or recent stays, and a kept revision still reads
 * back whole after the chunks of the others went.
 */
forEachImplementation('retention cleanup', (make) => {
  let f: PersistenceFixture;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => f.dispose());

  async function seed() {
    const result = await f.uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(T0, 14));
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('user');
      const webhook = Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0);
      if (!webhook.ok) throw new Error('webhook');
      await tx.webhooks.save(webhook.value);
      const api = Api.create({ id: uuid(), accountId, owner: { id: user.value.id, nickname: user.value.nickname }, name: 'Pets', nickname: 'pets' }, T0);
      if (!api.ok) throw new Error('api');
      await tx.apis.save(api.value);
      return ok({ accountId, webhook: webhook.value, api: api.value, actor: { id: user.value.id, nickname: user.value.nickname } });
    });
    if (!result.ok) throw new Error('seed');
    return result.value;
  }

  it('deletes finished deliveries past their retention, never a pending one, in batches', async () => {
    const { webhook } = await seed();
    const delivery = (created: Date, outcome: 'succeeded' | 'failed' | 'pending') => {
      const eventId = uuid();
      const d = Delivery.schedule({ id: uuid(), webhookId: webhook.id, accountId: webhook.accountId, eventId, event: 'api.created', payload: '{}' }, created);
      if (outcome !== 'pending') d.recordAttempt({ status: outcome === 'succeeded' ? 204 : 500, durationMs: 1, responseBody: '', error: null }, created, { baseMs: 1000, capMs: 1000, maxAttempts: 1 }, 0.5);
      return d;
    };
    const old = [...Array.from({ length: 5 }, () => delivery(at(1), 'succeeded')), delivery(at(2), 'failed')];
    const kept = [delivery(at(1), 'pending'), delivery(at(40), 'succeeded')];
    await f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut([...old, ...kept])));
    const first = await f.retention.purge(retentionCutoffs(at(45), SETTINGS), 2, 0);
    expect(first.deliveries, 'out of time at once: one batch, the rest for the next run').to.equal(f.sql ? 2 : 6);
    const gone = await f.retention.purge(retentionCutoffs(at(45), SETTINGS), 2, Infinity);
    expect(first.deliveries + gone.deliveries, 'the six finished more than 30 days ago, 2 at a time').to.equal(6);
    const left = (await f.repos.deliveries.list(webhook.id, { limit: 100 })).items.map((d) => d.id).sort();
    expect(left).to.deep.equal(kept.map((d) => d.id).sort());
    expect((await f.retention.counts()).deliveries).to.equal(2);
  });

  it('stores an event\'s payload once for all its deliveries, and deletes it once no delivery needs it and it is past the retention', async () => {
    const { webhook, accountId } = await seed();
    const other = Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/other', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0);
    if (!other.ok) throw new Error('webhook');
    await f.uow.run(async (tx) => ok(await tx.webhooks.save(other.value)));
    const finished = (d: Delivery, created: Date) => d.recordAttempt({ status: 204, durationMs: 1, responseBody: '', error: null }, created, { baseMs: 1000, capMs: 1000, maxAttempts: 1 }, 0.5);
    // Events a-d, each to both webhooks, on day 1: a finished everywhere; b pending at one webhook;
    // c finished, then redelivered on day 40; d only to the webhook deleted below.
    const events: Record<'a' | 'b' | 'c' | 'd', string> = { a: uuid(), b: uuid(), c: uuid(), d: uuid() };
    const delivery = (to: Webhook, name: keyof typeof events, created: Date) =>
      Delivery.schedule({ id: uuid(), webhookId: to.id, accountId, eventId: events[name], event: 'api.created', payload: `{"event":"${name}"}` }, created);
    const fanOut = [delivery(webhook, 'a', at(1)), delivery(other.value, 'a', at(1)), delivery(webhook, 'b', at(1)), delivery(other.value, 'b', at(1)), delivery(webhook, 'c', at(1)), delivery(other.value, 'd', at(1))];
    for (const d of fanOut.filter((d) => !(d.webhookId === webhook.id && d.eventId === events.b))) finished(d, at(1));
    expect(await f.uow.run(async (tx) => ok(await tx.deliveries.addFanOut(fanOut)))).to.deep.equal({ ok: true, value: 6 });
    if (f.sql) expect((await f.retention.counts()).webhookPayloads, 'one a event').to.equal(4);
    const again = delivery(webhook, 'c', at(40));
    await f.uow.run(async (tx) => ok(await tx.deliveries.add(again, null)));
    await f.uow.run(async (tx) => {
      await tx.webhooks.delete(accountId, other.value.id);
      return ok(undefined);
    });
    if (f.sql) expect((await f.retention.counts()).webhookPayloads, 'kept until the cleanup').to.equal(4);

    const gone = await f.retention.purge(retentionCutoffs(at(45), SETTINGS), 1, Infinity);
    expect(gone.deliveries, 'the finished a and c of day 1').to.equal(2);
    if (f.sql) expect(gone.webhookPayloads, 'a (no delivery left) and d (its webhook deleted), not b (pending) nor c (redelivered)').to.equal(2);
    const left = (await f.repos.deliveries.list(webhook.id, { limit: 10 })).items.map((d) => [d.eventId, d.payload, d.snapshot().state]);
    expect(left).to.deep.equal([
      [events.c, '{"event":"c"}', 'pending'],
      [events.b, '{"event":"b"}', 'pending'],
    ]);
    expect((await f.repos.deliveries.get(webhook.id, again.id))?.payload).to.equal('{"event":"c"}');
    expect(await f.retention.purge(retentionCutoffs(at(45), SETTINGS), 10, Infinity)).to.deep.include({ deliveries: 0, webhookPayloads: 0 });
  });

  it('keeps the payload of an event delivered again while the cleanup deletes it, whatever the new date (PostgreSQL: the cleanup waits for the redelivery and finds the row changed)', async () => {
    const { webhook, accountId } = await seed();
    const gone = Webhook.create({ id: uuid(), accountId, targetUrl: 'https://hooks.example.com/gone', events: ['api.created'], secret: 's'.repeat(20), active: true }, T0);
    if (!gone.ok) throw new Error('webhook');
    const eventId = uuid();
    const delivery = (to: WebhookId, created: Date) => Delivery.schedule({ id: uuid(), webhookId: to, accountId, eventId, event: 'api.created', payload: '{"n":1}' }, created);
    await f.uow.run(async (tx) => {
      await tx.webhooks.save(gone.value);
      return ok(await tx.deliveries.addFanOut([delivery(gone.value.id, at(1))]));
    });
    // The event's only delivery went with its webhook: its payload waits for the cleanup.
    await f.uow.run(async (tx) => ok(await tx.webhooks.delete(accountId, gone.value.id)));
    // Dated before the cutoff (day 15): a clock behind, or a transaction held open past the period.
    const again = delivery(webhook.id, at(10));
    let purge: Promise<unknown> | undefined;
    await f.uow.run(async (tx) => {
      await tx.deliveries.add(again, null);
      purge = f.retention.purge(retentionCutoffs(at(45), SETTINGS), 10, Infinity);
      // Committed only once the cleanup is at its DELETE (PostgreSQL: waiting for this transaction's row).
      if (f.dialect === 'postgres' && f.sql) {
        const waiting = async () => (await f.sql!(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM%webhook_payloads%'`)).length > 0;
        for (let waited = 0; !(await waiting()) && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      } else await new Promise((resolve) => setTimeout(resolve, 100));
      return ok(undefined);
    });
    await purge;
    expect((await f.repos.deliveries.get(webhook.id, again.id))?.payload).to.equal('{"n":1}');
  });

  it('deletes outbox events dispatched before their retention, never an undispatched one', async () => {
    const { accountId, actor } = await seed();
    // Three APIs made: three api.created events.
    for (const nickname of ['one', 'two', 'three']) {
      const api = Api.create({ id: uuid(), accountId, owner: actor, name: nickname, nickname }, at(1));
      if (!api.ok) throw new Error('api');
      await f.uow.run(async (tx) => {
        await tx.apis.save(api.value);
        return ok(await tx.outbox.append(api.value.pullEvents()));
      });
    }
    const first = await f.uow.run(async (tx) => ok(await tx.outbox.claimPending(2)));
    const dispatched = first.ok ? first.value.map((e) => e.id) : [];
    await f.uow.run(async (tx) => ok(await tx.outbox.markDispatched(dispatched.slice(0, 1), at(1))));
    await f.uow.run(async (tx) => ok(await tx.outbox.markDispatched(dispatched.slice(1), at(20))));
    expect((await f.retention.purge(retentionCutoffs(at(10), SETTINGS), 10, Infinity)).outboxEvents, 'dispatched on day 1, kept 7 days').to.equal(1);
    expect((await f.retention.counts()).outboxEvents).to.equal(2);
    expect((await f.retention.purge(retentionCutoffs(at(400), SETTINGS), 10, Infinity)).outboxEvents, 'the other dispatched one; the undispatched stays').to.equal(1);
    expect((await f.repos.outbox.backlog()).pending).to.equal(1);
  });

  it('keeps the spec history by default; with a retention, deletes old revisions but the current and released ones, and the chunks only they used', async () => {
    const { api, actor } = await seed();
    const text = (n: number) => JSON.stringify({ swagger: '2.0', info: { title: 'Pets', version: `${n}` }, paths: {}, 'x-pad': `${n} `.repeat(20_000) });
    for (const n of [1, 2, 3, 4]) {
      await f.uow.run(async (tx) =>
        ok(await tx.specs.save(api.id, { syntax: 'json', source: text(n), documentJson: text(n) }, deriveResources(JSON.parse(text(n)) as JsonObject), { revision: n, creationDate: at(n), actor, specFormat: 'swagger-2.0', changes: n === 1 ? null : { counts: { breaking: 0, warning: 0, info: n }, items: [] }, reason: null })),
      );
      if (n === 2) {
        const release = Release.release({ id: uuid(), api: api.asReleased(), version: '1.0.0', actor }, at(2));
        if (!release.ok) throw new Error('release');
        const NO_CHANGES = { since: null, counts: { breaking: 0, warning: 0, info: 0 }, items: [] };
        await f.uow.run((tx) => tx.releases.add(release.value, { syntax: 'json', source: text(2), documentJson: text(2) }, 2, NO_CHANGES));
      }
    }
    const before = await f.retention.counts();
    expect((await f.retention.purge(retentionCutoffs(at(100), { ...SETTINGS, specHistoryMs: null }), 10, Infinity)).specRevisions, 'kept by default').to.equal(0);
    const gone = await f.retention.purge(retentionCutoffs(at(100), SETTINGS), 1, Infinity);
    expect(gone.specRevisions, 'revisions 1 and 3: 2 is released, 4 is current').to.equal(2);
    const revisions = (await f.repos.revisions.list(api.id, { limit: 10 })).items.map((r) => r.revision);
    expect(revisions).to.deep.equal([4, 2]);
    expect((await f.repos.revisions.get(api.id, 2))?.spec.source, 'a kept revision reads back whole').to.equal(text(2));
    expect((await f.repos.revisions.get(api.id, 1)), 'a deleted one is gone').to.equal(undefined);
    expect(await f.repos.revisions.changes(api.id, 4, 3), 'as recorded, against revision 3').to.deep.equal({ counts: { breaking: 0, warning: 0, info: 4 }, items: [] });
    expect(await f.repos.revisions.changes(api.id, 4, 2), 'not against 2, the one before it now: those are computed anew').to.equal(null);
    const after = await f.retention.counts();
    expect(after.specChunks, 'the chunks only 1 and 3 listed went').to.equal(before.specChunks - gone.specChunks);
    if (f.sql) expect(gone.specChunks).to.be.greaterThan(0);
  });
});

/** The rate limiter's counters live in the database on SQLite and PostgreSQL (in memory it bounds its own windows). */
forEachImplementation('retention cleanup of rate-limit counters', (make) => {
  it('deletes the counters whose window ended before their retention', async () => {
    const f = await make();
    try {
      if (!f.sql || !f.table) {
        expect((await f.retention.purge(retentionCutoffs(at(2), SETTINGS), 1, Infinity)).rateLimitCounters, 'none kept in memory').to.equal(0);
        return;
      }
      for (const [key, end] of [['old-1', at(1)], ['old-2', at(1)], ['live', at(2)]] as const) {
        await f.sql(`INSERT INTO ${f.table('rate_limits')} (key, window_end, count) VALUES (?, ?, 1)`, [key, end.toISOString()]);
      }
      const gone = await f.retention.purge(retentionCutoffs(new Date(at(2).getTime() - 1000), SETTINGS), 1, Infinity);
      expect(gone.rateLimitCounters).to.equal(2);
      expect((await f.retention.counts()).rateLimitCounters).to.equal(1);
    } finally {
      await f.dispose();
    }
  });
});
