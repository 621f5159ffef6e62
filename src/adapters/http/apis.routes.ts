import { IsDefined, IsOptional, IsString } from 'class-validator';
import type { Context } from 'koa';
import type { CreateApi } from '../../application/apis/create-api.use-case.js';
import type { DeleteApi } from '../../application/apis/delete-api.use-case.js';
import type { GetApi } from '../../application/apis/get-api.use-case.js';
import type { ListApis } from '../../application/apis/list-apis.use-case.js';
import type { UpdateApi } from '../../application/apis/update-api.use-case.js';
import type { ApiRecord } from '../../domain/api/api.aggregate.js';
import { principalOf } from './authenticate.js';
import { expectedRevision } from './conditional.js';
import { listBody, pageRequest } from './pagination.js';
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { jsonObjectBody, validated } from './validation.js';
import type { Middleware } from 'koa';

class CreateApiBody {
  @IsDefined() @IsString() name!: string;
  @IsDefined() @IsString() nickname!: string;
  @IsOptional() @IsString() type?: string;
}

class UpdateApiBody {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsString() nickname?: string;
  @IsOptional() @IsString() type?: string;
  @IsOptional() @IsString() breakingChangePolicy?: string;
}

export interface ApiUseCases {
  readonly create: CreateApi;
  readonly list: ListApis;
  readonly get: GetApi;
  readonly update: UpdateApi;
  readonly delete: DeleteApi;
}

function sendApi(ctx: Context, api: ApiRecord, status = 200): void {
  ctx.status = status;
  ctx.set('ETag', `"${api.revision}"`);
  ctx.body = api;
}

export function apiRoutes(useCases: ApiUseCases, jsonBody: Middleware): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId',
      scope: 'api.readonly',
      summary: 'List the APIs of an account',
      handler: async (ctx) => {
        const page = unwrap(await useCases.list.execute(principalOf(ctx), accountIdParam(ctx), pageRequest(ctx)));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId',
      scope: 'api',
      summary: 'Create an empty API',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const body = validated(CreateApiBody, jsonObjectBody(ctx));
        const api = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, ...body }));
        ctx.set('Location', `/api/${accountId}/${api.id}`);
        sendApi(ctx, api, 201);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId',
      scope: 'api.readonly',
      summary: 'Get one API',
      handler: async (ctx) => {
        sendApi(ctx, unwrap(await useCases.get.execute(principalOf(ctx), accountIdParam(ctx), param(ctx, 'apiId'))));
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId',
      scope: 'api',
      summary: 'Update name, nickname or type (If-Match optional)',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const changes = validated(UpdateApiBody, jsonObjectBody(ctx));
        const input = { accountId, apiId: param(ctx, 'apiId'), changes, expectedRevision: expectedRevision(ctx) };
        sendApi(ctx, unwrap(await useCases.update.execute(principalOf(ctx), input)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId',
      scope: 'api',
      summary: 'Delete an API',
      ownerOnly: true,
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), accountIdParam(ctx), param(ctx, 'apiId')));
        ctx.status = 204;
      },
    },
  ];
}
