import type { Api } from '../../domain/api/api.aggregate.js';
import type { Actor } from '../../domain/events/domain-event.js';
import { Release } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ParsedSpec, SpecError } from '../ports/spec-codec.port.js';
import type { StoredSpec } from '../ports/spec-repository.port.js';
import type { Transaction } from '../ports/unit-of-work.port.js';
import type { ApplicationError } from '../shared/application-error.js';

export function specErrorToApplication(error: SpecError): ApplicationError {
  switch (error.kind) {
    case 'Unparseable':
      return { kind: 'UnparseableSpec', message: error.message, line: error.line, column: error.column };
    case 'TooComplex':
      return { kind: 'UnparseableSpec', message: error.message, line: null, column: null };
    case 'InvalidSpec':
      return { kind: 'InvalidSpec', errors: error.errors.map((e) => ({ field: e.path, message: e.message })), format: error.format };
  }
}

export function storedOf(spec: ParsedSpec): StoredSpec {
  return { syntax: spec.syntax, source: spec.source, documentJson: spec.documentJson };
}

/**
 * Releases `snapshot` (the API's current spec) as `version` inside `tx`, with its event.
 * `field` names the input the version came from, for a validation error.
 */
export async function releaseSpec(
  tx: Transaction,
  input: {
    readonly releaseId: string;
    readonly api: Api;
    readonly version: unknown;
    readonly actor: Actor;
    readonly snapshot: StoredSpec;
    /** Where the label came from: a request field (400), or `info.version` of the document (422). */
    readonly field: string;
  },
  now: Date,
): Promise<Result<Release, ApplicationError>> {
  const released = Release.release({ id: input.releaseId, api: input.api.asReleased(), version: input.version, actor: input.actor }, now);
  if (!released.ok) {
    const error = { field: input.field, message: 'must be 1-64 of A-Z, a-z, 0-9, ".", "_", "+", "-", starting with a letter or digit, to be a release label' };
    return err(input.field === 'info.version' ? { kind: 'InvalidSpec', errors: [error] } : { kind: 'Validation', errors: [error] });
  }
  const release = released.value;
  const added = await tx.releases.add(release, input.snapshot);
  if (!added.ok) return err({ kind: 'Conflict', code: 'duplicate_version', detail: `the API already has a release ${release.version}` });
  await tx.outbox.append(release.pullEvents());
  return ok(release);
}
