import type { AccountId } from '../../domain/account/account.js';
import type { PlanName } from '../../domain/account/account.aggregate.js';
import { checkImportSize, checkPrivateApi, checkQuota, type PlanAllowances } from '../../domain/account/plan-allowance.js';
import type { ApiId, ApiType } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { AccountRepository } from '../ports/account-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { Transaction } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import { token } from '../shared/token.js';

/** The operator's plan configuration: how long a new account's trial lasts, and what each plan allows. */
export interface PlanSettings {
  /** Days of the Private plan a new account gets (0: new accounts start on the free plan). */
  readonly trialDays: number;
  readonly allowances: PlanAllowances;
}
export const PlanSettings = token<PlanSettings>('PlanSettings');

/**
 * What an account's plan lets it add, checked where the write happens: each `admit...` runs inside
 * the write's transaction and first holds the account (`getForUpdate`), so two requests racing for
 * the last free slot take turns and the second sees the first's row. One method per limit.
 */
export class Plans {
  /** The largest document every plan takes (their smallest `importBytes` ceiling). */
  private readonly importBytesEveryPlanTakes: number;

  constructor(
    private readonly settings: PlanSettings,
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {
    this.importBytesEveryPlanTakes = Math.min(...Object.values(settings.allowances).map((a) => a.quotas.importBytes ?? Infinity));
  }

  /** A new API of `type` in the account: the APIs quota, and private APIs on the plan. */
  async admitApi(tx: Transaction, accountId: AccountId, type: ApiType): Promise<Result<void, ApplicationError>> {
    const plan = await this.hold(tx, accountId);
    if (plan === undefined) return err(notFound('account'));
    const allowance = this.settings.allowances[plan];
    const privateRefused = type === 'private' && !allowance.privateApis;
    // Counted only when the answer depends on it: the Private plan has no ceiling on APIs by default.
    if (allowance.quotas.apis === null && !privateRefused) return ok();
    const counts = await tx.apis.countInAccount(accountId);
    const quota = checkQuota(this.settings.allowances, plan, 'apis', counts.all);
    if (!quota.ok) return quota;
    return type === 'private' ? checkPrivateApi(this.settings.allowances, plan, counts.private) : ok();
  }

  /** An existing API of the account made private. */
  async admitPrivate(tx: Transaction, accountId: AccountId): Promise<Result<void, ApplicationError>> {
    const plan = await this.hold(tx, accountId);
    if (plan === undefined) return err(notFound('account'));
    if (this.settings.allowances[plan].privateApis) return ok();
    return checkPrivateApi(this.settings.allowances, plan, (await tx.apis.countInAccount(accountId)).private);
  }

  async admitWebhook(tx: Transaction, accountId: AccountId): Promise<Result<void, ApplicationError>> {
    const plan = await this.hold(tx, accountId);
    if (plan === undefined) return err(notFound('account'));
    return this.quota(plan, 'webhooks', () => tx.webhooks.countInAccount(accountId));
  }

  async admitApiToken(tx: Transaction, accountId: AccountId): Promise<Result<void, ApplicationError>> {
    const plan = await this.hold(tx, accountId);
    if (plan === undefined) return err(notFound('account'));
    return this.quota(plan, 'apiTokens', () => tx.tokens.countInAccount(accountId));
  }

  /** A new page of an API: counted against the plan of the account that owns the API. */
  async admitPage(tx: Transaction, accountId: AccountId, apiId: ApiId): Promise<Result<void, ApplicationError>> {
    const plan = await this.hold(tx, accountId);
    if (plan === undefined) return err(notFound('account'));
    return this.quota(plan, 'pagesPerApi', () => tx.pages.count(apiId));
  }

  /**
   * A document of `bytes` for an API of the account (import or spec update), checked before it is
   * parsed: the size of one request is nobody else's to race for, so no transaction is needed.
   */
  async admitImportSize(accountId: AccountId, bytes: number): Promise<Result<void, ApplicationError>> {
    // A document no plan refuses needs no read of the account (the CI path: every spec update).
    if (bytes <= this.importBytesEveryPlanTakes) return ok();
    const account = await this.accounts.get(accountId);
    if (!account) return err(notFound('account'));
    return checkImportSize(this.settings.allowances, account.planAt(this.clock.now()).name, bytes);
  }

  /** The quota's check, counting only when the plan has a ceiling for it. */
  private async quota(plan: PlanName, quota: 'webhooks' | 'apiTokens' | 'pagesPerApi', count: () => Promise<number>): Promise<Result<void, ApplicationError>> {
    if (this.settings.allowances[plan].quotas[quota] === null) return ok();
    return checkQuota(this.settings.allowances, plan, quota, await count());
  }

  /** The account's plan now, its row held until the transaction ends; undefined when there is no such account. */
  private async hold(tx: Transaction, accountId: AccountId): Promise<PlanName | undefined> {
    return (await tx.accounts.getForUpdate(accountId))?.planAt(this.clock.now()).name;
  }
}

