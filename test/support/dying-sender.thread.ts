// A webhook sender thread for ThreadedWebhookSender's tests: answers every attempt with 299 and
// its body, except that an attempt whose body is "die" ends the thread before it answers.
import { parentPort } from 'node:worker_threads';
import { serveSendRequests } from '../../src/adapters/webhooks/sender-thread-server.js';

serveSendRequests(parentPort!, {
  send: async (delivery: { readonly body: string }) => {
    if (delivery.body === 'die') process.exit(1);
    return { status: 299, durationMs: 1, responseBody: delivery.body, error: null };
  },
});
