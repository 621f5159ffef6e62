import { TypeOrmIdentityPurge } from '../adapters/persistence/typeorm-identity-purge.js';
import { freshSqliteImageBeside } from '../adapters/persistence/fresh-sqlite.js';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { Container } from 'inversify';
import { accountsModule } from './modules/accounts.module.js';
import { apisModule } from './modules/apis.module.js';
import { authModule } from './modules/auth.module.js';
import { docsModule } from './modules/docs.module.js';
import { identityModule } from './modules/identity.module.js';
import { pagesModule } from './modules/pages.module.js';
import { releasesModule } from './modules/releases.module.js';
import { sharesModule } from './modules/shares.module.js';
import { specsModule } from './modules/specs.module.js';
import { usersModule } from './modules/users.module.js';
import { webhooksModule } from './modules/webhooks.module.js';
import { ConfigToken, IdentitySettingsToken, LoggerToken, WorkerPeersToken } from './tokens.js';
import { DEFAULT_TOKEN_CACHE, TokenCache } from '../application/auth/token-cache.js';
import { AccountRepository } from '../application/ports/account-repository.port.js';
import { ApiRepository } from '../application/ports/api-repository.port.js';
import { ApiTokenRepository } from '../application/ports/api-token-repository.port.js';
import { Clock } from '../application/ports/clock.port.js';
import { EventOutbox } from '../application/ports/event-outbox.port.js';
import { IdGenerator } from '../application/ports/id-generator.port.js';
import { PasswordHasher } from '../application/ports/password-hasher.port.js';
import { TokenGenerator } from '../application/ports/token-generator.port.js';
import { UnitOfWork, type Transaction } from '../application/ports/unit-of-work.port.js';
import { UserRepository } from '../application/ports/user-repository.port.js';
import { ReleaseRepository } from '../application/ports/release-repository.port.js';
import { SpecCodec } from '../application/ports/spec-codec.port.js';
import { SpecRepository } from '../application/ports/spec-repository.port.js';
import { SpecRevisionRepository } from '../application/ports/spec-revision-repository.port.js';
import { PlanSettings } from '../application/accounts/plans.js';
import { ChangeSettings } from '../application/specs/change-settings.js';
import { SwaggerSpecCodec } from '../adapters/swagger/swagger-spec-codec.js';
import { MathRandom } from '../adapters/crypto/math-random.js';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender.js';
import { SsrfGuard } from '../adapters/webhooks/ssrf-guard.js';
import { ThreadedWebhookSender } from '../adapters/webhooks/threaded-webhook-sender.js';
import { DeliveryRepository } from '../application/ports/delivery-repository.port.js';
import { Random } from '../application/ports/random.port.js';
import { WebhookRepository } from '../application/ports/webhook-repository.port.js';
import { WebhookSender, WebhookTargetPolicy } from '../application/ports/webhook-sender.port.js';
import { PageRepository } from '../application/ports/page-repository.port.js';
import { ShareRepository } from '../application/ports/share-repository.port.js';
import { WorkSignal } from './webhook-worker.js';
import { token } from '../application/shared/token.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { FileMailer } from '../adapters/mail/file-mailer.js';
import { JoseSigningKeyGenerator, JoseTokenSigner } from '../adapters/crypto/jose-token-signer.js';
import { InMemoryRateLimiter } from '../adapters/memory/in-memory-rate-limiter.js';
import { ApiRateLimiter, RateLimiter, RateLimits } from '../application/ports/rate-limiter.port.js';
import { BatchedRateLimiter, TypeOrmRateLimiter } from '../adapters/persistence/typeorm-rate-limiter.js';
import { ReadCache } from '../adapters/persistence/read-cache.js';
import { RememberedAnswers } from '../adapters/http/remembered-answers.js';
import { SigningKeyGenerator, TokenSigner } from '../application/ports/token-signer.port.js';
import { ConsentRepository, DeviceAuthorizationRepository, IdentityPurge, GrantRepository, OAuthClientRepository, RefreshTokenRepository, SessionRepository, SigningKeyRepository } from '../application/ports/identity-repositories.port.js';
import { LogMailer } from '../adapters/mail/log-mailer.js';
import { Mailer } from '../application/ports/mailer.port.js';
import { EmailVerificationRepository } from '../application/ports/email-verification-repository.port.js';
import { RandomTokenGenerator } from '../adapters/crypto/random-token-generator.js';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher.js';
import { UuidV7IdGenerator } from '../adapters/crypto/uuid-v7-id-generator.js';
import { createLogger, type Logger } from '../adapters/logging/pino-logger.js';
import { InMemoryDatabase } from '../adapters/memory/in-memory-unit-of-work.js';
import { TypeOrmDatabase } from '../adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../adapters/persistence/typeorm-unit-of-work.js';
import type { Config } from './config.js';
import { Readiness } from './readiness.js';
import { Metrics } from '../application/ports/metrics.port.js';
import { OperationalFigures } from '../application/monitoring/operational-figures.service.js';
import pino from 'pino';
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';
import { RetentionPurge } from '../application/ports/retention-purge.port.js';
import { TypeOrmRetentionPurge } from '../adapters/persistence/typeorm-retention-purge.js';
import { PostgresWorkerPeers } from '../adapters/persistence/postgres-worker-peers.js';
import { secretBoxFor } from './secrets.js';
import { DatabaseMonitor } from './database-monitor.js';

/** Opening, migrating, checking and closing whatever stores the data. */
export interface Storage {
  /** Connects; does not change the schema. */
  open(): Promise<void>;
  /** Applies pending migrations and returns their names. */
  migrate(): Promise<string[]>;
  /** Whether the database answers a trivial query (liveness: `/healthz`). */
  ping(): Promise<boolean>;
  /** Whether it answers and no migration is pending (readiness: `/readyz`). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export { ConfigToken, IdentitySettingsToken, LoggerToken };
export const StorageToken = token<Storage>('Storage');
/** The non-transactional repositories, as one object. */
const RepositoriesToken = token<Transaction>('Repositories');

export interface ContainerOptions {
  /** `memory` keeps everything in the process: for embedders' tests and demos. */
  readonly storage?: 'configured' | 'memory';
  /**
   * How a webhook sender thread starts. By default the built entry module next to this one
   * (dist/main/webhook-sender.thread.js); run from source there is none unless given (the tests
   * give one that loads TypeScript), and deliveries are then sent in the main thread.
   */
  readonly startSenderThread?: (options: WorkerOptions) => Worker;
  /** Where log lines go: stdout (the default, a server's), or stderr (a one-shot command's, whose stdout is its answer). */
  readonly logTo?: 'stdout' | 'stderr';
}

/**
 * The composition root: every port bound to its adapter and every use case to its ports. An
 * embedder may `rebind` any port before the first `get` (all bindings are singletons).
 */
export function buildContainer(config: Config, options: ContainerOptions = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(ConfigToken).toConstantValue(config);
  c.bind(ChangeSettings).toConstantValue({ maxItems: config.changesMaxItems });
  c.bind(PlanSettings).toConstantValue({ trialDays: config.plans.trialDays, allowances: config.plans.allowances });
  c.bind(LoggerToken).toResolvedValue(() => createLogger(config.logLevel, options.logTo === 'stderr' ? pino.destination(2) : undefined));
  c.bind(Clock).toResolvedValue(() => new SystemClock());
  c.bind(IdGenerator).toResolvedValue(() => new UuidV7IdGenerator());
  c.bind(PasswordHasher).toResolvedValue(() => new ScryptPasswordHasher());
  c.bind(TokenGenerator).toResolvedValue(() => new RandomTokenGenerator());
  c.bind(SpecCodec).toResolvedValue(() => new SwaggerSpecCodec());
  c.bind(Random).toResolvedValue(() => new MathRandom());
  const mail = config.mail;
  if (mail.kind === 'file') c.bind(Mailer).toResolvedValue(() => new FileMailer(mail.dir, `Specbase <no-reply@${new URL(config.publicUrl).hostname}>`));
  else c.bind(Mailer).toResolvedValue((log: Logger) => new LogMailer(log.child({ component: 'mailer' })), [LoggerToken]);
  c.bind(WorkSignal).toConstantValue(new WorkSignal());
  c.bind(Readiness).toConstantValue(new Readiness());
  c.bind(SsrfGuard).toResolvedValue(() => new SsrfGuard({ allowPrivateTargets: config.webhooks.allowPrivateTargets }));
  c.bind(WebhookTargetPolicy).toResolvedValue((guard: SsrfGuard) => guard, [SsrfGuard]);
  c.bind(HttpWebhookSender).toResolvedValue((guard: SsrfGuard) => new HttpWebhookSender({ timeoutMs: config.webhooks.timeoutMs, guard }), [SsrfGuard]);
  const startSenderThread = options.startSenderThread ?? (BUILT_SENDER_THREAD === undefined ? undefined : (o: WorkerOptions) => new Worker(BUILT_SENDER_THREAD, o));
  if (config.webhooks.senderThreads > 0 && startSenderThread !== undefined) {
    c.bind(ThreadedWebhookSender).toResolvedValue(
      (inProcess: HttpWebhookSender, log: Logger) =>
        new ThreadedWebhookSender({
          threads: config.webhooks.senderThreads,
          start: startSenderThread,
          data: { timeoutMs: config.webhooks.timeoutMs, allowPrivateTargets: config.webhooks.allowPrivateTargets },
          fallback: inProcess,
          onError: (err, what) => log.error({ err }, what),
        }),
      [HttpWebhookSender, LoggerToken],
    );
    c.bind(WebhookSender).toResolvedValue((threaded: ThreadedWebhookSender) => threaded, [ThreadedWebhookSender]);
  } else {
    c.bind(WebhookSender).toResolvedValue((inProcess: HttpWebhookSender) => inProcess, [HttpWebhookSender]);
  }

  if (options.storage === 'memory') bindInMemory(c);
  else bindTypeOrm(c, config);
  const limits = config.rateLimits;
  c.bind(RateLimits).toConstantValue({
    api: { limit: limits.apiPerMinute, windowMs: 60_000 },
    passwordPerIp: { limit: limits.passwordPerIp, windowMs: 5 * 60_000 },
    passwordPerEmail: { limit: limits.passwordPerEmail, windowMs: 5 * 60_000 },
    tokenEndpoint: { limit: limits.tokenEndpointPerMinute, windowMs: 60_000 },
  });

  c.bind(AccountRepository).toResolvedValue((r: Transaction) => r.accounts, [RepositoriesToken]);
  c.bind(UserRepository).toResolvedValue((r: Transaction) => r.users, [RepositoriesToken]);
  c.bind(ApiTokenRepository).toResolvedValue((r: Transaction) => r.tokens, [RepositoriesToken]);
  c.bind(ApiRepository).toResolvedValue((r: Transaction) => r.apis, [RepositoriesToken]);
  c.bind(EventOutbox).toResolvedValue((r: Transaction) => r.outbox, [RepositoriesToken]);
  c.bind(SpecRepository).toResolvedValue((r: Transaction) => r.specs, [RepositoriesToken]);
  c.bind(ReleaseRepository).toResolvedValue((r: Transaction) => r.releases, [RepositoriesToken]);
  c.bind(SpecRevisionRepository).toResolvedValue((r: Transaction) => r.revisions, [RepositoriesToken]);
  c.bind(WebhookRepository).toResolvedValue((r: Transaction) => r.webhooks, [RepositoriesToken]);
  c.bind(DeliveryRepository).toResolvedValue((r: Transaction) => r.deliveries, [RepositoriesToken]);
  c.bind(PageRepository).toResolvedValue((r: Transaction) => r.pages, [RepositoriesToken]);
  c.bind(ShareRepository).toResolvedValue((r: Transaction) => r.shares, [RepositoriesToken]);
  c.bind(EmailVerificationRepository).toResolvedValue((r: Transaction) => r.verifications, [RepositoriesToken]);

  c.bind(TokenCache).toResolvedValue(
    (tokens: ApiTokenRepository) => new TokenCache({ ...DEFAULT_TOKEN_CACHE, ...config.tokenCache }, (hashes) => tokens.findHolders(hashes)),
    [ApiTokenRepository],
  );

  c.bind(DatabaseMonitor).toResolvedValue(
    (storage: Storage, log: Logger, signal: WorkSignal) =>
      new DatabaseMonitor(() => storage.ping(), {
        away: () => log.warn({ component: 'database' }, 'the database does not answer: requests that need it get 503 until it does'),
        back: (awayMs) => {
          log.info({ component: 'database', awayMs }, 'the database answers again');
          // The worker's back-off may have grown while it was away: it goes on now.
          signal.notify();
        },
      }),
    [StorageToken, LoggerToken, WorkSignal],
  );
  bindMonitoring(c);
  bindIdentityAdapters(c, config);
  // The features: each module binds its use cases and what its routes need.
  c.load(authModule, accountsModule, usersModule, apisModule, specsModule, releasesModule, pagesModule, sharesModule, docsModule, webhooksModule(config), identityModule(config));
  return c;
}

function bindTypeOrm(c: Container, config: Config): void {
  // Several instances share a PostgreSQL database, so their counters must too; SQLite has one instance.
  if (config.database.kind === 'postgres') {
    c.bind(TypeOrmRateLimiter).toResolvedValue((db: TypeOrmDatabase) => new TypeOrmRateLimiter(db), [TypeOrmDatabase]);
    c.bind(RateLimiter).toResolvedValue((exact: TypeOrmRateLimiter) => exact, [TypeOrmRateLimiter]);
    c.bind(ApiRateLimiter).toResolvedValue((exact: TypeOrmRateLimiter) => new BatchedRateLimiter(exact), [TypeOrmRateLimiter]);
  } else {
    c.bind(RateLimiter).toResolvedValue(() => new InMemoryRateLimiter());
    c.bind(ApiRateLimiter).toResolvedValue((limiter: RateLimiter) => limiter, [RateLimiter]);
  }
  c.bind(TypeOrmDatabase).toResolvedValue(
    (log: Logger) =>
      new TypeOrmDatabase(config.database, {
        // For the read cache, and for a webhook worker to hear the others (PostgresWorkerPeers).
        trackChanges: config.readCacheSize > 0 || config.webhooks.worker,
        changes: { onError: (error) => log.warn({ err: error, component: 'read-cache' }, 'not listening for PostgreSQL changes: reads are not cached, and webhook workers do not hear each other, until it reconnects') },
        secrets: secretBoxFor(config, (message, file) => log.warn({ file }, message)),
        ...(config.database.kind === 'sqlite' ? freshSqliteOption() : {}),
      }),
    [LoggerToken],
  );
  c.bind(StorageToken).toResolvedValue((db: TypeOrmDatabase) => db, [TypeOrmDatabase]);
  // The hot reads' answers, kept while the read cache's version holds (ADR 0029).
  if (config.readCacheSize > 0) c.bind(RememberedAnswers).toResolvedValue((db: TypeOrmDatabase) => new RememberedAnswers(() => db.changeVersion(), config.readCacheSize), [TypeOrmDatabase]);
  c.bind(RepositoriesToken).toResolvedValue(
    (db: TypeOrmDatabase, ids: IdGenerator) =>
      typeOrmRepositories(
        db,
        db.read,
        ids,
        undefined,
        config.readCacheSize > 0 ? new ReadCache(() => db.changeVersion(), config.readCacheSize) : undefined,
      ),
    [
    TypeOrmDatabase,
    IdGenerator,
  ]);
  c.bind(UnitOfWork).toResolvedValue(
    (db: TypeOrmDatabase, ids: IdGenerator, signal: WorkSignal) => new TypeOrmUnitOfWork(db, ids, () => signal.notify()),
    [TypeOrmDatabase, IdGenerator, WorkSignal],
  );
  c.bind(IdentityPurge).toResolvedValue((db: TypeOrmDatabase) => new TypeOrmIdentityPurge(db.read, db.schemas), [TypeOrmDatabase]);
  c.bind(RetentionPurge).toResolvedValue((db: TypeOrmDatabase) => new TypeOrmRetentionPurge(db), [TypeOrmDatabase]);
  // Several webhook workers share a PostgreSQL database; they hear each other through its change listener.
  c.bind(WorkerPeersToken).toResolvedValue((db: TypeOrmDatabase) => (db.postgresChanges === undefined ? null : new PostgresWorkerPeers(db.postgresChanges, db.schemaName ?? 'public')), [TypeOrmDatabase]);
}

function bindInMemory(c: Container): void {
  c.bind(WorkerPeersToken).toConstantValue(null);
  c.bind(RateLimiter).toResolvedValue(() => new InMemoryRateLimiter());
  c.bind(ApiRateLimiter).toResolvedValue((limiter: RateLimiter) => limiter, [RateLimiter]);
  c.bind(InMemoryDatabase).toResolvedValue((ids: IdGenerator, signal: WorkSignal) => new InMemoryDatabase(ids, () => signal.notify()), [IdGenerator, WorkSignal]);
  c.bind(StorageToken).toConstantValue({
    open: async () => undefined,
    migrate: async () => [],
    ping: async () => true,
    ready: async () => true,
    close: async () => undefined,
  });
  c.bind(RepositoriesToken).toResolvedValue((db: InMemoryDatabase) => db.repositories, [InMemoryDatabase]);
  c.bind(UnitOfWork).toResolvedValue((db: InMemoryDatabase) => db, [InMemoryDatabase]);
  c.bind(IdentityPurge).toResolvedValue((db: InMemoryDatabase) => db.identityPurge, [InMemoryDatabase]);
  c.bind(RetentionPurge).toResolvedValue((db: InMemoryDatabase) => db.retentionPurge, [InMemoryDatabase]);
}

/** The identity service's adapters: the token signer, the key generator, its repositories. */
function bindIdentityAdapters(c: Container, config: Config): void {
  c.bind(TokenSigner).toResolvedValue(() => new JoseTokenSigner());
  c.bind(SigningKeyGenerator).toResolvedValue(() => new JoseSigningKeyGenerator(new URL(config.publicUrl).host));
  c.bind(OAuthClientRepository).toResolvedValue((r: Transaction) => r.oauthClients, [RepositoriesToken]);
  c.bind(GrantRepository).toResolvedValue((r: Transaction) => r.grants, [RepositoriesToken]);
  c.bind(RefreshTokenRepository).toResolvedValue((r: Transaction) => r.refreshTokens, [RepositoriesToken]);
  c.bind(SessionRepository).toResolvedValue((r: Transaction) => r.sessions, [RepositoriesToken]);
  c.bind(ConsentRepository).toResolvedValue((r: Transaction) => r.consents, [RepositoriesToken]);
  c.bind(DeviceAuthorizationRepository).toResolvedValue((r: Transaction) => r.deviceAuthorizations, [RepositoriesToken]);
  c.bind(SigningKeyRepository).toResolvedValue((r: Transaction) => r.signingKeys, [RepositoriesToken]);
}

/** The metrics: one prom-client adapter (with registries of its own) per container. */
function bindMonitoring(c: Container): void {
  c.bind(OperationalFigures).toResolvedValue(
    (outbox: EventOutbox, webhooks: WebhookRepository, clock: Clock) => new OperationalFigures(outbox, webhooks, clock),
    [EventOutbox, WebhookRepository, Clock],
  );
  c.bind(PromMetrics).toResolvedValue((figures: OperationalFigures, log: Logger) => new PromMetrics({ figures, log: log.child({ component: 'metrics' }) }), [OperationalFigures, LoggerToken]);
  c.bind(Metrics).toResolvedValue((metrics: PromMetrics) => metrics, [PromMetrics]);
}

/**
 * The sender threads' entry module, built next to this one: dist/main/webhook-sender.thread.js (the
 * bundled command lives in dist/main/ too). Run from source there is none to start.
 */
const BUILT_SENDER_THREAD = import.meta.url.endsWith('.js') ? new URL('./webhook-sender.thread.js', import.meta.url) : undefined;

/**
 * The fresh SQLite image `npm run build` makes next to this module (in dist/main/, named by this
 * code's migrations): a first start copies it instead of running every migration. Run from source
 * there is none, and the migrations make the schema. Worked out for SQLite only, when bound.
 */
function freshSqliteOption(): { freshSqlite?: string } {
  const image = freshSqliteImageBeside(import.meta.url);
  return image === undefined ? {} : { freshSqlite: image };
}

/** Ends the webhook sender threads, if any (after the worker has stopped: nothing is in flight then). */
export async function closeWebhookSender(container: Container): Promise<void> {
  if (container.isBound(ThreadedWebhookSender)) await container.get(ThreadedWebhookSender).close();
}
