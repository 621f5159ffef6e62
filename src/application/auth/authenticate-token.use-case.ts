import { ApiToken, isWellFormedApiToken } from '../../domain/token/api-token.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiTokenRepository, TokenHolder } from '../ports/api-token-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import { NO_METRICS, type Metrics } from '../ports/metrics.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { Principal } from './principal.js';
import type { TokenCache } from './token-cache.js';

/**
 * Turns a presented Bearer token into a principal; unknown, revoked or malformed: Unauthenticated.
 * A hot token is answered from the `TokenCache` without a database read; see there for how long a
 * revoked token can still be seen.
 */
export class AuthenticateToken {
  /**
   * The SHA-256 of the tokens presented lately, so a hot token is not hashed on every request
   * (2-3% of a cached read's CPU): at most HASHED tokens, the oldest forgotten first. It holds
   * tokens as presented, as the process does while it serves their requests anyway.
   */
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
    private readonly cache: TokenCache,
    private readonly metrics: Metrics = NO_METRICS,
  ) {}

  async execute(presented: string): Promise<Result<Principal, ApplicationError>> {
    if (!isWellFormedApiToken(presented)) return err({ kind: 'Unauthenticated' });
    const hash = this.hashOf(presented);
    const now = this.clock.now();
    let holder = await this.cache.get(hash, now.getTime());
    if (holder === undefined) {
      [holder] = await this.tokens.findHolders([hash]);
      this.metrics.tokenAuthenticated('database');
      if (holder === undefined) return err({ kind: 'Unauthenticated' });
      this.cache.put(holder, now.getTime());
    } else {
      this.metrics.tokenAuthenticated('cache');
    }
    const { token, user } = holder;
    if (token.useIsWorthRecording(now)) {
      // The cached copy first, so that concurrent requests do not all write the same use; put back
      // if the write fails, so that the next request writes it again.
      this.cache.update({ token: ApiToken.rehydrate({ ...token.snapshot(), lastUseDate: now }), user });
      try {
        await this.tokens.recordUse(token.id, now);
      } catch (error) {
        this.cache.update(holder);
        throw error;
      }
    }
    return ok(principalOfHolder(holder));
  }

  /**
   * `execute` when it can answer without waiting: the principal of a well-formed token the cache
   * holds, confirmed within its revocation bound, whose use needs no writing back now. Undefined
   * otherwise: the caller takes `execute`, which reads, waits or writes as it must. `admit` may
   * still turn the request away (the caller's limit, say; the caller then takes `execute` too):
   * only an admitted request counts as an authentication in the metrics.
   */
  executeAtOnce(presented: string, admit: (principal: Principal) => boolean = () => true): Principal | undefined {
    if (!isWellFormedApiToken(presented)) return undefined;
    const now = this.clock.now();
    const holder = this.cache.getAtOnce(this.hashOf(presented), now.getTime());
    if (holder === undefined || holder.token.useIsWorthRecording(now)) return undefined;
    const principal = principalOfHolder(holder);
    if (!admit(principal)) return undefined;
    this.metrics.tokenAuthenticated('cache');
    return principal;
  }

  private hashOf(presented: string): string {
    let hash = this.hashes.get(presented);
    if (hash === undefined) {
      hash = this.generator.hash(presented);
      if (this.hashes.size >= HASHED) this.hashes.delete(this.hashes.keys().next().value!);
      this.hashes.set(presented, hash);
    }
    return hash;
  }
}

const HASHED = 1_000;

function principalOfHolder({ token, user }: TokenHolder): Principal {
  return { userId: user.id, accountId: user.accountId, nickname: user.nickname, scopes: token.scopes, tokenId: token.id };
}
