import { createHash, randomBytes } from 'node:crypto';
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

  hash(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }

  password(): string {
    return randomBytes(18).toString('base64url');
  }

  webhookSecret(): string {
    return randomBytes(32).toString('hex');
  }
}
