import type { OAuthClientId } from '../../domain/identity/oauth-client.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { authorizeScope, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { ConsentRepository, OAuthClientRepository } from '../ports/identity-repositories.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

/** An application the user allowed (a consent), as the User-API lists it. */
export interface ConnectedApp {
  readonly clientId: OAuthClientId;
  readonly clientName: string;
  /** The scope names allowed, in the order they were first allowed. */
  readonly scopes: readonly string[];
  readonly creationDate: Date;
  readonly lastUseDate: Date | null;
}

/** The caller's connected applications (scope profile.readonly), oldest first. */
export class ListConnectedApps {
  constructor(
    private readonly consents: ConsentRepository,
    private readonly clients: OAuthClientRepository,
  ) {}

  async execute(principal: Principal): Promise<Result<ConnectedApp[], ApplicationError>> {
    const allowed = authorizeScope(principal, 'profile', 'read');
    if (!allowed.ok) return allowed;
    const apps: ConnectedApp[] = [];
    for (const consent of await this.consents.listOfUser(principal.userId)) {
      const client = await this.clients.get(consent.clientId);
      // A consent outlives its client only between a delete and its cascade: nothing to show.
      if (!client) continue;
      apps.push({ clientId: client.id, clientName: client.name, scopes: consent.scope.split(' '), creationDate: consent.creationDate, lastUseDate: consent.lastUseDate });
    }
    return ok(apps);
  }
}

/**
 * Withdraws the caller's consent to an application (scope profile): every grant of that client for
 * the user is revoked in the same transaction, so its access, refresh and ID tokens stop working at
 * once, and the next authorization asks for consent again.
 */
export class WithdrawConnectedApp {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, clientId: OAuthClientId): Promise<Result<void, ApplicationError>> {
    const allowed = authorizeScope(principal, 'profile', 'write');
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      if (!(await tx.consents.delete(clientId, principal.userId))) return err(notFound('connected application'));
      await tx.grants.revokeAllOfClient(clientId, this.clock.now(), principal.userId);
      return ok();
    });
  }
}
