import { OAuthClient, type OAuthClientChanges, type OAuthClientId } from '../../domain/identity/oauth-client.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { OAuthClientRepository } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { invalid, notFound, type ApplicationError } from '../shared/application-error.js';

/** A client as the operator's `specbase client list` shows it: never a secret or its hash. */
export interface OAuthClientRecord {
  readonly clientId: OAuthClientId;
  readonly name: string;
  readonly public: boolean;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly creationDate: Date;
}

export function clientRecord(client: OAuthClient): OAuthClientRecord {
  const state = client.snapshot();
  return { clientId: state.id, name: state.name, public: client.isPublic, redirectUris: state.redirectUris, postLogoutRedirectUris: state.postLogoutRedirectUris, creationDate: state.creationDate };
}

/** Registers an OAuth client (the operator's `specbase client create`): the secret is shown once and stored as a hash. */
export class RegisterOAuthClient {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    readonly name: string;
    readonly redirectUris: readonly string[];
    readonly postLogoutRedirectUris?: readonly string[];
    readonly public: boolean;
  }): Promise<Result<{ readonly clientId: string; readonly clientSecret: string | null }, ApplicationError>> {
    const secret = input.public ? null : this.generator.secret('sbcs_');
    const created = OAuthClient.create(
      { id: `${this.ids.next()}.apps.specbase`, name: input.name, redirectUris: input.redirectUris, postLogoutRedirectUris: input.postLogoutRedirectUris ?? [], secretHash: secret?.hash ?? null },
      this.clock.now(),
    );
    if (!created.ok) return err(invalid({ field: created.error.field, message: created.error.message }));
    await this.uow.run(async (tx) => ok(await tx.oauthClients.add(created.value)));
    return ok({ clientId: created.value.id, clientSecret: secret?.token ?? null });
  }
}

/** Every registered client, oldest first (`specbase client list`). */
export class ListOAuthClients {
  constructor(private readonly clients: OAuthClientRepository) {}

  async execute(): Promise<OAuthClientRecord[]> {
    return (await this.clients.list()).map(clientRecord);
  }
}

/** Changes a client's name, redirect URIs or post-logout redirect URIs (`specbase client update`); what is left out stays. */
export class UpdateOAuthClient {
  constructor(private readonly uow: UnitOfWork) {}

  async execute(clientId: OAuthClientId, changes: OAuthClientChanges): Promise<Result<OAuthClientRecord, ApplicationError>> {
    return this.uow.run(async (tx): Promise<Result<OAuthClientRecord, ApplicationError>> => {
      const client = await tx.oauthClients.get(clientId);
      if (!client) return err(notFound('client'));
      const updated = client.update(changes);
      if (!updated.ok) return err(invalid({ field: updated.error.field, message: updated.error.message }));
      await tx.oauthClients.save(updated.value);
      return ok(clientRecord(updated.value));
    });
  }
}

/**
 * Deletes a client (`specbase client delete`): its grants, codes, refresh tokens, device codes and
 * consents go with it (the repository's delete), so every access, refresh and ID token it holds is
 * refused from the next request, and its credentials authenticate nothing.
 */
export class DeleteOAuthClient {
  constructor(private readonly uow: UnitOfWork) {}

  async execute(clientId: OAuthClientId): Promise<Result<{ readonly clientId: OAuthClientId; readonly deleted: true }, ApplicationError>> {
    return this.uow.run(async (tx): Promise<Result<{ readonly clientId: OAuthClientId; readonly deleted: true }, ApplicationError>> => {
      if (!(await tx.oauthClients.delete(clientId))) return err(notFound('client'));
      return ok({ clientId, deleted: true });
    });
  }
}

/**
 * A new secret for a confidential client (`specbase client rotate-secret`), shown once; the old one
 * keeps working for `overlapSeconds` (default 0: not at all), long enough to deploy the new one.
 */
export class RotateOAuthClientSecret {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(clientId: OAuthClientId, overlapSeconds = 0): Promise<Result<{ readonly clientId: OAuthClientId; readonly clientSecret: string }, ApplicationError>> {
    if (!Number.isSafeInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > 30 * 24 * 3600) {
      return err(invalid({ field: 'overlapSeconds', message: 'must be a whole number of seconds from 0 to 2592000 (30 days)' }));
    }
    const secret = this.generator.secret('sbcs_');
    return this.uow.run(async (tx): Promise<Result<{ readonly clientId: OAuthClientId; readonly clientSecret: string }, ApplicationError>> => {
      const client = await tx.oauthClients.get(clientId);
      if (!client) return err(notFound('client'));
      const rotated = client.rotateSecret(secret.hash, overlapSeconds * 1000, this.clock.now());
      if (!rotated.ok) return err(invalid({ field: 'id', message: 'is a public client: it has no secret to rotate' }));
      await tx.oauthClients.save(rotated.value);
      return ok({ clientId, clientSecret: secret.token });
    });
  }
}
