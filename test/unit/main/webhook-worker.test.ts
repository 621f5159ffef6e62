import { expect } from 'chai';
import { createLogger } from '../../../src/adapters/logging/pino-logger.js';
import type { DeliverDue, DeliveryPass } from '../../../src/application/webhooks/deliver-due.service.js';
import type { DispatchEvents } from '../../../src/application/webhooks/dispatch-events.service.js';
import type { PassOptions } from '../../../src/application/webhooks/deliver-due.service.js';
import { WebhookWorker, WorkSignal, type WorkerPeers } from '../../../src/main/webhook-worker.js';

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

  describe('a webhook given back at the end of its lane\'s turn', () => {
    /** A worker whose first claim starts one lane; its PassOptions are kept, to give back as a lane would. */
    function aWorker(peers: WorkerPeers | undefined) {
      const claims: number[] = [];
      let options: PassOptions | undefined;
      const deliver = {
        execute: async (passOptions: PassOptions): Promise<DeliveryPass> => {
          options ??= passOptions;
          claims.push(Date.now());
          return { claimed: claims.length === 1 ? 1 : 0, done: Promise.resolve(claims.length === 1 ? 1 : 0) };
        },
      } as unknown as DeliverDue;
      const dispatch = { execute: async () => ({ events: 0 }) } as unknown as DispatchEvents;
      const worker = new WebhookWorker(dispatch, deliver, new WorkSignal(), createLogger('silent'), { pollMs: 60_000, dispatchBatch: 100, handOverMs: 300, ...(peers ? { peers } : {}) });
      return { worker, claims, gaveBack: (turnEnded: boolean) => options!.gaveBack!(turnEnded) };
    }
    const peers = (othersActive: boolean) => {
      const told = { started: 0, stopped: 0, handOvers: 0 };
      const p: WorkerPeers = { start: () => void (told.started += 1), stop: () => void (told.stopped += 1), othersActive: () => othersActive, handOver: () => void (told.handOvers += 1) };
      return { p, told };
    };

    it('is left to the other workers for handOverMs, having told them, when others are there', async () => {
      const { p, told } = peers(true);
      const w = aWorker(p);
      w.worker.start();
      await tick();
      expect(told.started).to.equal(1);
      const claimsBefore = w.claims.length;
      const givenBack = Date.now();
      w.gaveBack(true);
      expect(told.handOvers).to.equal(1);
      for (const deadline = Date.now() + 10_000; w.claims.length === claimsBefore && Date.now() < deadline; ) await tick(10);
      expect(w.claims.length, 'one claim').to.equal(claimsBefore + 1);
      expect(w.claims.at(-1)! - givenBack, 'not before the hand-over ended').to.be.at.least(290);
      await w.worker.stop();
      expect(told.stopped).to.equal(1);
    });

    it('is claimed again at once when no other worker was heard from, or when the lane ended for another reason', async () => {
      for (const [othersActive, turnEnded] of [
        [false, true],
        [true, false],
      ] as const) {
        const { p, told } = peers(othersActive);
        const w = aWorker(p);
        w.worker.start();
        await tick();
        const claimsBefore = w.claims.length;
        w.gaveBack(turnEnded);
        await tick();
        expect(w.claims.length, `others ${othersActive}, turn ended ${turnEnded}`).to.equal(claimsBefore + 1);
        expect(told.handOvers).to.equal(0);
        await w.worker.stop();
      }
    });

    it('is not claimed after a stop that came during the hand-over, nor handed over by a lane that ends after the stop', async () => {
      const { p, told } = peers(true);
      const w = aWorker(p);
      w.worker.start();
      await tick();
      w.gaveBack(true);
      expect(told.handOvers).to.equal(1);
      await w.worker.stop();
      // A lane that was recording its run when the worker stopped.
      w.gaveBack(true);
      expect(told.handOvers, 'none after the stop').to.equal(1);
      // Started again at once: only its own first round claims, no hand-over of before.
      const claimsBefore = w.claims.length;
      w.worker.start();
      await tick(450);
      expect(w.claims.length).to.equal(claimsBefore + 1);
      await w.worker.stop();
    });
  });
});
