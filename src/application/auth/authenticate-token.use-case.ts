import { isWellFormedApiToken } from '../../domain/token/api-token.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiTokenRepository } from '../ports/api-token-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { Principal } from './principal.js';

/** Turns a presented Bearer token into a principal; unknown, revoked or malformed: Unauthenticated. */
export class AuthenticateToken {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: UserRepository,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(presented: string): Promise<Result<Principal, ApplicationError>> {
    if (!isWellFormedApiToken(presented)) return err({ kind: 'Unauthenticated' });
    const apiToken = await this.tokens.findByHash(this.generator.hash(presented));
    if (!apiToken) return err({ kind: 'Unauthenticated' });
    const user = await this.users.get(apiToken.userId);
    if (!user) return err({ kind: 'Unauthenticated' });
    const now = this.clock.now();
    if (apiToken.useIsWorthRecording(now)) await this.tokens.recordUse(apiToken.id, now);
    return ok({ userId: user.id, accountId: user.accountId, nickname: user.nickname, scopes: apiToken.scopes, tokenId: apiToken.id });
  }
}
