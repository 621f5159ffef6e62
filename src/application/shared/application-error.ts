import type { FieldError } from '../../domain/shared/field-error.js';
import type { Scope } from '../../domain/token/scope.js';

/**
 * Every expected failure a use case returns. The HTTP adapter maps each kind to a status and
 * problem code in one exhaustive switch, so a new kind fails the build until it is mapped.
 */
export type ApplicationError =
  | { readonly kind: 'Unauthenticated' }
  | { readonly kind: 'InsufficientScope'; readonly scope: Scope }
  | { readonly kind: 'EmailNotVerified' }
  | { readonly kind: 'NotFound'; readonly resource: string }
  | { readonly kind: 'Validation'; readonly errors: readonly FieldError[] }
  | { readonly kind: 'Conflict'; readonly code: 'duplicate_nickname' | 'duplicate_email'; readonly detail: string }
  /** `actual` is null when another writer changed it between our read and our write. */
  | { readonly kind: 'RevisionConflict'; readonly expected: number; readonly actual: number | null };

export const notFound = (resource: string): ApplicationError => ({ kind: 'NotFound', resource });

export const invalid = (errors: FieldError | readonly FieldError[]): ApplicationError => ({
  kind: 'Validation',
  errors: Array.isArray(errors) ? errors : [errors as FieldError],
});
