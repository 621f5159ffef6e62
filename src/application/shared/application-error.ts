import type { PlanLimitExceeded } from '../../domain/account/plan-allowance.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';
import type { PolicyRefusal } from '../../domain/spec/changes/policy.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { FieldError } from '../../domain/shared/field-error.js';
import type { Scope } from '../../domain/token/scope.js';
import type { OwnerOnlyAction, OwnerOnlyField, ShareRole } from '../../domain/share/share.aggregate.js';
import type { ReleaseStatus } from '../../domain/release/release.aggregate.js';

/**
 * Who is asking and whether they may: every feature can answer these. They say what happened,
 * never how a protocol words or numbers it: the HTTP adapter decides status, code and wording in
 * one exhaustive switch (`problemFor`), the command line its own sentences.
 */
export type AccessError =
  | { readonly kind: 'Unauthenticated' }
  | { readonly kind: 'InsufficientScope'; readonly scope: Scope }
  /** Too many requests; `retryAfterMs` until the window ends. */
  | { readonly kind: 'RateLimited'; readonly retryAfterMs: number }
  | { readonly kind: 'EmailNotVerified' }
  /** A grantee's share does not allow this (a viewer writing). */
  | { readonly kind: 'ShareRoleForbids'; readonly role: ShareRole }
  /** Only the API's own account may do this; a share never allows it, whatever its `role`. */
  | { readonly kind: 'OwnerOnly'; readonly role: ShareRole; readonly action: OwnerOnlyAction }
  /** Only the API's own account may change these fields (at least one); the rest of the change is not made either. */
  | { readonly kind: 'OwnerOnlyField'; readonly role: ShareRole; readonly fields: readonly [OwnerOnlyField, ...OwnerOnlyField[]] }
  /** Absent, or not the caller's to see. */
  | { readonly kind: 'NotFound'; readonly resource: string }
  /** The account's plan does not allow the write: a quota reached, or no private APIs on it. */
  | PlanLimitExceeded;

/** What any write can meet: fields the domain refuses, or a revision that moved on. */
export type InputError =
  | { readonly kind: 'Validation'; readonly errors: readonly FieldError[] }
  /** `actual` is null when another writer changed it between our read and our write. */
  | { readonly kind: 'RevisionConflict'; readonly expected: number; readonly actual: number | null };

/** APIs. */
export type ApiFeatureError = { readonly kind: 'DuplicateNickname'; readonly nickname: string };

/** Specs: import, update, history. */
export type SpecFeatureError =
  /** Not YAML or JSON (with where it failed), or too complex to accept safely. */
  | { readonly kind: 'UnparseableSpec'; readonly message: string; readonly line: number | null; readonly column: number | null }
  /** Parses, but is not a valid document of an accepted format; `format`: the format that refused it. */
  | { readonly kind: 'InvalidSpec'; readonly errors: readonly FieldError[]; readonly format?: SpecFormat | undefined }
  /** A spec update the API's breaking-change policy refuses, with the changes. */
  | { readonly kind: 'BreakingChange'; readonly refusal: PolicyRefusal; readonly counts: ChangeCounts; readonly items: readonly Change[]; readonly truncated?: true };

/** Releases. */
export type ReleaseFeatureError =
  | { readonly kind: 'DuplicateVersion'; readonly version: string }
  | { readonly kind: 'InvalidTransition'; readonly from: ReleaseStatus; readonly to: ReleaseStatus }
  /** Nothing to release: the API has no spec yet. */
  | { readonly kind: 'NoSpec' };

/** Pages. */
export type PageFeatureError = { readonly kind: 'DuplicateSlug'; readonly slug: string };

/** Shares. */
export type ShareFeatureError =
  | { readonly kind: 'DuplicateShare' }
  /** No user has the e-mail address a share names. */
  | { readonly kind: 'UnknownUser' }
  /** The user belongs to the API's own account. */
  | { readonly kind: 'OwnAccount' };

/** Webhooks. */
export type WebhookFeatureError = { readonly kind: 'WebhookInactive' };

/** Users: registration, password, e-mail verification. */
export type UserFeatureError =
  | { readonly kind: 'DuplicateEmail' }
  | { readonly kind: 'EmailAlreadyVerified' }
  /** The current password given to change it is wrong. */
  | { readonly kind: 'WrongPassword' }
  /** A new password the policy refuses, naming the rule. */
  | { readonly kind: 'WeakPassword'; readonly errors: readonly FieldError[] };

/** Every expected failure a use case returns: the features' unions together. */
export type ApplicationError =
  | AccessError
  | InputError
  | ApiFeatureError
  | SpecFeatureError
  | ReleaseFeatureError
  | PageFeatureError
  | ShareFeatureError
  | WebhookFeatureError
  | UserFeatureError;

export const notFound = (resource: string): ApplicationError => ({ kind: 'NotFound', resource });

export const invalid = (errors: FieldError | readonly FieldError[]): ApplicationError => ({
  kind: 'Validation',
  errors: Array.isArray(errors) ? errors : [errors as FieldError],
});
