import type { AccountId } from '../../domain/account/account.js';
import { Api, type ApiRecord } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { actorOf, authorize, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ApplicationError } from '../shared/application-error.js';
import type { Plans } from '../accounts/plans.js';
import { apiErrorToApplication, apiSaveErrorToApplication } from './api-errors.js';

export interface CreateApiInput {
  readonly accountId: AccountId;
  readonly name: unknown;
  readonly nickname: unknown;
  readonly type?: unknown;
}

/** Creates an empty API, if the account's plan has room for it; the API and its `api.created` event are stored in one transaction. */
export class CreateApi {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: CreateApiInput): Promise<Result<ApiRecord, ApplicationError>> {
    const allowed = authorize(principal, 'api', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    const created = Api.create(
      {
        id: this.ids.next(),
        accountId: input.accountId,
        owner: actorOf(principal),
        name: input.name,
        nickname: input.nickname,
        type: input.type,
      },
      this.clock.now(),
    );
    if (!created.ok) return err(apiErrorToApplication(created.error));
    const api = created.value;
    return this.uow.run(async (tx): Promise<Result<ApiRecord, ApplicationError>> => {
      const admitted = await this.plans.admitApi(tx, input.accountId, api.toRecord().type);
      if (!admitted.ok) return admitted;
      const saved = await tx.apis.save(api);
      if (!saved.ok) return err(apiSaveErrorToApplication(saved.error, api));
      await tx.outbox.append(api.pullEvents());
      return ok(api.toRecord());
    });
  }
}
