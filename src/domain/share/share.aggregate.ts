import type { AccountId, UserId } from '../account/account.js';
import type { ApiChanges, ApiId } from '../api/api.aggregate.js';
import type { FieldError } from '../shared/field-error.js';
import { err, ok, type Result } from '../shared/result.js';
import { formatTimestamp } from '../shared/time.js';
import type { Access, Area } from '../token/scope.js';
import type { Uuid } from '../shared/ids.js';

export type ShareId = Uuid<'Share'>;

export const SHARE_ROLES = ['viewer', 'editor'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];

/**
 * What each role may do to a shared API, per scope area. A viewer reads the API, its spec, derived
 * resources, releases and pages; an editor also changes them. Deleting the API and managing its
 * shares stay with the owner's account (as on GitHub, where a collaborator with write access cannot
 * delete the repository or invite others), and so do webhooks and profiles, which are not per API.
 */
const ROLE_ACCESS = {
  viewer: { api: ['read'], api_release: ['read'], api_page: ['read'] },
  editor: { api: ['read', 'write'], api_release: ['read', 'write'], api_page: ['read', 'write'] },
} as const satisfies Record<ShareRole, Partial<Record<Area, readonly Access[]>>>;

export function rolePermits(role: ShareRole, area: Area, access: Access): boolean {
  const granted: Partial<Record<Area, readonly Access[]>> = ROLE_ACCESS[role];
  return granted[area]?.includes(access) ?? false;
}

/**
 * What no share allows, whatever its role: the API's own account alone may delete the API and
 * read or manage its shares (a grantee who could share the API on would decide who sees it). Named
 * as the HTTP API's operations are.
 */
export const OWNER_ONLY_ACTIONS = ['deleteApi', 'listShares', 'getShare', 'createShare', 'updateShare', 'deleteShare'] as const;
export type OwnerOnlyAction = (typeof OWNER_ONLY_ACTIONS)[number];

/**
 * Who may change each field of the API by `PATCH`: an editor too, or the owner's account alone.
 * Visibility (`type`) decides who may read the docs at all, the nickname is their address, and the
 * breaking-change policy (with `allowRemovalAfterSunset`, its one exception) is the guard on an
 * editor's own spec updates: these are the owner's decisions. A new field of `ApiChanges` fails
 * the build until it has its line here.
 */
const API_FIELD_RIGHTS = {
  name: 'editor',
  nickname: 'owner',
  type: 'owner',
  breakingChangePolicy: 'owner',
  allowRemovalAfterSunset: 'owner',
} as const satisfies Record<keyof ApiChanges, 'editor' | 'owner'>;

type FieldRights = typeof API_FIELD_RIGHTS;
export type OwnerOnlyField = { [F in keyof FieldRights]: FieldRights[F] extends 'owner' ? F : never }[keyof FieldRights];

export const OWNER_ONLY_FIELDS = (Object.keys(API_FIELD_RIGHTS) as (keyof FieldRights)[]).filter(
  (field): field is OwnerOnlyField => API_FIELD_RIGHTS[field] === 'owner',
);

/** The owner-only fields `changes` sends, in `OWNER_ONLY_FIELDS` order: sent at all, even with the value they have. */
export function ownerOnlyFieldsOf(changes: ApiChanges): OwnerOnlyField[] {
  return OWNER_ONLY_FIELDS.filter((field) => changes[field] !== undefined);
}

export function isShareRole(value: unknown): value is ShareRole {
  return typeof value === 'string' && (SHARE_ROLES as readonly string[]).includes(value);
}

export interface ShareState {
  readonly id: ShareId;
  readonly apiId: ApiId;
  /** The owner's account: the one whose path the grantee uses. */
  readonly accountId: AccountId;
  /** The grantee. */
  readonly userId: UserId;
  readonly role: ShareRole;
  readonly creationDate: Date;
  readonly updateDate: Date;
}

/** The grantee as a share shows them. */
export interface ShareGrantee {
  readonly id: UserId;
  readonly nickname: string;
  readonly email: string;
}

export interface ShareRecord {
  readonly id: ShareId;
  readonly email: string;
  readonly role: ShareRole;
  readonly user: { readonly id: UserId; readonly nickname: string };
  readonly creationDate: string;
  readonly updateDate: string;
  readonly [key: string]: unknown;
}

export type ShareError =
  | ({ readonly kind: 'InvalidField' } & FieldError)
  /** The grantee belongs to the API's own account: they have all access already. */
  | { readonly kind: 'OwnAccount' };

function checkRole(value: unknown): Result<ShareRole, ShareError> {
  return isShareRole(value) ? ok(value) : err({ kind: 'InvalidField', field: 'role', message: `must be one of ${SHARE_ROLES.join(', ')}` });
}

/** Access to one API of an account given to a user of another account. */
export class Share {
  private constructor(private state: ShareState) {}

  /** Errors: `InvalidField` (role), `OwnAccount` (the grantee is the owner's account). */
  static create(
    input: {
      readonly id: ShareId;
      readonly api: { readonly id: ApiId; readonly accountId: AccountId };
      readonly grantee: { readonly id: UserId; readonly accountId: AccountId };
      readonly role: unknown;
    },
    now: Date,
  ): Result<Share, ShareError> {
    const role = checkRole(input.role);
    if (!role.ok) return role;
    if (input.grantee.accountId === input.api.accountId) return err({ kind: 'OwnAccount' });
    return ok(
      new Share({ id: input.id, apiId: input.api.id, accountId: input.api.accountId, userId: input.grantee.id, role: role.value, creationDate: now, updateDate: now }),
    );
  }

  static rehydrate(state: ShareState): Share {
    return new Share(state);
  }

  get id(): ShareId {
    return this.state.id;
  }
  get role(): ShareRole {
    return this.state.role;
  }

  /** Errors: `InvalidField`; nothing changes then. */
  changeRole(role: unknown, now: Date): Result<void, ShareError> {
    const checked = checkRole(role);
    if (!checked.ok) return checked;
    this.state = { ...this.state, role: checked.value, updateDate: now };
    return ok();
  }

  permits(area: Area, access: Access): boolean {
    return rolePermits(this.state.role, area, access);
  }

  snapshot(): ShareState {
    return this.state;
  }

  toRecord(grantee: ShareGrantee): ShareRecord {
    const s = this.state;
    return {
      id: s.id,
      email: grantee.email,
      role: s.role,
      user: { id: grantee.id, nickname: grantee.nickname },
      creationDate: formatTimestamp(s.creationDate),
      updateDate: formatTimestamp(s.updateDate),
    };
  }
}
