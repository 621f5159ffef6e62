import { ContainerModule } from 'inversify';
import { ApiAccess } from '../../application/auth/api-access.js';
import { AuthenticatePassword } from '../../application/auth/authenticate-password.use-case.js';
import { AuthenticateToken } from '../../application/auth/authenticate-token.use-case.js';
import { PasswordGuard } from '../../application/auth/password-guard.js';
import { TokenCache } from '../../application/auth/token-cache.js';
import { ApiTokenRepository } from '../../application/ports/api-token-repository.port.js';
import { Clock } from '../../application/ports/clock.port.js';
import { Metrics } from '../../application/ports/metrics.port.js';
import { PasswordHasher } from '../../application/ports/password-hasher.port.js';
import { RateLimiter, RateLimits } from '../../application/ports/rate-limiter.port.js';
import { ShareRepository } from '../../application/ports/share-repository.port.js';
import { TokenGenerator } from '../../application/ports/token-generator.port.js';
import { UserRepository } from '../../application/ports/user-repository.port.js';
import { construct } from './wiring.js';

/** Who is calling and what they may do: API tokens (with the token cache), passwords (with their limits), access to APIs (owner, shares). */
export const authModule = new ContainerModule(({ bind }) => {
  construct(bind, ApiAccess, [ShareRepository]);
  construct(bind, AuthenticateToken, [ApiTokenRepository, TokenGenerator, Clock, TokenCache, Metrics]);
  construct(bind, PasswordGuard, [RateLimiter, RateLimits, TokenGenerator, Clock]);
  construct(bind, AuthenticatePassword, [UserRepository, PasswordHasher, PasswordGuard]);
});
