import type { AccountId } from '../../domain/account/account.js';
import { SCOPES } from '../../domain/token/scope.js';
import { ok, type Result } from '../../domain/shared/result.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { CreateApiToken } from '../tokens/create-api-token.use-case.js';
import type { RegisterUser } from '../users/register-user.use-case.js';

export const DEMO_EMAIL = 'demo@specbase.example';

export interface DemoCredentials {
  readonly email: string;
  readonly password: string;
  readonly accountId: AccountId;
  readonly token: string;
}

/**
 * On an empty database, creates a verified demo user and an API token with every scope, so a new
 * installation is usable at once. Returns null when any user already exists, including when another
 * instance bootstrapped the same database a moment earlier.
 */
export class BootstrapDemo {
  constructor(
    private readonly users: UserRepository,
    private readonly registerUser: RegisterUser,
    private readonly createToken: CreateApiToken,
    private readonly generator: TokenGenerator,
  ) {}

  async execute(): Promise<Result<DemoCredentials | null, ApplicationError>> {
    if (await this.users.any()) return ok(null);
    const password = this.generator.password();
    const registered = await this.registerUser.execute({ email: DEMO_EMAIL, password, nickname: 'demo', name: 'Demo User', verified: true });
    // Another instance starting on the same empty database got there first: nothing left to do.
    if (!registered.ok && registered.error.kind === 'DuplicateEmail') return ok(null);
    if (!registered.ok) return registered;
    const token = await this.createToken.execute({ userId: registered.value.userId }, { name: 'demo (all scopes)', scopes: SCOPES });
    if (!token.ok) return token;
    return ok({ email: DEMO_EMAIL, password, accountId: registered.value.accountId, token: token.value.token });
  }
}
