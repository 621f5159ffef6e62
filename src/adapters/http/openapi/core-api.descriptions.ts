import type { Parameter } from './openapi.types.js';
import { HEADERS, IF_MATCH, json, jsonBody, LIST_PARAMETERS, noBody, type RouteDescription, type RouteKey } from './route-description.js';
import { ref, str } from './schemas.js';

const LIST_PROBLEMS = ['validation_failed'] as const;
const SPEC_BODY_PROBLEMS = ['validation_failed', 'invalid_multipart', 'invalid_request', 'unparseable_spec', 'payload_too_large', 'unsupported_media_type', 'invalid_spec'] as const;

const RELEASE_QUERY: Parameter = {
  name: 'release',
  in: 'query',
  description: 'Also release the new document under this label (or give it in the multipart `body` part, not both).',
  schema: str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$' }),
};

const derived = (operationId: string, list: 'EndpointList' | 'DomainModelList' | 'EnvironmentList' | 'AuthAdapterList', what: string): RouteDescription => ({
  operationId,
  tag: 'Specs',
  description: `${what} Computed from the current spec when it is stored; an API without a spec has an empty list.`,
  parameters: LIST_PARAMETERS,
  responses: { 200: json('A page of the list.', ref(list)) },
  problems: LIST_PROBLEMS,
});

/** The Core-API's APIs, specs and derived resources, releases, pages and shares. */
export const CORE_API_DESCRIPTIONS: Readonly<Record<RouteKey, RouteDescription>> = {
  'GET /api/:accountId': {
    operationId: 'listApis',
    tag: 'APIs',
    description: "The account's APIs, in creation order. For a user of another account: only the APIs shared with them (404 without a share there).",
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of APIs.', ref('ApiList')) },
    problems: LIST_PROBLEMS,
  },
  'POST /api/:accountId': {
    operationId: 'createApi',
    tag: 'APIs',
    description: "Creates an empty API and records `api.created`. Counted against the account's plan (`plan_limit`: the APIs quota, or a private API on the free plan).",
    requestBody: jsonBody(ref('CreateApi')),
    responses: { 201: json('The new API.', ref('Api'), { ...HEADERS.location, ...HEADERS.etag }) },
    problems: ['duplicate_nickname', 'plan_limit'],
  },
  'GET /api/:accountId/:apiId': {
    operationId: 'getApi',
    tag: 'APIs',
    responses: { 200: json('The API.', ref('Api'), HEADERS.etag) },
  },
  'PATCH /api/:accountId/:apiId': {
    operationId: 'updateApi',
    tag: 'APIs',
    description: 'Changes any of `name`, `nickname`, `type`, `breakingChangePolicy`; `{}` changes nothing and keeps the revision. A change records `api.updated`. Making an API private needs a plan with private APIs (`plan_limit`).',
    parameters: [IF_MATCH],
    requestBody: jsonBody(ref('UpdateApi')),
    responses: { 200: json('The API as it is now.', ref('Api'), HEADERS.etag) },
    problems: ['duplicate_nickname', 'revision_conflict', 'share_role', 'plan_limit'],
  },
  'DELETE /api/:accountId/:apiId': {
    operationId: 'deleteApi',
    tag: 'APIs',
    description: 'Deletes the API with its spec, derived resources, releases, pages and shares; records `api.deleted`. Only its own account may.',
    responses: { 204: noBody('Deleted.') },
    problems: ['owner_only'],
  },

  'POST /api/:accountId/import': {
    operationId: 'importApi',
    tag: 'Specs',
    description:
      'Creates an API from a Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document (YAML or JSON), validated for its own version; its name is `info.title`, its `specFormat` the format it declares. ' +
      '`multipart/form-data` with one part `spec` or `file` and an optional JSON `body` part. Any other format (Swagger 1.x, another OpenAPI version, AsyncAPI): 422 `invalid_spec`. ' +
      'With `createRelease` the token needs `api_release` too. API, spec, derived resources, release and events are written in one transaction.',
    requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('ImportForm') } } },
    responses: { 201: json('The API, its release (or `null`) and the counts of derived resources.', ref('SpecResult'), { ...HEADERS.location, ...HEADERS.etag }) },
    problems: [...SPEC_BODY_PROBLEMS, 'duplicate_nickname', 'duplicate_version', 'plan_limit'],
  },
  'PUT /api/:accountId/:apiId/spec': {
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
    problems: [...SPEC_BODY_PROBLEMS, 'duplicate_version', 'revision_conflict', 'share_role', 'breaking_change', 'plan_limit'],
  },
  'GET /api/:accountId/:apiId/export': {
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
  },
  'GET /api/:accountId/:apiId/revisions': {
    operationId: 'listRevisions',
    tag: 'Changes',
    description: 'Every spec the API has had, newest first, keyed by the API revision at which it was stored, with who stored it, its format, its change counts against the spec before it and the `allowBreaking` reason given, if any.',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of revisions.', ref('SpecRevisionList')) },
    problems: LIST_PROBLEMS,
  },
  'GET /api/:accountId/:apiId/revisions/:revision/export': {
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
  },
  'GET /api/:accountId/:apiId/changes': {
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
  },
  'GET /api/:accountId/:apiId/changelog': {
    operationId: 'getChangelog',
    tag: 'Changes',
    description: "The API's releases newest first, each with what it changed since the release before it (`since`).",
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of the changelog.', ref('Changelog')) },
    problems: LIST_PROBLEMS,
  },
  'GET /api/:accountId/:apiId/endpoints': derived('listEndpoints', 'EndpointList', 'One endpoint per path and operation of the spec (OpenAPI 3 `trace` included; 3.1 `webhooks` are not endpoints).'),
  'GET /api/:accountId/:apiId/models': derived('listModels', 'DomainModelList', 'One domain model per entry of `definitions` (Swagger 2.0) or `components.schemas` (OpenAPI 3).'),
  'GET /api/:accountId/:apiId/environments': derived(
    'listEnvironments',
    'EnvironmentList',
    'One environment per scheme of a Swagger 2.0 spec; one per entry of the top-level `servers` of an OpenAPI 3 spec, or `{ "url": "/" }` when it has none.',
  ),
  'GET /api/:accountId/:apiId/auth-adapters': derived(
    'listAuthAdapters',
    'AuthAdapterList',
    'One authentication adapter per entry of `securityDefinitions` (Swagger 2.0) or `components.securitySchemes` (OpenAPI 3), with its own type\'s fields.',
  ),

  'GET /api/:accountId/:apiId/releases': {
    operationId: 'listReleases',
    tag: 'Releases',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of releases, by release date.', ref('ReleaseList')) },
    problems: LIST_PROBLEMS,
  },
  'POST /api/:accountId/:apiId/releases': {
    operationId: 'createRelease',
    tag: 'Releases',
    description: "Freezes the API's current spec under a version label and records `release.released`.",
    requestBody: jsonBody(ref('CreateRelease')),
    responses: { 201: json('The release.', ref('Release'), HEADERS.location) },
    problems: ['duplicate_version', 'no_spec', 'share_role'],
  },
  'GET /api/:accountId/:apiId/releases/:version': {
    operationId: 'getRelease',
    tag: 'Releases',
    description: 'Its frozen document: `GET .../export?release=<version>`.',
    responses: { 200: json('The release.', ref('Release')) },
  },
  'DELETE /api/:accountId/:apiId/releases/:version': {
    operationId: 'deleteRelease',
    tag: 'Releases',
    description: 'Deletes a release in any state, with its snapshot; records `release.deleted`.',
    responses: { 204: noBody('Deleted.') },
    problems: ['share_role'],
  },
  'POST /api/:accountId/:apiId/releases/:version/deprecate': {
    operationId: 'deprecateRelease',
    tag: 'Releases',
    description: 'No body. Records `release.deprecated`.',
    responses: { 200: json('The release, now deprecated.', ref('Release')) },
    problems: ['invalid_transition', 'share_role'],
  },
  'POST /api/:accountId/:apiId/releases/:version/end-of-life': {
    operationId: 'endReleaseLife',
    tag: 'Releases',
    description: 'No body. Records `release.endOfLife`.',
    responses: { 200: json('The release, now at its end of life.', ref('Release')) },
    problems: ['invalid_transition', 'share_role'],
  },

  'GET /api/:accountId/:apiId/pages': {
    operationId: 'listPages',
    tag: 'Pages',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of pages, by position.', ref('PageList')) },
    problems: LIST_PROBLEMS,
  },
  'POST /api/:accountId/:apiId/pages': {
    operationId: 'createPage',
    tag: 'Pages',
    requestBody: jsonBody(ref('CreatePage')),
    responses: { 201: json('The page.', ref('Page'), HEADERS.location) },
    problems: ['duplicate_slug', 'share_role', 'plan_limit'],
  },
  'GET /api/:accountId/:apiId/pages/:pageId': {
    operationId: 'getPage',
    tag: 'Pages',
    responses: { 200: json('The page.', ref('Page')) },
  },
  'PATCH /api/:accountId/:apiId/pages/:pageId': {
    operationId: 'updatePage',
    tag: 'Pages',
    requestBody: jsonBody(ref('UpdatePage')),
    responses: { 200: json('The page as it is now.', ref('Page')) },
    problems: ['duplicate_slug', 'share_role'],
  },
  'DELETE /api/:accountId/:apiId/pages/:pageId': {
    operationId: 'deletePage',
    tag: 'Pages',
    responses: { 204: noBody('Deleted.') },
    problems: ['share_role'],
  },

  'GET /api/:accountId/:apiId/shares': {
    operationId: 'listShares',
    tag: 'Shares',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of shares, in creation order.', ref('ShareList')) },
    problems: [...LIST_PROBLEMS, 'owner_only'],
  },
  'POST /api/:accountId/:apiId/shares': {
    operationId: 'createShare',
    tag: 'Shares',
    description: 'Shares the API with the user of another account who has this e-mail address.',
    requestBody: jsonBody(ref('CreateShare')),
    responses: { 201: json('The share.', ref('Share'), HEADERS.location) },
    problems: ['owner_only', 'duplicate_share', 'unknown_user', 'own_account'],
  },
  'GET /api/:accountId/:apiId/shares/:shareId': {
    operationId: 'getShare',
    tag: 'Shares',
    responses: { 200: json('The share.', ref('Share')) },
    problems: ['owner_only'],
  },
  'PATCH /api/:accountId/:apiId/shares/:shareId': {
    operationId: 'updateShare',
    tag: 'Shares',
    requestBody: jsonBody(ref('UpdateShare')),
    responses: { 200: json('The share as it is now.', ref('Share')) },
    problems: ['owner_only'],
  },
  'DELETE /api/:accountId/:apiId/shares/:shareId': {
    operationId: 'deleteShare',
    tag: 'Shares',
    description: 'The grantee loses access with their next request.',
    responses: { 204: noBody('Revoked.') },
    problems: ['owner_only'],
  },
};
