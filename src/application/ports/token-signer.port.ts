import type { StoredSigningKey } from './identity-repositories.port.js';
import { token } from '../shared/token.js';

/** `at+jwt` for access tokens (RFC 9068), `JWT` for ID tokens: a token of one kind is never taken for the other. */
export type JwtType = 'at+jwt' | 'JWT';

export type JwtClaims = Readonly<Record<string, unknown>>;

export interface TokenSigner {
  /** Signs `claims` with `key` (RS256), the header naming its `kid` and `typ`. */
  sign(claims: JwtClaims, typ: JwtType, key: StoredSigningKey): Promise<string>;
  /** The `kid` a JWT's header names, if it is one at all: to tell a key not yet seen from a bad token. */
  keyId(jwt: string): string | undefined;
  /**
   * The claims of `jwt` if one of `keys` signed it (RS256, by its `kid`), its `typ` is `typ`,
   * `iss` is `issuer` and `exp` is after `now`; undefined otherwise, never throwing for bad input.
   */
  verify(jwt: string, typ: JwtType, keys: readonly StoredSigningKey[], issuer: string, now: Date): Promise<JwtClaims | undefined>;
  /**
   * Like `verify`, whatever the token's age: for an ID token handed back as `id_token_hint` at
   * sign-out, which names the client and may well have expired (RP-Initiated Logout 1.0 2).
   */
  verifyAnyAge(jwt: string, typ: JwtType, keys: readonly StoredSigningKey[], issuer: string): Promise<JwtClaims | undefined>;
}
export const TokenSigner = token<TokenSigner>('TokenSigner');

export interface SigningKeyGenerator {
  /** A new RSA 2048 key pair with its kid, public JWK and self-signed certificate, to sign from `activationDate`. */
  generate(now: Date, activationDate: Date): Promise<StoredSigningKey>;
}
export const SigningKeyGenerator = token<SigningKeyGenerator>('SigningKeyGenerator');
