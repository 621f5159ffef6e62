import type { UserId } from '../../domain/account/account.js';
import type { ApiToken, ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiTokenRepository } from '../ports/api-token-repository.port.js';
import type { TokenCache } from '../auth/token-cache.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page as ListPage, PageRequest } from '../shared/page.js';

export type ApiTokenListItem = ReturnType<ApiToken['toRecord']>;

/** A user's API tokens in creation order, a page at a time, without the tokens themselves. */
export class ListApiTokens {
  constructor(private readonly tokens: ApiTokenRepository) {}

  async execute(userId: UserId, page: PageRequest<ApiTokenId>): Promise<Result<ListPage<ApiTokenListItem, ApiTokenId>, ApplicationError>> {
    // A user holds a handful of tokens: paging the sorted list here is enough.
    const after = page.after;
    const all = (await this.tokens.listByUser(userId)).filter((t) => after === undefined || t.id > after);
    const items = all.slice(0, page.limit);
    return ok({ items: items.map((t) => t.toRecord()), next: all.length > page.limit ? (items.at(-1)?.id ?? null) : null });
  }
}

/**
 * Revokes a user's token: it stops working on this instance at once, and on the others within the
 * token cache's revocation bound (TOKEN_CACHE_REVALIDATE_MS).
 */
export class RevokeApiToken {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly cache: TokenCache,
  ) {}

  async execute(userId: UserId, id: ApiTokenId): Promise<Result<void, ApplicationError>> {
    const deleted = await this.tokens.delete(userId, id);
    this.cache.forget(id);
    return deleted ? ok() : err(notFound('token'));
  }
}
