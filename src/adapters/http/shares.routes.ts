import type { Context } from 'koa';
import type { CreateShare, DeleteShare, GetShare, ListShares, UpdateShare } from '../../application/shares/shares.use-cases.js';
import { principalOf } from './authenticate.js';
import { listBody, pageRequest } from './pagination.js';
import { pathId, accountIdParam, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { HEADERS, json, jsonBody, LIST_PARAMETERS, LIST_PROBLEMS, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';

/** Types and rules are the domain's and the use case's (e-mail, role); here only presence. */
interface CreateShareBody {
  email: unknown;
  role: unknown;
}

interface UpdateShareBody {
  role: unknown;
}

export interface ShareUseCases {
  readonly list: ListShares;
  readonly create: CreateShare;
  readonly get: GetShare;
  readonly update: UpdateShare;
  readonly delete: DeleteShare;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId') };
}

export function shareRoutes(useCases: ShareUseCases): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/shares',
      scope: 'api_share.readonly',
      summary: 'Who the API is shared with, in creation order',
      operationId: 'listShares',
      tag: 'Shares',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of shares, in creation order.', ref('ShareList')) },
      problems: [...LIST_PROBLEMS, 'forbidden'],
      handler: async (ctx) => {
        const found = unwrap(await useCases.list.execute(principalOf(ctx), { ...target(ctx), page: pageRequest(ctx) }));
        ctx.body = listBody(found.items, found.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId/:apiId/shares',
      scope: 'api_share',
      ownerOnly: 'createShare',
      summary: 'Share the API with a user of another account, by e-mail, as viewer or editor',
      operationId: 'createShare',
      tag: 'Shares',
      description: 'Shares the API with the user of another account who has this e-mail address.',
      requestBody: jsonBody(ref('CreateShare')),
      responses: { 201: json('The share.', ref('Share'), HEADERS.location) },
      problems: ['forbidden', 'duplicate_share', 'unknown_user', 'own_account'],
      handler: async (ctx) => {
        const { accountId, apiId } = target(ctx);
        const created = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, apiId, ...jsonInput<CreateShareBody>(ctx) }));
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
      operationId: 'getShare',
      tag: 'Shares',
      responses: { 200: json('The share.', ref('Share')) },
      problems: ['forbidden'],
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'shareId') }));
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId/shares/:shareId',
      scope: 'api_share',
      ownerOnly: 'updateShare',
      summary: "Change a share's role",
      operationId: 'updateShare',
      tag: 'Shares',
      requestBody: jsonBody(ref('UpdateShare')),
      responses: { 200: json('The share as it is now.', ref('Share')) },
      problems: ['forbidden'],
      handler: async (ctx) => {
        const { role } = jsonInput<UpdateShareBody>(ctx);
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'shareId'), role }));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/shares/:shareId',
      scope: 'api_share',
      ownerOnly: 'deleteShare',
      summary: 'Revoke a share: the grantee loses access at once',
      operationId: 'deleteShare',
      tag: 'Shares',
      description: 'The grantee loses access with their next request.',
      responses: { 204: noBody('Revoked.') },
      problems: ['forbidden'],
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), { ...target(ctx), id: pathId(ctx, 'shareId') }));
        ctx.status = 204;
      },
    },
  ];
}
