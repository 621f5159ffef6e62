import type { Result } from '../../domain/shared/result.js';
import { token } from '../shared/token.js';
import type { AccountRepository } from './account-repository.port.js';
import type { ApiRepository } from './api-repository.port.js';
import type { ApiTokenRepository } from './api-token-repository.port.js';
import type { EventOutbox } from './event-outbox.port.js';
import type { ReleaseRepository } from './release-repository.port.js';
import type { SpecRepository } from './spec-repository.port.js';
import type { SpecRevisionRepository } from './spec-revision-repository.port.js';
import type { UserRepository } from './user-repository.port.js';
import type { DeliveryRepository } from './delivery-repository.port.js';
import type { WebhookRepository } from './webhook-repository.port.js';
import type { PageRepository } from './page-repository.port.js';
import type { ShareRepository } from './share-repository.port.js';
import type { EmailVerificationRepository } from './email-verification-repository.port.js';
import type {
  AuthorizationCodeRepository,
  ConsentRepository,
  DeviceAuthorizationRepository,
  InitialAccessTokenRepository,
  GrantRepository,
  OAuthClientRepository,
  RefreshTokenRepository,
  SessionRepository,
  SigningKeyRepository,
} from './identity-repositories.port.js';

/** Repositories bound to one transaction. */
export interface Transaction {
  readonly accounts: AccountRepository;
  readonly users: UserRepository;
  readonly tokens: ApiTokenRepository;
  readonly apis: ApiRepository;
  readonly specs: SpecRepository;
  readonly revisions: SpecRevisionRepository;
  readonly releases: ReleaseRepository;
  readonly outbox: EventOutbox;
  readonly webhooks: WebhookRepository;
  readonly deliveries: DeliveryRepository;
  readonly pages: PageRepository;
  readonly shares: ShareRepository;
  readonly verifications: EmailVerificationRepository;
  readonly oauthClients: OAuthClientRepository;
  readonly grants: GrantRepository;
  readonly codes: AuthorizationCodeRepository;
  readonly refreshTokens: RefreshTokenRepository;
  readonly sessions: SessionRepository;
  readonly consents: ConsentRepository;
  readonly deviceAuthorizations: DeviceAuthorizationRepository;
  readonly initialAccessTokens: InitialAccessTokenRepository;
  readonly signingKeys: SigningKeyRepository;
}

export interface UnitOfWork {
  /**
   * Runs `work` in one transaction: committed when it returns an `ok` result, rolled back when it
   * returns an error result or throws (the throw is passed on). Inside `work`, use only `tx`.
   */
  run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>>;
}
export const UnitOfWork = token<UnitOfWork>('UnitOfWork');

/**
 * The store did not answer (a database restarting, stopped, unreachable, out of connections): not
 * the request's fault and not a bug. Adapters throw it for connection-level failures, so callers
 * can answer "try again later" (HTTP 503) instead of an internal error; the write it interrupted
 * was not committed, or its commit was not confirmed.
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}
