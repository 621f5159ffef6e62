import { IsDefined } from 'class-validator';
import type { Context, Middleware } from 'koa';
import type { ChangeReleaseStatus, ReleaseTransition } from '../../application/releases/change-release-status.use-case.js';
import type { CreateRelease } from '../../application/releases/create-release.use-case.js';
import type { DeleteRelease } from '../../application/releases/delete-release.use-case.js';
import type { GetRelease } from '../../application/releases/get-release.use-case.js';
import type { ListReleases } from '../../application/releases/list-releases.use-case.js';
import { principalOf } from './authenticate.js';
import { listBody, pageRequest } from './pagination.js';
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { jsonObjectBody, validated } from './validation.js';

class CreateReleaseBody {
  /** Checked against the version rules by the domain; here only its presence. */
  @IsDefined() version!: unknown;
}

export interface ReleaseUseCases {
  readonly create: CreateRelease;
  readonly list: ListReleases;
  readonly get: GetRelease;
  readonly changeStatus: ChangeReleaseStatus;
  readonly delete: DeleteRelease;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), version: param(ctx, 'version') };
}

export function releaseRoutes(useCases: ReleaseUseCases, jsonBody: Middleware): RouteDefinition[] {
  const transition = (segment: string, to: ReleaseTransition, summary: string): RouteDefinition => ({
    method: 'POST',
    path: `/api/:accountId/:apiId/releases/:version/${segment}`,
    scope: 'api_release',
    summary,
    handler: async (ctx) => {
      ctx.body = unwrap(await useCases.changeStatus.execute(principalOf(ctx), { ...target(ctx), transition: to }));
    },
  });
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/releases',
      scope: 'api_release.readonly',
      summary: 'List the releases of an API by release date',
      handler: async (ctx) => {
        const page = unwrap(await useCases.list.execute(principalOf(ctx), { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), page: pageRequest(ctx) }));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId/:apiId/releases',
      scope: 'api_release',
      summary: 'Release the current spec as a version',
      middleware: [jsonBody],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const apiId = param(ctx, 'apiId');
        const { version } = validated(CreateReleaseBody, jsonObjectBody(ctx));
        const release = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, apiId, version }));
        ctx.status = 201;
        ctx.set('Location', `/api/${accountId}/${apiId}/releases/${encodeURIComponent(release.version)}`);
        ctx.body = release;
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/releases/:version',
      scope: 'api_release.readonly',
      summary: 'One release',
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), target(ctx)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/releases/:version',
      scope: 'api_release',
      summary: 'Delete a release (any state)',
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), target(ctx)));
        ctx.status = 204;
      },
    },
    transition('deprecate', 'deprecate', 'released -> deprecated'),
    transition('end-of-life', 'endOfLife', 'released or deprecated -> endOfLife'),
  ];
}
