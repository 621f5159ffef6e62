import type { Context } from 'koa';
import type { ChangeReleaseStatus, ReleaseTransition } from '../../application/releases/change-release-status.use-case.js';
import type { CreateRelease } from '../../application/releases/create-release.use-case.js';
import type { DeleteRelease } from '../../application/releases/delete-release.use-case.js';
import type { GetRelease } from '../../application/releases/get-release.use-case.js';
import type { ListReleases } from '../../application/releases/list-releases.use-case.js';
import { principalOf } from './authenticate.js';
import { listBody, pageRequest } from './pagination.js';
import { pathId, accountIdParam, param, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { HEADERS, json, jsonBody, LIST_PARAMETERS, LIST_PROBLEMS, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';

interface CreateReleaseBody {
  /** Checked against the version rules by the domain; here only its presence. */
  version: unknown;
}

export interface ReleaseUseCases {
  readonly create: CreateRelease;
  readonly list: ListReleases;
  readonly get: GetRelease;
  readonly changeStatus: ChangeReleaseStatus;
  readonly delete: DeleteRelease;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), version: param(ctx, 'version') };
}

export function releaseRoutes(useCases: ReleaseUseCases): RouteDefinition[] {
  const transition = (segment: string, to: ReleaseTransition, summary: string, operationId: string, event: string, answer: string): RouteDefinition => ({
    method: 'POST',
    path: `/api/:accountId/:apiId/releases/:version/${segment}`,
    scope: 'api_release',
    summary,
    operationId,
    tag: 'Releases',
    description: `No body. Records \`${event}\`.`,
    responses: { 200: json(answer, ref('Release')) },
    problems: ['invalid_transition', 'forbidden'],
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
      operationId: 'listReleases',
      tag: 'Releases',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of releases, by release date.', ref('ReleaseList')) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const page = unwrap(await useCases.list.execute(principalOf(ctx), { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), page: pageRequest(ctx) }));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/api/:accountId/:apiId/releases',
      scope: 'api_release',
      summary: 'Release the current spec as a version',
      operationId: 'createRelease',
      tag: 'Releases',
      description: "Freezes the API's current spec under a version label and records `release.released`.",
      requestBody: jsonBody(ref('CreateRelease')),
      responses: { 201: json('The release.', ref('Release'), HEADERS.location) },
      problems: ['duplicate_version', 'no_spec', 'forbidden'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const apiId = pathId(ctx, 'apiId');
        const { version } = jsonInput<CreateReleaseBody>(ctx);
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
      operationId: 'getRelease',
      tag: 'Releases',
      description: 'Its frozen document: `GET .../export?release=<version>`.',
      responses: { 200: json('The release.', ref('Release')) },
      handler: async (ctx) => {
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), target(ctx)));
      },
    },
    {
      method: 'DELETE',
      path: '/api/:accountId/:apiId/releases/:version',
      scope: 'api_release',
      summary: 'Delete a release (any state)',
      operationId: 'deleteRelease',
      tag: 'Releases',
      description: 'Deletes a release in any state, with its snapshot; records `release.deleted`.',
      responses: { 204: noBody('Deleted.') },
      problems: ['forbidden'],
      handler: async (ctx) => {
        unwrap(await useCases.delete.execute(principalOf(ctx), target(ctx)));
        ctx.status = 204;
      },
    },
    transition('deprecate', 'deprecate', 'released -> deprecated', 'deprecateRelease', 'release.deprecated', 'The release, now deprecated.'),
    transition('end-of-life', 'endOfLife', 'released or deprecated -> endOfLife', 'endReleaseLife', 'release.endOfLife', 'The release, now at its end of life.'),
  ];
}
