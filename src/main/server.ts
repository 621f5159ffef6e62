import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { AuthenticateToken } from '../application/auth/authenticate-token.use-case.js';
import { BootstrapDemo, type DemoCredentials } from '../application/bootstrap/bootstrap-demo.use-case.js';
import { WebhookWorker } from './webhook-worker.js';
import { ApiUseCasesToken } from './modules/apis.module.js';
import { DocsUseCasesToken } from './modules/docs.module.js';
import { IdentityUseCasesToken } from './modules/identity.module.js';
import { PageUseCasesToken } from './modules/pages.module.js';
import { ReleaseUseCasesToken } from './modules/releases.module.js';
import { ShareUseCasesToken } from './modules/shares.module.js';
import { SpecUseCasesToken } from './modules/specs.module.js';
import { EmailVerificationUseCasesToken, ProfileUseCasesToken, TokenUseCasesToken } from './modules/users.module.js';
import { WebhookUseCasesToken } from './modules/webhooks.module.js';
import { ApiAccess } from '../application/auth/api-access.js';
import { createHttpApp, createRequestListener, type HttpDependencies } from '../adapters/http/app.js';
import { RememberedAnswers } from '../adapters/http/remembered-answers.js';
import type { Logger } from '../adapters/logging/pino-logger.js';
import type { Duplex } from 'node:stream';
import { loadConfig, REQUEST_TIMEOUT_MS, type Config } from './config.js';
import { buildContainer, closeWebhookSender, ConfigToken, LoggerToken, StorageToken, type Storage } from './container.js';
import { SigningKeys } from '../application/identity/signing-keys.js';
import { ApiRateLimiter, RateLimiter, RateLimits } from '../application/ports/rate-limiter.port.js';
import { Readiness } from './readiness.js';
import { DatabaseMonitor } from './database-monitor.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { tuneHeap } from './heap.js';

/** package.json's version: src/main and dist/main both sit two levels below it. */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** The Koa application wired from a container; mount it (or `app.callback()`) anywhere. */
export function createApp(container: Container): Koa {
  return createHttpApp(httpDependencies(container));
}

/**
 * The bundled server's request listener: the Koa application, and before it the hot reads'
 * remembered answers (ADR 0029) when the container binds `RememberedAnswers` (SQLite and
 * PostgreSQL with `READ_CACHE_SIZE` above 0).
 */
export function createRequestListenerOf(container: Container): RequestListener {
  const answers = container.isBound(RememberedAnswers) ? container.get(RememberedAnswers) : undefined;
  return createRequestListener({ ...httpDependencies(container), ...(answers === undefined ? {} : { answers }) });
}

function httpDependencies(container: Container): HttpDependencies {
  const config = container.get<Config>(ConfigToken);
  const storage = container.get<Storage>(StorageToken);
  const readiness = container.get(Readiness);
  const monitor = container.get(DatabaseMonitor);
  return {
    logger: container.get<Logger>(LoggerToken),
    publicUrl: config.publicUrl,
    version: VERSION,
    jsonMaxBytes: config.jsonMaxBytes,
    trustProxy: config.trustProxy,
    hsts: config.publicUrl.startsWith('https:'),
    importMaxBytes: config.importMaxBytes,
    health: () => monitor.answers(() => storage.ping()),
    ready: () => monitor.answers(() => storage.ready()),
    draining: () => readiness.draining,
    databaseAway: () => !monitor.available,
    metrics: container.get(PromMetrics),
    metricsToken: config.metricsToken,
    authenticate: container.get(AuthenticateToken),
    apis: container.get(ApiUseCasesToken),
    specs: container.get(SpecUseCasesToken),
    releases: container.get(ReleaseUseCasesToken),
    webhooks: container.get(WebhookUseCasesToken),
    pages: container.get(PageUseCasesToken),
    apiAccess: container.get(ApiAccess),
    rateLimits: { limiter: container.get<RateLimiter>(RateLimiter), apiLimiter: container.get<RateLimiter>(ApiRateLimiter), api: container.get<RateLimits>(RateLimits).api, tokenEndpoint: container.get<RateLimits>(RateLimits).tokenEndpoint },
    identity: container.get(IdentityUseCasesToken),
    docs: container.get(DocsUseCasesToken),
    emailVerification: container.get(EmailVerificationUseCasesToken),
    shares: container.get(ShareUseCasesToken),
    profile: container.get(ProfileUseCasesToken),
    tokens: container.get(TokenUseCasesToken),
  };
}

export interface RunningServer {
  readonly container: Container;
  readonly server: Server;
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly port: number;
  /** The demo credentials, when this start bootstrapped an empty database. */
  readonly demo: DemoCredentials | null;
  /**
   * Turns `/readyz` to 503 and keeps serving for `SHUTDOWN_DRAIN_MS`, then stops accepting, lets
   * requests in flight finish (up to `graceMs`), stops the worker and closes the database.
   */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  readonly config?: Config;
  /** A container built (and perhaps rebound) by the caller; `config` is then taken from it. */
  readonly container?: Container;
}

/** Opens (and migrates) the database, listens, starts the webhook worker, then bootstraps an empty database (the demo user and token). */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const container = options.container ?? buildContainer(options.config ?? loadConfig());
  const config = container.get<Config>(ConfigToken);
  tuneHeap(config.heapGrowingPercent);
  const storage = container.get<Storage>(StorageToken);
  await storage.open();
  let demo: DemoCredentials | null = null;
  let server: Server | undefined;
  try {
    await storage.migrate();
    // PostgreSQL can go away and come back while the server runs; a SQLite file cannot.
    if (config.database.kind === 'postgres') container.get(DatabaseMonitor).start();
    const listener = createServer(
      {
        keepAliveTimeout: 5_000,
        headersTimeout: config.headersTimeoutMs,
        requestTimeout: REQUEST_TIMEOUT_MS,
        // Node looks for connections past those two timeouts every this often, 30 s by default:
        // the 20 s for the headers were 39-46 s (issue 41). A twentieth of the headers' time, at
        // most 1 s, keeps the 408 within 5% of it.
        connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.headersTimeoutMs / 20)),
      },
      createRequestListenerOf(container),
    ).listen(config.port, config.host);
    server = listener;
    listener.on('clientError', answerUnparseableRequest);
    await new Promise<void>((resolve, reject) => {
      listener.once('listening', resolve);
      listener.once('error', reject);
    });
    // The worker's first pass (the outbox, the queue, the chores: 7-13 ms of a cold main thread)
    // once the server listens, so it does not hold back the first answers.
    if (config.webhooks.worker) container.get(WebhookWorker).start();
    // The demo user and token of an empty database, once the server listens: nobody can use them
    // before they are printed, and the password hash is 80-150 ms of the thread pool on which
    // nothing else waits. Requests are served meanwhile; startServer returns them when they exist.
    const bootstrapped = config.bootstrap ? await container.get(BootstrapDemo).execute() : undefined;
    if (bootstrapped !== undefined) {
      if (!bootstrapped.ok) throw new Error(`bootstrap failed: ${bootstrapped.error.kind}`);
      demo = bootstrapped.value;
    }
  } catch (error) {
    const listener = server;
    if (listener?.listening === true) {
      const closed = new Promise((resolve) => listener.close(resolve));
      listener.closeAllConnections();
      await closed;
    }
    await container.get(WebhookWorker).stop();
    await closeWebhookSender(container);
    await storage.close();
    throw error;
  }
  if (config.metricsToken === null && !/^(127\.|::1$|localhost$)/.test(config.host)) {
    container.get<Logger>(LoggerToken).warn({ host: config.host }, 'GET /metrics is open to whoever reaches this address: set METRICS_TOKEN, or keep /metrics from the outside at the proxy');
  }
  // The identity service's RS256 key, on a first start: made once the server listens, as nothing
  // before the identity service's first use needs it (an RSA key takes 50-400 ms of the thread
  // pool), and whatever needs it first waits for it (`SigningKeys.current` and `published` make it
  // if it is missing). Stopping waits for it, so the database stays open until it is stored.
  const keyMade = container
    .get(SigningKeys)
    .ensure()
    .catch((error: unknown) => container.get<Logger>(LoggerToken).error({ err: error }, 'making the signing key failed: it is made when the identity service first needs it'));
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let stopping: Promise<void> | undefined;
  return {
    container,
    server,
    url: `http://${host}:${port}`,
    port,
    demo,
    stop: (graceMs = 10_000) => (stopping ??= stop(server, container, graceMs, keyMade)),
  };
}

/**
 * A request Node's HTTP parser refuses (bytes not allowed in a path, a malformed Content-Length, a
 * header line without a colon...) gets a problem+json 400 like every other bad request, not Node's
 * bare one; a timed-out request a 408; the socket is destroyed either way.
 */
function answerUnparseableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = timeout ? 408 : 400;
  const body = JSON.stringify({
    type: `urn:specbase:problem:${timeout ? 'request_timeout' : 'malformed_request'}`,
    title: timeout ? 'Request Timeout' : 'Bad Request',
    status,
    detail: timeout ? 'The request took too long to arrive.' : 'The request is not valid HTTP/1.1.',
    code: timeout ? 'request_timeout' : 'malformed_request',
  });
  socket.end(
    `HTTP/1.1 ${status} ${timeout ? 'Request Timeout' : 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
  // The server's sockets allow half-open connections: end() alone sends the answer and a FIN but
  // keeps the socket until the client ends its side, which a slow client never does (issue 41).
  // A socket with nothing queued hands the answer to the kernel at once, so it still goes out; one
  // whose client stopped reading loses it. Node's own handler does the same.
  socket.destroy();
}

async function stop(server: Server, container: Container, graceMs: number, keyMade: Promise<void>): Promise<void> {
  const worker = container.get(WebhookWorker);
  const storage = container.get<Storage>(StorageToken);
  container.get(Readiness).drain();
  const drainMs = container.get<Config>(ConfigToken).shutdownDrainMs;
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await Promise.all([closed, worker.stop()]);
  clearTimeout(timer);
  container.get(DatabaseMonitor).stop();
  await closeWebhookSender(container);
  await keyMade;
  await storage.close();
}
