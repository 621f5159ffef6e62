/**
 * An OAuth 2.0 error (RFC 6749 4.1.2.1, 5.2; OpenID Connect Core 3.1.2.6): the identity service's
 * failures are reported in OAuth's vocabulary, not as problem+json, because that is what clients
 * and their libraries read.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'invalid_token'
  | 'slow_down'
  /** RFC 8628 3.5: the user has not decided yet. */
  | 'authorization_pending'
  /** RFC 8628 3.5: the device code expired. */
  | 'expired_token';

export interface OAuthError {
  readonly error: OAuthErrorCode;
  readonly description: string;
  /** For `slow_down` (rate limited): when to try again. */
  readonly retryAfterMs?: number;
}

export const oauthError = (error: OAuthErrorCode, description: string): OAuthError => ({ error, description });
