import type { SpecRevisionSummary } from '../../application/ports/spec-revision-repository.port.js';
import type { RecordedChangelogEntry } from '../../application/releases/changelog.js';
import type { ChangeSide } from '../../application/specs/get-changes.use-case.js';
import type { ReleaseId } from '../../domain/release/release.aggregate.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import type { Context } from 'koa';
import { principalOf } from './authenticate.js';
import { json, LIST_PARAMETERS, LIST_PROBLEMS } from './openapi/route-description.js';
import { ref, str } from './openapi/schemas.js';
import { listBody, pageRequest, positionPageRequest, queryParam } from './pagination.js';
import { pathId, accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { invalid, sendExport, syntaxQuery, type SpecUseCases } from './specs.routes.js';

/** A revision number from the path or the query: a positive integer, else 400 (or, in a path, the same 404 as an unknown one). */
function revisionNumber(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) invalid(field, 'must be a revision number (a positive integer)');
  return Number(value);
}

/** One side of `GET .../changes`: `<side>Revision` or `<side>Release`, not both. */
function changeSide(ctx: Context, side: 'from' | 'to'): ChangeSide {
  const revision = revisionNumber(queryParam(ctx, `${side}Revision`), `${side}Revision`);
  const release = queryParam(ctx, `${side}Release`);
  if (revision !== undefined && release !== undefined) invalid(`${side}Release`, `give ${side}Revision or ${side}Release, not both`);
  return { revision, release };
}

function revisionBody(summary: SpecRevisionSummary) {
  return {
    revision: summary.revision,
    creationDate: formatTimestamp(summary.creationDate),
    user: summary.user,
    specFormat: summary.specFormat,
    counts: summary.counts,
    reason: summary.reason,
  };
}

function changelogBody(entry: RecordedChangelogEntry) {
  const release = entry.release.toRecord();
  return { release: { version: release.version, status: release.status, releaseDate: release.releaseDate }, since: entry.changes.since, counts: entry.changes.counts, items: entry.changes.items, ...(entry.changes.truncated ? { truncated: true } : {}) };
}

/** The spec history of an API, what changed between two of its specs, and its changelog. */
export function changeRoutes(useCases: Pick<SpecUseCases, 'revisions' | 'changes' | 'changelog' | 'export'>): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/revisions',
      scope: 'api.readonly',
      summary: 'The spec history: every spec the API has had, newest first',
      operationId: 'listRevisions',
      tag: 'Changes',
      description: 'Every spec the API has had, newest first, keyed by the API revision at which it was stored, with who stored it, its format, its change counts against the spec before it and the `allowBreaking` reason given, if any.',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of revisions.', ref('SpecRevisionList')) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), page: positionPageRequest(ctx) };
        const page = unwrap(await useCases.revisions.execute(principalOf(ctx), input));
        ctx.body = listBody(page.items.map(revisionBody), page.next);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/revisions/:revision/export',
      scope: 'api.readonly',
      summary: 'One spec of the history, as stored (?format=yaml|json)',
      operationId: 'exportRevision',
      tag: 'Changes',
      description: 'One spec of the history, as stored (or re-serialised in the other syntax). 404 for a revision at which no spec was stored.',
      parameters: [{ name: 'format', in: 'query', description: 'YAML or JSON; default: the one it was uploaded in.', schema: str({ enum: ['yaml', 'json'] }) }],
      responses: {
        200: {
          description: 'The document.',
          headers: { 'Content-Disposition': { required: true, description: '`inline; filename="<nickname>-r<revision>.<format>"`', schema: str() } },
          content: { 'application/yaml': { schema: str() }, 'application/json': { schema: { type: 'object' } } },
        },
      },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const raw = param(ctx, 'revision');
        // A path segment that no revision can be is an unknown revision.
        const revision = /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : 0;
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), syntax: syntaxQuery(ctx), revision };
        const exported = unwrap(await useCases.export.execute(principalOf(ctx), input));
        sendExport(ctx, exported, `${exported.nickname}-r${revision}`);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/changes',
      scope: 'api.readonly',
      summary: 'What changed between two specs (revisions or releases): breaking, warning, info',
      operationId: 'getChanges',
      tag: 'Changes',
      description:
        'What changed between two specs of the API, compared on what they describe (Swagger 2.0 against OpenAPI 3.x works): each change with its rule, level, location, JSON pointer and a sentence. ' +
        'A side is a revision (`fromRevision`, `toRevision`) or a release (`fromRelease`, `toRelease`); `to` defaults to the current spec, `from` to the spec before `to`. The rules: docs/changes.md.',
      parameters: [
        { name: 'fromRevision', in: 'query', schema: { type: 'integer', minimum: 1 } },
        { name: 'fromRelease', in: 'query', schema: str() },
        { name: 'toRevision', in: 'query', schema: { type: 'integer', minimum: 1 } },
        { name: 'toRelease', in: 'query', schema: str() },
      ],
      responses: { 200: json('The changes.', ref('ChangesBetween')) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), from: changeSide(ctx, 'from'), to: changeSide(ctx, 'to') };
        ctx.body = unwrap(await useCases.changes.execute(principalOf(ctx), input));
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/changelog',
      scope: 'api.readonly',
      summary: 'The releases newest first, each with what it changed since the one before',
      operationId: 'getChangelog',
      tag: 'Changes',
      description: "The API's releases newest first, each with what it changed since the release before it (`since`).",
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of the changelog.', ref('Changelog')) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), page: pageRequest<ReleaseId>(ctx) };
        const page = unwrap(await useCases.changelog.execute(principalOf(ctx), input));
        ctx.body = listBody(page.items.map(changelogBody), page.next);
      },
    },
  ];
}
