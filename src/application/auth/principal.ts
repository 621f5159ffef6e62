import type { AccountId, UserId } from '../../domain/account/account.js';
import type { Actor } from '../../domain/events/domain-event.js';
import { requiredScope, scopesPermit, type Access, type Area, type Scope } from '../../domain/token/scope.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';

/** Who is calling, as established by an authenticated API token. */
export interface Principal {
  readonly userId: UserId;
  readonly accountId: AccountId;
  readonly nickname: string;
  readonly scopes: readonly Scope[];
  /** The API token presented: what per-token rate limits count. */
  readonly tokenId?: string;
}

export function actorOf(principal: Principal): Actor {
  return { id: principal.userId, nickname: principal.nickname };
}

/**
 * The authorisation rule of account-level operations (profile, webhooks, creating or importing
 * APIs): the token's scopes must grant `access` to `area` (`InsufficientScope` naming the scope
 * otherwise, decided before any data is read), and the account must be the caller's own
 * (`NotFound` otherwise: another account's existence is not revealed). Operations on one API go through `ApiAccess`, which adds
 * shares.
 */
export function authorize(
  principal: Principal,
  area: Area,
  access: Access,
  accountId: AccountId,
): Result<void, ApplicationError> {
  const scoped = authorizeScope(principal, area, access);
  if (!scoped.ok) return scoped;
  if (principal.accountId !== accountId) return err(notFound('account'));
  return ok();
}

/** The token's scopes must grant `access` to `area`: `InsufficientScope` naming the scope otherwise. */
export function authorizeScope(principal: Principal, area: Area, access: Access): Result<void, ApplicationError> {
  return scopesPermit(principal.scopes, area, access) ? ok() : err({ kind: 'InsufficientScope', scope: requiredScope(area, access) });
}
