import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { isShareRole, Share, SHARE_ROLES, type ShareError, type ShareId, type ShareRecord } from '../../domain/share/share.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { isValidEmail, normaliseEmail } from '../../domain/user/user.aggregate.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { ShareRepository } from '../ports/share-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { invalid, notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';

interface ShareTarget {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
}

function shareError(error: ShareError): ApplicationError {
  if (error.kind === 'OwnAccount') return { kind: 'OwnAccount' };
  return invalid({ field: error.field, message: error.message });
}

const duplicate: ApplicationError = { kind: 'DuplicateShare' };

// Shares are the owner's account's business: a grantee of either role is refused every share
// operation (`OwnerOnly`), their own share included.

/** An API's shares in creation order (api_share.readonly; the owner's account only). */
export class ListShares {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly shares: ShareRepository,
  ) {}

  async execute(principal: Principal, input: ShareTarget & { readonly page: PageRequest<ShareId> }): Promise<Result<Page<ShareRecord, ShareId>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_share', 'read', input, { action: 'listShares' });
    if (!allowed.ok) return allowed;
    if (!(await this.apis.get(input.accountId, input.apiId))) return err(notFound('api'));
    const found = await this.shares.list(input.apiId, input.page);
    return ok({ items: found.items.map(({ share, grantee }) => share.toRecord(grantee)), next: found.next });
  }
}

export class GetShare {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly shares: ShareRepository,
  ) {}

  async execute(principal: Principal, input: ShareTarget & { readonly id: ShareId }): Promise<Result<ShareRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_share', 'read', input, { action: 'getShare' });
    if (!allowed.ok) return allowed;
    if (!(await this.apis.get(input.accountId, input.apiId))) return err(notFound('api'));
    const found = await this.shares.get(input.apiId, input.id);
    return found ? ok(found.share.toRecord(found.grantee)) : err(notFound('share'));
  }
}

/**
 * Shares the API with the user who has `email`: 422 `unknown_user` when nobody has it (the contract
 * asks for it, though it tells the owner whether an address is registered), 409 when that user has
 * a share of the API already.
 */
export class CreateShare {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: ShareTarget & { readonly email: unknown; readonly role: unknown }): Promise<Result<ShareRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_share', 'write', input, { action: 'createShare' });
    if (!allowed.ok) return allowed;
    if (typeof input.email !== 'string' || !isValidEmail(normaliseEmail(input.email))) return err(invalid({ field: 'email', message: 'must be an e-mail address' }));
    if (!isShareRole(input.role)) return err(invalid({ field: 'role', message: `must be one of ${SHARE_ROLES.join(', ')}` }));
    const email = input.email;
    return this.uow.run(async (tx): Promise<Result<ShareRecord, ApplicationError>> => {
      const api = await tx.apis.getForUpdate(input.accountId, input.apiId);
      if (!api) return err(notFound('api'));
      const grantee = await tx.users.getByEmail(normaliseEmail(email));
      if (!grantee) return err({ kind: 'UnknownUser' });
      const created = Share.create({ id: this.ids.next(), api: { id: api.id, accountId: input.accountId }, grantee, role: input.role }, this.clock.now());
      if (!created.ok) return err(shareError(created.error));
      const saved = await tx.shares.save(created.value);
      if (!saved.ok) return err(duplicate);
      return ok(created.value.toRecord({ id: grantee.id, nickname: grantee.nickname, email: grantee.email }));
    });
  }
}

/** Changes a share's role; the grantee's next request already has the new role. */
export class UpdateShare {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: ShareTarget & { readonly id: ShareId; readonly role: unknown }): Promise<Result<ShareRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_share', 'write', input, { action: 'updateShare' });
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<ShareRecord, ApplicationError>> => {
      if (!(await tx.apis.getForUpdate(input.accountId, input.apiId))) return err(notFound('api'));
      const found = await tx.shares.get(input.apiId, input.id);
      if (!found) return err(notFound('share'));
      const changed = found.share.changeRole(input.role, this.clock.now());
      if (!changed.ok) return err(shareError(changed.error));
      const saved = await tx.shares.save(found.share);
      if (!saved.ok) return err(duplicate);
      return ok(found.share.toRecord(found.grantee));
    });
  }
}

/** Revokes a share: the grantee's next request no longer reaches the API. */
export class DeleteShare {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(principal: Principal, input: ShareTarget & { readonly id: ShareId }): Promise<Result<void, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_share', 'write', input, { action: 'deleteShare' });
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      if (!(await tx.apis.getForUpdate(input.accountId, input.apiId))) return err(notFound('api'));
      if (!(await tx.shares.get(input.apiId, input.id))) return err(notFound('share'));
      await tx.shares.delete(input.apiId, input.id);
      return ok();
    });
  }
}
