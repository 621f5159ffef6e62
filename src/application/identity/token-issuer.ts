import type { User } from '../../domain/user/user.aggregate.js';
import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S, type Grant } from '../../domain/identity/grant.js';
import { scopeClaims, type Claim } from '../../domain/identity/oauth-scope.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { JwtClaims, TokenSigner } from '../ports/token-signer.port.js';
import type { StoredSigningKey } from '../ports/identity-repositories.port.js';
import type { IdentitySettings } from './identity-settings.js';
import type { SigningKeys } from './signing-keys.js';

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

/** claimsOf's answers by scope base, then scope: a token's scope is one of a few strings, and tokeninfo and userinfo ask for every request. */
const claimsByScope = new Map<string, Map<string, ReadonlySet<Claim>>>();
/** Scopes remembered at most per scope base; past that the remembered ones are forgotten together. */
const CLAIMS_REMEMBERED = 256;

/**
 * The claims of the scopes' meanings, for the ID token and userinfo alike. The same set for the
 * same scope (remembered: building the scope table and the set cost 2-3 µs of a tokeninfo request).
 */
export function claimsOf(scope: string, scopeBase: string): ReadonlySet<Claim> {
  let byScope = claimsByScope.get(scopeBase);
  if (byScope === undefined) {
    byScope = new Map();
    claimsByScope.set(scopeBase, byScope);
  }
  let claims = byScope.get(scope);
  if (claims === undefined) {
    const known = scopeClaims(scopeBase);
    claims = new Set(scope.split(' ').flatMap((name) => known.get(name) ?? []));
    if (byScope.size >= CLAIMS_REMEMBERED) byScope.clear();
    byScope.set(scope, claims);
  }
  return claims;
}

/** Google's userinfo (Userinfoplus) of `user` for what `claims` allow: `id` always. */
export function userinfoOf(user: User, claims: ReadonlySet<Claim>): Record<string, unknown> {
  const s = user.snapshot();
  const info: Record<string, unknown> = { id: String(s.id) };
  if (claims.has('email')) Object.assign(info, { email: s.email, verified_email: s.emailVerified });
  if (claims.has('profile')) {
    const profile = { name: s.name, given_name: s.givenName, family_name: s.familyName, picture: s.picture, locale: s.locale };
    for (const [key, value] of Object.entries(profile)) if (value !== null) info[key] = value;
  }
  return info;
}

/** Signs the access and ID tokens of a grant (RS256 JWTs with the current key). */
export class TokenIssuer {
  constructor(
    private readonly signer: TokenSigner,
    private readonly keys: SigningKeys,
    private readonly settings: IdentitySettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * The key to sign with. Fetched before a transaction that signs: reading it inside one could wait
   * on the very lock that transaction holds (SQLite).
   */
  signingKey(): Promise<StoredSigningKey> {
    return this.keys.current();
  }

  /** RFC 9068 claims; `gid` names the grant, whose revocation ends the token. */
  async accessToken(grant: Grant, key?: StoredSigningKey): Promise<IssuedAccessToken> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: JwtClaims = {
      iss: this.settings.issuer,
      sub: String(grant.userId),
      aud: grant.clientId,
      client_id: grant.clientId,
      azp: grant.clientId,
      scope: grant.scope,
      gid: grant.id,
      jti: this.ids.next(),
      iat,
      exp: iat + ACCESS_TOKEN_TTL_S,
    };
    return { token: await this.signer.sign(claims, 'at+jwt', key ?? (await this.keys.current())), expiresIn: ACCESS_TOKEN_TTL_S };
  }

  /** OpenID Connect Core 2 claims, plus the user's e-mail and profile as the scope allows (as Google's ID tokens carry them). */
  async idToken(grant: Grant, user: User, extra: { readonly nonce: string | null; readonly authTime: Date | null }, key?: StoredSigningKey): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims = claimsOf(grant.scope, this.settings.scopeBase);
    const info = userinfoOf(user, claims);
    const profile: Record<string, unknown> = {};
    if (claims.has('email')) Object.assign(profile, { email: info['email'], email_verified: info['verified_email'] });
    for (const key of ['name', 'given_name', 'family_name', 'picture', 'locale']) if (info[key] !== undefined) profile[key] = info[key];
    const body: JwtClaims = {
      iss: this.settings.issuer,
      aud: grant.clientId,
      azp: grant.clientId,
      sub: String(grant.userId),
      ...profile,
      ...(extra.nonce === null ? {} : { nonce: extra.nonce }),
      ...(extra.authTime === null ? {} : { auth_time: Math.floor(extra.authTime.getTime() / 1000) }),
      gid: grant.id,
      iat,
      exp: iat + ID_TOKEN_TTL_S,
    };
    return this.signer.sign(body, 'JWT', key ?? (await this.keys.current()));
  }
}
