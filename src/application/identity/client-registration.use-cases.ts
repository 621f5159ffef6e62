import { readClientMetadata, type ClientMetadata, type MetadataError } from '../../domain/identity/client-metadata.js';
import { OAuthClient, type ClientRegistration, type OAuthClientError, type OAuthClientId } from '../../domain/identity/oauth-client.js';
import { scopeClaims } from '../../domain/identity/oauth-scope.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { OAuthClientRepository } from '../ports/identity-repositories.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';
import type { IdentitySettings } from './identity-settings.js';

/** `CLIENT_REGISTRATION`: who may register clients at `registration_endpoint`. */
export type RegistrationMode = 'off' | 'token' | 'open';

/** An initial access token lives this long (and serves one registration). */
export const INITIAL_ACCESS_TOKEN_TTL_MS = 24 * 3600_000;

/** The operator's `specbase client registration-token`: an initial access token, shown once. */
export class IssueInitialAccessToken {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ readonly token: string; readonly expiresDate: Date }> {
    const secret = this.generator.secret('sbit_');
    const now = this.clock.now();
    const expirationDate = new Date(now.getTime() + INITIAL_ACCESS_TOKEN_TTL_MS);
    await this.uow.run(async (tx) => ok(await tx.initialAccessTokens.add({ tokenHash: secret.hash, creationDate: now, expirationDate })));
    return { token: secret.token, expiresDate: expirationDate };
  }
}

/** A registered client and the secrets shown once at registration. */
export interface Registered {
  readonly client: OAuthClient;
  readonly clientSecret: string | null;
  readonly registrationAccessToken: string | null;
}

export type RegistrationError = { readonly kind: 'Off' } | { readonly kind: 'InvalidToken' } | ({ readonly kind: 'InvalidMetadata' } & MetadataError);

const metadataError = (error: MetadataError): RegistrationError => ({ kind: 'InvalidMetadata', ...error });
const clientError = (error: OAuthClientError): RegistrationError =>
  metadataError({ error: error.field === 'redirectUri' ? 'invalid_redirect_uri' : 'invalid_client_metadata', description: `${{ redirectUri: 'redirect_uris', postLogoutRedirectUri: 'post_logout_redirect_uris', name: 'client_name' }[error.field] ?? error.field}: ${error.message}` });

function registrationOf(metadata: ClientMetadata): Omit<ClientRegistration, 'accessTokenHash'> {
  return { tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod, grantTypes: metadata.grantTypes, responseTypes: metadata.responseTypes, scope: metadata.scope };
}

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592). Off unless the operator
 * allows it: with `token`, each registration spends an initial access token of theirs; with
 * `open`, anyone may register. Each client gets a registration access token to read, change and
 * delete itself, and nothing else; the operator's clients have none. A client deleted this way
 * loses its tokens at once, as with the operator's delete.
 */
export class ClientRegistrations {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clients: OAuthClientRepository,
    private readonly ids: IdGenerator,
    private readonly generator: TokenGenerator,
    private readonly settings: IdentitySettings,
    private readonly mode: RegistrationMode,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.mode !== 'off';
  }

  async register(initialToken: string | undefined, body: unknown): Promise<Result<Registered, RegistrationError>> {
    if (this.mode === 'off') return err({ kind: 'Off' });
    if (this.mode === 'token' && (initialToken === undefined || initialToken.length > 200)) return err({ kind: 'InvalidToken' });
    const metadata = readClientMetadata(body, scopeClaims(this.settings.scopeBase));
    if (!metadata.ok) return err(metadataError(metadata.error));
    const isPublic = metadata.value.tokenEndpointAuthMethod === 'none';
    const secret = isPublic ? null : this.generator.secret('sbcs_');
    const management = this.generator.secret('sbrat_');
    const now = this.clock.now();
    const created = OAuthClient.create(
      {
        id: `${this.ids.next()}.apps.specbase`,
        name: metadata.value.name,
        secretHash: secret?.hash ?? null,
        redirectUris: metadata.value.redirectUris,
        postLogoutRedirectUris: metadata.value.postLogoutRedirectUris,
        registration: { ...registrationOf(metadata.value), accessTokenHash: management.hash },
        // The operator's initial access token vouches for whoever registers with it; open registration vouches for nobody.
        redirectUrisVerified: this.mode === 'token',
      },
      now,
    );
    if (!created.ok) return err(clientError(created.error));
    const client = created.value;
    const stored = await this.uow.run(async (tx): Promise<Result<void, RegistrationError>> => {
      // The initial access token is spent in the same transaction as the client is stored: one token, one client.
      if (this.mode === 'token' && !(await tx.initialAccessTokens.consume(this.generator.hash(initialToken!), now))) return err({ kind: 'InvalidToken' });
      await tx.oauthClients.add(client);
      return ok();
    });
    return stored.ok ? ok({ client, clientSecret: secret?.token ?? null, registrationAccessToken: management.token }) : stored;
  }

  /** RFC 7592 2.1: the client as registered, for the holder of its registration access token. */
  async read(clientId: OAuthClientId, accessToken: string | undefined): Promise<Result<OAuthClient, RegistrationError>> {
    if (this.mode === 'off') return err({ kind: 'Off' });
    const client = await this.authenticated(this.clients, clientId, accessToken);
    return client ? ok(client) : err({ kind: 'InvalidToken' });
  }

  /** RFC 7592 2.2: replaces its metadata; the body names the client, and cannot turn a public client confidential or back. */
  async update(clientId: OAuthClientId, accessToken: string | undefined, body: unknown): Promise<Result<OAuthClient, RegistrationError>> {
    if (this.mode === 'off') return err({ kind: 'Off' });
    return this.uow.run(async (tx): Promise<Result<OAuthClient, RegistrationError>> => {
      const client = await this.authenticated(tx.oauthClients, clientId, accessToken);
      if (!client) return err({ kind: 'InvalidToken' });
      if ((body as Record<string, unknown> | null)?.['client_id'] !== clientId) return err(metadataError({ error: 'invalid_client_metadata', description: 'client_id must be the id of this client.' }));
      const metadata = readClientMetadata(body, scopeClaims(this.settings.scopeBase));
      if (!metadata.ok) return err(metadataError(metadata.error));
      if ((metadata.value.tokenEndpointAuthMethod === 'none') !== client.isPublic) {
        return err(metadataError({ error: 'invalid_client_metadata', description: 'token_endpoint_auth_method cannot change between none and a secret: register a new client.' }));
      }
      const updated = client.reregister(
        { name: metadata.value.name, redirectUris: metadata.value.redirectUris, postLogoutRedirectUris: metadata.value.postLogoutRedirectUris },
        registrationOf(metadata.value),
      );
      if (!updated.ok) return err(clientError(updated.error));
      await tx.oauthClients.save(updated.value);
      return ok(updated.value);
    });
  }

  /** RFC 7592 2.3: deletes it; every token it holds stops working at once. */
  async delete(clientId: OAuthClientId, accessToken: string | undefined): Promise<Result<void, RegistrationError>> {
    if (this.mode === 'off') return err({ kind: 'Off' });
    return this.uow.run(async (tx: Transaction): Promise<Result<void, RegistrationError>> => {
      const client = await this.authenticated(tx.oauthClients, clientId, accessToken);
      if (!client) return err({ kind: 'InvalidToken' });
      // Its grants and their tokens go with it (the repository's delete).
      await tx.oauthClients.delete(clientId);
      return ok();
    });
  }

  /** The client, if `accessToken` is its registration access token (RFC 7592 3: anything else is 401, an unknown client too). */
  private async authenticated(clients: OAuthClientRepository, clientId: OAuthClientId, accessToken: string | undefined): Promise<OAuthClient | undefined> {
    if (accessToken === undefined || accessToken.length > 200 || clientId.length > 2000) return undefined;
    const client = await clients.get(clientId);
    const hash = client?.registration?.accessTokenHash;
    return hash !== undefined && this.generator.matches(accessToken, hash) ? client : undefined;
  }
}
