import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { HttpWebhookSender } from '../../src/adapters/webhooks/http-webhook-sender.js';
import { SsrfGuard } from '../../src/adapters/webhooks/ssrf-guard.js';
import type { DeliveryOutcomeKind, Metrics } from '../../src/application/ports/metrics.port.js';
import type { OutgoingRun, RunAttempt, WebhookSender } from '../../src/application/ports/webhook-sender.port.js';
import { DeliverDue, type DeliverySettings } from '../../src/application/webhooks/deliver-due.service.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { Uuid } from '../../src/domain/shared/ids.js';
import { ok } from '../../src/domain/shared/result.js';
import { Delivery } from '../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { FixedClock } from '../support/fakes.js';
import { aNewUser, forEachImplementation, type PersistenceFixture } from './fixtures.js';

/**
 * Done-when 1 of issue 14, the fenced leases: worker A claims a webhook's run and stalls after its
 * first attempt, which a slow receiver let time out; A's lease runs out and worker B claims the run
 * and sends it, its second delivery held by the receiver. A's recording then arrives while B is in
 * flight. Before the fence it saved its outcome and cleared B's leases, so a third worker's pass
 * claimed B's delivery in flight and sent it a second time; now A's writes change nothing, are
 * counted, and each delivery has exactly one successful send.
 */

/** A receiver that holds the requests it is told to, and answers the rest 204 at once. */
class Receiver {
  readonly received: { eventId: string; at: number }[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly held = new Map<number, () => void>();
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private server!: http.Server;

  constructor(private readonly holds: ReadonlySet<number>) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const n = this.received.push({ eventId: String(req.headers['webhook-id']), at: Date.now() });
        this.inFlight += 1;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        const answer = () => {
          this.inFlight -= 1;
          if (!res.destroyed) res.writeHead(204).end();
        };
        // A request whose client gave up is no longer in flight.
        res.on('close', () => this.held.delete(n) && (this.inFlight -= 1));
        if (this.holds.has(n)) this.held.set(n, answer);
        else answer();
        for (const w of this.waiters.filter((w) => this.received.length >= w.count)) w.resolve();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived. */
  receivedAtLeast(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Resolves once nothing is in flight (a held request's client gave up, or it was answered). */
  async idle(): Promise<void> {
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Answers the held request number `n` (from 1). */
  answer(n: number): void {
    const answer = this.held.get(n);
    this.held.delete(n);
    answer?.();
  }

  async stop(): Promise<void> {
    for (const n of [...this.held.keys()]) this.answer(n);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A worker's sender that makes its run's first attempt for real, then stalls until `resume`. */
class StallingSender implements WebhookSender {
  private resumed!: () => void;
  private readonly resumption = new Promise<void>((resolve) => (this.resumed = resolve));
  constructor(private readonly real: HttpWebhookSender) {}
  async sendRun(run: OutgoingRun): Promise<RunAttempt[]> {
    const first = run.deliveries[0]!;
    const attemptDate = run.now;
    const outcome = await this.real.send({ targetUrl: run.targetUrl, secret: run.secret, eventId: first.eventId, body: first.body, attemptDate });
    await this.resumption;
    return [{ attemptDate, outcome }];
  }
  resume(): void {
    this.resumed();
  }
}

class CountingMetrics implements Metrics {
  stale = 0;
  readonly outcomes: DeliveryOutcomeKind[] = [];
  deliveryRecorded(outcome: DeliveryOutcomeKind): void {
    this.outcomes.push(outcome);
  }
  staleRunWrites(count: number): void {
    this.stale += count;
  }
  tokenAuthenticated(): void {
    // Not what this test looks at.
  }
}

/** Fresh ids in creation order, as the server makes them (events are sent in id order). */
const ids = new UuidV7IdGenerator();
const uuid = <Id extends Uuid<string>>(): Id => ids.next<Id>();

const RETRY = { baseMs: 60_000, capMs: 600_000, maxAttempts: 5 };
const settings = (leaseMs: number): DeliverySettings => ({ retry: RETRY, leaseMs, attemptTimeoutMs: 1_000, lanes: 4, perRun: 3 });

forEachImplementation('fenced delivery leases', (make) => {
  let f: PersistenceFixture;
  let receiver: Receiver;
  beforeEach(async () => {
    f = await make();
  });
  afterEach(async () => {
    await receiver?.stop();
    await f.dispose();
  });

  it('refuses the writes of a run whose lease ran out and was claimed again: one successful send per delivery, none twice in flight', async () => {
    // Requests: 1 A's first delivery (held: A's attempt times out), 2 B's first, 3 B's second (held until the end).
    receiver = new Receiver(new Set([1, 3]));
    const target = await receiver.start();
    const clock = new FixedClock();
    const seeded = await f.uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(clock.now(), 14));
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('user');
      const webhook = Webhook.create({ id: uuid(), accountId, targetUrl: target, events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
      if (!webhook.ok) throw new Error('webhook');
      await tx.webhooks.save(webhook.value);
      const deliveries = [1, 2, 3].map(() => {
        const eventId = uuid();
        return Delivery.schedule({ id: uuid(), webhookId: webhook.value.id, accountId, eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, clock.now());
      });
      for (const delivery of deliveries) await tx.deliveries.add(delivery, delivery.eventId);
      return ok({ webhook: webhook.value, deliveries });
    });
    if (!seeded.ok) throw new Error('seed');
    const { webhook, deliveries } = seeded.value;
    const guard = new SsrfGuard({ allowPrivateTargets: true });
    const metrics = new CountingMetrics();
    const worker = (sender: WebhookSender, leaseMs: number) => new DeliverDue(f.uow, f.repos.webhooks, sender, clock, { next: () => 0.5 }, ids, settings(leaseMs), metrics);

    // A claims the three and sends the first: the receiver holds it past A's 300 ms timeout, and A stalls.
    const stalled = new StallingSender(new HttpWebhookSender({ timeoutMs: 300, guard }));
    const a = await worker(stalled, 5_000).execute();
    expect(a.claimed).to.equal(3);
    await receiver.receivedAtLeast(1);
    await receiver.idle();
    // A's lease runs out; B claims the run and sends it: its first answered, its second held.
    clock.advance(5_001);
    const b = await worker(new HttpWebhookSender({ timeoutMs: 30_000, guard }), 60_000).execute();
    expect(b.claimed, "B takes the run A's expired lease held").to.equal(3);
    await receiver.receivedAtLeast(3);
    // A resumes and records its (timed-out) attempt and releases what it did not send: refused.
    stalled.resume();
    expect(await a.done).to.equal(1);
    expect(metrics.stale, "A's one outcome is a stale write").to.equal(1);
    // A third pass while B's second delivery is in flight: B's lease stands, nothing is claimed.
    const c = await worker(new HttpWebhookSender({ timeoutMs: 30_000, guard }), 60_000).execute();
    expect(c.claimed, "B's leases were not cleared by A's late recording").to.equal(0);
    await c.done;
    receiver.answer(3);
    expect(await b.done).to.equal(3);

    const log = (await f.repos.deliveries.list(webhook.id, { limit: 10 })).items.map((d) => d.snapshot());
    for (const delivery of deliveries) {
      const stored = log.find((d) => d.id === delivery.id)!;
      expect(stored.state, 'every delivery succeeded').to.equal('succeeded');
      expect(stored.attempts.map((attempt) => attempt.status), "one attempt each, B's; A's refused").to.deep.equal([204]);
    }
    const successes = metrics.outcomes.filter((o) => o === 'success').length;
    expect(successes, 'exactly one successful send recorded per delivery').to.equal(deliveries.length);
    const sends = (eventId: string) => receiver.received.filter((r) => r.eventId === eventId).length;
    expect(deliveries.map((d) => sends(d.eventId)), "the first twice (A's timed out), the others once").to.deep.equal([2, 1, 1]);
    expect(receiver.maxInFlight, 'never two of the webhook in flight at once, A timed out before B sent').to.equal(1);
  });

  it('records nothing of a run whose webhook was deleted while it was in flight, counts nothing stale, and ends the lane', async () => {
    const clock = new FixedClock();
    const seeded = await f.uow.run(async (tx) => {
      const accountId = await tx.accounts.create(Account.open(clock.now(), 14));
      const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
      if (!user.ok) throw new Error('user');
      const webhook = Webhook.create({ id: uuid(), accountId, targetUrl: 'http://127.0.0.1:9/hook', events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
      if (!webhook.ok) throw new Error('webhook');
      await tx.webhooks.save(webhook.value);
      for (let i = 0; i < 3; i += 1) {
        const eventId = uuid();
        await tx.deliveries.add(Delivery.schedule({ id: uuid(), webhookId: webhook.value.id, accountId, eventId, event: 'api.created', payload: '{}' }, clock.now()), eventId);
      }
      return ok(webhook.value);
    });
    if (!seeded.ok) throw new Error('seed');
    const webhook = seeded.value;
    // The owner deletes the webhook while its run is being sent; every attempt is answered 204.
    const deleting: WebhookSender = {
      async sendRun(run: OutgoingRun): Promise<RunAttempt[]> {
        await f.uow.run(async (tx) => ok(await tx.webhooks.delete(webhook.accountId, webhook.id)));
        return run.deliveries.map(() => ({ attemptDate: clock.now(), outcome: { status: 204, durationMs: 1, responseBody: '', error: null } }));
      },
    };
    const metrics = new CountingMetrics();
    const pass = await new DeliverDue(f.uow, f.repos.webhooks, deleting, clock, { next: () => 0.5 }, ids, settings(60_000), metrics).execute();
    expect(pass.claimed).to.equal(3);
    expect(await pass.done, 'the run was attempted').to.equal(3);
    expect({ recorded: metrics.outcomes, stale: metrics.stale }, 'the deliveries went with the webhook: nothing written, nothing taken over').to.deep.equal({ recorded: [], stale: 0 });
    expect((await f.repos.deliveries.list(webhook.id, { limit: 10 })).items).to.deep.equal([]);
  });
});
