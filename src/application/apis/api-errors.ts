import type { Api, ApiError } from '../../domain/api/api.aggregate.js';
import type { ApiSaveError } from '../ports/api-repository.port.js';
import type { ApplicationError } from '../shared/application-error.js';

export function apiErrorToApplication(error: ApiError): ApplicationError {
  switch (error.kind) {
    case 'InvalidField':
      return { kind: 'Validation', errors: [{ field: error.field, message: error.message }] };
    case 'RevisionMismatch':
      return { kind: 'RevisionConflict', expected: error.expected, actual: error.actual };
  }
}

export function apiSaveErrorToApplication(error: ApiSaveError, api: Api): ApplicationError {
  switch (error.kind) {
    case 'DuplicateNickname':
      return { kind: 'DuplicateNickname', nickname: api.nickname };
    case 'ConcurrentModification':
      return { kind: 'RevisionConflict', expected: api.storedRevision ?? 0, actual: null };
  }
}
