import { err, ok, type Result } from '../shared/result.js';
import type { GrantType, ResponseType, TokenEndpointAuthMethod } from './oauth-client.js';
import type { Claim } from './oauth-scope.js';

/** RFC 7591 2: the metadata this service honours, read from a registration request. */
export interface ClientMetadata {
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly grantTypes: readonly GrantType[];
  readonly responseTypes: readonly ResponseType[];
  readonly scope: string | null;
}

/** RFC 7591 3.2.2: what is wrong with a registration request. */
export interface MetadataError {
  readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  readonly description: string;
}

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'none'];
const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code'];
const RESPONSE_TYPES: readonly ResponseType[] = ['code', 'token'];
const MAX_URIS = 20;

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * A client registering itself may name only web addresses: https, or http on loopback (the
 * contract). Private-use schemes (`com.example.app:/cb`) stay for the operator's clients: a scheme
 * anyone could register would send browsers to local protocol handlers.
 */
function webUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
}

/**
 * Reads RFC 7591 metadata: `redirect_uris` required; defaults as RFC 7591 2 gives them
 * (`client_secret_basic`, `authorization_code`, `code`); unknown fields ignored (RFC 7591 2).
 * The URIs themselves are checked by `OAuthClient.create`, which answers `invalid_redirect_uri`.
 * A response type needs its grant (`code` -> `authorization_code`, `token` -> `implicit`).
 */
export function readClientMetadata(body: unknown, knownScopes: ReadonlyMap<string, Claim>): Result<ClientMetadata, MetadataError> {
  const invalid = (description: string) => err({ error: 'invalid_client_metadata' as const, description });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid('The request body must be a JSON object of client metadata.');
  const m = body as Record<string, unknown>;
  const redirectUris = m['redirect_uris'];
  if (!strings(redirectUris) || redirectUris.length === 0) return err({ error: 'invalid_redirect_uri', description: 'redirect_uris must be a non-empty array of URIs.' });
  if (redirectUris.length > MAX_URIS) return err({ error: 'invalid_redirect_uri', description: `At most ${MAX_URIS} redirect_uris.` });
  const notWeb = redirectUris.find((uri) => !webUri(uri));
  if (notWeb !== undefined) return err({ error: 'invalid_redirect_uri', description: `redirect_uris: ${notWeb.slice(0, 200)}: must be https, or http on loopback.` });
  const postLogout = m['post_logout_redirect_uris'] ?? [];
  if (!strings(postLogout)) return invalid('post_logout_redirect_uris must be an array of URIs.');
  const notWebToo = postLogout.find((uri) => !webUri(uri));
  if (notWebToo !== undefined) return invalid(`post_logout_redirect_uris: ${notWebToo.slice(0, 200)}: must be https, or http on loopback.`);
  const name = m['client_name'] ?? 'Unnamed application';
  if (typeof name !== 'string') return invalid('client_name must be a string.');
  const method = m['token_endpoint_auth_method'] ?? 'client_secret_basic';
  // Stryker disable next-line ConditionalExpression: includes() finds no non-string among the methods; the typeof check says what is read
  if (typeof method !== 'string' || !AUTH_METHODS.includes(method as TokenEndpointAuthMethod)) return invalid(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
  const grantTypes = m['grant_types'] ?? ['authorization_code'];
  if (!strings(grantTypes) || grantTypes.length === 0 || !grantTypes.every((g) => GRANT_TYPES.includes(g as GrantType))) return invalid(`grant_types must be a non-empty array of ${GRANT_TYPES.join(', ')}.`);
  const responseTypes = m['response_types'] ?? ['code'];
  if (!strings(responseTypes) || !responseTypes.every((r) => RESPONSE_TYPES.includes(r as ResponseType))) return invalid('response_types must be an array of code, token.');
  if (responseTypes.includes('code') && !grantTypes.includes('authorization_code')) return invalid('response_types code needs the grant type authorization_code.');
  if (responseTypes.includes('token') && !grantTypes.includes('implicit')) return invalid('response_types token needs the grant type implicit.');
  const scope = m['scope'] ?? null;
  if (scope !== null) {
    if (typeof scope !== 'string' || scope.trim() === '') return invalid('scope must be a space-separated string of scope names.');
    const unknown = scope.split(' ').filter((s) => s !== '' && !knownScopes.has(s));
    if (unknown.length > 0) return invalid(`Unknown scope: ${unknown[0]!.slice(0, 200)}`);
  }
  return ok({
    name,
    redirectUris,
    postLogoutRedirectUris: postLogout,
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes: [...new Set(grantTypes as GrantType[])],
    responseTypes: [...new Set(responseTypes as ResponseType[])],
    scope: scope === null ? null : [...new Set(scope.split(' ').filter((s) => s !== ''))].join(' '),
  });
}
