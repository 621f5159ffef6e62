import { err, ok, type Result } from '../shared/result.js';

/** What a scope lets a client learn, whatever name it was asked by. */
export type Claim = 'openid' | 'email' | 'profile';

/**
 * The scopes the identity service grants: Google's long names under `{scope_base}` and the OpenID
 * Connect names, with the same meaning (`plus.me` associates the client with the user, as `openid`
 * does).
 */
export function scopeClaims(scopeBase: string): ReadonlyMap<string, Claim> {
  return new Map<string, Claim>([
    ['openid', 'openid'],
    ['email', 'email'],
    ['profile', 'profile'],
    [`${scopeBase}/auth/plus.me`, 'openid'],
    [`${scopeBase}/auth/userinfo.email`, 'email'],
    [`${scopeBase}/auth/userinfo.profile`, 'profile'],
  ]);
}

/** A granted scope: the names as the client asked for them (kept for `scope` in responses) and what they mean. */
export interface GrantedScope {
  /** Space-separated, duplicates dropped, in the order asked. */
  readonly value: string;
  readonly claims: ReadonlySet<Claim>;
}

export type ScopeError = { readonly kind: 'EmptyScope' } | { readonly kind: 'UnknownScope'; readonly scope: string };

/** Parses a `scope` parameter (RFC 6749 3.3: space-delimited, case-sensitive). */
export function parseScope(raw: string | undefined, known: ReadonlyMap<string, Claim>): Result<GrantedScope, ScopeError> {
  const names = [...new Set((raw ?? '').split(' ').filter((s) => s !== ''))];
  if (names.length === 0) return err({ kind: 'EmptyScope' });
  const claims = new Set<Claim>();
  for (const name of names) {
    const claim = known.get(name);
    if (!claim) return err({ kind: 'UnknownScope', scope: name });
    claims.add(claim);
  }
  return ok({ value: names.join(' '), claims });
}

/** Whether every name of `requested` is among `granted` (a refresh may narrow a grant, never widen it). */
export function isSubScope(requested: string, granted: string): boolean {
  const have = new Set(granted.split(' '));
  return requested.split(' ').every((name) => have.has(name));
}
