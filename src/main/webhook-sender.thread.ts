// The entry module of a webhook sender thread (ThreadedWebhookSender): makes the attempts the main
// thread hands over, with an HttpWebhookSender built from the thread's data.
import { parentPort, workerData } from 'node:worker_threads';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender.js';
import { SsrfGuard } from '../adapters/webhooks/ssrf-guard.js';
import { serveSendRequests } from '../adapters/webhooks/sender-thread-server.js';
import type { SenderThreadData } from '../adapters/webhooks/sender-thread-wire.js';

if (parentPort === null) throw new Error('webhook-sender.thread.js runs as a worker thread of ThreadedWebhookSender');
const data = workerData as SenderThreadData;
const guard = new SsrfGuard({ allowPrivateTargets: data.allowPrivateTargets });
serveSendRequests(parentPort, new HttpWebhookSender({ timeoutMs: data.timeoutMs, guard, ...(data.userAgent === undefined ? {} : { userAgent: data.userAgent }) }));
