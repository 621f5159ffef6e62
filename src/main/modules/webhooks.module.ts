import { PurgeIdentity } from '../../application/identity/identity-cleanup.js';
import { ContainerModule } from 'inversify';
import { type Logger } from '../../adapters/logging/pino-logger.js';
import { Plans } from '../../application/accounts/plans.js';
import { SendTrialReminders } from '../../application/accounts/send-trial-reminders.use-case.js';
import { Clock } from '../../application/ports/clock.port.js';
import { DeliveryRepository } from '../../application/ports/delivery-repository.port.js';
import { IdGenerator } from '../../application/ports/id-generator.port.js';
import { Metrics } from '../../application/ports/metrics.port.js';
import { Random } from '../../application/ports/random.port.js';
import { TokenGenerator } from '../../application/ports/token-generator.port.js';
import { UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import { WebhookRepository } from '../../application/ports/webhook-repository.port.js';
import { WebhookSender, WebhookTargetPolicy } from '../../application/ports/webhook-sender.port.js';
import { DeliverDue } from '../../application/webhooks/deliver-due.service.js';
import { PurgeRetained } from '../../application/maintenance/purge-retained.js';
import { RetentionPurge } from '../../application/ports/retention-purge.port.js';
import { GetDelivery, ListDeliveries, PingWebhook, Redeliver } from '../../application/webhooks/deliveries.use-cases.js';
import { DispatchEvents } from '../../application/webhooks/dispatch-events.service.js';
import { CreateWebhook, DeleteWebhook, GetWebhook, ListWebhooks, SetWebhookActive, UpdateWebhook } from '../../application/webhooks/webhook-management.use-cases.js';
import { DEFAULT_RETRY_POLICY } from '../../domain/webhook/retry-policy.js';
import { LoggerToken, WorkerPeersToken } from '../tokens.js';
import { WebhookWorker, WorkSignal, type WorkerPeers } from '../webhook-worker.js';
import type { WebhookUseCases } from '../../adapters/http/webhooks.routes.js';
import { token } from '../../application/shared/token.js';
import type { Config } from '../config.js';
import { construct } from './wiring.js';

/**
 * Delivery lanes at once: each holds one webhook and has one attempt in flight, so this bounds the
 * POSTs in flight (and sockets open) for the webhook worker of one process.
 */
const DELIVERY_LANES = 256;
/**
 * Deliveries a lane claims at a time at most and sends one after the other: one in flight per
 * webhook keeps its order, and a run spares a claim and a recording transaction per delivery (at 128 a run
 * their statements cost a fan-out to a few webhooks about a fifth of its database CPU and a sixth
 * of its main thread's: docs/performance.md, 4). A crash resends at most a run per webhook.
 */
const DELIVERIES_PER_RUN = 512;
/**
 * Deliveries all lanes hold at once (claimed, or being claimed, and not yet recorded), which bounds
 * the bodies held for runs in the main thread and the sender thread: 256 lanes of 128, as before
 * runs could be longer. A run is its lane's share of it (DeliverySettings.inFlight): up to 512
 * while up to 64 lanes run, 128 while 256 do, and at most twice what the lane's last run got
 * through (a slow receiver's runs stay short).
 */
const DELIVERIES_IN_FLIGHT = DELIVERY_LANES * 128;
/**
 * Runs a lane makes before it gives its webhook back while other workers share the database
 * (PostgreSQL): a busy webhook changes hands every two runs (up to 1,024 deliveries) instead of
 * staying with the worker that claimed it first. A worker alone keeps it (PassOptions.turnsShared).
 */
const DELIVERY_RUNS_PER_LANE = 2;

/** What the Webhook routes need. */
export const WebhookUseCasesToken = token<WebhookUseCases>('WebhookUseCases');

/** The Event-API: webhooks, their delivery log, and the delivery pipeline (dispatch, lanes, the worker loop). */
export function webhooksModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const retry = { ...DEFAULT_RETRY_POLICY, baseMs: config.webhooks.retryBaseMs, maxAttempts: config.webhooks.maxAttempts };
    construct(bind, CreateWebhook, [UnitOfWork, Plans, IdGenerator, TokenGenerator, WebhookTargetPolicy, Clock]);
    construct(bind, ListWebhooks, [WebhookRepository]);
    construct(bind, GetWebhook, [WebhookRepository]);
    construct(bind, UpdateWebhook, [UnitOfWork, WebhookTargetPolicy, Clock]);
    construct(bind, DeleteWebhook, [UnitOfWork]);
    construct(bind, SetWebhookActive, [UnitOfWork, Clock]);
    construct(bind, PingWebhook, [UnitOfWork, IdGenerator, Clock]);
    construct(bind, ListDeliveries, [WebhookRepository, DeliveryRepository]);
    construct(bind, GetDelivery, [WebhookRepository, DeliveryRepository]);
    construct(bind, Redeliver, [UnitOfWork, IdGenerator, Clock]);
    construct(bind, DispatchEvents, [UnitOfWork, IdGenerator, Clock]);
    bind(PurgeRetained).toResolvedValue((store: RetentionPurge, clock: Clock) => new PurgeRetained(store, clock, config.retention), [RetentionPurge, Clock]);
    bind(DeliverDue).toResolvedValue(
      (uow: UnitOfWork, webhooks: WebhookRepository, sender: WebhookSender, clock: Clock, random: Random, ids: IdGenerator, metrics: Metrics) =>
        new DeliverDue(uow, webhooks, sender, clock, random, ids, { retry, leaseMs: config.webhooks.timeoutMs + 5_000, attemptTimeoutMs: config.webhooks.timeoutMs, lanes: DELIVERY_LANES, perRun: DELIVERIES_PER_RUN, inFlight: DELIVERIES_IN_FLIGHT, runsPerLane: DELIVERY_RUNS_PER_LANE }, metrics),
      [UnitOfWork, WebhookRepository, WebhookSender, Clock, Random, IdGenerator, Metrics],
    );
    bind(WebhookWorker).toResolvedValue(
      (dispatch: DispatchEvents, deliver: DeliverDue, signal: WorkSignal, log: Logger, reminders: SendTrialReminders, identityCleanup: PurgeIdentity, retention: PurgeRetained, peers: WorkerPeers | null) =>
        new WebhookWorker(dispatch, deliver, signal, log, {
          pollMs: config.webhooks.pollMs,
          ...(peers === null ? {} : { peers }),
          dispatchBatch: 100,
          chores: [
            { name: 'trial reminders', everyMs: config.plans.reminderIntervalMs, run: () => reminders.execute() },
            { name: 'identity cleanup', everyMs: config.identity.cleanupIntervalMs, run: () => identityCleanup.execute() },
            { name: 'retention', everyMs: config.retention.intervalMs, run: () => retention.execute() },
          ],
        }),
      [DispatchEvents, DeliverDue, WorkSignal, LoggerToken, SendTrialReminders, PurgeIdentity, PurgeRetained, WorkerPeersToken],
    );
    bind(WebhookUseCasesToken).toResolvedValue(
      (create: CreateWebhook, list: ListWebhooks, get: GetWebhook, update: UpdateWebhook, remove: DeleteWebhook, setActive: SetWebhookActive, ping: PingWebhook, deliveries: ListDeliveries, delivery: GetDelivery, redeliver: Redeliver) =>
        ({ create, list, get, update, delete: remove, setActive, ping, deliveries, delivery, redeliver }),
      [CreateWebhook, ListWebhooks, GetWebhook, UpdateWebhook, DeleteWebhook, SetWebhookActive, PingWebhook, ListDeliveries, GetDelivery, Redeliver],
    );
  });
}
