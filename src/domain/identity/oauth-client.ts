import { err, ok, type Result } from '../shared/result.js';
import type { FieldError } from '../shared/field-error.js';

export type OAuthClientId = string;

export interface OAuthClientState {
  readonly id: OAuthClientId;
  readonly name: string;
  /** Hash of the client secret; null for a public client (a browser or native app that cannot keep one). */
  readonly secretHash: string | null;
  /** Compared as exact strings (RFC 9700 2.1): no prefixes, no wildcards, no normalisation. */
  readonly redirectUris: readonly string[];
  /** Where sign-out may send the browser back to (OpenID Connect RP-Initiated Logout), compared exactly too. */
  readonly postLogoutRedirectUris: readonly string[];
  /** The secret before the last rotation, accepted until `previousSecretExpirationDate` (the overlap). */
  readonly previousSecretHash: string | null;
  readonly previousSecretExpirationDate: Date | null;
  /** What the client registered itself with (RFC 7591); null for the operator's clients, which may use every grant. */
  readonly registration: ClientRegistration | null;
  /**
   * Whether someone the operator answers for chose the redirect URIs: true for the operator's own
   * clients and for those registered with an initial access token, false for open registration
   * (anyone). Fixed at creation: changing the URIs later keeps it. RFC 9700 4.11.2 asks not to send
   * a browser to an unverified URI before its user has been asked.
   */
  readonly redirectUrisVerified: boolean;
  readonly creationDate: Date;
}

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';
export type GrantType = 'authorization_code' | 'refresh_token' | 'implicit' | 'urn:ietf:params:oauth:grant-type:device_code';
export type ResponseType = 'code' | 'token';

/** A dynamically registered client's metadata, honoured by the endpoints, and its management credential. */
export interface ClientRegistration {
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly grantTypes: readonly GrantType[];
  readonly responseTypes: readonly ResponseType[];
  /** The scope names it may ask for; null: any. */
  readonly scope: string | null;
  /** Hash of its registration access token (RFC 7592), for reading, changing and deleting itself. */
  readonly accessTokenHash: string;
}

/** What an operator (or the client itself, through registration management) may change. */
export interface OAuthClientChanges {
  readonly name?: string;
  readonly redirectUris?: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
}

export type OAuthClientError = { readonly kind: 'InvalidField' } & FieldError;

/** An absolute URI without a fragment (RFC 6749 3.1.2); http only for loopback, as for native apps (RFC 8252 7.3). */
function checkRedirectUri(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (uri.length > 2000) return 'must be at most 2000 characters';
  // Any '#' starts a fragment, an empty one too (which `url.hash` shows as '').
  if (uri.includes('#')) return 'must not have a fragment';
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') return `must not use ${url.protocol}`;
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return 'must use https (http only for loopback)';
  return null;
}

const MAX_URIS = 20;
const invalid = (field: string, message: string) => err({ kind: 'InvalidField' as const, field, message });

/** The fields `create` and `update` check alike. */
function checkChanges(changes: OAuthClientChanges): Result<void, OAuthClientError> {
  if (changes.name !== undefined && (changes.name.trim() === '' || changes.name.length > 100)) return invalid('name', 'must be 1-100 characters');
  if (changes.redirectUris !== undefined && changes.redirectUris.length === 0) return invalid('redirectUri', 'at least one is required');
  for (const [field, uris] of [['redirectUri', changes.redirectUris ?? []], ['postLogoutRedirectUri', changes.postLogoutRedirectUris ?? []]] as const) {
    if (uris.length > MAX_URIS) return invalid(field, `at most ${MAX_URIS}`);
    for (const uri of uris) {
      const problem = checkRedirectUri(uri);
      if (problem) return invalid(field, `${uri}: ${problem}`);
    }
  }
  return ok();
}

/** A client application: registered by the operator, or by itself when dynamic registration is allowed. */
export class OAuthClient {
  private constructor(private readonly state: OAuthClientState) {}

  static create(
    input: {
      readonly id: OAuthClientId;
      readonly name: string;
      readonly secretHash: string | null;
      readonly redirectUris: readonly string[];
      readonly postLogoutRedirectUris?: readonly string[];
      readonly registration?: ClientRegistration;
      /** Default: true for the operator's clients (no `registration`), false for a registered one. */
      readonly redirectUrisVerified?: boolean;
    },
    now: Date,
  ): Result<OAuthClient, OAuthClientError> {
    const checked = checkChanges({ ...input, redirectUris: input.redirectUris });
    if (!checked.ok) return checked;
    return ok(
      new OAuthClient({
        id: input.id,
        name: input.name,
        secretHash: input.secretHash,
        redirectUris: [...new Set(input.redirectUris)],
        postLogoutRedirectUris: [...new Set(input.postLogoutRedirectUris ?? [])],
        previousSecretHash: null,
        previousSecretExpirationDate: null,
        registration: input.registration ?? null,
        redirectUrisVerified: input.redirectUrisVerified ?? input.registration === undefined,
        creationDate: now,
      }),
    );
  }

  /** The client with `changes` applied; fields left out stay as they are. */
  update(changes: OAuthClientChanges): Result<OAuthClient, OAuthClientError> {
    const checked = checkChanges(changes);
    if (!checked.ok) return checked;
    return ok(
      new OAuthClient({
        ...this.state,
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.redirectUris !== undefined ? { redirectUris: [...new Set(changes.redirectUris)] } : {}),
        ...(changes.postLogoutRedirectUris !== undefined ? { postLogoutRedirectUris: [...new Set(changes.postLogoutRedirectUris)] } : {}),
      }),
    );
  }

  /**
   * The client with a new secret (its hash); the old one keeps working for `overlapMs` (0: not at
   * all), so a deployment can move to the new secret without a moment of refused requests. A public
   * client has no secret to rotate.
   */
  rotateSecret(secretHash: string, overlapMs: number, now: Date): Result<OAuthClient, { readonly kind: 'PublicClient' }> {
    if (this.state.secretHash === null) return err({ kind: 'PublicClient' });
    const overlap = overlapMs > 0;
    return ok(
      new OAuthClient({
        ...this.state,
        secretHash,
        previousSecretHash: overlap ? this.state.secretHash : null,
        previousSecretExpirationDate: overlap ? new Date(now.getTime() + overlapMs) : null,
      }),
    );
  }

  /** The hashes a presented secret may match at `now`: the current one, and the previous during its overlap. */
  secretHashesAt(now: Date): string[] {
    if (this.state.secretHash === null) return [];
    const previous = this.state.previousSecretHash;
    const until = this.state.previousSecretExpirationDate;
    return previous !== null && until !== null && now.getTime() < until.getTime() ? [this.state.secretHash, previous] : [this.state.secretHash];
  }

  static rehydrate(state: OAuthClientState): OAuthClient {
    return new OAuthClient(state);
  }

  get id(): OAuthClientId {
    return this.state.id;
  }
  get name(): string {
    return this.state.name;
  }
  get isPublic(): boolean {
    return this.state.secretHash === null;
  }
  get secretHash(): string | null {
    return this.state.secretHash;
  }

  get redirectUrisVerified(): boolean {
    return this.state.redirectUrisVerified;
  }

  allowsRedirectTo(uri: string): boolean {
    return this.state.redirectUris.includes(uri);
  }

  allowsPostLogoutRedirectTo(uri: string): boolean {
    return this.state.postLogoutRedirectUris.includes(uri);
  }

  /** Whether it may use the grant (a registered client: only those it registered; the operator's: all). */
  allowsGrantType(grantType: GrantType): boolean {
    return this.state.registration === null || this.state.registration.grantTypes.includes(grantType);
  }

  allowsResponseType(responseType: ResponseType): boolean {
    return this.state.registration === null || this.state.registration.responseTypes.includes(responseType);
  }

  /** Whether every name of `scope` (space-separated) is one it registered, when it registered any. */
  allowsScope(scope: string): boolean {
    const allowed = this.state.registration?.scope;
    if (allowed === undefined || allowed === null) return true;
    const names = new Set(allowed.split(' '));
    return scope.split(' ').every((name) => names.has(name));
  }

  get registration(): ClientRegistration | null {
    return this.state.registration;
  }

  /** The client with new registered metadata (RFC 7592 PUT), keeping its id, secret and management token. */
  reregister(changes: Required<OAuthClientChanges>, registration: Omit<ClientRegistration, 'accessTokenHash'>): Result<OAuthClient, OAuthClientError> {
    const current = this.state.registration;
    if (current === null) throw new Error('the operator registered this client');
    const updated = this.update(changes);
    return updated.ok ? ok(new OAuthClient({ ...updated.value.state, registration: { ...registration, accessTokenHash: current.accessTokenHash } })) : updated;
  }

  snapshot(): OAuthClientState {
    return this.state;
  }
}
