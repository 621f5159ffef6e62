import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Access, Area } from '../../domain/token/scope.js';
import type { OwnerOnlyAction, OwnerOnlyField, ShareRole } from '../../domain/share/share.aggregate.js';
import type { ShareRepository } from '../ports/share-repository.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { authorizeScope, type Principal } from './principal.js';

/** How the caller reaches an account's APIs: as its owner, or as the grantee of shares. */
export type AccountAccess = 'owner' | 'grantee';

/** What of an operation only the API's own account may do: the whole `action`, or changing `fields` (none: nothing). */
export type OwnerOnly = { readonly action: OwnerOnlyAction } | { readonly fields: readonly OwnerOnlyField[] };

function ownerOnlyRefusal(ownerOnly: OwnerOnly | undefined, role: ShareRole): ApplicationError | undefined {
  if (ownerOnly === undefined) return undefined;
  if ('action' in ownerOnly) return { kind: 'OwnerOnly', role, action: ownerOnly.action };
  const [first, ...rest] = ownerOnly.fields;
  return first === undefined ? undefined : { kind: 'OwnerOnlyField', role, fields: [first, ...rest] };
}

/**
 * The authorisation rule of everything on one API. The token's scopes come first
 * (`InsufficientScope`, before any data is read). The owner's account may do everything its
 * scopes allow. Another user may reach the API only through a share of it: the share's role must
 * permit the operation (`ShareRoleForbids` otherwise), and what `ownerOnly` names is refused to
 * grantees of either role before their role is looked at: an action (deleting the API, reading or
 * managing its shares: `OwnerOnly`) or fields of a change (the API's nickname, visibility and
 * breaking-change policy: `OwnerOnlyField`). Without a share the API is `NotFound`, so neither the
 * account nor the API is revealed. Shares are read on every call, never cached: a revoked share
 * stops working with the next request.
 */
export class ApiAccess {
  constructor(private readonly shares: ShareRepository) {}

  async check(
    principal: Principal,
    area: Area,
    access: Access,
    target: { readonly accountId: AccountId; readonly apiId: ApiId },
    ownerOnly?: OwnerOnly,
  ): Promise<Result<void, ApplicationError>> {
    const scoped = authorizeScope(principal, area, access);
    if (!scoped.ok) return scoped;
    if (principal.accountId === target.accountId) return ok();
    const share = await this.shares.findForGrantee(target.accountId, target.apiId, principal.userId);
    if (!share) return err(notFound('api'));
    const refused = ownerOnlyRefusal(ownerOnly, share.role);
    if (refused) return err(refused);
    if (!share.permits(area, access)) {
      return err({ kind: 'ShareRoleForbids', role: share.role });
    }
    return ok();
  }

  /**
   * Whether a person signed in to the web pages may read the API: a session carries no token
   * scopes, so this is `check`'s rule for a read without them. Their own account's APIs, and any
   * API shared with them in either role.
   */
  async mayRead(viewer: { readonly userId: UserId; readonly accountId: AccountId }, target: { readonly accountId: AccountId; readonly apiId: ApiId }): Promise<boolean> {
    if (viewer.accountId === target.accountId) return true;
    const share = await this.shares.findForGrantee(target.accountId, target.apiId, viewer.userId);
    return share !== undefined && share.permits('api', 'read');
  }

  /** For account-wide reads (the API list): the owner, or a grantee of at least one of its APIs. */
  async checkAccount(principal: Principal, area: Area, access: Access, accountId: AccountId): Promise<Result<AccountAccess, ApplicationError>> {
    const scoped = authorizeScope(principal, area, access);
    if (!scoped.ok) return scoped;
    if (principal.accountId === accountId) return ok('owner');
    return (await this.shares.anyInAccount(accountId, principal.userId)) ? ok('grantee') : err(notFound('account'));
  }
}
