import type { MessagePort } from 'node:worker_threads';
import type { DeliveryOutcome } from '../../application/ports/webhook-sender.port.js';
import { attemptInOrder, type OutgoingAttempt } from '../../application/webhooks/run-policy.js';
import type { AttemptSender } from './http-webhook-sender.js';
import { clockAt } from './run-clock.js';
import { READY, REPORT_EVERY, type Reply, type Request, type WireAttempt } from './sender-thread-wire.js';

/**
 * The sender thread's side: answers each attempt with the outcome of `sender.send`; for each run,
 * makes its attempts by the run policy and the run's clock, reports them as they end and then the
 * run's end; a `stop` ends a run after the attempt in flight. Called by the thread's entry module
 * (src/main/webhook-sender.thread.ts) with its `parentPort`.
 */
export function serveSendRequests(port: MessagePort, sender: AttemptSender): void {
  const running = new Set<number>();
  const stopped = new Set<number>();
  port.on('message', (request: Request) => {
    const { id } = request;
    if (request.kind === 'stop') {
      if (running.has(id)) stopped.add(id);
    } else if (request.kind === 'send') {
      const { attemptMs, ...attempt } = request.attempt;
      void sender.send({ ...attempt, attemptDate: new Date(attemptMs) }).then((outcome) => port.postMessage({ id, outcome } satisfies Reply));
    } else {
      const { startByMs, offsetMs, ...run } = request.run;
      const now = clockAt(offsetMs);
      let batch: WireAttempt[] = [];
      const send = async (attempt: OutgoingAttempt): Promise<DeliveryOutcome> => {
        const outcome = await sender.send(attempt);
        batch.push({ attemptMs: attempt.attemptDate.getTime(), outcome });
        if (batch.length >= REPORT_EVERY) {
          port.postMessage({ id, attempts: batch, done: false } satisfies Reply);
          batch = [];
        }
        return outcome;
      };
      running.add(id);
      void attemptInOrder(send, { ...run, startBy: new Date(startByMs), now: now() }, now, () => stopped.has(id)).then(() => {
        running.delete(id);
        stopped.delete(id);
        port.postMessage({ id, attempts: batch, done: true } satisfies Reply);
      });
    }
  });
  port.postMessage(READY);
}
