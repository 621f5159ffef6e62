import type { AccountId } from '../../domain/account/account.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { Page, type PageChanges, type PageError, type PageId, type PageRecord } from '../../domain/page/page.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { Principal } from '../auth/principal.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { PageCursor, PageRepository } from '../ports/page-repository.port.js';
import type { Transaction, UnitOfWork } from '../ports/unit-of-work.port.js';
import { notFound, type ApplicationError } from '../shared/application-error.js';
import type { Page as ListPage, PageRequest } from '../shared/page.js';
import type { Plans } from '../accounts/plans.js';

interface PageTarget {
  readonly accountId: AccountId;
  readonly apiId: ApiId;
}

function invalid(error: PageError): ApplicationError {
  return { kind: 'Validation', errors: [{ field: error.field, message: error.message }] };
}

async function saved(tx: Transaction, page: Page): Promise<Result<PageRecord, ApplicationError>> {
  const result = await tx.pages.save(page);
  if (!result.ok) return err({ kind: 'DuplicateSlug', slug: page.slug });
  return ok(page.toRecord());
}

/** An API's pages by position (scope api_page.readonly). */
export class ListPages {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly pages: PageRepository,
  ) {}

  async execute(principal: Principal, input: PageTarget & { readonly page: PageRequest<PageCursor> }): Promise<Result<ListPage<PageRecord, PageCursor>, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_page', 'read', input);
    if (!allowed.ok) return allowed;
    if (!(await this.apis.get(input.accountId, input.apiId))) return err(notFound('api'));
    const found = await this.pages.list(input.apiId, input.page);
    return ok({ items: found.items.map((p) => p.toRecord()), next: found.next });
  }
}

export class GetPage {
  constructor(
    private readonly access: ApiAccess,
    private readonly apis: ApiRepository,
    private readonly pages: PageRepository,
  ) {}

  async execute(principal: Principal, input: PageTarget & { readonly id: PageId }): Promise<Result<PageRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_page', 'read', input);
    if (!allowed.ok) return allowed;
    if (!(await this.apis.get(input.accountId, input.apiId))) return err(notFound('api'));
    const page = await this.pages.get(input.apiId, input.id);
    return page ? ok(page.toRecord()) : err(notFound('page'));
  }
}

/** A new Markdown page, if the plan of the API's account has room for it; without a position it goes after the last one. */
export class CreatePage {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly plans: Plans,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: PageTarget & PageChanges): Promise<Result<PageRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_page', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<PageRecord, ApplicationError>> => {
      if (!(await tx.apis.getForUpdate(input.accountId, input.apiId))) return err(notFound('api'));
      const position = input.position ?? (await tx.pages.nextPosition(input.apiId));
      const created = Page.create(
        { id: this.ids.next(), apiId: input.apiId, accountId: input.accountId, title: input.title, slug: input.slug, body: input.body, position },
        this.clock.now(),
      );
      if (!created.ok) return err(invalid(created.error));
      const admitted = await this.plans.admitPage(tx, input.accountId, input.apiId);
      if (!admitted.ok) return admitted;
      return saved(tx, created.value);
    });
  }
}

export class UpdatePage {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, input: PageTarget & { readonly id: PageId; readonly changes: PageChanges }): Promise<Result<PageRecord, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_page', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<PageRecord, ApplicationError>> => {
      if (!(await tx.apis.getForUpdate(input.accountId, input.apiId))) return err(notFound('api'));
      const page = await tx.pages.get(input.apiId, input.id);
      if (!page) return err(notFound('page'));
      const updated = page.update(input.changes, this.clock.now());
      if (!updated.ok) return err(invalid(updated.error));
      return saved(tx, page);
    });
  }
}

export class DeletePage {
  constructor(
    private readonly access: ApiAccess,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(principal: Principal, input: PageTarget & { readonly id: PageId }): Promise<Result<void, ApplicationError>> {
    const allowed = await this.access.check(principal, 'api_page', 'write', input);
    if (!allowed.ok) return allowed;
    return this.uow.run(async (tx): Promise<Result<void, ApplicationError>> => {
      if (!(await tx.apis.getForUpdate(input.accountId, input.apiId))) return err(notFound('api'));
      if (!(await tx.pages.get(input.apiId, input.id))) return err(notFound('page'));
      await tx.pages.delete(input.apiId, input.id);
      return ok();
    });
  }
}
