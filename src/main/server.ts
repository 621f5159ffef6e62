import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { CreateApi } from '../application/apis/create-api.use-case.js';
import { DeleteApi } from '../application/apis/delete-api.use-case.js';
import { GetApi } from '../application/apis/get-api.use-case.js';
import { ListApis } from '../application/apis/list-apis.use-case.js';
import { UpdateApi } from '../application/apis/update-api.use-case.js';
import { AuthenticateToken } from '../application/auth/authenticate-token.use-case.js';
import { BootstrapDemo, type DemoCredentials } from '../application/bootstrap/bootstrap-demo.use-case.js';
import { ChangeReleaseStatus } from '../application/releases/change-release-status.use-case.js';
import { CreateRelease } from '../application/releases/create-release.use-case.js';
import { DeleteRelease } from '../application/releases/delete-release.use-case.js';
import { GetRelease } from '../application/releases/get-release.use-case.js';
import { ListReleases } from '../application/releases/list-releases.use-case.js';
import { ExportSpec } from '../application/specs/export-spec.use-case.js';
import { ImportApi } from '../application/specs/import-api.use-case.js';
import { ListDerived } from '../application/specs/list-derived.use-case.js';
import { ReplaceSpec } from '../application/specs/replace-spec.use-case.js';
import { GetChangelog } from '../application/specs/get-changelog.use-case.js';
import { GetChanges } from '../application/specs/get-changes.use-case.js';
import { ListRevisions } from '../application/specs/list-revisions.use-case.js';
import { ListDeliveries, PingWebhook, Redeliver } from '../application/webhooks/deliveries.use-cases.js';
import {
  CreateWebhook,
  DeleteWebhook,
  GetWebhook,
  ListWebhooks,
  SetWebhookActive,
  UpdateWebhook,
} from '../application/webhooks/webhook-management.use-cases.js';
import { WebhookWorker } from './webhook-worker.js';
import { AuthenticatePassword } from '../application/auth/authenticate-password.use-case.js';
import { ListApiTokens, RevokeApiToken } from '../application/tokens/manage-api-tokens.use-cases.js';
import { CreateApiToken } from '../application/tokens/create-api-token.use-case.js';
import { ChangePassword, GetProfile, UpdateProfile } from '../application/users/profile.use-cases.js';
import { CreatePage, DeletePage, GetPage, ListPages, UpdatePage } from '../application/pages/pages.use-cases.js';
import { ApiAccess } from '../application/auth/api-access.js';
import { ConfirmEmailVerification, RequestEmailVerification } from '../application/users/email-verification.use-cases.js';
import { CreateShare, DeleteShare, GetShare, ListShares, UpdateShare } from '../application/shares/shares.use-cases.js';
import { createHttpApp } from '../adapters/http/app.js';
import { ViewApiDocs } from '../application/docs/view-api-docs.use-case.js';
import { ViewApiGuide } from '../application/docs/view-api-guide.use-case.js';
import { ViewApiChangelog } from '../application/docs/view-api-changelog.use-case.js';
import type { Logger } from '../adapters/logging/pino-logger.js';
import type { Duplex } from 'node:stream';
import { loadConfig, type Config } from './config.js';
import { buildContainer, closeWebhookSender, ConfigToken, IdentitySettingsToken, LoggerToken, StorageToken, type Storage } from './container.js';
import type { IdentitySettings } from '../application/identity/identity-settings.js';
import { SigningKeys } from '../application/identity/signing-keys.js';
import { Authorize, SignIn, ValidateAuthorizationRequest } from '../application/identity/authorization.use-cases.js';
import { AuthenticateClient, IssueTokens } from '../application/identity/token-endpoint.use-cases.js';
import { RevokeOAuthToken, TokenInfo, UserInfo, VerifyIssuedToken } from '../application/identity/token-info.use-cases.js';
import { UserRepository } from '../application/ports/user-repository.port.js';
import { ApiRateLimiter, RateLimiter, RateLimits } from '../application/ports/rate-limiter.port.js';
import { Readiness } from './readiness.js';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';

/** package.json's version: src/main and dist/main both sit two levels below it. */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** The Koa application wired from a container; mount it (or `app.callback()`) anywhere. */
export function createApp(container: Container): Koa {
  const config = container.get<Config>(ConfigToken);
  const storage = container.get<Storage>(StorageToken);
  const readiness = container.get(Readiness);
  return createHttpApp({
    logger: container.get<Logger>(LoggerToken),
    publicUrl: config.publicUrl,
    version: VERSION,
    jsonMaxBytes: config.jsonMaxBytes,
    trustProxy: config.trustProxy,
    hsts: config.publicUrl.startsWith('https:'),
    importMaxBytes: config.importMaxBytes,
    health: () => storage.ping(),
    ready: () => storage.ready(),
    draining: () => readiness.draining,
    metrics: container.get(PromMetrics),
    metricsToken: config.metricsToken,
    authenticate: container.get(AuthenticateToken),
    apis: {
      create: container.get(CreateApi),
      list: container.get(ListApis),
      get: container.get(GetApi),
      update: container.get(UpdateApi),
      delete: container.get(DeleteApi),
    },
    specs: {
      import: container.get(ImportApi),
      replace: container.get(ReplaceSpec),
      export: container.get(ExportSpec),
      listDerived: container.get(ListDerived),
      revisions: container.get(ListRevisions),
      changes: container.get(GetChanges),
      changelog: container.get(GetChangelog),
    },
    releases: {
      create: container.get(CreateRelease),
      list: container.get(ListReleases),
      get: container.get(GetRelease),
      changeStatus: container.get(ChangeReleaseStatus),
      delete: container.get(DeleteRelease),
    },
    webhooks: {
      create: container.get(CreateWebhook),
      list: container.get(ListWebhooks),
      get: container.get(GetWebhook),
      update: container.get(UpdateWebhook),
      delete: container.get(DeleteWebhook),
      setActive: container.get(SetWebhookActive),
      ping: container.get(PingWebhook),
      deliveries: container.get(ListDeliveries),
      redeliver: container.get(Redeliver),
    },
    pages: { list: container.get(ListPages), create: container.get(CreatePage), get: container.get(GetPage), update: container.get(UpdatePage), delete: container.get(DeletePage) },
    apiAccess: container.get(ApiAccess),
    rateLimits: { limiter: container.get<RateLimiter>(RateLimiter), apiLimiter: container.get<RateLimiter>(ApiRateLimiter), api: container.get<RateLimits>(RateLimits).api, tokenEndpoint: container.get<RateLimits>(RateLimits).tokenEndpoint },
    identity: {
      settings: container.get<IdentitySettings>(IdentitySettingsToken),
      keys: container.get(SigningKeys),
      validate: container.get(ValidateAuthorizationRequest),
      authorize: container.get(Authorize),
      signIn: container.get(SignIn),
      authenticateClient: container.get(AuthenticateClient),
      issueTokens: container.get(IssueTokens),
      tokenInfo: container.get(TokenInfo),
      userInfo: container.get(UserInfo),
      verify: container.get(VerifyIssuedToken),
      revoke: container.get(RevokeOAuthToken),
      users: container.get<UserRepository>(UserRepository),
    },
    docs: { view: container.get(ViewApiDocs), guide: container.get(ViewApiGuide), changelog: container.get(ViewApiChangelog) },
    emailVerification: { request: container.get(RequestEmailVerification), confirm: container.get(ConfirmEmailVerification) },
    shares: { list: container.get(ListShares), create: container.get(CreateShare), get: container.get(GetShare), update: container.get(UpdateShare), delete: container.get(DeleteShare) },
    profile: { get: container.get(GetProfile), update: container.get(UpdateProfile), changePassword: container.get(ChangePassword) },
    tokens: {
      authenticate: container.get(AuthenticatePassword),
      list: container.get(ListApiTokens),
      create: container.get(CreateApiToken),
      revoke: container.get(RevokeApiToken),
    },
  });
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

/** Opens (and migrates) the database, bootstraps an empty one, and listens. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const container = options.container ?? buildContainer(options.config ?? loadConfig());
  const config = container.get<Config>(ConfigToken);
  const storage = container.get<Storage>(StorageToken);
  await storage.open();
  let demo: DemoCredentials | null = null;
  let server: Server;
  try {
    await storage.migrate();
    // Side by side: on a first start both wait on the thread pool (the RSA key, the demo password's scrypt).
    const [, bootstrapped] = await Promise.all([container.get(SigningKeys).ensure(), config.bootstrap ? container.get(BootstrapDemo).execute() : undefined]);
    if (bootstrapped !== undefined) {
      if (!bootstrapped.ok) throw new Error(`bootstrap failed: ${bootstrapped.error.kind}`);
      demo = bootstrapped.value;
    }
    if (config.webhooks.worker) container.get(WebhookWorker).start();
    server = createApp(container).listen(config.port, config.host);
    server.keepAliveTimeout = 5_000;
    server.requestTimeout = 60_000;
    // A client has 20 s to send its headers and 60 s for the whole request (a 10 MiB import included).
    server.headersTimeout = 20_000;
    server.on('clientError', answerUnparseableRequest);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    await container.get(WebhookWorker).stop();
    await closeWebhookSender(container);
    await storage.close();
    throw error;
  }
  if (config.metricsToken === null && !/^(127\.|::1$|localhost$)/.test(config.host)) {
    container.get<Logger>(LoggerToken).warn({ host: config.host }, 'GET /metrics is open to whoever reaches this address: set METRICS_TOKEN, or keep /metrics from the outside at the proxy');
  }
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let stopping: Promise<void> | undefined;
  return {
    container,
    server,
    url: `http://${host}:${port}`,
    port,
    demo,
    stop: (graceMs = 10_000) => (stopping ??= stop(server, container, graceMs)),
  };
}

/**
 * A request Node's HTTP parser refuses (bytes not allowed in a path, a malformed Content-Length, a
 * header line without a colon...) gets a problem+json 400 like every other bad request, not Node's
 * bare one; a timed-out request a 408; the connection is closed either way.
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
}

async function stop(server: Server, container: Container, graceMs: number): Promise<void> {
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
  await closeWebhookSender(container);
  await storage.close();
}
