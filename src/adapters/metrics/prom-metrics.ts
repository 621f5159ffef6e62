import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';
import { DurationHistogram } from './duration-histogram.js';
import type { Figures } from '../../application/monitoring/operational-figures.service.js';
import type { DeliveryOutcomeKind, Metrics } from '../../application/ports/metrics.port.js';

/** One answered HTTP request, as the HTTP adapter reports it. */
export interface ServedRequest {
  /** The route pattern (`/api/:accountId/:apiId`), `null` when no route matched. */
  readonly route: string | null;
  readonly method: string;
  readonly status: number;
  readonly seconds: number;
}

export interface PromMetricsOptions {
  /** Reads the database's figures; called on every scrape, may throw when the database is away. */
  readonly figures: { read(): Promise<Figures> };
  readonly log: { warn(object: object, message?: string): void };
}

const OUTCOMES: readonly DeliveryOutcomeKind[] = ['success', 'failure', 'gave_up', 'abandoned'];

const STATUS_CLASSES: readonly string[] = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** Up to the 60 s a request may take (an import of 10 MiB), beyond prom-client's default 10 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

let processRegistry: Registry | undefined;

/**
 * Node's process figures (CPU, memory, event-loop lag, GC...) belong to the process, not to a
 * container, and prom-client's collector starts observers that cannot be stopped: registered
 * once per process in a registry of their own, and added to every container's exposition.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The `Metrics` port and the HTTP adapter's request figures in Prometheus's text format, with
 * prom-client. Each instance has registries of its own, never prom-client's global one, so several
 * containers in one process (an embedder's, the tests') keep separate figures. The gauges that
 * come from the database are read at each scrape, so every instance sharing a PostgreSQL database
 * reports the same values.
 */
export class PromMetrics implements Metrics {
  private readonly registry = new Registry();
  /** The database's gauges apart, so a scrape while the database is away still has the rest. */
  private readonly databaseRegistry = new Registry();
  /** By route, method and status class: routes x methods x status classes, a few hundred label sets at most (an unmatched path is `unmatched`). */
  private readonly durations: DurationHistogram;
  private readonly deliveries: Counter<'outcome'>;
  private readonly staleWrites: Counter;
  private readonly tokenAuthentications: Counter<'source'>;
  private readonly authenticatedBySource = { cache: 0, database: 0 };
  private readonly outboxPending: Gauge;
  private readonly outboxAge: Gauge;
  private readonly activeWebhooks: Gauge;

  constructor(private readonly options: PromMetricsOptions) {
    this.durations = new DurationHistogram(
      'specbase_http_request_duration_seconds',
      'Time from receiving a request to its answer, by route pattern ("unmatched" when no route matched), method and status class.',
      ['route', 'method', 'status_class'],
      DURATION_BUCKETS,
    );
    this.registry.registerMetric(this.durations as unknown as Metric);
    this.deliveries = new Counter({
      name: 'specbase_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded, by outcome: success (2xx), failure (another attempt is scheduled), gave_up (that was the last attempt), abandoned (not sent: the webhook was deleted or deactivated).',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    // Every outcome from the start, so a rate over the first failure is not lost to a missing series.
    for (const outcome of OUTCOMES) this.deliveries.inc({ outcome }, 0);
    this.staleWrites = new Counter({
      name: 'specbase_webhook_stale_run_writes_total',
      help: 'Deliveries whose outcome a run recorded after its lease ran out and another claim took them: the write was refused (the delivery is sent by the claim that holds it).',
      registers: [this.registry],
    });
    // Counted in plain numbers and handed to the counter at a scrape: inc() with labels validates
    // and hashes them, on every request that presents a token.
    const authenticated = this.authenticatedBySource;
    this.tokenAuthentications = new Counter({
      name: 'specbase_token_authentications_total',
      help: 'API tokens authenticated, by where the token was found: cache (the token cache, no database read) or database.',
      labelNames: ['source'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const source of ['cache', 'database'] as const) this.inc({ source }, authenticated[source]);
      },
    });
    this.outboxPending = new Gauge({
      name: 'specbase_outbox_pending_events',
      help: 'Outbox events not yet dispatched into webhook deliveries, in every account.',
      registers: [this.databaseRegistry],
    });
    this.outboxAge = new Gauge({
      name: 'specbase_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest outbox event not yet dispatched; 0 when none waits.',
      registers: [this.databaseRegistry],
    });
    this.activeWebhooks = new Gauge({
      name: 'specbase_webhooks_active',
      help: 'Active webhooks in every account.',
      registers: [this.databaseRegistry],
    });
    processMetrics();
  }

  deliveryRecorded(outcome: DeliveryOutcomeKind): void {
    this.deliveries.inc({ outcome });
  }

  staleRunWrites(count: number): void {
    this.staleWrites.inc(count);
  }

  tokenAuthenticated(source: 'cache' | 'database'): void {
    this.authenticatedBySource[source] += 1;
  }

  requestServed(request: ServedRequest): void {
    const route = request.route ?? 'unmatched';
    const statusClass = STATUS_CLASSES[Math.floor(request.status / 100)] ?? `${Math.floor(request.status / 100)}xx`;
    this.durations.observe([route, request.method, statusClass], request.seconds);
  }

  /** The exposition of one scrape: the database's figures are read now. */
  async exposition(): Promise<{ readonly contentType: string; readonly body: string }> {
    const registries = [this.registry];
    try {
      const figures = await this.options.figures.read();
      this.outboxPending.set(figures.outboxPending);
      this.outboxAge.set(figures.outboxOldestAgeSeconds);
      this.activeWebhooks.set(figures.activeWebhooks);
      registries.push(this.databaseRegistry);
    } catch (error) {
      this.options.log.warn({ err: error }, 'metrics: the database figures could not be read; left out of this scrape');
    }
    registries.push(processMetrics());
    const merged = Registry.merge(registries);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}
