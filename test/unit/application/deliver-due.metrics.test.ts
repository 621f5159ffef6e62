import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { DeliveryOutcomeKind, Metrics } from '../../../src/application/ports/metrics.port.js';
import type { DeliveryOutcome, OutgoingRun, RunAttempt, WebhookSender } from '../../../src/application/ports/webhook-sender.port.js';
import { attemptInOrder } from '../../../src/application/webhooks/run-policy.js';
import { runClock } from '../../../src/adapters/webhooks/run-clock.js';
import { DeliverDue } from '../../../src/application/webhooks/deliver-due.service.js';
import { ok } from '../../../src/domain/shared/result.js';
import { Delivery } from '../../../src/domain/webhook/delivery.aggregate.js';
import { Webhook } from '../../../src/domain/webhook/webhook.aggregate.js';
import { FixedClock, SequentialIds } from '../../support/fakes.js';
import { accountId } from '../../support/ids.js';

class RecordingMetrics implements Metrics {
  readonly recorded: DeliveryOutcomeKind[] = [];
  deliveryRecorded(outcome: DeliveryOutcomeKind): void {
    this.recorded.push(outcome);
  }
  readonly stale: number[] = [];
  staleRunWrites(count: number): void {
    this.stale.push(count);
  }
  tokenAuthenticated(): void {
    // Not what these tests look at.
  }
}

/** Answers each send with the next status of its script (null: no response). */
class ScriptedSender implements WebhookSender {
  constructor(private readonly statuses: (number | null)[]) {}
  sendRun(run: OutgoingRun, stop?: AbortSignal): Promise<RunAttempt[]> {
    return attemptInOrder(() => this.send(), run, runClock(run), () => stop?.aborted === true);
  }
  async send(): Promise<DeliveryOutcome> {
    const status = this.statuses.length > 0 ? this.statuses.shift()! : 200;
    return { status, durationMs: 1, responseBody: '', error: status === null ? 'connection refused' : null };
  }
}

async function setup(statuses: (number | null)[]) {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const metrics = new RecordingMetrics();
  const created = Webhook.create({ id: ids.next(), accountId: accountId(1), targetUrl: 'https://hooks.example.com/in', events: ['api.created'], secret: 's'.repeat(20), active: true }, clock.now());
  if (!created.ok) throw new Error('webhook');
  const webhook = created.value;
  await db.run(async (tx) => ok(await tx.webhooks.save(webhook)));
  const schedule = async () => {
    const eventId = ids.next();
    const delivery = Delivery.schedule({ id: ids.next(), webhookId: webhook.id, accountId: accountId(1), eventId, event: 'api.created', payload: `{"id":"${eventId}"}` }, clock.now());
    await db.run(async (tx) => ok(await tx.deliveries.add(delivery, eventId)));
  };
  const deliver = new DeliverDue(db, db.repositories.webhooks, new ScriptedSender(statuses), clock, { next: () => 0.5 }, ids, { retry: { baseMs: 1000, capMs: 60_000, maxAttempts: 2 }, leaseMs: 15_000, attemptTimeoutMs: 10_000, lanes: 10 }, metrics);
  return { db, clock, metrics, webhook, schedule, deliver };
}

/** A whole pass, its lanes included. */
async function pass(deliver: DeliverDue): Promise<number> {
  return (await deliver.execute()).done;
}

describe('DeliverDue reports each recorded delivery to the Metrics port', () => {
  it('success for a 2xx answer', async () => {
    const s = await setup([204]);
    await s.schedule();
    expect(await pass(s.deliver)).to.equal(1);
    expect(s.metrics.recorded).to.deep.equal(['success']);
  });

  it('failure while another attempt is scheduled, gave_up for the last one', async () => {
    const s = await setup([500, null]);
    await s.schedule();
    await pass(s.deliver);
    expect(s.metrics.recorded).to.deep.equal(['failure']);
    expect(await pass(s.deliver), 'the retry is not due yet').to.equal(0);
    s.clock.advance(60_000);
    await pass(s.deliver);
    expect(s.metrics.recorded).to.deep.equal(['failure', 'gave_up']);
  });

  it('abandoned for a delivery whose webhook was deactivated before it was sent', async () => {
    const s = await setup([]);
    await s.schedule();
    s.webhook.deactivate('by hand', s.clock.now());
    await s.db.run(async (tx) => ok(await tx.webhooks.save(s.webhook)));
    await pass(s.deliver);
    expect(s.metrics.recorded).to.deep.equal(['abandoned']);
  });

  it('counts nothing by default, without a Metrics adapter', async () => {
    const s = await setup([204]);
    await s.schedule();
    const plain = new DeliverDue(s.db, s.db.repositories.webhooks, new ScriptedSender([204]), s.clock, { next: () => 0.5 }, new SequentialIds(), { retry: { baseMs: 1000, capMs: 60_000, maxAttempts: 2 }, leaseMs: 15_000, attemptTimeoutMs: 10_000, lanes: 10 });
    expect(await pass(plain)).to.equal(1);
    expect(s.metrics.recorded).to.deep.equal([]);
  });
});
