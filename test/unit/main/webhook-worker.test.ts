import { expect } from 'chai';
import { createLogger } from '../../../src/adapters/logging/pino-logger.js';
import type { DeliverDue, DeliveryPass } from '../../../src/application/webhooks/deliver-due.service.js';
import type { DispatchEvents } from '../../../src/application/webhooks/dispatch-events.service.js';
import { WebhookWorker, WorkSignal } from '../../../src/main/webhook-worker.js';

const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WebhookWorker', () => {
  it('stop() waits for the lanes of a pass even when the same round failed to dispatch', async () => {
    let endLanes!: (handled: number) => void;
    const lanes = new Promise<number>((resolve) => (endLanes = resolve));
    let passes = 0;
    const deliver = {
      execute: async (): Promise<DeliveryPass> => (passes++ === 0 ? { claimed: 1, done: lanes } : { claimed: 0, done: Promise.resolve(0) }),
    } as unknown as DeliverDue;
    const dispatch = {
      execute: async () => {
        throw new Error('the database is away');
      },
    } as unknown as DispatchEvents;
    const worker = new WebhookWorker(dispatch, deliver, new WorkSignal(), createLogger('silent'), { pollMs: 10_000, dispatchBatch: 100 });
    worker.start();
    await tick();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await tick();
    expect(stopped, 'a lane of the failed round still runs').to.equal(false);
    endLanes(1);
    await stopping;
    expect(stopped).to.equal(true);
  });
});
