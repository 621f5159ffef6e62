import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { SecretToken, TokenGenerator } from '../../application/ports/token-generator.port.js';
import { API_TOKEN_PREFIX } from '../../domain/token/api-token.aggregate.js';
import { EMAIL_VERIFICATION_PREFIX } from '../../domain/user/email-verification.js';

/**
 * 256 random bits per token. The stored hash is a plain SHA-256: a token has full entropy, so a
 * slow hash adds nothing and a fast one keeps the lookup an indexed equality match.
 */
export class RandomTokenGenerator implements TokenGenerator {
  generate(): SecretToken {
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { token, hash: this.hash(token) };
  }

  verificationToken(): SecretToken {
    const token = EMAIL_VERIFICATION_PREFIX + randomBytes(32).toString('base64url');
    return { token, hash: this.hash(token) };
  }

  secret(prefix: string): SecretToken {
    const token = prefix + randomBytes(32).toString('base64url');
    return { token, hash: this.hash(token) };
  }

  matches(secret: string, hash: string): boolean {
    const actual = Buffer.from(this.hash(secret), 'hex');
    const expected = Buffer.from(hash, 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  s256(verifier: string): string {
    return createHash('sha256').update(verifier, 'ascii').digest('base64url');
  }

  hash(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }

  password(): string {
    return randomBytes(18).toString('base64url');
  }

  webhookSecret(): string {
    return randomBytes(32).toString('hex');
  }

  pick(alphabet: string, length: number): string {
    return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
  }
}
