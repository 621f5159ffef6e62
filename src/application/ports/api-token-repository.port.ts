import type { UserId } from '../../domain/account/account.js';
import type { ApiToken, ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { token } from '../shared/token.js';

export interface ApiTokenRepository {
  add(apiToken: ApiToken): Promise<void>;
  /** undefined when no token has this hash (unknown or revoked). */
  findByHash(tokenHash: string): Promise<ApiToken | undefined>;
  /** A user's tokens in creation order. */
  listByUser(userId: UserId): Promise<ApiToken[]>;
  /** Records a use; a no-op for a token that is gone. */
  recordUse(id: ApiTokenId, at: Date): Promise<void>;
  /** Revokes (deletes) a user's token; false when the user has no such token. */
  delete(userId: UserId, id: ApiTokenId): Promise<boolean>;
}
export const ApiTokenRepository = token<ApiTokenRepository>('ApiTokenRepository');
