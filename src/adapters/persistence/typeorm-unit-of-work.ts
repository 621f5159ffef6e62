import type { EntityManager } from 'typeorm';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { Transaction, UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { Result } from '../../domain/shared/result.js';
import type { ReadCache } from './read-cache.js';
import { CachedApiRepository, CachedGrantRepository, CachedOAuthClientRepository, CachedUserRepository } from './cached-repositories.js';
import type { Run, TypeOrmDatabase } from './typeorm-database.js';
import { TypeOrmSpecRevisionRepository } from './typeorm-spec-revision.repository.js';
import { TypeOrmAccountRepository } from './typeorm-account.repository.js';
import { TypeOrmApiRepository } from './typeorm-api.repository.js';
import { TypeOrmApiTokenRepository } from './typeorm-api-token.repository.js';
import { TypeOrmEventOutbox } from './typeorm-event-outbox.js';
import { TypeOrmUserRepository } from './typeorm-user.repository.js';
import { TypeOrmReleaseRepository, TypeOrmSpecRepository } from './typeorm-spec.repositories.js';
import { TypeOrmDeliveryRepository, TypeOrmWebhookRepository } from './typeorm-webhook.repositories.js';
import { TypeOrmPageRepository } from './typeorm-page.repository.js';
import { TypeOrmShareRepository } from './typeorm-share.repository.js';
import { TypeOrmEmailVerificationRepository } from './typeorm-email-verification.repository.js';
import {
  TypeOrmAuthorizationCodeRepository,
  TypeOrmConsentRepository,
  TypeOrmDeviceAuthorizationRepository,
  TypeOrmInitialAccessTokenRepository,
  TypeOrmGrantRepository,
  TypeOrmOAuthClientRepository,
  TypeOrmRefreshTokenRepository,
  TypeOrmSessionRepository,
  TypeOrmSigningKeyRepository,
} from './typeorm-identity.repositories.js';

/** Set when a transaction writes something the webhook worker should look at. */
export interface WorkMarker {
  value: boolean;
}

/**
 * The repositories over `run`. `readCache`: only for the ones outside transactions (see
 * ReadCache); a transaction must read what it is about to change.
 */
export function typeOrmRepositories(db: TypeOrmDatabase, run: Run, ids: IdGenerator, work: WorkMarker = { value: false }, readCache?: ReadCache): Transaction {
  const cached = <R>(repository: R, Decorator: new (inner: R, cache: ReadCache) => R): R => (readCache === undefined ? repository : new Decorator(repository, readCache));
  return {
    accounts: new TypeOrmAccountRepository(run, db.schemas, db.dialect),
    users: cached(new TypeOrmUserRepository(run, db.schemas), CachedUserRepository),
    tokens: new TypeOrmApiTokenRepository(run, db.schemas, db.dialect),
    apis: cached(new TypeOrmApiRepository(run, db.schemas, db.dialect), CachedApiRepository),
    specs: new TypeOrmSpecRepository(run, db.schemas, db.dialect),
    revisions: new TypeOrmSpecRevisionRepository(run, db.schemas, db.dialect),
    releases: new TypeOrmReleaseRepository(run, db.schemas, db.dialect),
    outbox: new TypeOrmEventOutbox(run, db.schemas, ids, db.dialect, work),
    webhooks: new TypeOrmWebhookRepository(run, db.schemas, db.dialect, db.secrets),
    deliveries: new TypeOrmDeliveryRepository(run, db.schemas, db.dialect, work),
    pages: new TypeOrmPageRepository(run, db.schemas),
    shares: new TypeOrmShareRepository(run, db.schemas),
    verifications: new TypeOrmEmailVerificationRepository(run, db.schemas),
    oauthClients: cached(new TypeOrmOAuthClientRepository(run, db.schemas), CachedOAuthClientRepository),
    grants: cached(new TypeOrmGrantRepository(run, db.schemas), CachedGrantRepository),
    codes: new TypeOrmAuthorizationCodeRepository(run, db.schemas),
    refreshTokens: new TypeOrmRefreshTokenRepository(run, db.schemas),
    sessions: new TypeOrmSessionRepository(run, db.schemas),
    consents: new TypeOrmConsentRepository(run, db.schemas),
    deviceAuthorizations: new TypeOrmDeviceAuthorizationRepository(run, db.schemas),
    initialAccessTokens: new TypeOrmInitialAccessTokenRepository(run, db.schemas),
    signingKeys: new TypeOrmSigningKeyRepository(run, db.schemas, db.secrets),
  };
}

/** Signals a rollback for an error result; never escapes `run`. */
class Rollback extends Error {}

export class TypeOrmUnitOfWork implements UnitOfWork {
  /**
   * @param onWork called after a commit that stored outbox events or deliveries, so an in-process
   *   webhook worker starts at once instead of at its next poll.
   */
  constructor(
    private readonly db: TypeOrmDatabase,
    private readonly ids: IdGenerator,
    private readonly onWork: () => void = () => undefined,
  ) {}

  async run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    let result: Result<T, E> | undefined;
    const marker: WorkMarker = { value: false };
    try {
      await this.db.transaction(async (manager: EntityManager) => {
        const inTransaction: Run = (w) => w(manager);
        result = await work(typeOrmRepositories(this.db, inTransaction, this.ids, marker));
        if (!result.ok) throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    if (result?.ok && marker.value) this.onWork();
    return result as Result<T, E>;
  }
}
