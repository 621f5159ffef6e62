import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { DerivedItem, DerivedKind, SpecRepository } from '../ports/spec-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

/** Endpoints, domain models, environments or authentication adapters of an API, in document order. */
export class ListDerived {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly specs: SpecRepository,
  ) {}

  async execute<K extends DerivedKind>(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly apiId: ApiId; readonly kind: K; readonly page: PageRequest<number> },
  ): Promise<Result<Page<DerivedItem<K>, number>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', input);
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(input.accountId, input.apiId);
    if (!api) return err(notFound('api'));
    return ok(await this.specs.listDerived(api.id, input.kind, input.page));
  }
}
