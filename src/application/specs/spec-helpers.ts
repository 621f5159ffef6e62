import type { Api, ApiId } from '../../domain/api/api.aggregate.js';
import type { Actor } from '../../domain/events/domain-event.js';
import { isValidVersion, Release, type ReleaseId } from '../../domain/release/release.aggregate.js';
import { countChanges, type Change } from '../../domain/spec/changes/change.js';
import type { ChangeLevel } from '../../domain/spec/changes/rules.js';
import { classifyChanges } from '../../domain/spec/changes/classify.js';
import type { JsonObject } from '../../domain/spec/spec-document.js';
import { dayOf } from '../../domain/shared/time.js';
import type { ReleaseChanges } from '../ports/release-repository.port.js';

import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ParsedSpec, SpecError } from '../ports/spec-codec.port.js';
import type { StoredChanges, StoredSpec } from '../ports/spec-repository.port.js';
import type { Transaction } from '../ports/unit-of-work.port.js';
import type { ChangeSettings } from './change-settings.js';
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

const NO_CHANGES: StoredChanges = { counts: { breaking: 0, warning: 0, info: 0 }, items: [] };

/**
 * The changes from one stored spec to another: none when the texts are the same, else the
 * classifier's; `settings.maxItems` of them at most, breaking ones first (`truncated` when there
 * were more). `on`: when `newer` took the place of `older` (now for an update; when it was stored
 * or released for one that was), the day an operation's removal is judged against its sunset.
 */
export function changesBetween(older: StoredSpec, newer: { readonly documentJson: string; readonly document?: JsonObject }, settings: ChangeSettings, on: Date): StoredChanges {
  if (older.documentJson === newer.documentJson) return NO_CHANGES;
  const items = classifyChanges(JSON.parse(older.documentJson) as JsonObject, newer.document ?? (JSON.parse(newer.documentJson) as JsonObject), { today: dayOf(on) });
  return capped({ counts: countChanges(items), items }, settings);
}

/**
 * `changes` with `settings.maxItems` items at most, breaking ones first (`truncated` when cut).
 * Changes recorded before the limit, or under a higher one, are cut so when read.
 */
export function capped<T extends StoredChanges>(changes: T, settings: ChangeSettings): T {
  return changes.items.length > settings.maxItems ? { ...changes, items: firstOf(changes.items, settings.maxItems), truncated: true } : changes;
}

const LEVELS: readonly ChangeLevel[] = ['breaking', 'warning', 'info'];

/** `max` of `items`, the breaking ones first, then warnings, then the rest, in their order: a refusal always shows what broke. */
function firstOf(items: readonly Change[], max: number): Change[] {
  const kept = new Set<Change>();
  for (const level of LEVELS) {
    for (const item of items) {
      if (kept.size === max) break;
      if (item.level === level) kept.add(item);
    }
  }
  return items.filter((item) => kept.has(item));
}

/** What `snapshot`, released `on`, changes since the release before it (`previous`), or nothing for a first release. */
export async function changesSinceRelease(
  tx: Pick<Transaction, 'releases'>,
  apiId: ApiId,
  previous: Release | undefined,
  snapshot: StoredSpec & { readonly document?: JsonObject },
  settings: ChangeSettings,
  on: Date,
): Promise<ReleaseChanges> {
  const before = previous && (await tx.releases.snapshot(apiId, previous.version));
  if (!previous || !before) return { since: null, ...NO_CHANGES };
  return { since: previous.version, ...changesBetween(before, snapshot, settings, on) };
}

export const RELEASE_LABEL_RULE = 'must be 1-64 of A-Z, a-z, 0-9, ".", "_", "+", "-", starting with a letter or digit, to be a release label';

/** The error of a release label the rules refuse: a request field (`Validation`), or `info.version` of the document (`InvalidSpec`). */
export function releaseLabelError(field: string): ApplicationError {
  const error = { field, message: RELEASE_LABEL_RULE };
  return field === 'info.version' ? { kind: 'InvalidSpec', errors: [error] } : { kind: 'Validation', errors: [error] };
}

/**
 * Releases `snapshot` (the API's current spec, stored at API revision `revision`) as `version`
 * inside `tx`, with what it changed since the previous release and its event. `field` names the
 * input the version came from, for a validation error.
 */
export async function releaseSpec(
  tx: Transaction,
  input: {
    readonly releaseId: ReleaseId;
    readonly api: Api;
    readonly version: unknown;
    readonly actor: Actor;
    readonly snapshot: StoredSpec;
    /** The snapshot parsed, when the caller has it. */
    readonly document?: JsonObject;
    readonly revision: number;
    /** Where the label came from: a request field (400), or `info.version` of the document (422). */
    readonly field: string;
  },
  now: Date,
  settings: ChangeSettings,
): Promise<Result<Release, ApplicationError>> {
  if (!isValidVersion(input.version)) return err(releaseLabelError(input.field));
  const changes = await changesSinceRelease(tx, input.api.id, await tx.releases.latest(input.api.id), { ...input.snapshot, ...(input.document ? { document: input.document } : {}) }, settings, now);
  const summary = { since: changes.since, breaking: changes.counts.breaking > 0, counts: changes.counts };
  const released = Release.release({ id: input.releaseId, api: input.api.asReleased(), version: input.version, actor: input.actor, changes: summary }, now);
  if (!released.ok) return err(releaseLabelError(input.field));
  const release = released.value;
  const added = await tx.releases.add(release, input.snapshot, input.revision, changes);
  if (!added.ok) return err({ kind: 'DuplicateVersion', version: release.version });
  await tx.outbox.append(release.pullEvents());
  return ok(release);
}
