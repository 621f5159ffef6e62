import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiToken, ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { token } from '../shared/token.js';

export interface ApiTokenRepository {
  add(apiToken: ApiToken): Promise<void>;
  /** undefined when no token has this hash (unknown or revoked). */
  findByHash(tokenHash: string): Promise<ApiToken | undefined>;
  /**
   * The tokens that still exist among `tokenHashes`, each with the user holding it, in one read:
   * what authentication needs, and what the token cache re-reads to learn which of its entries were
   * revoked. At most 500 hashes per call.
   */
  findHolders(tokenHashes: readonly string[]): Promise<TokenHolder[]>;
  /** A user's tokens in creation order. */
  listByUser(userId: UserId): Promise<ApiToken[]>;
  /** How many tokens the users of the account hold: what its plan counts. */
  countInAccount(accountId: AccountId): Promise<number>;
  /** Records a use; a no-op for a token that is gone. */
  recordUse(id: ApiTokenId, at: Date): Promise<void>;
  /** Revokes (deletes) a user's token; false when the user has no such token. */
  delete(userId: UserId, id: ApiTokenId): Promise<boolean>;
}
/** A token and the user it belongs to (as much of the user as a principal needs). */
export interface TokenHolder {
  readonly token: ApiToken;
  readonly user: { readonly id: UserId; readonly accountId: AccountId; readonly nickname: string };
}

/** The most hashes one `findHolders` call takes. */
export const MAX_HOLDER_LOOKUP = 500;

export const ApiTokenRepository = token<ApiTokenRepository>('ApiTokenRepository');
