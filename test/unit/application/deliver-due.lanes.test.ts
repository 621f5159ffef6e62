import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { Transaction, UnitOfWork } from '../../../src/application/ports/unit-of-work.port.js';
import type { DeliveryOutcome, OutgoingRun, RunAttempt, WebhookSender } from '../../../src/application/ports/webhook-sender.port.js';
import { attemptInOrder, type OutgoingAttempt } from '../../../src/application/webhooks/run-policy.js';
import { DeliverDue, type DeliverySettings, type PassOptions } from '../../../src/application/webhooks/deliver-due.service.js';
import { ok, type Result } from '../../../src/domain/shared/result.js';
import { Delivery } from '../../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../../src/domain/webhook/webhook.aggregate.js';
import { FixedClock, SequentialIds, runSender } from '../../support/fakes.js';
import { accountId } from '../../support/ids.js';

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
  /** POSTs to these targets wait until `open` is called for them. */
  private readonly gates = new Map<string, { opened: Promise<void>; open: () => void }>();
  private count = 0;

  constructor(
    private readonly clock: FixedClock,
    private readonly takesMs = 1,
    private readonly scripts: Record<string, number[]> = {},
  ) {}

  /** Per target, the size of each run handed to `sendRun`. */
  readonly runSizes = new Map<string, number[]>();

  sendRun(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]> {
    this.runSizes.set(run.targetUrl, [...(this.runSizes.get(run.targetUrl) ?? []), run.deliveries.length]);
    return attemptInOrder((attempt) => this.send(attempt), run, () => this.clock.now(), () => stop?.aborted === true);
  }

  async send(delivery: OutgoingAttempt): Promise<DeliveryOutcome> {
    this.count += 1;
    const list = this.sent.get(delivery.targetUrl) ?? [];
    list.push(delivery.eventId);
    this.sent.set(delivery.targetUrl, list);
    if (this.count >= this.hangFrom) return new Promise(() => undefined);
    const now = (this.inFlight.get(delivery.targetUrl) ?? 0) + 1;
    this.inFlight.set(delivery.targetUrl, now);
    this.maxInFlightPerTarget = Math.max(this.maxInFlightPerTarget, now);
    await new Promise((resolve) => setImmediate(resolve));
    await this.gates.get(delivery.targetUrl)?.opened;
    this.clock.advance(this.takesMs);
    this.inFlight.set(delivery.targetUrl, now - 1);
    const status = this.scripts[delivery.targetUrl]?.shift() ?? 204;
    return { status, durationMs: this.takesMs, responseBody: '', error: null };
  }

  /** POSTs to `targetUrl` from now on wait until the returned function is called. */
  close(targetUrl: string): () => void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gates.set(targetUrl, { opened, open });
    return () => {
      this.gates.delete(targetUrl);
      open();
    };
  }
}

/** Counts the transactions the service opens; with `holdNth`, holds that one until `release` is called. */
class CountingUnitOfWork implements UnitOfWork {
  transactions = 0;
  waiting = false;
  release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  constructor(
    private readonly inner: UnitOfWork,
    private readonly holdNth = 0,
  ) {}
  async run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    this.transactions += 1;
    if (this.transactions === this.holdNth) {
      this.waiting = true;
      await this.gate;
    }
    return this.inner.run(work);
  }
}

const SETTINGS: DeliverySettings = { retry: { baseMs: 1000, capMs: 60_000, maxAttempts: 3 }, leaseMs: 15_000, attemptTimeoutMs: 10_000, lanes: 256, perRun: 32 };

/** A whole pass: its claim, and every lane it started until each has ended; how many deliveries they handled. */
async function pass(deliver: DeliverDue, options?: PassOptions): Promise<number> {
  return (await deliver.execute(options)).done;
}

const hook = (n: number) => `https://hooks.example.com/${n}`;
const until = async (condition: () => boolean | Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 1000; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the condition never held');
};

async function setup(webhookCount: number) {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const webhooks: Webhook[] = [];
  for (let n = 1; n <= webhookCount; n++) {
    const created = Webhook.create({ id: ids.next(), accountId: accountId(1), targetUrl: `https://hooks.example.com/${n}`, events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
    if (!created.ok) throw new Error('webhook');
    await db.run(async (tx) => ok(await tx.webhooks.save(created.value)));
    webhooks.push(created.value);
  }
  /** One event fanned out to every webhook; returns its id. */
  const event = async (): Promise<string> => {
    const eventId = ids.next();
    for (const webhook of webhooks) {
      const delivery = Delivery.schedule({ id: ids.next(), webhookId: webhook.id, accountId: accountId(1), eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, clock.now());
      await db.run(async (tx) => ok(await tx.deliveries.add(delivery, eventId)));
    }
    return eventId;
  };
  const deliveries = async (webhook: Webhook) => (await db.repositories.deliveries.list(webhook.id, { limit: 100 })).items.map((d) => d.snapshot()).reverse();
  const worker = (sender: WebhookSender, settings: DeliverySettings = SETTINGS, uow: UnitOfWork = db) => new DeliverDue(uow, db.repositories.webhooks, sender, clock, { next: () => 0.5 }, ids, settings);
  return { db, clock, webhooks, event, deliveries, worker };
}

describe('DeliverDue sends each webhook its deliveries in a lane', () => {
  it("sends each webhook's deliveries in event order, one at a time, several per run", async () => {
    const s = await setup(2);
    const events: string[] = [];
    for (let i = 0; i < 5; i++) events.push(await s.event());
    const sender = new LaneSender(s.clock);
    expect(await pass(s.worker(sender))).to.equal(10);
    expect(sender.sent.get(hook(1))).to.deep.equal(events);
    expect(sender.sent.get(hook(2))).to.deep.equal(events);
    expect(sender.maxInFlightPerTarget, 'POSTs in flight to one webhook').to.equal(1);
    for (const webhook of s.webhooks) expect((await s.deliveries(webhook)).map((d) => d.state)).to.deep.equal(Array(5).fill('succeeded'));
  });

  it('one transaction claims the first runs; then each lane records a run and claims its next in one', async () => {
    const s = await setup(2);
    for (let i = 0; i < 6; i++) await s.event();
    const uow = new CountingUnitOfWork(s.db);
    expect(await pass(s.worker(new LaneSender(s.clock), { ...SETTINGS, perRun: 4 }, uow))).to.equal(12);
    // The claim; per webhook a run of 4 recorded with the next (2) claimed, then that run recorded (nothing left).
    expect(uow.transactions).to.equal(1 + 2 * 2);
  });

  it('a lane goes on run after run without waiting for a slower lane', async () => {
    const s = await setup(2);
    const events: string[] = [];
    for (let i = 0; i < 6; i++) events.push(await s.event());
    const sender = new LaneSender(s.clock);
    const open = sender.close(hook(1));
    const { claimed, done } = await s.worker(sender, { ...SETTINGS, perRun: 2 }).execute();
    expect(claimed, 'the first run of each').to.equal(4);
    await until(async () => (await s.deliveries(s.webhooks[1]!)).every((d) => d.state === 'succeeded'));
    expect(sender.sent.get(hook(2)), "webhook 2's three runs, sent and recorded").to.deep.equal(events);
    expect(sender.sent.get(hook(1)), 'webhook 1 still waits for its first answer').to.deep.equal(events.slice(0, 1));
    open();
    expect(await done).to.equal(12);
    expect(sender.sent.get(hook(1))).to.deep.equal(events);
  });

  it('starts no attempt that could outlast its run\'s lease: the lane records, releases and claims a new run', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 5; i++) events.push(await s.event());
    // Each POST takes 3 s; a lease is 15 s and an attempt may take 10: a run's attempts start at 0 s and 3 s, not at 6 s.
    const sender = new LaneSender(s.clock, 3_000);
    const uow = new CountingUnitOfWork(s.db);
    expect(await pass(s.worker(sender, SETTINGS, uow))).to.equal(5);
    expect(sender.sent.get(hook(1)), 'each sent once, in order').to.deep.equal(events);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(Array(5).fill('succeeded'));
    expect(uow.transactions, 'the claim, and runs of 2, 2 and 1').to.equal(1 + 3);
  });

  it('lets a retry in backoff not hold newer events back', async () => {
    const s = await setup(1);
    const events = [await s.event(), await s.event(), await s.event()];
    const sender = new LaneSender(s.clock, 1, { [hook(1)]: [500] });
    const worker = s.worker(sender);
    expect(await pass(worker)).to.equal(3);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(['pending', 'succeeded', 'succeeded']);
    expect(await pass(worker), 'the retry is not due yet').to.equal(0);
    s.clock.advance(60_000);
    expect(await pass(worker)).to.equal(1);
    expect(sender.sent.get(hook(1))).to.deep.equal([...events, events[0]]);
  });

  it('stops a run after an attempt that deactivates its webhook; the next run sees it inactive and abandons the rest', async () => {
    const s = await setup(1);
    for (let i = 0; i < 3; i++) await s.event();
    const sender = new LaneSender(s.clock, 1, { [hook(1)]: [500] });
    expect(await pass(s.worker(sender, { ...SETTINGS, retry: { ...SETTINGS.retry, maxAttempts: 1 } }))).to.equal(3);
    const webhook = await s.db.repositories.webhooks.get(accountId(1), s.webhooks[0]!.id);
    expect(webhook?.active).to.equal(false);
    expect(sender.sent.get(hook(1))).to.have.length(1);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => [d.state, d.attempts.at(-1)?.error])).to.deep.equal([
      ['failed', null],
      ['failed', 'the webhook is inactive'],
      ['failed', 'the webhook is inactive'],
    ]);
  });

  it('sends to the webhook as the last recording read it: a new target URL applies from the next run', async () => {
    const s = await setup(1);
    for (let i = 0; i < 4; i++) await s.event();
    const sender = new LaneSender(s.clock);
    const open = sender.close(hook(1));
    const { done } = await s.worker(sender, { ...SETTINGS, perRun: 2 }).execute();
    await until(() => sender.sent.get(hook(1))?.length === 1);
    const moved = (await s.db.repositories.webhooks.get(accountId(1), s.webhooks[0]!.id))!;
    expect(moved.update({ targetUrl: 'https://elsewhere.example.com/in' }, s.clock.now()).ok).to.equal(true);
    await s.db.run(async (tx) => ok(await tx.webhooks.save(moved)));
    open();
    expect(await done).to.equal(4);
    expect(sender.sent.get(hook(1)), 'the first run').to.have.length(2);
    expect(sender.sent.get('https://elsewhere.example.com/in'), 'the second').to.have.length(2);
  });

  it('stopped, each lane ends after its attempt in flight, records it and releases the rest at once', async () => {
    const s = await setup(1);
    for (let i = 0; i < 5; i++) await s.event();
    const sender = new LaneSender(s.clock);
    const stop = new AbortController();
    const open = sender.close(hook(1));
    const { done } = await s.worker(sender).execute({ stop: stop.signal });
    await until(() => sender.sent.get(hook(1))?.length === 1);
    stop.abort();
    open();
    expect(await done).to.equal(1);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(['succeeded', 'pending', 'pending', 'pending', 'pending']);
    expect(await pass(s.worker(new LaneSender(s.clock))), 'released, not left to expire: claimed again at once').to.equal(4);
  });

  it('while every lane slot is taken, a lane gives its webhook back after each run, so the others get their turn', async () => {
    const s = await setup(2);
    for (let i = 0; i < 3; i++) await s.event();
    const sender = new LaneSender(s.clock);
    const order: string[] = [];
    const recording: WebhookSender = runSender((delivery) => (order.push(delivery.targetUrl), sender.send(delivery)), s.clock);
    const worker = s.worker(recording, { ...SETTINGS, lanes: 1, perRun: 1 });
    let gaveBack = 0;
    while ((await pass(worker, { gaveBack: () => (gaveBack += 1) })) > 0);
    // Oldest due event first: webhook 2's first event is older than webhook 1's second.
    expect(order).to.deep.equal([hook(1), hook(2), hook(1), hook(2), hook(1), hook(2)]);
    expect(gaveBack).to.equal(6);
  });

  it('tells of a give-back once its lane slot is free, so the claim made then finds room', async () => {
    const s = await setup(2);
    for (let i = 0; i < 2; i++) await s.event();
    const worker = s.worker(new LaneSender(s.clock), { ...SETTINGS, lanes: 1, perRun: 1 });
    const claims: number[] = [];
    const passes: Promise<number>[] = [];
    // As the worker does: told, it claims again at once.
    const options: PassOptions = {
      gaveBack: () => {
        passes.push(
          worker.execute(options).then(({ claimed, done }) => {
            claims.push(claimed);
            return done;
          }),
        );
      },
    };
    expect(await pass(worker, options)).to.equal(1);
    await passes[0];
    expect(claims[0], "the claim made when told: webhook 2's first delivery").to.equal(1);
    while (passes.length > 0) await passes.shift();
    expect(claims.reduce((a, b) => a + b), 'all four, one run at a time').to.equal(3);
  });

  it('tells of a give-back when its lane ends with nothing more due, so a delivery a claim passed over meanwhile is claimed at once', async () => {
    // On PostgreSQL a claim made while the lane records its run skips the webhook's locked row; a
    // delivery committed after the recording's own claim looked is then seen by no claim until
    // the poll interval (1 s), unless the worker claims again once the lane has let the webhook go.
    const s = await setup(1);
    const first = await s.event();
    const sender = new LaneSender(s.clock);
    const worker = s.worker(sender, { ...SETTINGS, perRun: 1 });
    let told = 0;
    let late: string | undefined;
    const passes: Promise<number>[] = [];
    const options: PassOptions = {
      gaveBack: () => {
        told += 1;
        // The delivery that came while the lane held the webhook, passed over by the claims made meanwhile.
        passes.push((async () => ((late ??= await s.event()), (await worker.execute(options)).done))());
      },
    };
    expect(await pass(worker, options)).to.equal(1);
    while (passes.length > 0) await passes.shift();
    expect(sender.sent.get(hook(1))).to.deep.equal([first, late]);
    expect(told, 'once per lane that ended: the first, and the one the second claim started').to.equal(2);
  });

  it('a pass that comes while another claims waits for it, then claims what was committed after that claim looked', async () => {
    const s = await setup(1);
    // The first transaction (the first pass's claim) answers only once let go, as a slow query would.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let calls = 0;
    const slow: UnitOfWork = {
      run: async (work) => {
        const result = await s.db.run(work);
        if (++calls === 1) await held;
        return result;
      },
    };
    const worker = s.worker(new LaneSender(s.clock), SETTINGS, slow);
    const first = worker.execute();
    await until(() => calls === 1);
    const event = await s.event();
    const second = worker.execute();
    letGo();
    expect((await first).claimed, 'its query ran before the event').to.equal(0);
    const { claimed, done } = await second;
    expect(claimed, 'not nothing at once, while the first held the slots').to.equal(1);
    expect(await done).to.equal(1);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => [d.eventId, d.state])).to.deep.equal([[event, 'succeeded']]);
  });

  it('gives its webhook back after runsPerLane runs, so another worker takes its turn', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 5; i++) events.push(await s.event());
    const first = new LaneSender(s.clock);
    const second = new LaneSender(s.clock);
    let gaveBack = 0;
    const settings = { ...SETTINGS, perRun: 1, runsPerLane: 2 };
    expect(await pass(s.worker(first, settings), { gaveBack: () => (gaveBack += 1) })).to.equal(2);
    expect(gaveBack, 'with work left').to.equal(1);
    expect(await pass(s.worker(second, settings)), 'the other worker').to.equal(2);
    expect(await pass(s.worker(first, settings))).to.equal(1);
    expect([...first.sent.get(hook(1))!, ...second.sent.get(hook(1))!].sort()).to.deep.equal([...events].sort());
    expect(second.sent.get(hook(1))).to.deep.equal(events.slice(2, 4));
  });

  it('keeps its webhook past runsPerLane runs while no other worker shares the database (turnsShared false), and gives it back once one does', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 6; i++) events.push(await s.event());
    const sender = new LaneSender(s.clock);
    const turns: boolean[] = [];
    const settings = { ...SETTINGS, perRun: 1, runsPerLane: 2 };
    const worker = s.worker(sender, settings);
    // Alone for the first four runs, then another worker is heard from.
    const turnsShared = () => (sender.sent.get(hook(1))?.length ?? 0) >= 4;
    expect(await pass(worker, { gaveBack: (turnEnded) => turns.push(turnEnded), turnsShared }), 'four runs alone, then its turn ends').to.equal(4);
    expect(turns, 'given back once, at the end of its turn').to.deep.equal([true]);
    expect(await pass(worker, { turnsShared: () => false }), 'alone again: on to the end').to.equal(2);
    expect(sender.sent.get(hook(1))).to.deep.equal(events);
  });

  it('a run is its share of the in-flight budget: up to perRun for a webhook alone, the budget over the lanes running for several', async () => {
    const alone = await setup(1);
    for (let i = 0; i < 20; i++) await alone.event();
    const one = new LaneSender(alone.clock);
    expect(await pass(alone.worker(one, { ...SETTINGS, perRun: 8, inFlight: 8 }))).to.equal(20);
    expect(one.runSizes.get(hook(1)), 'runs of perRun').to.deep.equal([8, 8, 4]);

    const s = await setup(4);
    const events: string[] = [];
    for (let i = 0; i < 12; i++) events.push(await s.event());
    const sender = new LaneSender(s.clock);
    expect(await pass(s.worker(sender, { ...SETTINGS, perRun: 8, inFlight: 8 }))).to.equal(48);
    for (let n = 1; n <= 4; n++) {
      const [first, ...later] = sender.runSizes.get(hook(n))!;
      // A pass's first runs are claimed together, before any lane runs (at most one delivery a free lane slot).
      expect(first, `webhook ${n}'s first run`).to.equal(8);
      expect(Math.max(...later), `webhook ${n}'s later runs: 8 over 4 lanes`).to.be.at.most(2);
      expect(sender.sent.get(hook(n)), 'each in order, once').to.deep.equal(events);
    }
  });

  it("a run never takes more than the other lanes' runs leave of the budget, but at least one delivery", async () => {
    const s = await setup(2);
    for (let i = 0; i < 12; i++) await s.event();
    const sender = new LaneSender(s.clock);
    const open = sender.close(hook(1));
    const { done } = await s.worker(sender, { ...SETTINGS, perRun: 8, inFlight: 8 }).execute();
    // Webhook 1's lane holds its run of 8 (the whole budget) while its first POST waits.
    await until(() => (sender.sent.get(hook(2))?.length ?? 0) >= 12);
    expect(sender.runSizes.get(hook(2)), 'a first run of 8, then runs of one').to.deep.equal([8, 1, 1, 1, 1]);
    open();
    expect(await done).to.equal(24);
    expect(sender.runSizes.get(hook(1)), 'webhook 1 alone again: the rest of its 12').to.deep.equal([8, 4]);
  });

  it("counts a run being claimed against the others' share before it is claimed: a lane recording meanwhile takes what is left", async () => {
    const s = await setup(2);
    for (let i = 0; i < 6; i++) await s.event();
    const sender = new LaneSender(s.clock);
    const open = sender.close(hook(2));
    // The second transaction is webhook 1's first recording (the first is the pass's claim): it waits.
    const uow = new CountingUnitOfWork(s.db, 2);
    // Four lane slots: the pass's claim takes two deliveries of each webhook.
    const { done } = await s.worker(sender, { ...SETTINGS, lanes: 4, perRun: 8, inFlight: 8 }, uow).execute();
    await until(() => uow.waiting);
    // Webhook 1 reserved its next run (its share, 4) while its recording waits; webhook 2 holds 2.
    open();
    await until(() => (sender.runSizes.get(hook(2))?.length ?? 0) >= 2);
    expect(sender.runSizes.get(hook(2))?.[1], "webhook 2's next run: 8 less webhook 1's run and reservation (2 + 4)").to.equal(2);
    uow.release();
    expect(await done).to.equal(12);
    expect(sender.runSizes.get(hook(1))![1], "webhook 1's reserved run").to.equal(4);
  });

  it('a run is at most twice what the last one got through: a slow receiver holds a few deliveries, a fast one doubles up to perRun', async () => {
    const s = await setup(1);
    for (let i = 0; i < 12; i++) await s.event();
    // Each POST takes 3 s; a run's attempts start within 5 s of its claim (a lease of 15 s, attempts of up to 10): two a run.
    const slow = new LaneSender(s.clock, 3_000);
    expect(await pass(s.worker(slow, { ...SETTINGS, perRun: 8 }))).to.equal(12);
    expect(slow.runSizes.get(hook(1)), 'a first run of 8 (the claim), then of 4 with 2 sent each').to.deep.equal([8, 4, 4, 4, 4, 2]);

    const f = await setup(1);
    for (let i = 0; i < 40; i++) await f.event();
    const fast = new LaneSender(f.clock);
    const worker = f.worker(fast, { ...SETTINGS, lanes: 2, perRun: 16 });
    // Two lane slots, one for this webhook: the pass's claim takes at most 2 of its deliveries.
    expect(await pass(worker)).to.equal(40);
    expect(fast.runSizes.get(hook(1))).to.deep.equal([2, 4, 8, 16, 10]);
  });

  it('a lane that fails before its first recording gives back what it held: later runs are full ones', async () => {
    const s = await setup(1);
    for (let i = 0; i < 12; i++) await s.event();
    const sender = new LaneSender(s.clock);
    let reads = 0;
    const webhooks = {
      ...s.db.repositories.webhooks,
      get: (...args: Parameters<typeof s.db.repositories.webhooks.get>) => {
        reads += 1;
        return reads === 1 ? Promise.reject(new Error('connection reset')) : s.db.repositories.webhooks.get(...args);
      },
    };
    const worker = new DeliverDue(s.db, webhooks, sender, s.clock, { next: () => 0.5 }, new SequentialIds(), { ...SETTINGS, perRun: 8, inFlight: 8 });
    const failed = await worker.execute();
    expect(await failed.done.then(() => 'done', (error: Error) => error.message)).to.equal('connection reset');
    // Its run's lease runs out; then the next pass sends all twelve in runs of 8 and 4, not of one.
    s.clock.advance(SETTINGS.leaseMs + 1);
    expect(await pass(worker)).to.equal(12);
    expect(sender.runSizes.get(hook(1))).to.deep.equal([8, 4]);
  });

  it("hands a run to the sender's sendRun: the run's rules go with it, and what it did not attempt is released", async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(await s.event());
    const runs: OutgoingRun[] = [];
    const sender: WebhookSender = {
      // Attempts the first two only, as a sender stopped by its lease would.
      sendRun: async (run) => (runs.push(run), run.deliveries.slice(0, 2).map(() => ({ attemptDate: s.clock.now(), outcome: { status: 204, durationMs: 1, responseBody: '', error: null } }))),
    };
    const { done } = await s.worker(sender, { ...SETTINGS, retry: { ...SETTINGS.retry, maxAttempts: 1 }, runsPerLane: 1 }).execute();
    expect(await done).to.equal(2);
    expect(runs).to.have.length(1);
    expect(runs[0]!.deliveries.map((d) => [d.eventId, d.lastAttempt])).to.deep.equal(events.map((e) => [e, true]));
    expect(runs[0]!.targetUrl).to.equal(hook(1));
    expect(runs[0]!.startBy.getTime(), 'the lease less one attempt').to.equal(s.clock.now().getTime() + SETTINGS.leaseMs - SETTINGS.attemptTimeoutMs);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => d.state)).to.deep.equal(['succeeded', 'succeeded', 'pending', 'pending']);
    expect(await pass(s.worker(new LaneSender(s.clock))), 'released: claimed again at once').to.equal(2);
  });

  it('a worker that dies mid-run leaves its deliveries leased; once the lease ends another sends them again, in order', async () => {
    const s = await setup(1);
    const events: string[] = [];
    for (let i = 0; i < 4; i++) events.push(await s.event());
    const dying = new LaneSender(s.clock);
    dying.hangFrom = 2; // the first POST is answered, then the worker never returns
    void s.worker(dying).execute();
    await until(() => dying.sent.get(hook(1))?.length === 2);

    const next = new LaneSender(s.clock);
    expect(await pass(s.worker(next)), 'nothing while the lease lasts').to.equal(0);
    s.clock.advance(SETTINGS.leaseMs);
    expect(await pass(s.worker(next))).to.equal(4);
    expect(next.sent.get(hook(1)), 'all again, the first one twice in all: at least once').to.deep.equal(events);
    expect((await s.deliveries(s.webhooks[0]!)).map((d) => [d.state, d.attempts.length])).to.deep.equal(Array(4).fill(['succeeded', 1]));
  });
});
