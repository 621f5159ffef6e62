import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiTokenRepository, TokenHolder } from '../../application/ports/api-token-repository.port.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import type { StateSource } from './in-memory-state.js';

export class InMemoryApiTokenRepository implements ApiTokenRepository {
  constructor(private readonly state: StateSource) {}

  async add(apiToken: ApiToken): Promise<void> {
    this.state().tokens.set(apiToken.id, apiToken.snapshot());
  }

  async findByHash(tokenHash: string): Promise<ApiToken | undefined> {
    const row = [...this.state().tokens.values()].find((t) => t.tokenHash === tokenHash);
    return row && ApiToken.rehydrate(row);
  }

  async findHolders(tokenHashes: readonly string[]): Promise<TokenHolder[]> {
    const s = this.state();
    const wanted = new Set(tokenHashes);
    const holders: TokenHolder[] = [];
    for (const row of s.tokens.values()) {
      const user = wanted.has(row.tokenHash) ? s.users.get(row.userId) : undefined;
      if (user) holders.push({ token: ApiToken.rehydrate(row), user: { id: user.id, accountId: user.accountId, nickname: user.nickname } });
    }
    return holders;
  }

  async countInAccount(accountId: AccountId): Promise<number> {
    const s = this.state();
    return [...s.tokens.values()].filter((t) => s.users.get(t.userId)?.accountId === accountId).length;
  }

  async listByUser(userId: UserId): Promise<ApiToken[]> {
    return [...this.state().tokens.values()]
      .filter((t) => t.userId === userId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((row) => ApiToken.rehydrate(row));
  }

  async recordUse(id: ApiTokenId, at: Date): Promise<void> {
    const s = this.state();
    const row = s.tokens.get(id);
    if (row) s.tokens.set(id, { ...row, lastUseDate: at });
  }

  async delete(userId: UserId, id: ApiTokenId): Promise<boolean> {
    const s = this.state();
    const row = s.tokens.get(id);
    if (!row || row.userId !== userId) return false;
    s.tokens.delete(id);
    return true;
  }
}
