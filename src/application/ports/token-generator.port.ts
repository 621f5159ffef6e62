import { token } from '../shared/token.js';

export interface SecretToken {
  /** Shown to its owner once. */
  readonly token: string;
  /** What storage keeps and looks up by. */
  readonly hash: string;
}

export interface TokenGenerator {
  /** A new API token (`sbt_` + 256 random bits, base64url) and its hash. */
  generate(): SecretToken;
  /** A one-time e-mail verification token (`sbv_` + 256 random bits) and its hash (`hash`'s). */
  verificationToken(): SecretToken;
  /** A random secret of 256 bits after `prefix` (codes, refresh tokens, sessions, client secrets) and its hash. */
  secret(prefix: string): SecretToken;
  /** Whether `secret` hashes to `hash`, compared in constant time. */
  matches(secret: string, hash: string): boolean;
  /** PKCE S256 (RFC 7636 4.2): base64url of the SHA-256 of `verifier`. */
  s256(verifier: string): string;
  /** The hash `generate` would have stored for `token`: deterministic, one-way. */
  hash(token: string): string;
  /** A random password that satisfies the password policy, for the demo user. */
  password(): string;
  /** A webhook secret: 64 hex characters (256 bits). */
  webhookSecret(): string;
  /** `length` characters drawn uniformly from `alphabet` (a device flow's user code). */
  pick(alphabet: string, length: number): string;
}
export const TokenGenerator = token<TokenGenerator>('TokenGenerator');
