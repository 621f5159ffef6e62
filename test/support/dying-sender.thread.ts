// A webhook sender thread for ThreadedWebhookSender's tests: answers every attempt with 299 and
// its body, except that an attempt whose body is "die" ends the thread before it answers, one whose
// body is "hang" spins forever (the thread never yields again) and one whose body is "stall" never
// settles (the thread stays responsive but the attempt never ends). With `startDelayMs` in its
// data it listens only that long after it started (a slow start, as on a loaded machine).
import { parentPort, workerData } from 'node:worker_threads';
import { serveSendRequests } from '../../src/adapters/webhooks/sender-thread-server.js';

const { startDelayMs = 0 } = workerData as { readonly startDelayMs?: number };
setTimeout(
  () =>
    serveSendRequests(parentPort!, {
      send: async (delivery: { readonly body: string }) => {
        if (delivery.body === 'die') process.exit(1);
        if (delivery.body === 'hang') for (;;);
        if (delivery.body === 'stall') return new Promise<never>(() => undefined);
        return { status: 299, durationMs: 1, responseBody: delivery.body, error: null };
      },
    }),
  startDelayMs,
);
