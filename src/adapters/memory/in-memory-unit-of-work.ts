import type { IdentityPurge } from '../../application/ports/identity-repositories.port.js';
import { InMemoryIdentityPurge } from './in-memory-identity-purge.js';
import type { RetentionPurge } from '../../application/ports/retention-purge.port.js';
import { InMemoryRetentionPurge } from './in-memory-retention-purge.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { Transaction, UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { Result } from '../../domain/shared/result.js';
import { Mutex } from '../shared/mutex.js';
import { InMemoryState, type StateSource } from './in-memory-state.js';
import { InMemoryAccountRepository } from './in-memory-account.repository.js';
import { InMemoryApiRepository } from './in-memory-api.repository.js';
import { InMemoryApiTokenRepository } from './in-memory-api-token.repository.js';
import { InMemoryEventOutbox } from './in-memory-event-outbox.js';
import { InMemoryReleaseRepository, InMemorySpecRepository } from './in-memory-spec.repositories.js';
import { InMemorySpecRevisionRepository } from './in-memory-spec-revision.repository.js';
import { InMemoryUserRepository } from './in-memory-user.repository.js';
import { InMemoryWebhookRepository, InMemoryDeliveryRepository } from './in-memory-webhook.repositories.js';
import { InMemoryPageRepository } from './in-memory-page.repository.js';
import { InMemoryShareRepository } from './in-memory-share.repository.js';
import { InMemoryEmailVerificationRepository } from './in-memory-email-verification.repository.js';
import {
  InMemoryAuthorizationCodeRepository,
  InMemoryConsentRepository,
  InMemoryDeviceAuthorizationRepository,
  InMemoryInitialAccessTokenRepository,
  InMemoryGrantRepository,
  InMemoryOAuthClientRepository,
  InMemoryRefreshTokenRepository,
  InMemorySessionRepository,
  InMemorySigningKeyRepository,
} from './in-memory-identity.repositories.js';

export function inMemoryRepositories(state: StateSource, ids: IdGenerator): Transaction {
  return {
    accounts: new InMemoryAccountRepository(state),
    users: new InMemoryUserRepository(state),
    tokens: new InMemoryApiTokenRepository(state),
    apis: new InMemoryApiRepository(state),
    specs: new InMemorySpecRepository(state),
    revisions: new InMemorySpecRevisionRepository(state),
    releases: new InMemoryReleaseRepository(state),
    outbox: new InMemoryEventOutbox(state, ids),
    webhooks: new InMemoryWebhookRepository(state),
    deliveries: new InMemoryDeliveryRepository(state),
    pages: new InMemoryPageRepository(state),
    shares: new InMemoryShareRepository(state),
    verifications: new InMemoryEmailVerificationRepository(state),
    oauthClients: new InMemoryOAuthClientRepository(state),
    grants: new InMemoryGrantRepository(state),
    codes: new InMemoryAuthorizationCodeRepository(state),
    refreshTokens: new InMemoryRefreshTokenRepository(state),
    sessions: new InMemorySessionRepository(state),
    consents: new InMemoryConsentRepository(state),
    deviceAuthorizations: new InMemoryDeviceAuthorizationRepository(state),
    initialAccessTokens: new InMemoryInitialAccessTokenRepository(state),
    signingKeys: new InMemorySigningKeyRepository(state),
  };
}

/**
 * The whole in-memory database: repositories over the committed state, and a unit of work whose
 * transactions run one at a time on a copy that replaces the committed state only on success.
 */
export class InMemoryDatabase implements UnitOfWork {
  private committed = new InMemoryState();
  private readonly lock = new Mutex();
  readonly repositories: Transaction;
  readonly identityPurge: IdentityPurge;
  readonly retentionPurge: RetentionPurge;

  /** @param onWork called after a commit that stored outbox events or deliveries. */
  constructor(
    private readonly ids: IdGenerator,
    private readonly onWork: () => void = () => undefined,
  ) {
    this.repositories = inMemoryRepositories(() => this.committed, ids);
    const purge = new InMemoryIdentityPurge(() => this.committed);
    // Under the lock, as a statement of the database would be: a transaction's copy must not bring purged rows back.
    this.identityPurge = {
      purge: (cutoffs, batchSize) => this.lock.run(() => purge.purge(cutoffs, batchSize)),
      counts: () => purge.counts(),
    };
    const retention = new InMemoryRetentionPurge(() => this.committed);
    this.retentionPurge = {
      purge: (cutoffs) => this.lock.run(() => retention.purge(cutoffs)),
      counts: () => retention.counts(),
    };
  }

  run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    return this.lock.run(async () => {
      const copy = this.committed.clone();
      const before = copy.outbox.length + copy.deliveries.size;
      const result = await work(inMemoryRepositories(() => copy, this.ids));
      if (result.ok) {
        this.committed = copy;
        if (copy.outbox.length + copy.deliveries.size > before) this.onWork();
      }
      return result;
    });
  }
}
