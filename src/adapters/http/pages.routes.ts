import type { Context } from 'koa';
import type { PageCursor } from '../../application/ports/page-repository.port.js';
import type { CreatePage, DeletePage, GetPage, ListPages, UpdatePage } from '../../application/pages/pages.use-cases.js';
import { principalOf } from './authenticate.js';
import { listBody, page } from './pagination.js';
import { pathId, accountIdParam, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { HEADERS, json, jsonBody, LIST_PARAMETERS, LIST_PROBLEMS, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';

/** Types and rules are the domain's (title, slug, Markdown body, position); here only presence. */
interface CreatePageBody {
  title: unknown;
  slug: unknown;
  body: unknown;
  position?: unknown;
}

interface UpdatePageBody {
  title?: unknown;
  slug?: unknown;
  body?: unknown;
  position?: unknown;
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
  return { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId') };
}

export function pageRoutes(useCases: PageUseCases): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/pages',
      scope: 'api_page.readonly',
      summary: "The API's pages and guides, by position",
      operationId: 'listPages',
      tag: 'Pages',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of pages, by position.', ref('PageList')) },
      problems: LIST_PROBLEMS,
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
      operationId: 'createPage',
      tag: 'Pages',
      requestBody: jsonBody(ref('CreatePage')),
      responses: { 201: json('The page.', ref('Page'), HEADERS.location) },
      problems: ['duplicate_slug', 'forbidden', 'plan_limit'],
      handler: async (ctx) => {
        const { accountId, apiId } = target(ctx);
        const created = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, apiId, ...jsonInput<CreatePageBody>(ctx) }));
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
      operationId: 'getPage',
      tag: 'Pages',
      responses: { 200: json('The page.', ref('Page')) },
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'pageId') }));
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId/pages/:pageId',
      scope: 'api_page',
      summary: 'Change title, slug, body or position',
      operationId: 'updatePage',
      tag: 'Pages',
      requestBody: jsonBody(ref('UpdatePage')),
      responses: { 200: json('The page as it is now.', ref('Page')) },
      problems: ['duplicate_slug', 'forbidden'],
      handler: async (ctx) => {
        const changes = jsonInput<UpdatePageBody>(ctx);
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'pageId'), changes }));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/pages/:pageId',
      scope: 'api_page',
      summary: 'Delete a page',
      operationId: 'deletePage',
      tag: 'Pages',
      responses: { 204: noBody('Deleted.') },
      problems: ['forbidden'],
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'pageId') }));
        ctx.status = 204;
      },
    },
  ];
}
