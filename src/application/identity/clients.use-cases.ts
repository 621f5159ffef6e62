import { OAuthClient } from '../../domain/identity/oauth-client.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { invalid, type ApplicationError } from '../shared/application-error.js';

/** Registers an OAuth client (the operator's `specbase client create`): the secret is shown once and stored as a hash. */
export class RegisterOAuthClient {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly name: string; readonly redirectUris: readonly string[]; readonly public: boolean }): Promise<Result<{ readonly clientId: string; readonly clientSecret: string | null }, ApplicationError>> {
    const secret = input.public ? null : this.generator.secret('sbcs_');
    const created = OAuthClient.create({ id: `${this.ids.next()}.apps.specbase`, name: input.name, redirectUris: input.redirectUris, secretHash: secret?.hash ?? null }, this.clock.now());
    if (!created.ok) return err(invalid({ field: created.error.field, message: created.error.message }));
    await this.uow.run(async (tx) => ok(await tx.oauthClients.add(created.value)));
    return ok({ clientId: created.value.id, clientSecret: secret?.token ?? null });
  }
}
