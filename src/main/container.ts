import { Worker, type WorkerOptions } from 'node:worker_threads';
import { Container } from 'inversify';
import { CreateApi } from '../application/apis/create-api.use-case.js';
import { DeleteApi } from '../application/apis/delete-api.use-case.js';
import { GetApi } from '../application/apis/get-api.use-case.js';
import { ListApis } from '../application/apis/list-apis.use-case.js';
import { UpdateApi } from '../application/apis/update-api.use-case.js';
import { AuthenticateToken } from '../application/auth/authenticate-token.use-case.js';
import { DEFAULT_TOKEN_CACHE, TokenCache } from '../application/auth/token-cache.js';
import { BootstrapDemo } from '../application/bootstrap/bootstrap-demo.use-case.js';
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
import { GetChangelog } from '../application/specs/get-changelog.use-case.js';
import { PlanSettings, Plans } from '../application/accounts/plans.js';
import { SetAccountPlan } from '../application/accounts/account-plan.use-cases.js';
import { SendTrialReminders } from '../application/accounts/send-trial-reminders.use-case.js';
import { Changelog } from '../application/releases/changelog.js';
import { GetChanges } from '../application/specs/get-changes.use-case.js';
import { ListRevisions } from '../application/specs/list-revisions.use-case.js';
import { ChangeReleaseStatus } from '../application/releases/change-release-status.use-case.js';
import { CreateRelease } from '../application/releases/create-release.use-case.js';
import { DeleteRelease } from '../application/releases/delete-release.use-case.js';
import { GetRelease } from '../application/releases/get-release.use-case.js';
import { ListReleases } from '../application/releases/list-releases.use-case.js';
import { ExportSpec } from '../application/specs/export-spec.use-case.js';
import { ImportApi } from '../application/specs/import-api.use-case.js';
import { ListDerived } from '../application/specs/list-derived.use-case.js';
import { ReplaceSpec } from '../application/specs/replace-spec.use-case.js';
import { SwaggerSpecCodec } from '../adapters/swagger/swagger-spec-codec.js';
import { MathRandom } from '../adapters/crypto/math-random.js';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender.js';
import { SsrfGuard } from '../adapters/webhooks/ssrf-guard.js';
import { ThreadedWebhookSender } from '../adapters/webhooks/threaded-webhook-sender.js';
import { DeliveryRepository } from '../application/ports/delivery-repository.port.js';
import { Random } from '../application/ports/random.port.js';
import { WebhookRepository } from '../application/ports/webhook-repository.port.js';
import { WebhookSender, WebhookTargetPolicy } from '../application/ports/webhook-sender.port.js';
import { DeliverDue } from '../application/webhooks/deliver-due.service.js';
import { ListDeliveries, PingWebhook, Redeliver } from '../application/webhooks/deliveries.use-cases.js';
import { DispatchEvents } from '../application/webhooks/dispatch-events.service.js';
import {
  CreateWebhook,
  DeleteWebhook,
  GetWebhook,
  ListWebhooks,
  SetWebhookActive,
  UpdateWebhook,
} from '../application/webhooks/webhook-management.use-cases.js';
import { DEFAULT_RETRY_POLICY } from '../domain/webhook/retry-policy.js';
import { AuthenticatePassword } from '../application/auth/authenticate-password.use-case.js';
import { ListApiTokens, RevokeApiToken } from '../application/tokens/manage-api-tokens.use-cases.js';
import { ChangePassword, GetProfile, UpdateProfile } from '../application/users/profile.use-cases.js';
import { CreatePage, DeletePage, GetPage, ListPages, UpdatePage } from '../application/pages/pages.use-cases.js';
import { PageRepository } from '../application/ports/page-repository.port.js';
import { ShareRepository } from '../application/ports/share-repository.port.js';
import { ApiAccess } from '../application/auth/api-access.js';
import { CreateShare, DeleteShare, GetShare, ListShares, UpdateShare } from '../application/shares/shares.use-cases.js';
import { WebhookWorker, WorkSignal } from './webhook-worker.js';
import { ReadableApis } from '../application/docs/readable-api.js';
import { ViewApiDocs } from '../application/docs/view-api-docs.use-case.js';
import { ViewApiGuide } from '../application/docs/view-api-guide.use-case.js';
import { ViewApiChangelog } from '../application/docs/view-api-changelog.use-case.js';
import { token } from '../application/shared/token.js';
import { CreateApiToken } from '../application/tokens/create-api-token.use-case.js';
import { RegisterUser } from '../application/users/register-user.use-case.js';
import { VerifyEmail } from '../application/users/verify-email.use-case.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { FileMailer } from '../adapters/mail/file-mailer.js';
import { JoseSigningKeyGenerator, JoseTokenSigner } from '../adapters/crypto/jose-token-signer.js';
import { InMemoryRateLimiter } from '../adapters/memory/in-memory-rate-limiter.js';
import { ApiRateLimiter, RateLimiter, RateLimits } from '../application/ports/rate-limiter.port.js';
import { BatchedRateLimiter, TypeOrmRateLimiter } from '../adapters/persistence/typeorm-rate-limiter.js';
import { ReadCache } from '../adapters/persistence/read-cache.js';
import { SigningKeyGenerator, TokenSigner } from '../application/ports/token-signer.port.js';
import {
  ConsentRepository,
  GrantRepository,
  OAuthClientRepository,
  RefreshTokenRepository,
  SessionRepository,
  SigningKeyRepository,
} from '../application/ports/identity-repositories.port.js';
import type { IdentitySettings } from '../application/identity/identity-settings.js';
import { SigningKeys } from '../application/identity/signing-keys.js';
import { PasswordGuard } from '../application/auth/password-guard.js';
import { TokenIssuer } from '../application/identity/token-issuer.js';
import { Authorize, SignIn, ValidateAuthorizationRequest } from '../application/identity/authorization.use-cases.js';
import { AuthenticateClient, IssueTokens } from '../application/identity/token-endpoint.use-cases.js';
import { RevokeOAuthToken, TokenInfo, UserInfo, VerifyIssuedToken } from '../application/identity/token-info.use-cases.js';
import { RegisterOAuthClient } from '../application/identity/clients.use-cases.js';
import { LogMailer } from '../adapters/mail/log-mailer.js';
import { Mailer } from '../application/ports/mailer.port.js';
import { EmailVerificationRepository } from '../application/ports/email-verification-repository.port.js';
import { ConfirmEmailVerification, RequestEmailVerification } from '../application/users/email-verification.use-cases.js';
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
import { PromMetrics } from '../adapters/metrics/prom-metrics.js';

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

export const ConfigToken = token<Config>('Config');
export const IdentitySettingsToken = token<IdentitySettings>('IdentitySettings');
export const LoggerToken = token<Logger>('Logger');
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
}

/**
 * The composition root: every port bound to its adapter and every use case to its ports. An
 * embedder may `rebind` any port before the first `get` (all bindings are singletons).
 */
export function buildContainer(config: Config, options: ContainerOptions = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(ConfigToken).toConstantValue(config);
  c.bind(PlanSettings).toConstantValue({ trialDays: config.plans.trialDays, allowances: config.plans.allowances });
  c.bind(LoggerToken).toResolvedValue(() => createLogger(config.logLevel));
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

  bindUseCases(c);
  bindMonitoring(c);
  bindWebhooks(c, config);
  bindIdentity(c, config);
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
        trackChanges: config.readCacheSize > 0,
        changes: { onError: (error) => log.warn({ err: error, component: 'read-cache' }, 'not listening for PostgreSQL changes: reads are not cached until it reconnects') },
      }),
    [LoggerToken],
  );
  c.bind(StorageToken).toResolvedValue((db: TypeOrmDatabase) => db, [TypeOrmDatabase]);
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
}

function bindInMemory(c: Container): void {
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
}

function bindUseCases(c: Container): void {
  c.bind(ApiAccess).toResolvedValue((shares: ShareRepository) => new ApiAccess(shares), [ShareRepository]);
  c.bind(AuthenticateToken).toResolvedValue(
    (tokens: ApiTokenRepository, generator: TokenGenerator, clock: Clock, cache: TokenCache, metrics: Metrics) => new AuthenticateToken(tokens, generator, clock, cache, metrics),
    [ApiTokenRepository, TokenGenerator, Clock, TokenCache, Metrics],
  );
  c.bind(Plans).toResolvedValue((settings: PlanSettings, accounts: AccountRepository, clock: Clock) => new Plans(settings, accounts, clock), [PlanSettings, AccountRepository, Clock]);
  c.bind(CreateApi).toResolvedValue((uow: UnitOfWork, plans: Plans, ids: IdGenerator, clock: Clock) => new CreateApi(uow, plans, ids, clock), [UnitOfWork, Plans, IdGenerator, Clock]);
  c.bind(ListApis).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository) => new ListApis(access, apis),
    [ApiAccess, ApiRepository],
  );
  c.bind(GetApi).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository) => new GetApi(access, apis),
    [ApiAccess, ApiRepository],
  );
  c.bind(UpdateApi).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, plans: Plans, clock: Clock) => new UpdateApi(access, uow, plans, clock),
    [ApiAccess, UnitOfWork, Plans, Clock],
  );
  c.bind(DeleteApi).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, clock: Clock) => new DeleteApi(access, uow, clock),
    [ApiAccess, UnitOfWork, Clock],
  );
  c.bind(RegisterUser).toResolvedValue(
    (uow: UnitOfWork, hasher: PasswordHasher, settings: PlanSettings, clock: Clock) => new RegisterUser(uow, hasher, settings, clock),
    [UnitOfWork, PasswordHasher, PlanSettings, Clock],
  );
  c.bind(VerifyEmail).toResolvedValue((uow: UnitOfWork) => new VerifyEmail(uow), [UnitOfWork]);
  c.bind(RequestEmailVerification).toResolvedValue(
    (uow: UnitOfWork, generator: TokenGenerator, mailer: Mailer, clock: Clock, config: Config) =>
      new RequestEmailVerification(uow, generator, mailer, clock, `${config.publicUrl}/user/email/verify`),
    [UnitOfWork, TokenGenerator, Mailer, Clock, ConfigToken],
  );
  c.bind(ConfirmEmailVerification).toResolvedValue(
    (uow: UnitOfWork, generator: TokenGenerator, clock: Clock) => new ConfirmEmailVerification(uow, generator, clock),
    [UnitOfWork, TokenGenerator, Clock],
  );
  c.bind(CreateApiToken).toResolvedValue(
    (uow: UnitOfWork, plans: Plans, ids: IdGenerator, generator: TokenGenerator, clock: Clock) => new CreateApiToken(uow, plans, ids, generator, clock),
    [UnitOfWork, Plans, IdGenerator, TokenGenerator, Clock],
  );
  c.bind(ImportApi).toResolvedValue(
    (uow: UnitOfWork, plans: Plans, codec: SpecCodec, ids: IdGenerator, clock: Clock) => new ImportApi(uow, plans, codec, ids, clock),
    [UnitOfWork, Plans, SpecCodec, IdGenerator, Clock],
  );
  c.bind(ReplaceSpec).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, apis: ApiRepository, specs: SpecRepository, plans: Plans, codec: SpecCodec, ids: IdGenerator, clock: Clock) =>
      new ReplaceSpec(access, uow, apis, specs, plans, codec, ids, clock),
    [ApiAccess, UnitOfWork, ApiRepository, SpecRepository, Plans, SpecCodec, IdGenerator, Clock],
  );
  c.bind(ExportSpec).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, specs: SpecRepository, releases: ReleaseRepository, revisions: SpecRevisionRepository, codec: SpecCodec) =>
      new ExportSpec(access, apis, specs, releases, revisions, codec),
    [ApiAccess, ApiRepository, SpecRepository, ReleaseRepository, SpecRevisionRepository, SpecCodec],
  );
  c.bind(ListRevisions).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, revisions: SpecRevisionRepository) => new ListRevisions(access, apis, revisions),
    [ApiAccess, ApiRepository, SpecRevisionRepository],
  );
  c.bind(GetChanges).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, revisions: SpecRevisionRepository, releases: ReleaseRepository) => new GetChanges(access, apis, revisions, releases),
    [ApiAccess, ApiRepository, SpecRevisionRepository, ReleaseRepository],
  );
  c.bind(Changelog).toResolvedValue((uow: UnitOfWork, releases: ReleaseRepository) => new Changelog(uow, releases), [UnitOfWork, ReleaseRepository]);
  c.bind(GetChangelog).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, changelog: Changelog) => new GetChangelog(access, apis, changelog),
    [ApiAccess, ApiRepository, Changelog],
  );
  c.bind(ListDerived).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, specs: SpecRepository) => new ListDerived(access, apis, specs),
    [ApiAccess, ApiRepository, SpecRepository],
  );
  c.bind(CreateRelease).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, ids: IdGenerator, clock: Clock) => new CreateRelease(access, uow, ids, clock),
    [ApiAccess, UnitOfWork, IdGenerator, Clock],
  );
  c.bind(ListReleases).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, releases: ReleaseRepository) => new ListReleases(access, apis, releases),
    [ApiAccess, ApiRepository, ReleaseRepository],
  );
  c.bind(GetRelease).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, releases: ReleaseRepository) => new GetRelease(access, apis, releases),
    [ApiAccess, ApiRepository, ReleaseRepository],
  );
  c.bind(ChangeReleaseStatus).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, clock: Clock) => new ChangeReleaseStatus(access, uow, clock),
    [ApiAccess, UnitOfWork, Clock],
  );
  c.bind(DeleteRelease).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, clock: Clock) => new DeleteRelease(access, uow, clock),
    [ApiAccess, UnitOfWork, Clock],
  );
  c.bind(GetProfile).toResolvedValue((users: UserRepository, accounts: AccountRepository, clock: Clock) => new GetProfile(users, accounts, clock), [UserRepository, AccountRepository, Clock]);
  c.bind(UpdateProfile).toResolvedValue((uow: UnitOfWork, accounts: AccountRepository, clock: Clock) => new UpdateProfile(uow, accounts, clock), [UnitOfWork, AccountRepository, Clock]);
  c.bind(SetAccountPlan).toResolvedValue((uow: UnitOfWork, clock: Clock) => new SetAccountPlan(uow, clock), [UnitOfWork, Clock]);
  c.bind(SendTrialReminders).toResolvedValue(
    (uow: UnitOfWork, accounts: AccountRepository, users: UserRepository, mailer: Mailer, clock: Clock, config: Config) => new SendTrialReminders(uow, accounts, users, mailer, clock, config.publicUrl),
    [UnitOfWork, AccountRepository, UserRepository, Mailer, Clock, ConfigToken],
  );
  c.bind(PasswordGuard).toResolvedValue(
    (limiter: RateLimiter, limits: RateLimits, generator: TokenGenerator, clock: Clock) => new PasswordGuard(limiter, limits, generator, clock),
    [RateLimiter, RateLimits, TokenGenerator, Clock],
  );
  c.bind(ChangePassword).toResolvedValue(
    (uow: UnitOfWork, users: UserRepository, hasher: PasswordHasher, guard: PasswordGuard, clock: Clock) => new ChangePassword(uow, users, hasher, guard, clock),
    [UnitOfWork, UserRepository, PasswordHasher, PasswordGuard, Clock],
  );
  c.bind(AuthenticatePassword).toResolvedValue(
    (users: UserRepository, hasher: PasswordHasher, guard: PasswordGuard) => new AuthenticatePassword(users, hasher, guard),
    [UserRepository, PasswordHasher, PasswordGuard],
  );
  c.bind(ListApiTokens).toResolvedValue((tokens: ApiTokenRepository) => new ListApiTokens(tokens), [ApiTokenRepository]);
  c.bind(RevokeApiToken).toResolvedValue((tokens: ApiTokenRepository, cache: TokenCache) => new RevokeApiToken(tokens, cache), [ApiTokenRepository, TokenCache]);
  c.bind(ListPages).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, pages: PageRepository) => new ListPages(access, apis, pages),
    [ApiAccess, ApiRepository, PageRepository],
  );
  c.bind(GetPage).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, pages: PageRepository) => new GetPage(access, apis, pages),
    [ApiAccess, ApiRepository, PageRepository],
  );
  c.bind(CreatePage).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, plans: Plans, ids: IdGenerator, clock: Clock) => new CreatePage(access, uow, plans, ids, clock),
    [ApiAccess, UnitOfWork, Plans, IdGenerator, Clock],
  );
  c.bind(UpdatePage).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, clock: Clock) => new UpdatePage(access, uow, clock),
    [ApiAccess, UnitOfWork, Clock],
  );
  c.bind(DeletePage).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork) => new DeletePage(access, uow),
    [ApiAccess, UnitOfWork],
  );
  c.bind(ListShares).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, shares: ShareRepository) => new ListShares(access, apis, shares),
    [ApiAccess, ApiRepository, ShareRepository],
  );
  c.bind(GetShare).toResolvedValue(
    (access: ApiAccess, apis: ApiRepository, shares: ShareRepository) => new GetShare(access, apis, shares),
    [ApiAccess, ApiRepository, ShareRepository],
  );
  c.bind(CreateShare).toResolvedValue(
    (access: ApiAccess, uow: UnitOfWork, ids: IdGenerator, clock: Clock) => new CreateShare(access, uow, ids, clock),
    [ApiAccess, UnitOfWork, IdGenerator, Clock],
  );
  c.bind(UpdateShare).toResolvedValue((access: ApiAccess, uow: UnitOfWork, clock: Clock) => new UpdateShare(access, uow, clock), [ApiAccess, UnitOfWork, Clock]);
  c.bind(DeleteShare).toResolvedValue((access: ApiAccess, uow: UnitOfWork) => new DeleteShare(access, uow), [ApiAccess, UnitOfWork]);
  c.bind(ReadableApis).toResolvedValue(
    (apis: ApiRepository, users: UserRepository, access: ApiAccess, releases: ReleaseRepository, pages: PageRepository) => new ReadableApis(apis, users, access, releases, pages),
    [ApiRepository, UserRepository, ApiAccess, ReleaseRepository, PageRepository],
  );
  c.bind(ViewApiDocs).toResolvedValue(
    (readable: ReadableApis, specs: SpecRepository, releases: ReleaseRepository) => new ViewApiDocs(readable, specs, releases),
    [ReadableApis, SpecRepository, ReleaseRepository],
  );
  c.bind(ViewApiGuide).toResolvedValue((readable: ReadableApis, pages: PageRepository) => new ViewApiGuide(readable, pages), [ReadableApis, PageRepository]);
  c.bind(ViewApiChangelog).toResolvedValue((readable: ReadableApis, changelog: Changelog) => new ViewApiChangelog(readable, changelog), [ReadableApis, Changelog]);
  c.bind(BootstrapDemo).toResolvedValue(
    (users: UserRepository, register: RegisterUser, create: CreateApiToken, generator: TokenGenerator) =>
      new BootstrapDemo(users, register, create, generator),
    [UserRepository, RegisterUser, CreateApiToken, TokenGenerator],
  );
}

function bindIdentity(c: Container, config: Config): void {
  c.bind(IdentitySettingsToken).toConstantValue({ issuer: config.publicUrl, scopeBase: config.identity.scopeBase });
  c.bind(TokenSigner).toResolvedValue(() => new JoseTokenSigner());
  c.bind(SigningKeyGenerator).toResolvedValue(() => new JoseSigningKeyGenerator(new URL(config.publicUrl).host));
  c.bind(OAuthClientRepository).toResolvedValue((r: Transaction) => r.oauthClients, [RepositoriesToken]);
  c.bind(GrantRepository).toResolvedValue((r: Transaction) => r.grants, [RepositoriesToken]);
  c.bind(RefreshTokenRepository).toResolvedValue((r: Transaction) => r.refreshTokens, [RepositoriesToken]);
  c.bind(SessionRepository).toResolvedValue((r: Transaction) => r.sessions, [RepositoriesToken]);
  c.bind(ConsentRepository).toResolvedValue((r: Transaction) => r.consents, [RepositoriesToken]);
  c.bind(SigningKeyRepository).toResolvedValue((r: Transaction) => r.signingKeys, [RepositoriesToken]);
  c.bind(SigningKeys).toResolvedValue(
    (keys: SigningKeyRepository, generator: SigningKeyGenerator, clock: Clock) => new SigningKeys(keys, generator, clock),
    [SigningKeyRepository, SigningKeyGenerator, Clock],
  );
  c.bind(TokenIssuer).toResolvedValue(
    (signer: TokenSigner, keys: SigningKeys, settings: IdentitySettings, ids: IdGenerator, clock: Clock) => new TokenIssuer(signer, keys, settings, ids, clock),
    [TokenSigner, SigningKeys, IdentitySettingsToken, IdGenerator, Clock],
  );
  c.bind(ValidateAuthorizationRequest).toResolvedValue(
    (clients: OAuthClientRepository, settings: IdentitySettings) => new ValidateAuthorizationRequest(clients, settings),
    [OAuthClientRepository, IdentitySettingsToken],
  );
  c.bind(Authorize).toResolvedValue(
    (uow: UnitOfWork, sessions: SessionRepository, consents: ConsentRepository, issuer: TokenIssuer, generator: TokenGenerator, ids: IdGenerator, clock: Clock) =>
      new Authorize(uow, sessions, consents, issuer, generator, ids, clock),
    [UnitOfWork, SessionRepository, ConsentRepository, TokenIssuer, TokenGenerator, IdGenerator, Clock],
  );
  c.bind(SignIn).toResolvedValue(
    (authenticate: AuthenticatePassword, uow: UnitOfWork, generator: TokenGenerator, clock: Clock) => new SignIn(authenticate, uow, generator, clock),
    [AuthenticatePassword, UnitOfWork, TokenGenerator, Clock],
  );
  c.bind(AuthenticateClient).toResolvedValue(
    (clients: OAuthClientRepository, generator: TokenGenerator) => new AuthenticateClient(clients, generator),
    [OAuthClientRepository, TokenGenerator],
  );
  c.bind(IssueTokens).toResolvedValue(
    (uow: UnitOfWork, issuer: TokenIssuer, generator: TokenGenerator, settings: IdentitySettings, clock: Clock) => new IssueTokens(uow, issuer, generator, settings, clock),
    [UnitOfWork, TokenIssuer, TokenGenerator, IdentitySettingsToken, Clock],
  );
  c.bind(VerifyIssuedToken).toResolvedValue(
    (signer: TokenSigner, keys: SigningKeys, grants: GrantRepository, users: UserRepository, settings: IdentitySettings, clock: Clock) =>
      new VerifyIssuedToken(signer, keys, grants, users, settings, clock),
    [TokenSigner, SigningKeys, GrantRepository, UserRepository, IdentitySettingsToken, Clock],
  );
  c.bind(TokenInfo).toResolvedValue(
    (verify: VerifyIssuedToken, settings: IdentitySettings, clock: Clock) => new TokenInfo(verify, settings, clock),
    [VerifyIssuedToken, IdentitySettingsToken, Clock],
  );
  c.bind(UserInfo).toResolvedValue((verify: VerifyIssuedToken, settings: IdentitySettings) => new UserInfo(verify, settings), [VerifyIssuedToken, IdentitySettingsToken]);
  c.bind(RevokeOAuthToken).toResolvedValue(
    (uow: UnitOfWork, tokens: RefreshTokenRepository, verify: VerifyIssuedToken, generator: TokenGenerator, clock: Clock) => new RevokeOAuthToken(uow, tokens, verify, generator, clock),
    [UnitOfWork, RefreshTokenRepository, VerifyIssuedToken, TokenGenerator, Clock],
  );
  c.bind(RegisterOAuthClient).toResolvedValue(
    (uow: UnitOfWork, ids: IdGenerator, generator: TokenGenerator, clock: Clock) => new RegisterOAuthClient(uow, ids, generator, clock),
    [UnitOfWork, IdGenerator, TokenGenerator, Clock],
  );
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

/** Ends the webhook sender threads, if any (after the worker has stopped: nothing is in flight then). */
export async function closeWebhookSender(container: Container): Promise<void> {
  if (container.isBound(ThreadedWebhookSender)) await container.get(ThreadedWebhookSender).close();
}

/**
 * Delivery lanes at once: each holds one webhook and has one attempt in flight, so this bounds the
 * POSTs in flight (and sockets open) for the webhook worker of one process.
 */
const DELIVERY_LANES = 256;
/**
 * Deliveries a lane claims at a time and sends one after the other: one in flight per webhook keeps
 * its order, and a run spares a claim and a recording transaction per delivery. Lanes record a run
 * and claim the next in one transaction without waiting for each other, so a run need not be long;
 * a crash resends at most a run per webhook (docs/performance.md, 4).
 */
const DELIVERIES_PER_RUN = 128;
/**
 * Runs a lane makes before it gives its webhook back: with several workers on one database
 * (PostgreSQL), a busy webhook changes hands every 256 deliveries or so instead of staying with
 * the worker that claimed it first; alone, a worker claims it again at once.
 */
const DELIVERY_RUNS_PER_LANE = 2;

function bindWebhooks(c: Container, config: Config): void {
  const retry = { ...DEFAULT_RETRY_POLICY, baseMs: config.webhooks.retryBaseMs, maxAttempts: config.webhooks.maxAttempts };
  c.bind(CreateWebhook).toResolvedValue(
    (uow: UnitOfWork, plans: Plans, ids: IdGenerator, generator: TokenGenerator, policy: WebhookTargetPolicy, clock: Clock) => new CreateWebhook(uow, plans, ids, generator, policy, clock),
    [UnitOfWork, Plans, IdGenerator, TokenGenerator, WebhookTargetPolicy, Clock],
  );
  c.bind(ListWebhooks).toResolvedValue((webhooks: WebhookRepository) => new ListWebhooks(webhooks), [WebhookRepository]);
  c.bind(GetWebhook).toResolvedValue((webhooks: WebhookRepository) => new GetWebhook(webhooks), [WebhookRepository]);
  c.bind(UpdateWebhook).toResolvedValue(
    (uow: UnitOfWork, policy: WebhookTargetPolicy, clock: Clock) => new UpdateWebhook(uow, policy, clock),
    [UnitOfWork, WebhookTargetPolicy, Clock],
  );
  c.bind(DeleteWebhook).toResolvedValue((uow: UnitOfWork) => new DeleteWebhook(uow), [UnitOfWork]);
  c.bind(SetWebhookActive).toResolvedValue((uow: UnitOfWork, clock: Clock) => new SetWebhookActive(uow, clock), [UnitOfWork, Clock]);
  c.bind(PingWebhook).toResolvedValue((uow: UnitOfWork, ids: IdGenerator, clock: Clock) => new PingWebhook(uow, ids, clock), [UnitOfWork, IdGenerator, Clock]);
  c.bind(ListDeliveries).toResolvedValue(
    (webhooks: WebhookRepository, deliveries: DeliveryRepository) => new ListDeliveries(webhooks, deliveries),
    [WebhookRepository, DeliveryRepository],
  );
  c.bind(Redeliver).toResolvedValue((uow: UnitOfWork, ids: IdGenerator, clock: Clock) => new Redeliver(uow, ids, clock), [UnitOfWork, IdGenerator, Clock]);
  c.bind(DispatchEvents).toResolvedValue((uow: UnitOfWork, ids: IdGenerator, clock: Clock) => new DispatchEvents(uow, ids, clock), [UnitOfWork, IdGenerator, Clock]);
  c.bind(DeliverDue).toResolvedValue(
    (uow: UnitOfWork, webhooks: WebhookRepository, sender: WebhookSender, clock: Clock, random: Random, metrics: Metrics) =>
      new DeliverDue(uow, webhooks, sender, clock, random, { retry, leaseMs: config.webhooks.timeoutMs + 5_000, attemptTimeoutMs: config.webhooks.timeoutMs, lanes: DELIVERY_LANES, perRun: DELIVERIES_PER_RUN, runsPerLane: DELIVERY_RUNS_PER_LANE }, metrics),
    [UnitOfWork, WebhookRepository, WebhookSender, Clock, Random, Metrics],
  );
  c.bind(WebhookWorker).toResolvedValue(
    (dispatch: DispatchEvents, deliver: DeliverDue, signal: WorkSignal, log: Logger, reminders: SendTrialReminders) =>
      new WebhookWorker(dispatch, deliver, signal, log, {
        pollMs: config.webhooks.pollMs,
        dispatchBatch: 100,
        chores: [{ name: 'trial reminders', everyMs: config.plans.reminderIntervalMs, run: () => reminders.execute() }],
      }),
    [DispatchEvents, DeliverDue, WorkSignal, LoggerToken, SendTrialReminders],
  );
}
