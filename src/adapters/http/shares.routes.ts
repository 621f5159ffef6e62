import { IsDefined } from 'class-validator';
import type { Context, Middleware } from 'koa';
import type { CreateShare, DeleteShare, GetShare, ListShares, UpdateShare } from '../../application/shares/shares.use-cases.js';
import { principalOf } from './authenticate.js';
import { listBody, pageRequest } from './pagination.js';
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { jsonObjectBody, validated } from './validation.js';

/** Types and rules are the domain's and the use case's (e-mail, role); here only presence. */
class CreateShareBody {
  @IsDefined() email!: unknown;
  @IsDefined() role!: unknown;
}

class UpdateShareBody {
  @IsDefined() role!: unknown;
}

export interface ShareUseCases {
  readonly list: ListShares;
  readonly create: CreateShare;
  readonly get: GetShare;
  readonly update: UpdateShare;
  readonly delete: DeleteShare;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId') };
}

export function shareRoutes(useCases: ShareUseCases, jsonBody: Middleware): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/shares',
      scope: 'api_share.readonly',
      summary: 'Who the API is shared with, in creation order',
      handler: async (ctx) => {
        const found = unwrap(await useCases.list.execute(principalOf(ctx), { ...target(ctx), page: pageRequest(ctx) }));
        ctx.body = listBody(found.items, found.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId/:apiId/shares',
      scope: 'api_share',
      ownerOnly: true,
      summary: 'Share the API with a user of another account, by e-mail, as viewer or editor',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const { accountId, apiId } = target(ctx);
        const created = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, apiId, ...validated(CreateShareBody, jsonObjectBody(ctx)) }));
        ctx.status = 201;
        ctx.set('Location', `/api/${accountId}/${apiId}/shares/${created.id}`);
        ctx.body = created;
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/shares/:shareId',
      scope: 'api_share.readonly',
      summary: 'One share',
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'shareId') }));
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId/shares/:shareId',
      scope: 'api_share',
      ownerOnly: true,
      summary: "Change a share's role",
      middleware: [jsonBody],
      handler: async (ctx) => {
        const { role } = validated(UpdateShareBody, jsonObjectBody(ctx));
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'shareId'), role }));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/shares/:shareId',
      scope: 'api_share',
      ownerOnly: true,
      summary: 'Revoke a share: the grantee loses access at once',
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), { ...target(ctx), id: param(ctx, 'shareId') }));
        ctx.status = 204;
      },
    },
  ];
}
