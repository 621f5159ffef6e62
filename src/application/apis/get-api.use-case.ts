import type { AccountId } from '../../domain/account/account.js';
import type { ApiId, ApiRecord } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

export class GetApi {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
  ) {}

  async execute(principal: Principal, accountId: AccountId, apiId: ApiId): Promise<Result<ApiRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api', 'read', { accountId, apiId });
    if (!allowed.ok) return allowed;
    const api = await this.apis.get(accountId, apiId);
    return api ? ok(api.toRecord()) : err(notFound('api'));
  }
}
