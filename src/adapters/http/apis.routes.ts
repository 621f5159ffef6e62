import type { Context } from 'koa';
import type { CreateApi } from '../../application/apis/create-api.use-case.js';
import type { DeleteApi } from '../../application/apis/delete-api.use-case.js';
import type { GetApi } from '../../application/apis/get-api.use-case.js';
import type { ListApis } from '../../application/apis/list-apis.use-case.js';
import type { UpdateApi } from '../../application/apis/update-api.use-case.js';
import type { ApiRecord } from '../../domain/api/api.aggregate.js';
import type { AccountId } from '../../domain/account/account.js';
import { principalOf } from './authenticate.js';
import { expectedRevision } from './conditional.js';
import { pageRequest } from './pagination.js';
import { listJson, recordJson, sendJsonText } from './record-json.js';
import { rememberable } from './remembered-answers.js';
import { pathId, accountIdParam, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { HEADERS, IF_MATCH, json, jsonBody, LIST_PARAMETERS, LIST_PROBLEMS, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';

interface CreateApiBody {
  name: string;
  nickname: string;
  type?: string;
}

interface UpdateApiBody {
  name?: string;
  nickname?: string;
  type?: string;
  breakingChangePolicy?: string;
  allowRemovalAfterSunset?: boolean;
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
  sendJsonText(ctx, recordJson(api));
}

/**
 * The owner's reads may be remembered (ADR 0029): their answer depends on rows whose every change
 * moves the change version on all instances (the APIs, their owner). A grantee's goes through a
 * share, and shares are read on every request, not announced to other PostgreSQL instances.
 */
function rememberOwnersAnswer(ctx: Context, accountId: AccountId): void {
  if (principalOf(ctx).accountId === accountId) rememberable(ctx);
}

export function apiRoutes(useCases: ApiUseCases): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId',
      scope: 'api.readonly',
      summary: 'List the APIs of an account',
      operationId: 'listApis',
      tag: 'APIs',
      description: "The account's APIs, in creation order. For a user of another account: only the APIs shared with them (404 without a share there).",
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of APIs.', ref('ApiList')) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const page = unwrap(await useCases.list.execute(principalOf(ctx), accountId, pageRequest(ctx)));
        sendJsonText(ctx, listJson(page.items, page.next));
        rememberOwnersAnswer(ctx, accountId);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId',
      scope: 'api',
      summary: 'Create an empty API',
      operationId: 'createApi',
      tag: 'APIs',
      description: "Creates an empty API and records `api.created`. Counted against the account's plan (`plan_limit`: the APIs quota, or a private API on the free plan).",
      requestBody: jsonBody(ref('CreateApi')),
      responses: { 201: json('The new API.', ref('Api'), { ...HEADERS.location, ...HEADERS.etag }) },
      problems: ['duplicate_nickname', 'plan_limit'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const body = jsonInput<CreateApiBody>(ctx);
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
      operationId: 'getApi',
      tag: 'APIs',
      responses: { 200: json('The API.', ref('Api'), HEADERS.etag) },
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        sendApi(ctx, unwrap(await useCases.get.execute(principalOf(ctx), accountId, pathId(ctx, 'apiId'))));
        rememberOwnersAnswer(ctx, accountId);
      },
    },
    {
      method: 'PATCH',
      path: '/api/:accountId/:apiId',
      scope: 'api',
      summary: 'Update name, nickname, type or the breaking-change policy (If-Match optional)',
      operationId: 'updateApi',
      tag: 'APIs',
      description: 'Changes any of `name`, `nickname`, `type`, `breakingChangePolicy`, `allowRemovalAfterSunset`; `{}` changes nothing and keeps the revision. A change records `api.updated`. Making an API private needs a plan with private APIs (`plan_limit`). A grantee of a share may change `name` only, as an editor: `nickname`, `type`, `breakingChangePolicy` and `allowRemovalAfterSunset` are the owner’s account’s (403 `forbidden` naming the `field`, nothing changed), and a viewer may change nothing (403 `forbidden`).',
      parameters: [IF_MATCH],
      requestBody: jsonBody(ref('UpdateApi')),
      responses: { 200: json('The API as it is now.', ref('Api'), HEADERS.etag) },
      problems: ['duplicate_nickname', 'revision_conflict', 'forbidden', 'plan_limit'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const changes = jsonInput<UpdateApiBody>(ctx);
        const input = { accountId, apiId: pathId(ctx, 'apiId'), changes, expectedRevision: expectedRevision(ctx) };
        sendApi(ctx, unwrap(await useCases.update.execute(principalOf(ctx), input)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId',
      scope: 'api',
      summary: 'Delete an API',
      operationId: 'deleteApi',
      tag: 'APIs',
      description: 'Deletes the API with its spec, derived resources, releases, pages and shares; records `api.deleted`. Only its own account may.',
      responses: { 204: noBody('Deleted.') },
      problems: ['forbidden'],
      ownerOnly: 'deleteApi',
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), accountIdParam(ctx), pathId(ctx, 'apiId')));
        ctx.status = 204;
      },
    },
  ];
}
