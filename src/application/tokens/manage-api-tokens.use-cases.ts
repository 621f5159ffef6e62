import type { UserId } from '../../domain/account/account.js';
import type { ApiToken, ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiTokenRepository } from '../ports/api-token-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

export type ApiTokenListItem = ReturnType<ApiToken['toRecord']>;

/** A user's API tokens, without the tokens themselves. */
export class ListApiTokens {
  constructor(private readonly tokens: ApiTokenRepository) {}

  async execute(userId: UserId): Promise<Result<readonly ApiTokenListItem[], ApplicationError>> {
    return ok((await this.tokens.listByUser(userId)).map((t) => t.toRecord()));
  }
}

/** Revokes a user's token; it stops working at once. */
export class RevokeApiToken {
  constructor(private readonly tokens: ApiTokenRepository) {}

  async execute(userId: UserId, id: ApiTokenId): Promise<Result<void, ApplicationError>> {
    return (await this.tokens.delete(userId, id)) ? ok() : err(notFound('token'));
  }
}
