import { EVENT_NAMES } from '../../../domain/events/domain-event.js';
import { SCOPES } from '../../../domain/token/scope.js';
import { SPEC_FORMATS } from '../../../domain/spec/spec-document.js';
import { BREAKING_CHANGE_POLICIES } from '../../../domain/spec/changes/policy.js';
import type { JsonSchema, SchemaType } from './openapi.types.js';

/**
 * The JSON Schemas of the bodies the service reads and writes, as `components.schemas`. Response
 * records list every field they carry and require all of them (the service always sends every
 * field, `null` included); they do not forbid further fields, so adding one is not a breaking
 * change for clients (the test suite validates them closed). Request bodies are closed: the
 * service refuses fields it does not know.
 */

export type SchemaName =
  | 'Problem'
  | 'FieldError'
  | 'Actor'
  | 'Api'
  | 'ApiList'
  | 'CreateApi'
  | 'UpdateApi'
  | 'ImportOptions'
  | 'ImportForm'
  | 'SpecUpdateOptions'
  | 'SpecUpdateForm'
  | 'SpecResult'
  | 'DryRunResult'
  | 'SpecChanges'
  | 'Change'
  | 'ChangeLocation'
  | 'ChangeCounts'
  | 'SpecRevision'
  | 'SpecRevisionList'
  | 'ChangesBetween'
  | 'ChangeSide'
  | 'ChangelogEntry'
  | 'Changelog'
  | 'DerivedCounts'
  | 'Endpoint'
  | 'EndpointList'
  | 'DomainModel'
  | 'DomainModelList'
  | 'Environment'
  | 'Swagger2Environment'
  | 'OpenApi3Environment'
  | 'EnvironmentList'
  | 'AuthAdapter'
  | 'Swagger2AuthAdapter'
  | 'OpenApi3AuthAdapter'
  | 'OAuthScope'
  | 'OAuthFlow'
  | 'AuthAdapterList'
  | 'Release'
  | 'ReleaseList'
  | 'CreateRelease'
  | 'Page'
  | 'PageList'
  | 'CreatePage'
  | 'UpdatePage'
  | 'Share'
  | 'ShareList'
  | 'CreateShare'
  | 'UpdateShare'
  | 'Webhook'
  | 'CreatedWebhook'
  | 'WebhookList'
  | 'CreateWebhook'
  | 'UpdateWebhook'
  | 'Delivery'
  | 'DeliveryAttempt'
  | 'DeliveryList'
  | 'Profile'
  | 'Plan'
  | 'UpdateProfile'
  | 'ChangePassword'
  | 'ApiToken'
  | 'ApiTokenList'
  | 'CreateApiToken'
  | 'CreatedApiToken'
  | 'VerificationSent'
  | 'ConfirmEmailVerification'
  | 'EmailVerified'
  | 'Health'
  | 'Readiness'
  | 'OAuthError'
  | 'GoogleError'
  | 'TokenRequest'
  | 'TokenResponse'
  | 'RevocationRequest'
  | 'TokeninfoRequest'
  | 'Tokeninfo'
  | 'Userinfo'
  | 'OpenIdUserinfo'
  | 'JsonWebKeySet'
  | 'PemCertificates'
  | 'OpenIdConfiguration'
  | 'AuthorizationForm';

export function ref(name: SchemaName): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export function str(extra: JsonSchema = {}): JsonSchema {
  return { type: 'string', ...extra };
}

export function int(extra: JsonSchema = {}): JsonSchema {
  return { type: 'integer', ...extra };
}

export function bool(description?: string): JsonSchema {
  return { type: 'boolean', ...(description === undefined ? {} : { description }) };
}

export function array(items: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { type: 'array', items, ...extra };
}

/** `null` allowed too: a type list for a plain schema, `oneOf` with `null` for a reference. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) return { oneOf: [schema, { type: 'null' }] };
  if (typeof schema.type !== 'string') throw new Error('nullable() takes a schema of one type');
  const type: SchemaType[] = [schema.type, 'null'];
  return { ...schema, type, ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
}

/** An object; `required` defaults to every property (what responses carry). */
export function object(properties: Readonly<Record<string, JsonSchema>>, required: readonly string[] = Object.keys(properties), extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra };
}

/** A request body: the service refuses any field it does not list. */
export function closed(properties: Readonly<Record<string, JsonSchema>>, required: readonly string[] = []): JsonSchema {
  return object(properties, required, { additionalProperties: false });
}

export function listOf(item: SchemaName, description: string): JsonSchema {
  return object(
    {
      items: array(ref(item)),
      nextCursor: nullable(str({ description: 'Pass as `cursor` for the next page; `null` on the last page.' })),
    },
    undefined,
    { description },
  );
}

const uuid = (description: string): JsonSchema => str({ format: 'uuid', description });
const timestamp = (description: string): JsonSchema => str({ format: 'date-time', description, examples: ['2026-11-22T03:01:52.915+00:00'] });
const positiveId = (description: string): JsonSchema => int({ minimum: 1, description });

const NICKNAME = { pattern: '^[a-z0-9_.-]{1,64}$', description: '1-64 of a-z, 0-9, "-", "_", "."; not only dots' };
const API_TYPE = str({ enum: ['private', 'public'], description: 'Default `private`.' });
const BREAKING_POLICY = str({ enum: [...BREAKING_CHANGE_POLICIES], description: 'What `PUT .../spec` does with breaking changes against the current spec: `allow` them (default), accept them only with a release of a new major version (`requireMajor`), or `refuse` them; `?allowBreaking=<reason>` overrides it.' });
const VERSION_LABEL = str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$', description: 'A release label: 1-64 of A-Z, a-z, 0-9, ".", "_", "+", "-", starting with a letter or digit.' });
const SHARE_ROLE = str({ enum: ['viewer', 'editor'] });
const SCOPE = str({ enum: SCOPES, description: '`X.readonly` permits GET and HEAD in area X; `X` permits every method and implies `X.readonly`.' });
const EVENT = str({ enum: EVENT_NAMES });
const BINARY = str({ contentMediaType: 'application/octet-stream' });

const WEBHOOK_PROPERTIES: Record<string, JsonSchema> = {
  id: uuid('UUIDv7'),
  targetUrl: str({ description: 'Where deliveries are POSTed, exactly as given.' }),
  events: array(EVENT),
  active: bool('Whether events are delivered to it.'),
  secretSet: { const: true, description: 'Always true: the secret is never read back.' },
  creationDate: timestamp('When it was created.'),
  lastResponse: nullable(
    object(
      {
        status: nullable(int({ description: 'The HTTP status, `null` without a response.' })),
        body: str({ description: 'The first 1 KiB of the response body, or the error when there was no response.' }),
        durationMs: int({ minimum: 0 }),
        date: timestamp('When the attempt started.'),
      },
      undefined,
      { description: 'The latest delivery attempt, `null` before the first.' },
    ),
  ),
  deactivationReason: nullable(str({ description: 'Why Specbase deactivated it; `null` while active or after a deactivation by its owner.' })),
};

const TOKEN_PROPERTIES: Record<string, JsonSchema> = {
  id: uuid('UUIDv7'),
  name: str({ minLength: 1, maxLength: 100 }),
  scopes: array(SCOPE, { minItems: 1 }),
  creationDate: timestamp('When it was created.'),
};

const OAUTH_FORM = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema =>
  object(properties, required, { description: 'Each parameter at most once; client credentials in HTTP Basic or here, not both.' });

export const SCHEMAS: Readonly<Record<SchemaName, JsonSchema>> = {
  Problem: object(
    {
      type: str({ pattern: '^urn:specbase:problem:[a-z_]+$', description: '`urn:specbase:problem:<code>`' }),
      title: str({ description: 'The status phrase, e.g. `Not Found`.' }),
      status: int({ minimum: 400, maximum: 599 }),
      detail: str({ description: 'What went wrong, for people. Never an internal message.' }),
      code: str({ pattern: '^[a-z_]+$', description: 'Stable snake_case code: what programs branch on.' }),
      errors: array(ref('FieldError'), { minItems: 1, description: 'With `validation_failed`, `invalid_spec` and `weak_password`: one entry per broken rule.' }),
      line: nullable(int({ minimum: 1, description: 'With `unparseable_spec`: where the spec failed to parse (1-based).' })),
      column: nullable(int({ minimum: 1 })),
      counts: { ...ref('ChangeCounts'), description: 'With `breaking_change`: the counts of every change the spec makes.' },
      items: array(ref('Change'), { description: 'With `breaking_change`: the changes the spec makes, every level (`counts` tallies them).' }),
      plan: str({ enum: ['free', 'private'], description: "With `plan_limit`: the account's plan now." }),
      quota: str({
        enum: ['apis', 'webhooks', 'apiTokens', 'pagesPerApi', 'importBytes', 'privateApis'],
        description: 'With `plan_limit`: the limit reached. `privateApis`: the plan has no private APIs (`limit` 0).',
      }),
      limit: int({ minimum: 0, description: "With `plan_limit`: the plan's ceiling." }),
      current: int({ minimum: 0, description: 'With `plan_limit`: what the account has now (for `importBytes`, the size of the document sent).' }),
    },
    ['type', 'title', 'status', 'detail', 'code'],
    { description: 'An RFC 9457 problem document with the stable `code`.' },
  ),
  FieldError: object({ field: str({ description: 'The field, part, parameter or header as the client named it (a dotted path in a spec).' }), message: str() }),
  Actor: object({ id: positiveId('The user id.'), nickname: str() }),

  Api: object(
    {
      id: uuid('UUIDv7'),
      revision: int({ minimum: 1, description: '1 on creation, +1 on every change of the API or its spec; also the `ETag`.' }),
      user: { ...ref('Actor'), description: 'The user who created it.' },
      nickname: str(NICKNAME),
      name: str({ description: '1-200 characters; `info.title` of the spec once there is one.' }),
      type: API_TYPE,
      description: nullable(str({ description: '`info.description` of the spec.' })),
      version: nullable(str({ description: '`info.version` of the spec.' })),
      specFormat: nullable(str({ enum: [...SPEC_FORMATS], description: 'The format of the current spec; `null` while the API has none. A later spec may be of another format.' })),
      breakingChangePolicy: BREAKING_POLICY,
      creationDate: timestamp('When it was created.'),
      updateDate: timestamp('When it last changed.'),
    },
    undefined,
    { description: 'An API of an account.' },
  ),
  ApiList: listOf('Api', 'APIs in creation order.'),
  CreateApi: closed({ name: str({ minLength: 1, maxLength: 200 }), nickname: str(NICKNAME), type: API_TYPE }, ['name', 'nickname']),
  UpdateApi: closed({ name: str({ minLength: 1, maxLength: 200 }), nickname: str(NICKNAME), type: API_TYPE, breakingChangePolicy: BREAKING_POLICY }),

  ImportOptions: closed({
    nickname: str({ ...NICKNAME, description: 'Default: made from `info.title`.' }),
    type: API_TYPE,
    createRelease: bool('Release the document as well (needs `api_release` too).'),
    releaseVersion: { ...VERSION_LABEL, description: 'The release label; default `info.version`. Read only with `createRelease`.' },
  }),
  ImportForm: closed({
    spec: { ...BINARY, description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document, YAML or JSON. Send it as `spec` or as `file`, once.' },
    file: { ...BINARY, description: 'The same as `spec`, under the other accepted name.' },
    body: { ...ref('ImportOptions'), description: 'A JSON object, as a plain field or a part with its own content type.' },
  }),
  SpecUpdateOptions: closed({ release: { ...VERSION_LABEL, description: 'Release the new document under this label (or give `?release=`, not both).' } }),
  SpecUpdateForm: closed({
    spec: { ...BINARY, description: 'The Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 document, YAML or JSON. Send it as `spec` or as `file`, once.' },
    file: { ...BINARY, description: 'The same as `spec`, under the other accepted name.' },
    body: { ...ref('SpecUpdateOptions'), description: 'A JSON object, as a plain field or a part with its own content type.' },
  }),
  SpecResult: object({
    api: ref('Api'),
    release: { ...nullable(ref('Release')), description: 'The release made with it, or `null`.' },
    counts: ref('DerivedCounts'),
    changes: { ...nullable(ref('SpecChanges')), description: 'What the spec changed against the current one (nothing when it is the same text); `null` for an import or an API\'s first spec.' },
  }),
  DryRunResult: object(
    {
      api: { ...ref('Api'), description: 'The API as it is: a dry run changes nothing.' },
      counts: { ...ref('DerivedCounts'), description: 'The derived counts of the document sent.' },
      changes: ref('SpecChanges'),
    },
    undefined,
    { description: 'What `PUT .../spec?dryRun=true` answers.' },
  ),
  SpecChanges: object({ breaking: bool('Any item is breaking.'), counts: ref('ChangeCounts'), items: array(ref('Change')) }),
  ChangeCounts: object({ breaking: int({ minimum: 0 }), warning: int({ minimum: 0 }), info: int({ minimum: 0 }) }),
  Change: object({
    rule: str({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description: 'A stable rule id of the catalog in docs/changes.md.' }),
    level: str({ enum: ['breaking', 'warning', 'info'] }),
    location: ref('ChangeLocation'),
    pointer: str({ description: 'A JSON pointer into the newer document (the older one for what was removed).' }),
    message: str({ description: 'One sentence.' }),
  }),
  ChangeLocation: object(
    {
      method: str(),
      path: str({ description: 'The path key as written (Swagger 2.0: without `basePath`).' }),
      parameter: str({ description: '`<in> <name>`, e.g. `query limit`.' }),
      status: str({ description: '`requestBody`, or the response status.' }),
      mediaType: str(),
      header: str({ description: 'A response header.' }),
      property: str({ description: 'Dotted; `[]` for array items, `{}` for map values.' }),
      model: str(),
      securityScheme: str(),
      server: str(),
    },
    [],
    { description: 'Where: an operation (narrowed by the other fields), a model, a security scheme or a server; fields that do not apply are left out.' },
  ),
  SpecRevision: object({
    revision: int({ minimum: 1, description: 'The API revision at which the spec was stored.' }),
    creationDate: timestamp('When it was stored.'),
    user: { ...ref('Actor'), description: 'Who stored it.' },
    specFormat: str({ enum: [...SPEC_FORMATS] }),
    counts: { ...nullable(ref('ChangeCounts')), description: 'The changes against the spec before it; `null` for the first.' },
    reason: { ...nullable(str()), description: 'The `allowBreaking` reason given with it, if any.' },
  }),
  SpecRevisionList: listOf('SpecRevision', 'Newest first.'),
  ChangeSide: object({ revision: { ...nullable(int({ minimum: 1 })), description: '`null` for a release made before spec history was kept.' }, release: nullable(str()) }),
  ChangesBetween: object({
    from: { ...nullable(ref('ChangeSide')), description: '`null` when `to` is the first spec the API had: nothing to compare with.' },
    to: ref('ChangeSide'),
    breaking: bool(),
    counts: ref('ChangeCounts'),
    items: array(ref('Change'), { description: 'Complete (not paged); `counts` tallies it.' }),
  }),
  ChangelogEntry: object({
    release: object({ version: VERSION_LABEL, status: str({ enum: ['released', 'deprecated', 'endOfLife'] }), releaseDate: timestamp('When it was released.') }),
    since: { ...nullable(VERSION_LABEL), description: 'The release before it; `null` for the first.' },
    counts: ref('ChangeCounts'),
    items: array(ref('Change')),
  }),
  Changelog: listOf('ChangelogEntry', 'Releases newest first.'),
  DerivedCounts: object({ endpoints: int({ minimum: 0 }), models: int({ minimum: 0 }), environments: int({ minimum: 0 }), authAdapters: int({ minimum: 0 }) }),
  Endpoint: object({
    method: nullable(str({ enum: ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'], description: '`null` when the path item is a `$ref` that could not be followed. `TRACE` in OpenAPI 3 only.' })),
    path: str({ description: 'The key of `paths` as written (in Swagger 2.0 without `basePath`).' }),
    operationId: nullable(str()),
    summary: nullable(str()),
    tags: array(str()),
    deprecated: bool(),
    unresolved: bool('The path item is an external `$ref`, or an internal one that leads nowhere or in a circle.'),
  }),
  EndpointList: listOf('Endpoint', 'Endpoints in document order.'),
  DomainModel: object({
    name: str({ description: 'The key in `definitions` (Swagger 2.0) or `components.schemas` (OpenAPI 3).' }),
    schema: { description: 'The schema as written, internal `$ref`s kept.' },
    unresolved: bool(),
  }),
  DomainModelList: listOf('DomainModel', 'Domain models in document order.'),
  Environment: { oneOf: [ref('Swagger2Environment'), ref('OpenApi3Environment')], description: 'An environment of a Swagger 2.0 or of an OpenAPI 3 document.' },
  Swagger2Environment: object(
    {
      scheme: nullable(str()),
      host: nullable(str()),
      basePath: str({ description: 'Default `/`.' }),
      url: nullable(str({ description: '`<scheme>://<host><basePath>` when scheme and host are known.' })),
    },
    undefined,
    { description: 'Swagger 2.0: one per scheme of the document.' },
  ),
  OpenApi3Environment: object(
    {
      url: str({ description: 'As written, `{variable}` templates and all; `/` when the document has no `servers`.' }),
      description: nullable(str()),
      variables: { type: 'object', additionalProperties: { type: 'object' }, description: 'The server variables as written (`default`, `enum`, `description`).' },
    },
    undefined,
    { description: 'OpenAPI 3: one per entry of the top-level `servers`.' },
  ),
  EnvironmentList: listOf('Environment', 'One environment per scheme (Swagger 2.0) or per server (OpenAPI 3) of the document.'),
  AuthAdapter: { oneOf: [ref('Swagger2AuthAdapter'), ref('OpenApi3AuthAdapter')], description: 'A security scheme of a Swagger 2.0 or of an OpenAPI 3 document.' },
  OAuthScope: object({ name: str(), description: str() }),
  OAuthFlow: object({ authorizationUrl: nullable(str()), tokenUrl: nullable(str()), refreshUrl: nullable(str()), scopes: array(ref('OAuthScope')) }),
  Swagger2AuthAdapter: object(
    {
      name: str(),
      type: str({ description: '`basic`, `apiKey` or `oauth2`.' }),
      description: nullable(str()),
      flow: nullable(str({ description: 'oauth2: implicit, password, application or accessCode.' })),
      authorizationUrl: nullable(str()),
      tokenUrl: nullable(str()),
      scopes: array(ref('OAuthScope')),
      in: nullable(str()),
      parameterName: nullable(str()),
    },
    undefined,
    { description: 'Swagger 2.0: one per entry of `securityDefinitions`.' },
  ),
  OpenApi3AuthAdapter: object(
    {
      name: str(),
      type: str({ description: '`apiKey`, `http`, `oauth2`, `openIdConnect` or `mutualTLS`; `unknown` when the scheme is a `$ref` that could not be followed.' }),
      description: nullable(str()),
      scheme: nullable(str({ description: 'http: `basic`, `bearer`, ...' })),
      bearerFormat: nullable(str({ description: 'http bearer: the token format, e.g. `JWT`.' })),
      in: nullable(str({ description: 'apiKey: `header`, `query` or `cookie`.' })),
      paramName: nullable(str({ description: 'apiKey: the header, query parameter or cookie name.' })),
      flows: nullable({ type: 'object', additionalProperties: ref('OAuthFlow'), description: 'oauth2: the flows by name (`implicit`, `password`, `clientCredentials`, `authorizationCode`).' }),
      openIdConnectUrl: nullable(str()),
      unresolved: bool('The scheme is an external `$ref`, or an internal one that leads nowhere or in a circle.'),
    },
    undefined,
    { description: 'OpenAPI 3: one per entry of `components.securitySchemes`.' },
  ),
  AuthAdapterList: listOf('AuthAdapter', 'One adapter per entry of `securityDefinitions` (Swagger 2.0) or `components.securitySchemes` (OpenAPI 3).'),

  Release: object({
    id: uuid('UUIDv7'),
    version: VERSION_LABEL,
    status: str({ enum: ['released', 'deprecated', 'endOfLife'] }),
    releaseDate: timestamp('When it was released; transitions do not change it.'),
    api: object({ id: uuid('The API.') }),
  }),
  ReleaseList: listOf('Release', 'Releases by release date.'),
  CreateRelease: closed({ version: VERSION_LABEL }, ['version']),

  Page: object({
    id: uuid('UUIDv7'),
    title: str(),
    slug: str({ pattern: '^[a-z0-9-]{1,64}$' }),
    body: str({ description: 'Markdown, exactly as written.' }),
    position: int({ minimum: 0, maximum: 1_000_000 }),
    creationDate: timestamp('When it was created.'),
    updateDate: timestamp('When it last changed.'),
  }),
  PageList: listOf('Page', 'Pages by position, ties by creation.'),
  CreatePage: closed(
    {
      title: str({ minLength: 1, maxLength: 200 }),
      slug: str({ pattern: '^[a-z0-9-]{1,64}$', description: 'Unique per API.' }),
      body: str({ description: 'Markdown of at most 1 MiB.' }),
      position: int({ minimum: 0, maximum: 1_000_000, description: 'A sort key; default: after the last page.' }),
    },
    ['title', 'slug', 'body'],
  ),
  UpdatePage: closed({
    title: str({ minLength: 1, maxLength: 200 }),
    slug: str({ pattern: '^[a-z0-9-]{1,64}$' }),
    body: str(),
    position: int({ minimum: 0, maximum: 1_000_000 }),
  }),

  Share: object({
    id: uuid('UUIDv7'),
    email: str({ format: 'email', description: "The grantee's address as their user has it now." }),
    role: SHARE_ROLE,
    user: { ...ref('Actor'), description: 'The grantee.' },
    creationDate: timestamp('When it was created.'),
    updateDate: timestamp('When the role was last set.'),
  }),
  ShareList: listOf('Share', 'Shares in creation order.'),
  CreateShare: closed({ email: str({ format: 'email', maxLength: 254 }), role: SHARE_ROLE }, ['email', 'role']),
  UpdateShare: closed({ role: SHARE_ROLE }, ['role']),

  Webhook: object(WEBHOOK_PROPERTIES),
  CreatedWebhook: object({ ...WEBHOOK_PROPERTIES, secret: str({ pattern: '^[0-9a-f]{64}$', description: 'Only when Specbase generated the secret: shown this once.' }) }, Object.keys(WEBHOOK_PROPERTIES)),
  WebhookList: listOf('Webhook', 'Webhooks in creation order.'),
  CreateWebhook: closed(
    {
      targetUrl: str({ maxLength: 2048, description: 'An absolute http or https URL without credentials; by default its host must be public.' }),
      events: array(EVENT, { minItems: 1 }),
      secret: str({ minLength: 16, maxLength: 256, description: 'The HMAC key of both signatures; omitted: one is generated and returned once.' }),
      active: bool('Default false: created inactive.'),
    },
    ['targetUrl', 'events'],
  ),
  UpdateWebhook: closed({
    targetUrl: str({ maxLength: 2048 }),
    events: array(EVENT, { minItems: 1 }),
    secret: str({ minLength: 16, maxLength: 256 }),
  }),
  Delivery: object({
    id: uuid('UUIDv7'),
    eventId: uuid("The event's id: the payload's `id` and the `webhook-id` header."),
    event: str({ description: 'The event name, `ping` included.' }),
    state: str({ enum: ['pending', 'succeeded', 'failed'] }),
    attempts: array(ref('DeliveryAttempt'), { description: 'Oldest first.' }),
    nextAttemptDate: nullable(str({ format: 'date-time', description: 'When the next attempt is due while `pending`.' })),
  }),
  DeliveryAttempt: object({
    date: timestamp('When the attempt started.'),
    status: nullable(int()),
    durationMs: int({ minimum: 0 }),
    error: nullable(str({ description: 'Why there was no response.' })),
    responseBody: str({ description: 'The first 1 KiB of the response body, `""` when none.' }),
  }),
  DeliveryList: listOf('Delivery', 'Deliveries, newest first.'),

  Profile: object({
    id: positiveId('The user id.'),
    email: str({ format: 'email' }),
    emailVerified: bool(),
    nickname: str(NICKNAME),
    name: nullable(str()),
    givenName: nullable(str()),
    familyName: nullable(str()),
    picture: nullable(str()),
    locale: nullable(str()),
    accountId: positiveId('The personal account.'),
    plan: ref('Plan'),
  }),
  Plan: object(
    {
      name: str({ enum: ['free', 'private'] }),
      trial: bool('On a trial of the Private plan (which becomes the free plan at `trialEndDate`).'),
      trialEndDate: nullable(timestamp('When the trial ends; null when not on a trial.')),
    },
    ['name', 'trial', 'trialEndDate'],
    { description: "The account's plan now (what it allows: the operator's configuration, see docs/configuration.md)." },
  ),
  UpdateProfile: closed({
    nickname: str(NICKNAME),
    name: nullable(str({ minLength: 1, maxLength: 200 })),
    givenName: nullable(str({ minLength: 1, maxLength: 200 })),
    familyName: nullable(str({ minLength: 1, maxLength: 200 })),
    picture: nullable(str({ maxLength: 2048, description: 'An absolute http or https URL.' })),
    locale: nullable(str({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$', description: 'A language tag such as `en` or `pt-BR`.' })),
  }),
  ChangePassword: closed({ currentPassword: str(), newPassword: str({ minLength: 10, maxLength: 256 }) }, ['currentPassword', 'newPassword']),

  ApiToken: object({ ...TOKEN_PROPERTIES, lastUseDate: nullable(str({ format: 'date-time', description: 'Written at most once a minute.' })) }),
  ApiTokenList: listOf('ApiToken', 'Tokens in creation order; never the token itself.'),
  CreateApiToken: closed({ name: str({ minLength: 1, maxLength: 100 }), scopes: array(SCOPE, { minItems: 1 }) }, ['name', 'scopes']),
  CreatedApiToken: object({ ...TOKEN_PROPERTIES, token: str({ pattern: '^sbt_[A-Za-z0-9_-]{43}$', description: 'Shown this once; only its hash is stored.' }) }),

  VerificationSent: object({ email: str({ format: 'email' }), expirationDate: timestamp('When the link stops working (24 hours).') }),
  ConfirmEmailVerification: closed({ token: str({ description: '`sbv_` and 43 base64url characters, from the message.' }) }, ['token']),
  EmailVerified: object({ email: str({ format: 'email' }), emailVerified: { const: true } }),

  Health: object({ status: str({ enum: ['ok', 'unavailable'] }) }),
  Readiness: object({ status: str({ enum: ['ready', 'unavailable', 'shutting_down'] }) }),

  OAuthError: object(
    { error: str({ description: 'RFC 6749 5.2: `invalid_request`, `invalid_client`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`, `invalid_token`, `slow_down`.' }), error_description: str() },
    undefined,
    { description: "OAuth's error shape (RFC 6749 5.2)." },
  ),
  GoogleError: object(
    { error: object({ code: { const: 401 }, message: { const: 'Invalid Credentials' }, status: { const: 'UNAUTHENTICATED' } }) },
    undefined,
    { description: "Google's error shape." },
  ),
  TokenRequest: OAUTH_FORM(
    {
      grant_type: str({ enum: ['authorization_code', 'refresh_token'] }),
      code: str({ description: 'authorization_code: the code from the redirect, within 60 s, once.' }),
      redirect_uri: str({ description: 'authorization_code: the same as in the authorization request.' }),
      code_verifier: str({ pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'authorization_code with PKCE.' }),
      refresh_token: str({ description: 'refresh_token.' }),
      scope: str({ description: 'refresh_token: narrows the scope of this access token.' }),
      client_id: str(),
      client_secret: str({ description: 'Confidential clients that do not use HTTP Basic.' }),
    },
    ['grant_type'],
  ),
  TokenResponse: object(
    {
      access_token: str({ description: 'An RS256 JWT (`typ: at+jwt`).' }),
      token_type: { const: 'Bearer' },
      expires_in: int({ minimum: 0, description: 'Seconds.' }),
      scope: str({ description: 'Space-separated.' }),
      refresh_token: str({ description: 'With `access_type=offline`; public clients get a new one on every refresh.' }),
      id_token: str({ description: 'When the scope has `openid` (or `plus.me`).' }),
    },
    ['access_token', 'token_type', 'expires_in', 'scope'],
  ),
  RevocationRequest: OAUTH_FORM({ token: str({ description: 'An access or refresh token.' }), token_type_hint: str(), client_id: str(), client_secret: str() }, ['token']),
  TokeninfoRequest: object({ access_token: str(), id_token: str() }, []),
  Tokeninfo: object(
    {
      issued_to: str({ description: 'The client id.' }),
      audience: str({ description: 'The client id.' }),
      user_id: str({ description: 'The user id, as a string.' }),
      scope: str({ description: 'Space-separated.' }),
      expires_in: int({ minimum: 0, description: 'Whole seconds left.' }),
      email: str({ description: 'With the e-mail scope.' }),
      verified_email: bool('With the e-mail scope.'),
      access_type: str({ enum: ['online', 'offline'] }),
    },
    ['issued_to', 'audience', 'user_id', 'scope', 'expires_in', 'access_type'],
    { description: "Google's Tokeninfo." },
  ),
  Userinfo: object(
    {
      id: str({ description: 'The user id, as a string.' }),
      email: str({ description: 'With the e-mail scope.' }),
      verified_email: bool('With the e-mail scope.'),
      name: str({ description: 'With the profile scope, when set.' }),
      given_name: str(),
      family_name: str(),
      picture: str(),
      locale: str(),
    },
    ['id'],
    { description: "Google's Userinfoplus: fields by scope." },
  ),
  OpenIdUserinfo: object(
    {
      sub: str({ description: 'The user id, as a string.' }),
      email: str(),
      email_verified: bool(),
      name: str(),
      given_name: str(),
      family_name: str(),
      picture: str(),
      locale: str(),
    },
    ['sub'],
    { description: 'OpenID Connect UserInfo: fields by scope.' },
  ),
  JsonWebKeySet: object({
    keys: array(object({ alg: { const: 'RS256' }, e: str(), kid: str({ description: 'The JWK thumbprint (RFC 7638).' }), kty: { const: 'RSA' }, n: str(), use: { const: 'sig' } })),
  }),
  PemCertificates: object({}, [], { additionalProperties: str({ description: 'A self-signed X.509 certificate, PEM.' }), description: 'kid to certificate.' }),
  OpenIdConfiguration: object(
    {
      issuer: str({ format: 'uri' }),
      authorization_endpoint: str({ format: 'uri' }),
      token_endpoint: str({ format: 'uri' }),
      userinfo_endpoint: str({ format: 'uri' }),
      revocation_endpoint: str({ format: 'uri' }),
      jwks_uri: str({ format: 'uri' }),
      response_types_supported: array(str()),
      response_modes_supported: array(str()),
      grant_types_supported: array(str()),
      subject_types_supported: array(str()),
      id_token_signing_alg_values_supported: array(str()),
      scopes_supported: array(str()),
      token_endpoint_auth_methods_supported: array(str()),
      revocation_endpoint_auth_methods_supported: array(str()),
      code_challenge_methods_supported: array(str()),
      claims_supported: array(str()),
      prompt_values_supported: array(str()),
    },
    ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'],
    { description: 'OpenID Connect Discovery 1.0.' },
  ),
  AuthorizationForm: object(
    {
      csrf: str({ description: 'The value of the `sb_csrf` cookie.' }),
      request: str({ description: "The authorization request's parameters, as the page carries them." }),
      step: str({ enum: ['login', 'consent'] }),
      email: str({ description: 'login' }),
      password: str({ description: 'login' }),
      decision: str({ enum: ['allow', 'deny'], description: 'consent' }),
    },
    ['csrf', 'request', 'step'],
    { description: 'What the login and consent pages post; not for clients.' },
  ),
};
