import { IsDefined, IsOptional } from 'class-validator';
import type { Context, Middleware } from 'koa';
import type { PageCursor } from '../../application/ports/page-repository.port.js';
import type { CreatePage, DeletePage, GetPage, ListPages, UpdatePage } from '../../application/pages/pages.use-cases.js';
import { principalOf } from './authenticate.js';
import { listBody, page } from './pagination.js';
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { jsonObjectBody, validated } from './validation.js';

/** Types and rules are the domain's (title, slug, Markdown body, position); here only presence. */
class CreatePageBody {
  @IsDefined() title!: unknown;
  @IsDefined() slug!: unknown;
  @IsDefined() body!: unknown;
  @IsOptional() position?: unknown;
}

class UpdatePageBody {
  @IsOptional() title?: unknown;
  @IsOptional() slug?: unknown;
  @IsOptional() body?: unknown;
  @IsOptional() position?: unknown;
}

export interface PageUseCases {
  readonly list: ListPages;
  readonly create: CreatePage;
  readonly get: GetPage;
  readonly update: UpdatePage;
  readonly delete: DeletePage;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function isPageCursor(after: unknown): after is PageCursor {
  const cursor = after as Partial<PageCursor> | null;
  return typeof cursor === 'object' && cursor !== null && Number.isSafeInteger(cursor.position) && typeof cursor.id === 'string' && UUID.test(cursor.id);
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId') };
}

export function pageRoutes(useCases: PageUseCases, jsonBody: Middleware): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/pages',
      scope: 'api_page.readonly',
      summary: "The API's pages and guides, by position",
      handler: async (ctx) => {
        const found = unwrap(await useCases.list.execute(principalOf(ctx), { ...target(ctx), page: page(ctx, isPageCursor) }));
        ctx.body = listBody(found.items, found.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId/:apiId/pages',
      scope: 'api_page',
      summary: 'Add a Markdown page (after the last one unless a position is given)',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const { accountId, apiId } = target(ctx);
        const created = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, apiId, ...validated(CreatePageBody, jsonObjectBody(ctx)) }));
        ctx.status = 201;
        ctx.set('Location', `/api/${accountId}/${apiId}/pages/${created.id}`);
        ctx.body = created;
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/pages/:pageId',
      scope: 'api_page.readonly',
      summary: 'One page, its Markdown exactly as written',
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'pageId') }));
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId/pages/:pageId',
      scope: 'api_page',
      summary: 'Change title, slug, body or position',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const changes = validated(UpdatePageBody, jsonObjectBody(ctx));
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'pageId'), changes }));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/pages/:pageId',
      scope: 'api_page',
      summary: 'Delete a page',
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'pageId') }));
        ctx.status = 204;
      },
    },
  ];
}
