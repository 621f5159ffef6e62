import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { Transaction, UnitOfWork } from '../../../src/application/ports/unit-of-work.port.js';
import type { DeliveryOutcome, OutgoingDelivery, WebhookSender } from '../../../src/application/ports/webhook-sender.port.js';
import { DeliverDue, type DeliverySettings } from '../../../src/application/webhooks/deliver-due.service.js';
import { ok, type Result } from '../../../src/domain/shared/result.js';
import { Delivery } from '../../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../../src/domain/webhook/webhook.aggregate.js';
import { FixedClock, SequentialIds } from '../../support/fakes.js';

/**
 * Answers each POST with the next status of the target's script (default 204), after advancing
 * the clock by `takesMs`; keeps what was sent, per target, and the most POSTs a target had in flight.
 */
class LaneSender implements WebhookSender {
  readonly sent = new Map<string, string[]>();
  readonly inFlight = new Map<string, number>();
  maxInFlightPerTarget = 0;
  /** From this send on (counting from 1), POSTs never answer: the worker "dies" waiting. */
  hangFrom = Infinity;
  private count = 0;

  constructor(
    private readonly clock: FixedClock,
    private readonly takesMs = 1,
    private readonly scripts: Record<string, number[]> = {},
  ) {}

  async send(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
    this.count += 1;
    const list = this.sent.get(delivery.targetUrl) ?? [];
    list.push(delivery.eventId);
    this.sent.set(delivery.targetUrl, list);
    if (this.count >= this.hangFrom) return new Promise(() => undefined);
    const now = (this.inFlight.get(delivery.targetUrl) ?? 0) + 1;
    this.inFlight.set(delivery.targetUrl, now);
    this.maxInFlightPerTarget = Math.max(this.maxInFlightPerTarget, now);
    await new Promise((resolve) => setImmediate(resolve));
    this.clock.advance(this.takesMs);
    this.inFlight.set(delivery.targetUrl, now - 1);
    const status = this.scripts[delivery.targetUrl]?.shift() ?? 204;
    return { status, durationMs: this.takesMs, responseBody: '', error: null };
  }
}

/** Counts the transactions the service opens. */
class CountingUnitOfWork implements UnitOfWork {
  transactions = 0;
  constructor(private readonly inner: UnitOfWork) {}
  run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    this.transactions += 1;
    return this.inner.run(work);
  }
}

const SETTINGS: DeliverySettings = { retry: { baseMs: 1000, capMs: 60_000, maxAttempts: 3 }, leaseMs: 15_000, attemptTimeoutMs: 10_000, batchSize: 256, perWebhook: 32 };

async function setup(webhookCount: number) {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const webhooks: Webhook[] = [];
  for (let n = 1; n <= webhookCount; n++) {
    const created = Webhook.create({ id: ids.next(), accountId: 1, targetUrl: `https://hooks.example.com/${n}`, events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
    if (!created.ok) throw new Error('webhook');
    await db.run(async (tx) => ok(await tx.webhooks.save(created.value)));
    webhooks.push(created.value);
  }
  /** One event fanned out to every webhook; returns its id. */
  const event = async (): Promise<string> => {
    const eventId = ids.next();
    for (const webhook of webhooks) {
      const delivery = Delivery.schedule({ id: ids.next(), webhookId: webhook.id, accountId: 1, eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, clock.now());
      await db.run(async (tx) => ok(await tx.deliveries.add(delivery, eventId)));
    }
    return eventId;
  };
  const deliveries = async (webhook: Webhook) => (await db.repositories.deliveries.list(webhook.id, { limit: 100 })).items.map((d) => d.snapshot()).reverse();
  const worker = (sender: WebhookSender, settings: DeliverySettings = SETTINGS, uow: UnitOfWork = db) => new DeliverDue(uow, db.repositories.webhooks, sender, clock, { next: () => 0.5 }, settings);
  return { db, clock, webhooks, event, deliveries, worker };
}

describe('DeliverDue sends each webhook its deliveries in a lane', () => {
  it("sends several deliveries per webhook in one round, each webhook's in event order and one at a time", async () => {
    const s = await setup(2);
    const events: string[] = [];
    for (let i = 0; i < 5; i++) events.push(await s.event());
    const sender = new LaneSender(s.clock);
    expect(await s.worker(sender).execute()).to.equal(10);
    expect(sender.sent.get('https://hooks.example.com/1')).to.deep.equal(events);
    expect(sender.sent.get('https://hooks.example.com/2')).to.deep.equal(events);
    expect(sender.maxInFlightPerTarget, 'POSTs in flight to one webhook').to.equal(1);
    for (const webhook of s.webhooks) expect((await s.deliveries(webhook)).map((d) => d.state)).to.deep.equal(Array(5).fill('succeeded'));
  });

  it('records a round of attempts, every webhook\'s, in one transaction: one to claim, one to record', async () => {
    const s = await setup(2);
    for (let i = 0; i < 6; i++) await s.event();
    const uow = new CountingUnitOfWork(s.db);
    expect(await s.worker(new LaneSender(s.clock), SETTINGS, uow).execute()).to.equal(12);
    expect(uow.transactions).to.equal(2);
  });

  it('takes at most perWebhook deliveries of a webhook per round', async () => {
    const s = await setup(1);
    for (let i = 0; i < 5; i++) await s.event();
    const worker = s.worker(new LaneSender(s.clock), { ...SETTINGS, perWebhook: 2 });
    expect(await worker.execute()).to.equal(2);
    expect(await worker.execute()).to.equal(2);
    expect(await worker.execute()).to.equal(1);
  });

  it('starts no attempt that could outlast the lease and releases the rest at once', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 5; i++) events.push(await s.event());
    // Each POST takes 3 s; the lease is 15 s and an attempt may take 10: attempts start at 0 s and 3 s, not at 6 s.
    const sender = new LaneSender(s.clock, 3_000);
    const worker = s.worker(sender);
    expect(await worker.execute()).to.equal(2);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(['succeeded', 'succeeded', 'pending', 'pending', 'pending']);
    // Released, not left to expire: the next round, at once, takes the rest in order.
    expect(await worker.execute()).to.equal(2);
    expect(await worker.execute()).to.equal(1);
    expect(sender.sent.get('https://hooks.example.com/1'), 'each sent once, in order').to.deep.equal(events);
  });

  it('lets a retry in backoff not hold newer events back', async () => {
    const s = await setup(1);
    const events = [await s.event(), await s.event(), await s.event()];
    const sender = new LaneSender(s.clock, 1, { 'https://hooks.example.com/1': [500] });
    const worker = s.worker(sender);
    expect(await worker.execute()).to.equal(3);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(['pending', 'succeeded', 'succeeded']);
    expect(await worker.execute(), 'the retry is not due yet').to.equal(0);
    s.clock.advance(60_000);
    expect(await worker.execute()).to.equal(1);
    expect(sender.sent.get('https://hooks.example.com/1')).to.deep.equal([...events, events[0]]);
  });

  it('stops a lane after an attempt that deactivates its webhook; the rest is abandoned, not sent', async () => {
    const s = await setup(1);
    for (let i = 0; i < 3; i++) await s.event();
    const sender = new LaneSender(s.clock, 1, { 'https://hooks.example.com/1': [500] });
    const worker = s.worker(sender, { ...SETTINGS, retry: { ...SETTINGS.retry, maxAttempts: 1 } });
    expect(await worker.execute()).to.equal(1);
    const webhook = await s.db.repositories.webhooks.get(1, s.webhooks[0]!.id);
    expect(webhook?.active).to.equal(false);
    expect(await worker.execute()).to.equal(2);
    expect(sender.sent.get('https://hooks.example.com/1')).to.have.length(1);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => [d.state, d.attempts.at(-1)?.error])).to.deep.equal([
      ['failed', null],
      ['failed', 'the webhook is inactive'],
      ['failed', 'the webhook is inactive'],
    ]);
  });

  it('a worker that dies mid-round leaves its deliveries leased; once the lease ends another sends them again, in order', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(await s.event());
    const dying = new LaneSender(s.clock);
    dying.hangFrom = 2; // the first POST is answered, then the worker never returns
    void s.worker(dying).execute();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(dying.sent.get('https://hooks.example.com/1')).to.deep.equal(events.slice(0, 2));

    const next = new LaneSender(s.clock);
    expect(await s.worker(next).execute(), 'nothing while the lease lasts').to.equal(0);
    s.clock.advance(SETTINGS.leaseMs);
    expect(await s.worker(next).execute()).to.equal(4);
    expect(next.sent.get('https://hooks.example.com/1'), 'all again, the first one twice in all: at least once').to.deep.equal(events);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => [d.state, d.attempts.length])).to.deep.equal(Array(4).fill(['succeeded', 1]));
  });
});
