import { err, ok, type Result } from '../shared/result.js';
import type { PlanName } from './account.aggregate.js';

/** What is counted against a plan: per account, except pages (per API) and the import size (per document). */
export const QUOTAS = ['apis', 'webhooks', 'apiTokens', 'pagesPerApi', 'importBytes'] as const;
export type Quota = (typeof QUOTAS)[number];

/** What a plan allows: private APIs or not, and a ceiling per quota (null: none). */
export interface PlanAllowance {
  readonly privateApis: boolean;
  readonly quotas: Readonly<Record<Quota, number | null>>;
}

export type PlanAllowances = Readonly<Record<PlanName, PlanAllowance>>;

/**
 * The defaults, which an operator's configuration overrides (docs/configuration.md). Webhooks: 30
 * per account on every plan, as the seed's product has it. The free plan is for trying Specbase
 * and for public APIs; the private plan has room for a team.
 */
export const DEFAULT_PLAN_ALLOWANCES: PlanAllowances = {
  free: { privateApis: false, quotas: { apis: 10, webhooks: 30, apiTokens: 10, pagesPerApi: 20, importBytes: 5 * 1024 * 1024 } },
  private: { privateApis: true, quotas: { apis: null, webhooks: 30, apiTokens: 100, pagesPerApi: 200, importBytes: null } },
};

/** A plan refused a write: which limit, its ceiling and where the account stands. */
export interface PlanLimitExceeded {
  readonly kind: 'PlanLimit';
  readonly plan: PlanName;
  /** `privateApis`: the plan has no private APIs (`limit` 0, `current` the private APIs kept from before). */
  readonly quota: Quota | 'privateApis';
  readonly limit: number;
  /** What the account has (for `importBytes`: the document's size). */
  readonly current: number;
}

/** Whether one more (`adding` more) fits: `current + adding` at most the plan's ceiling. */
export function checkQuota(allowances: PlanAllowances, plan: PlanName, quota: Exclude<Quota, 'importBytes'>, current: number, adding = 1): Result<void, PlanLimitExceeded> {
  const limit = allowances[plan].quotas[quota];
  return limit === null || current + adding <= limit ? ok() : err({ kind: 'PlanLimit', plan, quota, limit, current });
}

/** Whether a document of `bytes` may be imported on the plan. */
export function checkImportSize(allowances: PlanAllowances, plan: PlanName, bytes: number): Result<void, PlanLimitExceeded> {
  const limit = allowances[plan].quotas.importBytes;
  return limit === null || bytes <= limit ? ok() : err({ kind: 'PlanLimit', plan, quota: 'importBytes', limit, current: bytes });
}

/** Whether the plan takes a new private API (or an API made private); `current`: the account's private APIs. */
export function checkPrivateApi(allowances: PlanAllowances, plan: PlanName, current: number): Result<void, PlanLimitExceeded> {
  return allowances[plan].privateApis ? ok() : err({ kind: 'PlanLimit', plan, quota: 'privateApis', limit: 0, current });
}
