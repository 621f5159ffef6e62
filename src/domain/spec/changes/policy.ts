import { err, ok, type Result } from '../../shared/result.js';

/**
 * What an API does with a spec that breaks clients of the current one: takes it (`allow`), takes it
 * only as a release of a new major version (`requireMajor`), or refuses it (`refuse`). An override
 * with a reason (`?allowBreaking=<reason>`) takes it whatever the policy.
 */
export const BREAKING_CHANGE_POLICIES = ['allow', 'requireMajor', 'refuse'] as const;
export type BreakingChangePolicy = (typeof BREAKING_CHANGE_POLICIES)[number];

export type PolicyRefusal =
  /** `refuse`: no breaking change without an override. */
  | { readonly kind: 'BreakingChangeRefused'; readonly policy: 'refuse' }
  /** `requireMajor`: only with a release whose major version is above every existing release's. */
  | { readonly kind: 'MajorReleaseRequired'; readonly policy: 'requireMajor'; readonly release: string | null; readonly highestMajor: number | null };

/** The major version of a release label: its leading number, after an optional `v` (`2.1.0`, `v3`, `2026.11`); null for labels without one. */
export function majorOf(version: string): number | null {
  const match = /^v?(0|[1-9][0-9]{0,14})(?:[.+-]|$)/i.exec(version);
  return match ? Number(match[1]) : null;
}

/**
 * Whether a new spec may be stored. `breaking`: it has breaking changes against the current spec;
 * `release`: the version it is also released as, if any; `releases`: the labels of the API's
 * releases; `override`: the reason given to take it anyway.
 */
export function checkBreakingChangePolicy(input: {
  readonly policy: BreakingChangePolicy;
  readonly breaking: boolean;
  readonly release: string | undefined;
  readonly releases: readonly string[];
  readonly override: string | undefined;
}): Result<void, PolicyRefusal> {
  if (!input.breaking || input.override !== undefined || input.policy === 'allow') return ok();
  if (input.policy === 'refuse') return err({ kind: 'BreakingChangeRefused', policy: 'refuse' });
  const majors = input.releases.map(majorOf).filter((m): m is number => m !== null);
  const highestMajor = majors.length === 0 ? null : Math.max(...majors);
  const major = input.release === undefined ? null : majorOf(input.release);
  if (major !== null && (highestMajor === null || major > highestMajor)) return ok();
  return err({ kind: 'MajorReleaseRequired', policy: 'requireMajor', release: input.release ?? null, highestMajor });
}
