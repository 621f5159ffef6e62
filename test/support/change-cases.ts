import { PROPERTY_KINDS, SCHEMA_KINDS, type PropertyKind, type RuleId, type SchemaKind } from '../../src/domain/spec/changes/rules.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { swagger2Of, Unexpressible } from './swagger2-of.js';

/**
 * For every rule of the change catalog, a pair of documents that must trigger it and a pair that
 * must not, written as OpenAPI 3.0 and, where Swagger 2.0 can say the same, converted to 2.0
 * (swagger2Of). Used by the classifier's unit tests, by the codec's test (every document here is
 * valid in its format) and by scripts/changes-catalog.ts (the examples of docs/changes.md).
 */
type Json = Record<string, unknown>;

export interface ChangeCase {
  readonly rule: RuleId;
  /** Documents, OpenAPI 3.0. */
  readonly before: Json;
  readonly after: Json;
  /** A change near it that must not be reported as `rule`. */
  readonly not: { readonly before: Json; readonly after: Json };
  /** Only OpenAPI 3: Swagger 2.0 cannot say it (or the conversion would say something else). */
  readonly openApi3Only?: boolean;
}

const INFO = { title: 'Pets', version: '1.0.0' };
const ok = { '200': { description: 'ok' } };

export function doc(extra: Json = {}): JsonObject {
  return { openapi: '3.0.3', info: INFO, paths: {}, ...extra };
}

/** One operation, GET /pets unless said otherwise. */
function op(operation: Json = {}, path = '/pets', method = 'get', extra: Json = {}): Json {
  return doc({ paths: { [path]: { [method]: { responses: ok, ...operation } } }, ...extra });
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const query = (extra: Json = {}) => ({ name: 'limit', in: 'query', schema: { type: 'integer' }, ...extra });
const schemes = (securitySchemes: Json) => ({ components: { securitySchemes } });
const oauth = (flows: Json) => ({ oauth: { type: 'oauth2', flows } });
const code = (scopes: Json = { read: 'Read' }, tokenUrl = 'https://auth.example.com/token') => ({ authorizationCode: { authorizationUrl: 'https://auth.example.com/authorize', tokenUrl, scopes } });

const FIXED: ChangeCase[] = [
  { rule: 'endpoint-added', before: doc(), after: op(), not: { before: op(), after: op() } },
  {
    rule: 'endpoint-removed',
    before: op(),
    after: doc(),
    not: { before: op({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] }, '/pets/{id}'), after: op({ parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }] }, '/pets/{petId}') },
  },
  { rule: 'endpoint-deprecated', before: op(), after: op({ deprecated: true }), not: { before: op({ deprecated: true }), after: op({ deprecated: true }) } },
  { rule: 'endpoint-reactivated', before: op({ deprecated: true }), after: op(), not: { before: op(), after: op({ deprecated: true }) } },
  { rule: 'endpoint-sunset-changed', before: op({ deprecated: true }), after: op({ deprecated: true, 'x-sunset': '2027-06-30' }), not: { before: op({ 'x-sunset': '2027-06-30' }), after: op({ 'x-sunset': '2027-06-30' }) } },
  { rule: 'endpoint-sunset-removed', before: op({ deprecated: true, 'x-sunset': '2027-06-30' }), after: op({ deprecated: true }), not: { before: op({ 'x-sunset': '2027-06-30' }), after: op({ 'x-sunset': '2027-07-31' }) } },
  { rule: 'endpoint-operation-id-changed', before: op({ operationId: 'listPets' }), after: op({ operationId: 'findPets' }), not: { before: op(), after: op({ operationId: 'listPets' }) } },
  { rule: 'endpoint-description-changed', before: op({ summary: 'List pets' }), after: op({ summary: 'List all pets' }), not: { before: op({ summary: 'List pets', tags: ['a'] }), after: op({ summary: 'List pets', tags: ['b'] }) } },
  { rule: 'request-parameter-added', before: op(), after: op({ parameters: [query()] }), not: { before: op(), after: op({ parameters: [query({ required: true })] }) } },
  { rule: 'request-parameter-required-added', before: op(), after: op({ parameters: [query({ required: true })] }), not: { before: op(), after: op({ parameters: [query()] }) } },
  {
    rule: 'request-parameter-removed',
    before: op({ parameters: [query()] }),
    after: op(),
    not: {
      before: op({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] }, '/pets/{id}'),
      after: op({ parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }] }, '/pets/{petId}'),
    },
  },
  { rule: 'request-parameter-became-required', before: op({ parameters: [query()] }), after: op({ parameters: [query({ required: true })] }), not: { before: op({ parameters: [query({ required: true })] }), after: op({ parameters: [query()] }) } },
  { rule: 'request-parameter-became-optional', before: op({ parameters: [query({ required: true })] }), after: op({ parameters: [query()] }), not: { before: op({ parameters: [query()] }), after: op({ parameters: [query({ required: true })] }) } },
  { rule: 'request-parameter-deprecated', before: op({ parameters: [query()] }), after: op({ parameters: [query({ deprecated: true })] }), not: { before: op({ parameters: [query()] }), after: op({ parameters: [query()] }) }, openApi3Only: true },
  {
    rule: 'request-body-added',
    before: op({}, '/pets', 'post'),
    after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    not: { before: op({}, '/pets', 'post'), after: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-body-required-added',
    before: op({}, '/pets', 'post'),
    after: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post'),
    not: { before: op({}, '/pets', 'post'), after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-body-removed',
    before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    after: op({}, '/pets', 'post'),
    not: { before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'), after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-body-became-required',
    before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    after: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post'),
    not: { before: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post'), after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-body-became-optional',
    before: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post'),
    after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    not: { before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'), after: op({ requestBody: { required: true, content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-media-type-added',
    before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    after: op({ requestBody: { content: { ...json({ type: 'object' }), 'application/xml': { schema: { type: 'object' } } } } }, '/pets', 'post'),
    not: { before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'), after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post') },
  },
  {
    rule: 'request-media-type-removed',
    before: op({ requestBody: { content: { ...json({ type: 'object' }), 'application/xml': { schema: { type: 'object' } } } } }, '/pets', 'post'),
    after: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'),
    not: { before: op({ requestBody: { content: json({ type: 'object' }) } }, '/pets', 'post'), after: op({ requestBody: { content: { 'Application/JSON': { schema: { type: 'object' } } } } }, '/pets', 'post') },
  },
  { rule: 'response-status-added', before: op(), after: op({ responses: { ...ok, '404': { description: 'no pet' } } }), not: { before: op({ responses: { ...ok, '404': { description: 'no' } } }), after: op({ responses: { ...ok, '404': { description: 'no pet' } } }) } },
  { rule: 'response-success-status-removed', before: op({ responses: { ...ok, '206': { description: 'partial' } } }), after: op(), not: { before: op({ responses: { ...ok, '404': { description: 'no' } } }), after: op() } },
  { rule: 'response-status-removed', before: op({ responses: { ...ok, '404': { description: 'no' } } }), after: op(), not: { before: op({ responses: { ...ok, '206': { description: 'partial' } } }), after: op() } },
  {
    rule: 'response-media-type-added',
    before: op({ responses: { '200': { description: 'ok', content: json({ type: 'object' }) } } }),
    after: op({ responses: { '200': { description: 'ok', content: { ...json({ type: 'object' }), 'application/xml': { schema: { type: 'object' } } } } } }),
    not: { before: op({ responses: { '200': { description: 'ok', content: json({ type: 'object' }) } } }), after: op({ responses: { '200': { description: 'fine', content: json({ type: 'object' }) } } }) },
  },
  {
    rule: 'response-media-type-removed',
    before: op({ responses: { '200': { description: 'ok', content: { ...json({ type: 'object' }), 'application/xml': { schema: { type: 'object' } } } } } }),
    after: op({ responses: { '200': { description: 'ok', content: json({ type: 'object' }) } } }),
    not: { before: op({ responses: { '200': { description: 'ok', content: json({ type: 'object' }) } } }), after: op({ responses: { '200': { description: 'ok', content: json({ type: 'object' }) } } }) },
  },
  {
    rule: 'response-header-added',
    before: op(),
    after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }),
    not: { before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }), after: op({ responses: { '200': { description: 'ok', headers: { 'x-rate-limit': { schema: { type: 'integer' } } } } } }) },
  },
  {
    rule: 'response-header-removed',
    before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }),
    after: op(),
    not: { before: op(), after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }) },
  },
  {
    rule: 'response-required-header-removed',
    before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } } }),
    after: op(),
    not: { before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }), after: op() },
    openApi3Only: true,
  },
  {
    rule: 'response-header-became-optional',
    before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } } }),
    after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }),
    not: { before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }), after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } } }) },
    openApi3Only: true,
  },
  {
    rule: 'response-header-became-required',
    before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }),
    after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } } }),
    not: { before: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { required: true, schema: { type: 'integer' } } } } } }), after: op({ responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } }) },
    openApi3Only: true,
  },
  {
    rule: 'security-requirement-added',
    before: op({}, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    after: op({ security: [{ key: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    not: {
      before: op({ security: [{ key: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' }, basic: { type: 'http', scheme: 'basic' } })),
      after: op({ security: [{ key: [] }, { basic: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' }, basic: { type: 'http', scheme: 'basic' } })),
    },
  },
  {
    rule: 'security-scope-added',
    before: op({ security: [{ oauth: ['read'] }] }, '/pets', 'get', schemes(oauth(code({ read: 'Read', write: 'Write' })))),
    after: op({ security: [{ oauth: ['read', 'write'] }] }, '/pets', 'get', schemes(oauth(code({ read: 'Read', write: 'Write' })))),
    not: { before: op({ security: [{ oauth: ['read', 'write'] }] }, '/pets', 'get', schemes(oauth(code({ read: 'Read', write: 'Write' })))), after: op({ security: [{ oauth: ['read'] }] }, '/pets', 'get', schemes(oauth(code({ read: 'Read', write: 'Write' })))) },
  },
  {
    rule: 'security-requirement-removed',
    before: op({ security: [{ key: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    after: op({ security: [] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    not: { before: op({ security: [{ key: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })), after: op({ security: [{ key: [] }] }, '/pets', 'get', schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })) },
  },
  { rule: 'security-scheme-added', before: doc(), after: doc(schemes({ basic: { type: 'http', scheme: 'basic' } })), not: { before: doc(schemes({ basic: { type: 'http', scheme: 'basic' } })), after: doc(schemes({ basic: { type: 'http', scheme: 'Basic' } })) } },
  { rule: 'security-scheme-removed', before: doc(schemes({ basic: { type: 'http', scheme: 'basic' } })), after: doc(), not: { before: doc(), after: doc(schemes({ basic: { type: 'http', scheme: 'basic' } })) } },
  {
    rule: 'security-scheme-type-changed',
    before: doc(schemes({ auth: { type: 'http', scheme: 'basic' } })),
    after: doc(schemes({ auth: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    not: { before: doc(schemes({ auth: { type: 'apiKey', in: 'header', name: 'X-Key' } })), after: doc(schemes({ auth: { type: 'apiKey', in: 'header', name: 'X-Key', description: 'the key' } })) },
  },
  {
    rule: 'security-scheme-key-changed',
    before: doc(schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })),
    after: doc(schemes({ key: { type: 'apiKey', in: 'query', name: 'key' } })),
    not: { before: doc(schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })), after: doc(schemes({ key: { type: 'apiKey', in: 'header', name: 'X-Key' } })) },
  },
  {
    rule: 'security-scheme-flow-added',
    before: doc(schemes(oauth(code()))),
    after: doc(schemes(oauth({ ...code(), clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { read: 'Read' } } }))),
    not: { before: doc(schemes(oauth(code()))), after: doc(schemes(oauth(code()))) },
    openApi3Only: true,
  },
  {
    rule: 'security-scheme-flow-removed',
    before: doc(schemes(oauth(code()))),
    after: doc(schemes(oauth({ clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { read: 'Read' } } }))),
    not: { before: doc(schemes(oauth(code()))), after: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))) },
  },
  {
    rule: 'security-scheme-url-changed',
    before: doc(schemes(oauth(code()))),
    after: doc(schemes(oauth(code({ read: 'Read' }, 'https://auth.example.com/oauth/token')))),
    not: { before: doc(schemes(oauth(code()))), after: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))) },
  },
  {
    rule: 'security-scheme-scope-added',
    before: doc(schemes(oauth(code()))),
    after: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))),
    not: { before: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))), after: doc(schemes(oauth(code({ read: 'Read' })))) },
  },
  {
    rule: 'security-scheme-scope-removed',
    before: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))),
    after: doc(schemes(oauth(code()))),
    not: { before: doc(schemes(oauth(code()))), after: doc(schemes(oauth(code({ read: 'Read', write: 'Write' })))) },
  },
  {
    rule: 'server-added',
    before: doc({ servers: [{ url: 'https://api.example.com/v1' }] }),
    after: doc({ servers: [{ url: 'https://api.example.com/v1' }, { url: 'http://api.example.com/v1' }] }),
    not: { before: doc({ servers: [{ url: 'https://api.example.com/v1' }] }), after: doc({ servers: [{ url: 'https://api.example.com/v1', description: 'prod' }] }) },
  },
  {
    rule: 'server-removed',
    before: doc({ servers: [{ url: 'https://api.example.com/v1' }, { url: 'http://api.example.com/v1' }] }),
    after: doc({ servers: [{ url: 'https://api.example.com/v1' }] }),
    not: { before: doc({ servers: [{ url: 'https://api.example.com/v1' }] }), after: doc({ servers: [{ url: 'https://api.example.com/v1' }] }) },
  },
  { rule: 'model-added', before: doc(), after: doc({ components: { schemas: { Pet: { type: 'object' } } } }), not: { before: doc({ components: { schemas: { Pet: { type: 'object' } } } }), after: doc({ components: { schemas: { Pet: { type: 'object', description: 'a pet' } } } }) } },
  { rule: 'model-removed', before: doc({ components: { schemas: { Pet: { type: 'object' } } } }), after: doc(), not: { before: doc(), after: doc({ components: { schemas: { Pet: { type: 'object' } } } }) } },
];

/** A schema change and a near one that is not it (object schemas in a parameter or header are OpenAPI 3 only: swagger2Of says so). */
interface SchemaPair {
  readonly before: unknown;
  readonly after: unknown;
  readonly not: readonly [unknown, unknown];
  readonly openApi3Only?: boolean;
}

const obj = (extra: Json = {}) => ({ type: 'object', ...extra });

const SCHEMA_PAIRS: Record<SchemaKind, SchemaPair> = {
  'type-changed': { before: { type: 'string' }, after: { type: 'integer' }, not: [{ type: 'integer' }, { type: 'number' }] },
  'type-narrowed': { before: { type: 'number' }, after: { type: 'integer' }, not: [{ type: 'integer' }, { type: 'number' }] },
  'type-widened': { before: { type: 'integer' }, after: { type: 'number' }, not: [{ type: 'number' }, { type: 'integer' }] },
  'nullable-added': { before: { type: 'string' }, after: { type: 'string', nullable: true }, not: [{ type: 'string', nullable: true }, { type: 'string' }] },
  'nullable-removed': { before: { type: 'string', nullable: true }, after: { type: 'string' }, not: [{ type: 'string' }, { type: 'string', nullable: true }] },
  'format-changed': { before: { type: 'integer', format: 'int32' }, after: { type: 'integer', format: 'int64' }, not: [{ type: 'integer', format: 'int32' }, { type: 'integer', format: 'int32', description: 'how many' }] },
  'format-added': { before: { type: 'string' }, after: { type: 'string', format: 'uuid' }, not: [{ type: 'string', format: 'uuid' }, { type: 'string', format: 'uuid', description: 'the id' }] },
  'format-removed': { before: { type: 'string', format: 'uuid' }, after: { type: 'string' }, not: [{ type: 'string' }, { type: 'string', description: 'the id' }] },
  'enum-value-added': { before: { type: 'string', enum: ['cat'] }, after: { type: 'string', enum: ['cat', 'dog'] }, not: [{ type: 'string', enum: ['cat', 'dog'] }, { type: 'string', enum: ['dog', 'cat'] }] },
  'enum-value-removed': { before: { type: 'string', enum: ['cat', 'dog'] }, after: { type: 'string', enum: ['cat'] }, not: [{ type: 'string', enum: ['cat', 'dog'] }, { type: 'string', enum: ['dog', 'cat'] }] },
  'enum-added': { before: { type: 'string' }, after: { type: 'string', enum: ['cat'] }, not: [{ type: 'string', enum: ['cat'] }, { type: 'string', enum: ['cat'] }] },
  'enum-removed': { before: { type: 'string', enum: ['cat'] }, after: { type: 'string' }, not: [{ type: 'string' }, { type: 'string' }] },
  'max-decreased': { before: { type: 'integer', maximum: 100 }, after: { type: 'integer', maximum: 50 }, not: [{ type: 'integer', maximum: 50 }, { type: 'integer', maximum: 100 }] },
  'max-increased': { before: { type: 'string', maxLength: 50 }, after: { type: 'string', maxLength: 100 }, not: [{ type: 'string', maxLength: 100 }, { type: 'string', maxLength: 50 }] },
  'min-increased': { before: { type: 'string', minLength: 1 }, after: { type: 'string', minLength: 3 }, not: [{ type: 'string', minLength: 3 }, { type: 'string', minLength: 1 }] },
  'min-decreased': { before: { type: 'integer', minimum: 10 }, after: { type: 'integer', minimum: 0 }, not: [{ type: 'integer', minimum: 0 }, { type: 'integer', minimum: 10 }] },
  'pattern-changed': { before: { type: 'string', pattern: '^[a-z]+$' }, after: { type: 'string', pattern: '^[a-z0-9]+$' }, not: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'string', pattern: '^[a-z]+$' }] },
  'multiple-of-changed': { before: { type: 'integer', multipleOf: 5 }, after: { type: 'integer', multipleOf: 10 }, not: [{ type: 'integer', multipleOf: 5 }, { type: 'integer', multipleOf: 5, description: 'a step' }] },
  'unique-items-added': { before: { type: 'array', items: { type: 'string' } }, after: { type: 'array', items: { type: 'string' }, uniqueItems: true }, not: [{ type: 'array', items: { type: 'string' }, uniqueItems: true }, { type: 'array', items: { type: 'string' }, uniqueItems: true, description: 'tags' }] },
  'unique-items-removed': { before: { type: 'array', items: { type: 'string' }, uniqueItems: true }, after: { type: 'array', items: { type: 'string' } }, not: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'string' }, uniqueItems: false }] },
  'default-changed': { before: { type: 'integer', default: 20 }, after: { type: 'integer', default: 50 }, not: [{ type: 'integer', default: 20 }, { type: 'integer', default: 20, maximum: 100 }] },
  'additional-properties-added': { before: obj({ additionalProperties: false }), after: obj(), not: [obj(), obj({ additionalProperties: { type: 'string' } })] },
  'additional-properties-removed': { before: obj(), after: obj({ additionalProperties: false }), not: [obj({ additionalProperties: false }), obj()] },
  'option-added': { before: { oneOf: [{ type: 'string' }] }, after: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, not: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ type: 'integer' }, { type: 'string' }] }], openApi3Only: true },
  'option-removed': { before: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, after: { oneOf: [{ type: 'string' }] }, not: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ type: 'integer' }, { type: 'string' }] }], openApi3Only: true },
};

const props = (properties: Json, required: string[] = []) => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) });
const name = { type: 'string' };
const tag = { type: 'string' };

const PROPERTY_PAIRS: Record<PropertyKind, SchemaPair> = {
  added: { before: props({ name }), after: props({ name, tag }), not: [props({ name }), props({ name, tag }, ['tag'])] },
  'required-added': { before: props({ name }), after: props({ name, tag }, ['tag']), not: [props({ name }), props({ name, tag })] },
  removed: { before: props({ name, tag }), after: props({ name }), not: [props({ name, tag }), props({ tag, name })] },
  'became-required': { before: props({ name, tag }), after: props({ name, tag }, ['tag']), not: [props({ name, tag }, ['tag']), props({ name, tag })] },
  'became-optional': { before: props({ name, tag }, ['tag']), after: props({ name, tag }), not: [props({ name, tag }), props({ name, tag }, ['tag'])] },
  deprecated: { before: props({ name, tag }), after: props({ name, tag: { ...tag, deprecated: true } }), not: [props({ name, tag: { ...tag, deprecated: true } }), props({ name, tag })], openApi3Only: true },
};

type Placement = 'request-parameter' | 'request-body' | 'request-property' | 'response-body' | 'response-property' | 'response-header';

/** The document with `schema` at `placement`: a query parameter, a body, a property of a body, a response header. */
function placed(placement: Placement, schema: unknown): Json {
  switch (placement) {
    case 'request-parameter':
      return op({ parameters: [{ name: 'filter', in: 'query', schema }] });
    case 'request-body':
      return op({ requestBody: { content: json(schema) } }, '/pets', 'post');
    case 'request-property':
      return op({ requestBody: { content: json(props({ pet: schema })) } }, '/pets', 'post');
    case 'response-body':
      return op({ responses: { '200': { description: 'ok', content: json(schema) } } });
    case 'response-property':
      return op({ responses: { '200': { description: 'ok', content: json(props({ pet: schema })) } } });
    case 'response-header':
      return op({ responses: { '200': { description: 'ok', headers: { 'X-Filter': { schema } } } } });
  }
}

function schemaCases(): ChangeCase[] {
  const cases: ChangeCase[] = [];
  const placements: Placement[] = ['request-parameter', 'request-body', 'request-property', 'response-body', 'response-property', 'response-header'];
  for (const placement of placements) {
    for (const kind of SCHEMA_KINDS) {
      const pair = SCHEMA_PAIRS[kind];
      cases.push({
        rule: `${placement}-${kind}` as RuleId,
        before: placed(placement, pair.before),
        after: placed(placement, pair.after),
        not: { before: placed(placement, pair.not[0]), after: placed(placement, pair.not[1]) },
        ...(pair.openApi3Only ? { openApi3Only: true } : {}),
      });
    }
  }
  for (const direction of ['request', 'response'] as const) {
    for (const kind of PROPERTY_KINDS) {
      const pair = PROPERTY_PAIRS[kind];
      const body = direction === 'request' ? 'request-body' : 'response-body';
      cases.push({
        rule: `${direction}-property-${kind}`,
        before: placed(body, pair.before),
        after: placed(body, pair.after),
        not: { before: placed(body, pair.not[0]), after: placed(body, pair.not[1]) },
        ...(pair.openApi3Only ? { openApi3Only: true } : {}),
      });
    }
  }
  return cases;
}

export const CHANGE_CASES: readonly ChangeCase[] = [...FIXED, ...schemaCases()];

/** The case in each format it can be written in: OpenAPI 3.0, and Swagger 2.0 unless it cannot say it. */
export function formsOf(c: ChangeCase): { readonly format: 'openapi-3.0' | 'swagger-2.0'; readonly before: Json; readonly after: Json; readonly not: { readonly before: Json; readonly after: Json } }[] {
  const forms: ReturnType<typeof formsOf> = [{ format: 'openapi-3.0', before: c.before, after: c.after, not: c.not }];
  if (c.openApi3Only) return forms;
  try {
    forms.push({ format: 'swagger-2.0', before: swagger2Of(c.before), after: swagger2Of(c.after), not: { before: swagger2Of(c.not.before), after: swagger2Of(c.not.after) } });
  } catch (error) {
    if (!(error instanceof Unexpressible)) throw error;
  }
  return forms;
}
