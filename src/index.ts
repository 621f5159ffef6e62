/**
 * Specbase as a library: build the container (rebind any port), get the Koa app, or start the
 * bundled server. The domain and application layers are exported for embedders and their tests.
 */
export { loadConfig, ConfigError, type Config } from './main/config.js';
export { buildContainer, ConfigToken, LoggerToken, StorageToken, type Storage, type ContainerOptions } from './main/container.js';
export { createApp, startServer, type RunningServer, type StartOptions } from './main/server.js';
export { Readiness } from './main/readiness.js';

export * from './domain/shared/result.js';
export * from './domain/account/account.js';
export * from './domain/api/api.aggregate.js';
export * from './domain/token/scope.js';
export * from './domain/token/api-token.aggregate.js';
export * from './domain/user/user.aggregate.js';
export * from './domain/user/password-policy.js';
export * from './domain/events/domain-event.js';

// Every port (interface, token of the same name, and the types it speaks), to rebind any of them.
export * from './application/ports/account-repository.port.js';
export * from './application/ports/api-repository.port.js';
export * from './application/ports/api-token-repository.port.js';
export * from './application/ports/clock.port.js';
export * from './application/ports/delivery-repository.port.js';
export * from './application/ports/email-verification-repository.port.js';
export * from './application/ports/event-outbox.port.js';
export * from './application/ports/id-generator.port.js';
export * from './application/ports/identity-repositories.port.js';
export * from './application/ports/mailer.port.js';
export * from './application/ports/metrics.port.js';
export * from './application/ports/page-repository.port.js';
export * from './application/ports/password-hasher.port.js';
export * from './application/ports/random.port.js';
export * from './application/ports/rate-limiter.port.js';
export * from './application/ports/release-repository.port.js';
export * from './application/ports/share-repository.port.js';
export * from './application/ports/spec-codec.port.js';
export * from './application/ports/spec-repository.port.js';
export * from './application/ports/token-generator.port.js';
export * from './application/ports/token-signer.port.js';
export * from './application/ports/unit-of-work.port.js';
export * from './application/ports/user-repository.port.js';
export * from './application/ports/webhook-repository.port.js';
export * from './application/ports/webhook-sender.port.js';

export type { ApplicationError } from './application/shared/application-error.js';
export type { Principal } from './application/auth/principal.js';
export { AuthenticateToken } from './application/auth/authenticate-token.use-case.js';
export { CreateApi } from './application/apis/create-api.use-case.js';
export { ListApis } from './application/apis/list-apis.use-case.js';
export { GetApi } from './application/apis/get-api.use-case.js';
export { UpdateApi } from './application/apis/update-api.use-case.js';
export { DeleteApi } from './application/apis/delete-api.use-case.js';
export { RegisterUser } from './application/users/register-user.use-case.js';
export { VerifyEmail } from './application/users/verify-email.use-case.js';
export { CreateApiToken } from './application/tokens/create-api-token.use-case.js';
export { BootstrapDemo } from './application/bootstrap/bootstrap-demo.use-case.js';
export * from './domain/release/release.aggregate.js';
export * from './domain/spec/spec-document.js';
export * from './domain/spec/derived-resources.js';
export { ImportApi, type ImportApiInput, type SpecResult } from './application/specs/import-api.use-case.js';
export { ReplaceSpec, type ReplaceSpecInput } from './application/specs/replace-spec.use-case.js';
export { ExportSpec, type ExportedSpec } from './application/specs/export-spec.use-case.js';
export { ListDerived } from './application/specs/list-derived.use-case.js';
export { CreateRelease } from './application/releases/create-release.use-case.js';
export { ListReleases } from './application/releases/list-releases.use-case.js';
export { GetRelease } from './application/releases/get-release.use-case.js';
export { ChangeReleaseStatus, type ReleaseTransition } from './application/releases/change-release-status.use-case.js';
export { DeleteRelease } from './application/releases/delete-release.use-case.js';
export { WebhookWorker, WorkSignal, type WorkerOptions } from './main/webhook-worker.js';
export * from './domain/webhook/webhook.aggregate.js';
export * from './domain/webhook/delivery.aggregate.js';
export * from './domain/webhook/retry-policy.js';
export { DispatchEvents } from './application/webhooks/dispatch-events.service.js';
export { DeliverDue, type DeliverySettings } from './application/webhooks/deliver-due.service.js';
export type { Page, PageRequest } from './application/shared/page.js';
export { ApiAccess, type AccountAccess } from './application/auth/api-access.js';
export { AuthenticatePassword } from './application/auth/authenticate-password.use-case.js';
export { ListApiTokens, RevokeApiToken, type ApiTokenListItem } from './application/tokens/manage-api-tokens.use-cases.js';
export { GetProfile, UpdateProfile, ChangePassword } from './application/users/profile.use-cases.js';
export { RequestEmailVerification, ConfirmEmailVerification, type VerificationSent } from './application/users/email-verification.use-cases.js';
export { ListPages, GetPage, CreatePage, UpdatePage, DeletePage } from './application/pages/pages.use-cases.js';
export { ListShares, GetShare, CreateShare, UpdateShare, DeleteShare } from './application/shares/shares.use-cases.js';
export { CreateWebhook, ListWebhooks, GetWebhook, UpdateWebhook, DeleteWebhook, SetWebhookActive, type CreatedWebhook } from './application/webhooks/webhook-management.use-cases.js';
export { ListDeliveries, PingWebhook, Redeliver } from './application/webhooks/deliveries.use-cases.js';
export { RegisterOAuthClient } from './application/identity/clients.use-cases.js';
export { SigningKeys } from './application/identity/signing-keys.js';
export { OperationalFigures, type Figures } from './application/monitoring/operational-figures.service.js';
