import { err, ok, type Result } from '../../shared/result.js';
import type { Change, ChangeCounts } from './change.js';

/**
 * What an API does with a spec that breaks clients of the current one: takes it (`allow`), takes it
 * only as a release of a new major version (`requireMajor`), or refuses it (`refuse`). An override
 * with a reason (`?allowBreaking=<reason>`) takes it whatever the policy.
 */
export const BREAKING_CHANGE_POLICIES = ['allow', 'requireMajor', 'refuse'] as const;
export type BreakingChangePolicy = (typeof BREAKING_CHANGE_POLICIES)[number];

/** `counted`: the breaking changes the policy weighed (all but the removals after sunset an API lets through). */
export type PolicyRefusal =
  /** `refuse`: no breaking change without an override. */
  | { readonly kind: 'BreakingChangeRefused'; readonly policy: 'refuse'; readonly counted: number }
  /** `requireMajor`: only with a release whose major version is above every existing release's. */
  | { readonly kind: 'MajorReleaseRequired'; readonly policy: 'requireMajor'; readonly counted: number; readonly release: string | null; readonly highestMajor: number | null };

/** The major version of a release label: its leading number, after an optional `v` (`2.1.0`, `v3`, `2026.11`); null for labels without one. */
export function majorOf(version: string): number | null {
  const match = /^v?(0|[1-9][0-9]{0,14})(?:[.+-]|$)/i.exec(version);
  return match ? Number(match[1]) : null;
}

/** Whether a change is one an API with `allowRemovalAfterSunset` lets through: exactly an operation removed after its sunset. */
export function isRemovalAfterSunset(change: Change): boolean {
  return change.rule === 'endpoint-removed' && change.level === 'breaking' && change.afterSunset === true;
}

/**
 * How many of `changes` the policy weighs: every breaking one, less the removals after their
 * sunset when `allowRemovalAfterSunset`. `items` may hold only the first of the changes (breaking
 * ones first, `counts` counting all): one that is not there is not known to be such a removal, so
 * it counts.
 */
export function breakingThatCount(changes: { readonly counts: ChangeCounts; readonly items: readonly Change[] }, allowRemovalAfterSunset: boolean): number {
  if (!allowRemovalAfterSunset) return changes.counts.breaking;
  return changes.counts.breaking - changes.items.filter(isRemovalAfterSunset).length;
}

/**
 * Whether a new spec may be stored. `changes`: what it changes against the current spec;
 * `allowRemovalAfterSunset`: the API lets operations removed after their sunset through whatever
 * its policy (they stay breaking changes; any other breaking change still meets the policy);
 * `release`: the version it is also released as, if any; `releases`: the labels of the API's
 * releases; `override`: the reason given to take it anyway.
 */
export function checkBreakingChangePolicy(input: {
  readonly policy: BreakingChangePolicy;
  readonly allowRemovalAfterSunset: boolean;
  readonly changes: { readonly counts: ChangeCounts; readonly items: readonly Change[] };
  readonly release: string | undefined;
  readonly releases: readonly string[];
  readonly override: string | undefined;
}): Result<void, PolicyRefusal> {
  const counted = breakingThatCount(input.changes, input.allowRemovalAfterSunset);
  if (counted === 0 || input.override !== undefined || input.policy === 'allow') return ok();
  if (input.policy === 'refuse') return err({ kind: 'BreakingChangeRefused', policy: 'refuse', counted });
  const majors = input.releases.map(majorOf).filter((m): m is number => m !== null);
  const highestMajor = majors.length === 0 ? null : Math.max(...majors);
  const major = input.release === undefined ? null : majorOf(input.release);
  if (major !== null && (highestMajor === null || major > highestMajor)) return ok();
  return err({ kind: 'MajorReleaseRequired', policy: 'requireMajor', counted, release: input.release ?? null, highestMajor });
}
