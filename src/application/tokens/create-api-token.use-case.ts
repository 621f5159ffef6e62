import type { UserId } from '../../domain/account/account.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import type { Scope } from '../../domain/token/scope.js';
import { normaliseEmail } from '../../domain/user/user.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Plans } from '../accounts/plans.js';

/** The user a token is for: by id (the User-API) or by e-mail (the operator's CLI). */
export type UserRef = { readonly userId: UserId } | { readonly email: string };

export interface CreatedApiToken {
  readonly id: ApiTokenId;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** The secret: shown this once, stored only as a hash. */
  readonly token: string;
  readonly creationDate: Date;
}

/** Issues an API token to a user whose e-mail address is verified, if the account's plan has room for one. */
export class CreateApiToken {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly ids: IdGenerator,
    private readonly generator: TokenGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(
    owner: UserRef,
    input: { readonly name: unknown; readonly scopes: unknown },
  ): Promise<Result<CreatedApiToken, ApplicationError>> {
    return this.uow.run(async (tx): Promise<Result<CreatedApiToken, ApplicationError>> => {
      const user = 'userId' in owner ? await tx.users.get(owner.userId) : await tx.users.getByEmail(normaliseEmail(owner.email));
      if (!user) return err(notFound('user'));
      if (!user.emailVerified) return err({ kind: 'EmailNotVerified' });
      const secret = this.generator.generate();
      const created = ApiToken.create(
        { id: this.ids.next(), userId: user.id, name: input.name, scopes: input.scopes, tokenHash: secret.hash },
        this.clock.now(),
      );
      if (!created.ok) return err({ kind: 'Validation', errors: [{ field: created.error.field, message: created.error.message }] });
      const apiToken = created.value;
      const admitted = await this.plans.admitApiToken(tx, user.accountId);
      if (!admitted.ok) return admitted;
      await tx.tokens.add(apiToken);
      return ok({
        id: apiToken.id,
        name: apiToken.name,
        scopes: apiToken.scopes,
        token: secret.token,
        creationDate: apiToken.creationDate,
      });
    });
  }
}
