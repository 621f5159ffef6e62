import { IsBoolean, IsOptional, IsString } from 'class-validator';
import type { Context } from 'koa';
import type { ExportedSpec, ExportSpec } from '../../application/specs/export-spec.use-case.js';
import type { ImportApi, SpecResult } from '../../application/specs/import-api.use-case.js';
import type { ListDerived } from '../../application/specs/list-derived.use-case.js';
import type { ReplaceSpec } from '../../application/specs/replace-spec.use-case.js';
import type { GetChangelog } from '../../application/specs/get-changelog.use-case.js';
import type { ChangeSide, GetChanges } from '../../application/specs/get-changes.use-case.js';
import type { ListRevisions } from '../../application/specs/list-revisions.use-case.js';
import type { SpecRevisionSummary } from '../../application/ports/spec-revision-repository.port.js';
import type { RecordedChangelogEntry } from '../../application/releases/changelog.js';
import { formatTimestamp } from '../../domain/shared/time.js';
import type { DerivedKind } from '../../application/ports/spec-repository.port.js';
import type { SpecSyntax } from '../../domain/spec/spec-document.js';
import { principalOf } from './authenticate.js';
import { expectedRevision } from './conditional.js';
import { throwProblem } from './middleware.js';
import { readMultipart, readRaw, type Part } from './multipart.js';
import { listBody, pageRequest, positionPageRequest, queryParam } from './pagination.js';
import { validationProblem } from './problem.js';
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { validated } from './validation.js';

class ImportBody {
  @IsOptional() @IsString() nickname?: string;
  @IsOptional() @IsString() type?: string;
  @IsOptional() @IsBoolean() createRelease?: boolean;
  @IsOptional() @IsString() releaseVersion?: string;
}

class ReplaceSpecBody {
  @IsOptional() @IsString() release?: string;
}

export interface SpecUseCases {
  readonly import: ImportApi;
  readonly replace: ReplaceSpec;
  readonly export: ExportSpec;
  readonly listDerived: ListDerived;
  readonly revisions: ListRevisions;
  readonly changes: GetChanges;
  readonly changelog: GetChangelog;
}

const SPEC_PART_NAMES = ['spec', 'file'];

function invalid(field: string, message: string): never {
  throwProblem(validationProblem([{ field, message }]));
}

/**
 * The parts of an import or spec update: exactly one spec part (`spec` or `file`), and an optional
 * `body` part holding JSON, sent as a plain field or as an `application/json` part.
 */
function specParts<T extends object>(parts: readonly Part[], Body: new () => T): { spec: Buffer; body: T | undefined } {
  const seen = new Set<string>();
  for (const part of parts) {
    if (part.name === undefined) invalid('(unnamed part)', 'every part needs a name: spec or file, and body');
    if (![...SPEC_PART_NAMES, 'body'].includes(part.name)) invalid(part.name, 'is not a part this endpoint takes (spec or file, and body)');
    if (seen.has(part.name)) invalid(part.name, 'is given more than once');
    seen.add(part.name);
  }
  const specs = parts.filter((p) => p.name !== undefined && SPEC_PART_NAMES.includes(p.name));
  if (specs.length === 0) invalid('spec', 'is required: a part named spec or file holding the Swagger 2.0, OpenAPI 3.0 or 3.1 document');
  if (specs.length > 1) invalid('spec', 'send the document once, as spec or as file');
  const bodyPart = parts.find((p) => p.name === 'body');
  let body: T | undefined;
  if (bodyPart) {
    let json: unknown;
    try {
      json = JSON.parse(bodyPart.data.toString('utf8'));
    } catch {
      invalid('body', 'must be a JSON object');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) invalid('body', 'must be a JSON object');
    body = validated(Body, json as Record<string, unknown>);
  }
  return { spec: specs[0]!.data, body };
}

/** `?<name>=true|false`; absent is false. */
function flag(ctx: Context, name: string): boolean {
  const value = queryParam(ctx, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  invalid(name, 'must be true or false');
}

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
  return { release: { version: release.version, status: release.status, releaseDate: release.releaseDate }, since: entry.changes.since, counts: entry.changes.counts, items: entry.changes.items };
}

function isMultipart(ctx: Context): boolean {
  return ctx.request.is('multipart/form-data') === 'multipart/form-data';
}

function sendSpecResult(ctx: Context, accountId: number, result: SpecResult, status: number): void {
  ctx.status = status;
  ctx.set('ETag', `"${result.api.revision}"`);
  if (status === 201) ctx.set('Location', `/api/${accountId}/${result.api.id}`);
  ctx.body = result;
}

const SYNTAXES: readonly SpecSyntax[] = ['yaml', 'json'];
const MEDIA_TYPES: Record<SpecSyntax, string> = { yaml: 'application/yaml; charset=utf-8', json: 'application/json; charset=utf-8' };

/** `?format=yaml|json` of an export, `undefined` for the text as uploaded. */
function syntaxQuery(ctx: Context): SpecSyntax | undefined {
  const format = queryParam(ctx, 'format');
  if (format !== undefined && !(SYNTAXES as readonly string[]).includes(format)) invalid('format', 'must be yaml or json');
  return format as SpecSyntax | undefined;
}

function sendExport(ctx: Context, exported: ExportedSpec, name: string): void {
  ctx.type = MEDIA_TYPES[exported.syntax];
  ctx.set('Content-Disposition', `inline; filename="${name}.${exported.syntax}"`);
  ctx.body = exported.text;
}

const DERIVED: readonly [string, DerivedKind, string][] = [
  ['endpoints', 'endpoints', 'Endpoints: one per path and method'],
  ['models', 'models', 'Domain models: one per definition (2.0) or components.schemas entry (3.x)'],
  ['environments', 'environments', 'Environments: one per scheme (2.0) or server (3.x)'],
  ['auth-adapters', 'authAdapters', 'Authentication adapters: one per security scheme'],
];

export function specRoutes(useCases: SpecUseCases, importMaxBytes: number): RouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/api/:accountId/import',
      scope: 'api',
      summary: 'Import a Swagger 2.0, OpenAPI 3.0 or 3.1 document as a new API (multipart: spec or file, body)',
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        if (!isMultipart(ctx)) {
          throwProblem({ status: 415, code: 'unsupported_media_type', title: 'Unsupported Media Type', detail: 'Send the import as multipart/form-data.' });
        }
        const { spec, body } = specParts(await readMultipart(ctx, importMaxBytes), ImportBody);
        const result = unwrap(await useCases.import.execute(principalOf(ctx), { accountId, spec, ...body }));
        sendSpecResult(ctx, accountId, result, 201);
      },
    },
    {
      method: 'PUT',
      path: '/api/:accountId/:apiId/spec',
      scope: 'api',
      summary: 'Replace the spec (multipart like import, or the raw YAML/JSON body); ?release= also releases it, ?dryRun=true only compares, ?allowBreaking= overrides the policy',
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const fromQuery = queryParam(ctx, 'release');
        let spec: Buffer;
        let release = fromQuery;
        if (isMultipart(ctx)) {
          const parts = specParts(await readMultipart(ctx, importMaxBytes), ReplaceSpecBody);
          spec = parts.spec;
          if (parts.body?.release !== undefined) {
            if (fromQuery !== undefined) invalid('release', 'give it in the body or the query, not both');
            release = parts.body.release;
          }
        } else {
          spec = await readRaw(ctx, importMaxBytes);
        }
        const input = {
          accountId,
          apiId: param(ctx, 'apiId'),
          spec,
          release,
          expectedRevision: expectedRevision(ctx),
          allowBreaking: queryParam(ctx, 'allowBreaking'),
          dryRun: flag(ctx, 'dryRun'),
        };
        const result = unwrap(await useCases.replace.execute(principalOf(ctx), input));
        if ('dryRun' in result) {
          ctx.set('ETag', `"${result.api.revision}"`);
          ctx.body = { api: result.api, counts: result.counts, changes: result.changes };
        } else {
          sendSpecResult(ctx, accountId, result, 200);
        }
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/export',
      scope: 'api.readonly',
      summary: 'The stored document (?format=yaml|json, ?release=<version> for a release snapshot)',
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), syntax: syntaxQuery(ctx), release: queryParam(ctx, 'release') };
        const exported = unwrap(await useCases.export.execute(principalOf(ctx), input));
        sendExport(ctx, exported, exported.release === null ? exported.nickname : `${exported.nickname}-${exported.release}`);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/revisions',
      scope: 'api.readonly',
      summary: 'The spec history: every spec the API has had, newest first',
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), page: positionPageRequest(ctx) };
        const page = unwrap(await useCases.revisions.execute(principalOf(ctx), input));
        ctx.body = listBody(page.items.map(revisionBody), page.next);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/revisions/:revision/export',
      scope: 'api.readonly',
      summary: 'One spec of the history, as stored (?format=yaml|json)',
      handler: async (ctx) => {
        const raw = param(ctx, 'revision');
        // A path segment that no revision can be is an unknown revision.
        const revision = /^[1-9][0-9]{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : 0;
        const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), syntax: syntaxQuery(ctx), revision };
        const exported = unwrap(await useCases.export.execute(principalOf(ctx), input));
        sendExport(ctx, exported, `${exported.nickname}-r${revision}`);
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/changes',
      scope: 'api.readonly',
      summary: 'What changed between two specs (revisions or releases): breaking, warning, info',
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), from: changeSide(ctx, 'from'), to: changeSide(ctx, 'to') };
        ctx.body = unwrap(await useCases.changes.execute(principalOf(ctx), input));
      },
    },
    {
      method: 'GET',
      path: '/api/:accountId/:apiId/changelog',
      scope: 'api.readonly',
      summary: 'The releases newest first, each with what it changed since the one before',
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), page: pageRequest(ctx) };
        const page = unwrap(await useCases.changelog.execute(principalOf(ctx), input));
        ctx.body = listBody(page.items.map(changelogBody), page.next);
      },
    },
    ...DERIVED.map(
      ([segment, kind, summary]): RouteDefinition => ({
        method: 'GET',
        path: `/api/:accountId/:apiId/${segment}`,
        scope: 'api.readonly',
        summary,
        handler: async (ctx) => {
          const input = { accountId: accountIdParam(ctx), apiId: param(ctx, 'apiId'), kind, page: positionPageRequest(ctx) };
          const page = unwrap(await useCases.listDerived.execute(principalOf(ctx), input));
          ctx.body = listBody(page.items, page.next);
        },
      }),
    ),
  ];
}
