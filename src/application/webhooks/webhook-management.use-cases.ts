import type { AccountId } from '../../domain/account/account.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { checkTargetUrl, Webhook, type WebhookError, type WebhookId, type WebhookRecord } from '../../domain/webhook/webhook.aggregate.js';
import { authorize, type Principal } from '../auth/principal.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { TokenGenerator } from '../ports/token-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { WebhookRepository } from '../ports/webhook-repository.port.js';
import type { WebhookTargetPolicy } from '../ports/webhook-sender.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page, PageRequest } from '../shared/page.js';
import type { Plans } from '../accounts/plans.js';

function invalid(error: WebhookError): ApplicationError {
  return { kind: 'Validation', errors: [{ field: error.field, message: error.message }] };
}

async function refusedTarget(policy: WebhookTargetPolicy, targetUrl: unknown): Promise<ApplicationError | undefined> {
  if (typeof targetUrl !== 'string') return undefined;
  const refusal = await policy.refusal(targetUrl);
  return refusal === null ? undefined : { kind: 'Validation', errors: [{ field: 'targetUrl', message: refusal }] };
}

export interface CreatedWebhook {
  readonly webhook: WebhookRecord;
  /** Only when the service generated it: shown this once. */
  readonly secret: string | null;
}

/** Creates a webhook (inactive unless asked); the secret is the caller's or generated and shown once. */
export class CreateWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly ids: IdGenerator,
    private readonly generator: TokenGenerator,
    private readonly policy: WebhookTargetPolicy,
    private readonly clock: Clock,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly targetUrl: unknown; readonly events: unknown; readonly secret?: unknown; readonly active?: boolean | undefined },
  ): Promise<Result<CreatedWebhook, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    const generated = input.secret === undefined ? this.generator.webhookSecret() : null;
    const created = Webhook.create({ ...input, id: this.ids.next(), secret: generated ?? input.secret }, this.clock.now());
    if (!created.ok) return err(invalid(created.error));
    const refused = await refusedTarget(this.policy, input.targetUrl);
    if (refused) return err(refused);
    const webhook = created.value;
    return this.uow.run(async (tx): Promise<Result<CreatedWebhook, ApplicationError>> => {
      const admitted = await this.plans.admitWebhook(tx, input.accountId);
      if (!admitted.ok) return admitted;
      await tx.webhooks.save(webhook);
      return ok({ webhook: webhook.toRecord(), secret: generated });
    });
  }
}

export class ListWebhooks {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(principal: Principal, accountId: AccountId, page: PageRequest<WebhookId>): Promise<Result<Page<WebhookRecord, WebhookId>, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'read', accountId);
    if (!allowed.ok) return allowed;
    const found = await this.webhooks.list(accountId, page);
    return ok({ items: found.items.map((w) => w.toRecord()), next: found.next });
  }
}

export class GetWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(principal: Principal, accountId: AccountId, id: WebhookId): Promise<Result<WebhookRecord, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'read', accountId);
    if (!allowed.ok) return allowed;
    const webhook = await this.webhooks.get(accountId, id);
    return webhook ? ok(webhook.toRecord()) : err(notFound('webhook'));
  }
}

/** Changes target URL, events and/or secret. */
export class UpdateWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly policy: WebhookTargetPolicy,
    private readonly clock: Clock,
  ) {}

  async execute(
    principal: Principal,
    input: { readonly accountId: AccountId; readonly id: WebhookId; readonly targetUrl?: unknown; readonly events?: unknown; readonly secret?: unknown },
  ): Promise<Result<WebhookRecord, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    // DNS is slow and may hang: vet the target before the transaction (and its locks) opens.
    if (input.targetUrl !== undefined) {
      const shape = checkTargetUrl(input.targetUrl);
      if (!shape.ok) return err(invalid(shape.error));
      const refused = await refusedTarget(this.policy, input.targetUrl);
      if (refused) return err(refused);
    }
    return this.uow.run(async (tx): Promise<Result<WebhookRecord, ApplicationError>> => {
      const webhook = await tx.webhooks.getForUpdate(input.accountId, input.id);
      if (!webhook) return err(notFound('webhook'));
      const updated = webhook.update(input, this.clock.now());
      if (!updated.ok) return err(invalid(updated.error));
      await tx.webhooks.save(webhook);
      return ok(webhook.toRecord());
    });
  }
}

export class DeleteWebhook {
  constructor(private readonly uow: UnitOfWork) {}

  async execute(principal: Principal, accountId: AccountId, id: WebhookId): Promise<Result<void, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', accountId);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      const webhook = await tx.webhooks.getForUpdate(accountId, id);
      if (!webhook) return err(notFound('webhook'));
      await tx.webhooks.delete(accountId, id);
      return ok();
    });
  }
}

/** Activates or deactivates a webhook (an owner's deactivation carries no reason). */
export class SetWebhookActive {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: { readonly accountId: AccountId; readonly id: WebhookId; readonly active: boolean }): Promise<Result<WebhookRecord, ApplicationError>> {
    const allowed = authorize(principal, 'webhook', 'write', input.accountId);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<WebhookRecord, ApplicationError>> => {
      const webhook = await tx.webhooks.getForUpdate(input.accountId, input.id);
      if (!webhook) return err(notFound('webhook'));
      if (input.active) webhook.activate(this.clock.now());
      else webhook.deactivate(null, this.clock.now());
      await tx.webhooks.save(webhook);
      return ok(webhook.toRecord());
    });
  }
}
