import type { PlanLimitExceeded } from '../../domain/account/plan-allowance.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';
import type { PolicyRefusal } from '../../domain/spec/changes/policy.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { FieldError } from '../../domain/shared/field-error.js';
import type { Scope } from '../../domain/token/scope.js';

/**
 * Every expected failure a use case returns. The HTTP adapter maps each kind to a status and
 * problem code in one exhaustive switch, so a new kind fails the build until it is mapped.
 */
export type ApplicationError =
  | { readonly kind: 'Unauthenticated' }
  | { readonly kind: 'InsufficientScope'; readonly scope: Scope }
  /** Too many requests (429 with Retry-After). */
  | { readonly kind: 'RateLimited'; readonly retryAfterMs: number }
  | { readonly kind: 'EmailNotVerified' }
  /** The current password given to change it is wrong (403). */
  | { readonly kind: 'WrongPassword' }
  /** A new password the policy refuses (422, naming the rule). */
  | { readonly kind: 'WeakPassword'; readonly errors: readonly FieldError[] }
  /** Authenticated and scoped, yet not allowed: a grantee's role or an owner-only operation (403). */
  | { readonly kind: 'Forbidden'; readonly code: 'share_role' | 'owner_only'; readonly detail: string }
  /** The request names something that cannot be used, e.g. a share for an unknown e-mail (422). */
  | { readonly kind: 'Unprocessable'; readonly code: 'unknown_user' | 'own_account'; readonly detail: string }
  | { readonly kind: 'NotFound'; readonly resource: string }
  | { readonly kind: 'Validation'; readonly errors: readonly FieldError[] }
  | {
      readonly kind: 'Conflict';
      readonly code: 'duplicate_nickname' | 'duplicate_email' | 'duplicate_version' | 'invalid_transition' | 'no_spec' | 'webhook_inactive' | 'duplicate_slug' | 'duplicate_share' | 'email_already_verified';
      readonly detail: string;
    }
  /** A spec part that is not YAML/JSON (400, with position) or too complex to accept safely (400). */
  | { readonly kind: 'UnparseableSpec'; readonly message: string; readonly line: number | null; readonly column: number | null }
  /** Parses, but is not a valid document of an accepted format (422, with the validator's messages); `format`: the format that refused it. */
  | { readonly kind: 'InvalidSpec'; readonly errors: readonly FieldError[]; readonly format?: SpecFormat | undefined }
  /** A spec update the API's breaking-change policy refuses (409), with the changes that break. */
  | { readonly kind: 'BreakingChange'; readonly refusal: PolicyRefusal; readonly counts: ChangeCounts; readonly items: readonly Change[] }
  /** The account's plan does not allow the write (403): a quota reached, or no private APIs on it. */
  | PlanLimitExceeded
  /** `actual` is null when another writer changed it between our read and our write. */
  | { readonly kind: 'RevisionConflict'; readonly expected: number; readonly actual: number | null };

export const notFound = (resource: string): ApplicationError => ({ kind: 'NotFound', resource });

export const invalid = (errors: FieldError | readonly FieldError[]): ApplicationError => ({
  kind: 'Validation',
  errors: Array.isArray(errors) ? errors : [errors as FieldError],
});
