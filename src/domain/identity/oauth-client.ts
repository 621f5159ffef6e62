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
  readonly creationDate: Date;
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
  if (url.hash !== '' || uri.includes('#')) return 'must not have a fragment';
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') return `must not use ${url.protocol}`;
  if (url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return 'must use https (http only for loopback)';
  return null;
}

/** A client application registered by the operator. */
export class OAuthClient {
  private constructor(private readonly state: OAuthClientState) {}

  static create(input: { readonly id: OAuthClientId; readonly name: string; readonly secretHash: string | null; readonly redirectUris: readonly string[] }, now: Date): Result<OAuthClient, OAuthClientError> {
    const invalid = (field: string, message: string) => err({ kind: 'InvalidField' as const, field, message });
    if (input.name.trim() === '' || input.name.length > 100) return invalid('name', 'must be 1-100 characters');
    if (input.redirectUris.length === 0) return invalid('redirectUri', 'at least one is required');
    for (const uri of input.redirectUris) {
      const problem = checkRedirectUri(uri);
      if (problem) return invalid('redirectUri', `${uri}: ${problem}`);
    }
    return ok(new OAuthClient({ ...input, redirectUris: [...new Set(input.redirectUris)], creationDate: now }));
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

  allowsRedirectTo(uri: string): boolean {
    return this.state.redirectUris.includes(uri);
  }

  snapshot(): OAuthClientState {
    return this.state;
  }
}
