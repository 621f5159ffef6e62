// A webhook sender thread for ThreadedWebhookSender's tests: answers every attempt with 299 and
// its body, except that an attempt whose body is "die" ends the thread before it answers.
import { parentPort } from 'node:worker_threads';
import { serveSendRequests } from '../../src/adapters/webhooks/threaded-webhook-sender.js';

serveSendRequests(parentPort!, {
  send: async (delivery) => {
    if (delivery.body === 'die') process.exit(1);
    return { status: 299, durationMs: 1, responseBody: delivery.body, error: null };
  },
});
