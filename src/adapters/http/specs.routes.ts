import type { Context } from 'koa';
import type { ExportedSpec, ExportSpec } from '../../application/specs/export-spec.use-case.js';
import type { ImportApi, SpecResult } from '../../application/specs/import-api.use-case.js';
import type { ListDerived } from '../../application/specs/list-derived.use-case.js';
import type { ReplaceSpec } from '../../application/specs/replace-spec.use-case.js';
import type { GetChangelog } from '../../application/specs/get-changelog.use-case.js';
import type { GetChanges } from '../../application/specs/get-changes.use-case.js';
import type { ListRevisions } from '../../application/specs/list-revisions.use-case.js';
import type { SpecSyntax } from '../../domain/spec/spec-document.js';
import { principalOf } from './authenticate.js';
import { expectedRevision } from './conditional.js';
import { throwProblem } from './middleware.js';
import { readMultipart, readRaw, type Part } from './multipart.js';
import { queryParam } from './pagination.js';
import { problemOf, validationProblem } from './problem.js';
import { pathId, accountIdParam, unwrap, type RouteDefinition } from './routes.js';
import { HEADERS, IF_MATCH, json, LIST_PROBLEMS } from './openapi/route-description.js';
import { ref, str } from './openapi/schemas.js';
import { validated } from './validation.js';
import type { JsonSchema, Parameter } from './openapi/openapi.types.js';

/** The JSON `body` part of an import, checked against `ImportOptions`. */
interface ImportBody {
  nickname?: string;
  type?: string;
  createRelease?: boolean;
  releaseVersion?: string;
}

/** The JSON `body` part of a spec update, checked against `SpecUpdateOptions`. */
interface ReplaceSpecBody {
  release?: string;
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
const IMPORT_OPTIONS = ref('ImportOptions');
const SPEC_UPDATE_OPTIONS = ref('SpecUpdateOptions');

const SPEC_BODY_PROBLEMS = ['validation_failed', 'invalid_multipart', 'invalid_request', 'unparseable_spec', 'payload_too_large', 'unsupported_media_type', 'invalid_spec'] as const;

const RELEASE_QUERY: Parameter = {
  name: 'release',
  in: 'query',
  description: 'Also release the new document under this label (or give it in the multipart `body` part, not both).',
  schema: str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$' }),
};

export function invalid(field: string, message: string): never {
  throwProblem(validationProblem([{ field, message }]));
}

/**
 * The parts of an import or spec update: exactly one spec part (`spec` or `file`), and an optional
 * `body` part holding JSON, sent as a plain field or as an `application/json` part.
 */
function specParts<T>(parts: readonly Part[], schema: JsonSchema): { spec: Buffer; body: T | undefined } {
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
    body = validated<T>(schema, json as Record<string, unknown>);
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
export function syntaxQuery(ctx: Context): SpecSyntax | undefined {
  const format = queryParam(ctx, 'format');
  if (format !== undefined && !(SYNTAXES as readonly string[]).includes(format)) invalid('format', 'must be yaml or json');
  return format as SpecSyntax | undefined;
}

export function sendExport(ctx: Context, exported: ExportedSpec, name: string): void {
  ctx.type = MEDIA_TYPES[exported.syntax];
  ctx.set('Content-Disposition', `inline; filename="${name}.${exported.syntax}"`);
  ctx.body = exported.text;
}

export function specRoutes(useCases: SpecUseCases, importMaxBytes: number): RouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/api/:accountId/import',
      scope: 'api',
      summary: 'Import a Swagger 2.0, OpenAPI 3.0 or 3.1 document as a new API (multipart: spec or file, body)',
      operationId: 'importApi',
      tag: 'Specs',
      description:
        'Creates an API from a Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document (YAML or JSON), validated for its own version; its name is `info.title`, its `specFormat` the format it declares. ' +
        '`multipart/form-data` with one part `spec` or `file` and an optional JSON `body` part. Any other format (Swagger 1.x, another OpenAPI version, AsyncAPI): 422 `invalid_spec`. ' +
        'With `createRelease` the token needs `api_release` too. API, spec, derived resources, release and events are written in one transaction.',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('ImportForm') } } },
      responses: { 201: json('The API, its release (or `null`) and the counts of derived resources.', ref('SpecResult'), { ...HEADERS.location, ...HEADERS.etag }) },
      problems: [...SPEC_BODY_PROBLEMS, 'duplicate_nickname', 'duplicate_version', 'plan_limit'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        if (!isMultipart(ctx)) {
          throwProblem(problemOf('unsupported_media_type', 'Send the import as multipart/form-data.'));
        }
        const { spec, body } = specParts<ImportBody>(await readMultipart(ctx, importMaxBytes), IMPORT_OPTIONS);
        const result = unwrap(await useCases.import.execute(principalOf(ctx), { accountId, spec, ...body }));
        sendSpecResult(ctx, accountId, result, 201);
      },
    },
    {
      method: 'PUT',
      path: '/api/:accountId/:apiId/spec',
      scope: 'api',
      summary: 'Replace the spec (multipart like import, or the raw YAML/JSON body); ?release= also releases it, ?dryRun=true only compares, ?allowBreaking= overrides the policy',
      operationId: 'replaceSpec',
      tag: 'Specs',
      description:
        "Replaces the API's spec (the CI/CD update): multipart as for import (a `body` part may hold `release`), or the raw YAML or JSON document with any other content type. " +
        'The new document may be of another accepted format than the last (Swagger 2.0 to OpenAPI 3.x and back); `specFormat` follows it. ' +
        'It is compared with the current spec (`changes`), kept in the spec history and announced by `api.updated`. The API\'s `breakingChangePolicy` decides what breaking changes need (409 `breaking_change` with the items when refused); `allowBreaking` overrides it. ' +
        'With `dryRun=true` the document is validated and compared and nothing is written: 200 with `DryRunResult`, or the errors a real update would give. ' +
        'The same text again changes nothing and keeps the revision. With a release the token needs `api_release` too.',
      parameters: [
        RELEASE_QUERY,
        IF_MATCH,
        { name: 'allowBreaking', in: 'query', description: 'Take breaking changes whatever the policy; the reason (1-200 characters on one line, no control characters) is kept on the revision.', schema: str({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$' }) },
        { name: 'dryRun', in: 'query', description: '`true`: validate and compare only; nothing is written, no event is recorded.', schema: str({ enum: ['true', 'false'] }) },
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': { schema: ref('SpecUpdateForm') },
          'application/yaml': { schema: str({ description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document.' }) },
          'application/json': { schema: { type: 'object', description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document.' } },
        },
      },
      responses: {
        200: json('The API, its release (or `null`), the counts of derived resources and the changes; with `dryRun=true`, the `DryRunResult`.', { oneOf: [ref('SpecResult'), ref('DryRunResult')] }, HEADERS.etag),
      },
      problems: [...SPEC_BODY_PROBLEMS, 'duplicate_version', 'revision_conflict', 'forbidden', 'breaking_change', 'plan_limit'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const fromQuery = queryParam(ctx, 'release');
        let spec: Buffer;
        let release = fromQuery;
        if (isMultipart(ctx)) {
          const parts = specParts<ReplaceSpecBody>(await readMultipart(ctx, importMaxBytes), SPEC_UPDATE_OPTIONS);
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
          apiId: pathId(ctx, 'apiId'),
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
      operationId: 'exportSpec',
      tag: 'Specs',
      description: 'The stored document, in its own spec format (a release snapshot in the format it was released in): by default as uploaded, in YAML or JSON as uploaded; in the other syntax re-serialised. 404 for an API without a spec.',
      parameters: [
        { name: 'format', in: 'query', description: 'YAML or JSON; default: the one it was uploaded in.', schema: str({ enum: ['yaml', 'json'] }) },
        { name: 'release', in: 'query', description: 'The frozen snapshot of this release instead of the current spec.', schema: str() },
      ],
      responses: {
        200: {
          description: 'The document.',
          headers: { 'Content-Disposition': { required: true, description: '`inline; filename="<nickname>[-<version>].<format>"`', schema: str() } },
          content: { 'application/yaml': { schema: str() }, 'application/json': { schema: { type: 'object' } } },
        },
      },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), syntax: syntaxQuery(ctx), release: queryParam(ctx, 'release') };
        const exported = unwrap(await useCases.export.execute(principalOf(ctx), input));
        sendExport(ctx, exported, exported.release === null ? exported.nickname : `${exported.nickname}-${exported.release}`);
      },
    },
  ];
}
