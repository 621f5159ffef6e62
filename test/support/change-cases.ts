import { CATALOG_SCOPES, PROPERTY_KINDS, SCHEMA_KINDS, type PropertyKind, type RuleId, type SchemaKind } from '../../src/domain/spec/changes/rules.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { openApi31Of } from './openapi31-of.js';
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
  /** Documents, OpenAPI 3.0 (3.1 for webhooks). */
  readonly before: Json;
  readonly after: Json;
  /** A change near it that must not be reported as `rule`. */
  readonly not: { readonly before: Json; readonly after: Json };
  /** Only OpenAPI 3: Swagger 2.0 cannot say it (or the conversion would say something else). */
  readonly openApi3Only?: boolean;
  /** Only OpenAPI 3.1 (JSON Schema 2020-12 keywords): the documents are 3.1 already. */
  readonly openApi31Only?: boolean;
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
const typed = (...types: string[]) => Object.fromEntries(types.map((type) => [type, { schema: { type: 'object' } }]));
const body = (...types: string[]) => op({ requestBody: { content: typed(...types) } }, '/pets', 'post');
const answer = (...types: string[]) => op({ responses: { '200': { description: 'ok', content: typed(...types) } } });

/** An OpenAPI 3.1 document with one webhook, newPet (POST), or none. */
function hook(operation?: Json): Json {
  return { openapi: '3.1.0', info: INFO, paths: {}, ...(operation === undefined ? {} : { webhooks: { newPet: { post: { responses: ok, ...operation } } } }) };
}

/** POST /subscriptions with a callback, onEvent (POST to the URL its request body gives), or none. */
function callback(operation?: Json): Json {
  return op(operation === undefined ? {} : { callbacks: { onEvent: { '{$request.body#/url}': { post: { responses: ok, ...operation } } } } }, '/subscriptions', 'post');
}

const signature = (extra: Json = {}) => ({ name: 'X-Signature', in: 'header', schema: { type: 'string' }, ...extra });
const event = (extra: Json = {}) => ({ requestBody: { content: json({ type: 'object' }), ...extra } });
const sentAs = (...types: string[]) => callback({ requestBody: { content: typed(...types) } });
const answeredAs = (...types: string[]) => callback({ responses: { '200': { description: 'ok', content: typed(...types) } } });
const answerHeader = (extra?: Json) => callback({ responses: { '200': { description: 'ok', ...(extra === undefined ? {} : { headers: { 'X-Received': { schema: { type: 'string' }, ...extra } } }) } } });
const ids = (extra: Json = {}) => ({ name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string' } }, ...extra });
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
  { rule: 'endpoint-operation-id-added', before: op(), after: op({ operationId: 'listPets' }), not: { before: op({ operationId: 'listPets' }), after: op({ operationId: 'findPets' }) } },
  { rule: 'endpoint-tag-added', before: op({ tags: ['pets'] }), after: op({ tags: ['pets', 'store'] }), not: { before: op({ tags: ['pets', 'store'] }), after: op({ tags: ['store', 'pets'] }) } },
  { rule: 'endpoint-tag-removed', before: op({ tags: ['pets', 'store'] }), after: op({ tags: ['pets'] }), not: { before: op({ tags: ['store', 'pets'] }), after: op({ tags: ['pets', 'store'] }) } },
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
    rule: 'request-parameter-style-changed',
    before: op({ parameters: [ids()] }),
    after: op({ parameters: [ids({ explode: false })] }),
    // A single value is written name=value in a query whatever the style.
    not: { before: op({ parameters: [query()] }), after: op({ parameters: [query({ style: 'spaceDelimited' })] }) },
  },
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
  { rule: 'request-media-type-generalized', before: body('application/json'), after: body('application/*'), not: { before: body('application/json'), after: body('application/json; charset=utf-8') } },
  { rule: 'request-media-type-narrowed', before: body('application/json'), after: body('application/json; charset=utf-8'), not: { before: body('application/json; charset=utf-8'), after: body('application/json') } },
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
  { rule: 'response-media-type-generalized', before: answer('application/json'), after: answer('*/*'), not: { before: answer('application/*'), after: answer('application/json') } },
  { rule: 'response-media-type-narrowed', before: answer('application/json'), after: answer('application/problem+json'), not: { before: answer('application/problem+json'), after: answer('application/json') } },
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
  { rule: 'webhook-added', before: hook(), after: hook({}), not: { before: hook({}), after: hook({ summary: 'A pet was added' }) }, openApi3Only: true, openApi31Only: true },
  { rule: 'webhook-removed', before: hook({}), after: hook(), not: { before: hook(), after: hook({}) }, openApi3Only: true, openApi31Only: true },
  { rule: 'callback-added', before: callback(), after: callback({}), not: { before: callback({}), after: callback({ summary: 'The event' }) }, openApi3Only: true },
  { rule: 'callback-removed', before: callback({}), after: callback(), not: { before: callback(), after: callback({}) }, openApi3Only: true },
  {
    rule: 'callback-request-parameter-added',
    before: callback({}),
    after: callback({ parameters: [signature()] }),
    not: { before: callback({ parameters: [signature()] }), after: callback({ parameters: [signature({ required: true })] }) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-parameter-removed',
    before: callback({ parameters: [signature()] }),
    after: callback({}),
    not: { before: callback({ parameters: [signature({ required: true })] }), after: callback({}) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-required-parameter-removed',
    before: callback({ parameters: [signature({ required: true })] }),
    after: callback({}),
    not: { before: callback({ parameters: [signature()] }), after: callback({}) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-parameter-became-required',
    before: callback({ parameters: [signature()] }),
    after: callback({ parameters: [signature({ required: true })] }),
    not: { before: callback({ parameters: [signature({ required: true })] }), after: callback({ parameters: [signature()] }) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-parameter-became-optional',
    before: callback({ parameters: [signature({ required: true })] }),
    after: callback({ parameters: [signature()] }),
    not: { before: callback({ parameters: [signature()] }), after: callback({ parameters: [signature({ required: true })] }) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-parameter-deprecated',
    before: callback({ parameters: [signature()] }),
    after: callback({ parameters: [signature({ deprecated: true })] }),
    not: { before: callback({ parameters: [signature({ deprecated: true })] }), after: callback({ parameters: [signature({ deprecated: true })] }) },
    openApi3Only: true,
  },
  {
    rule: 'callback-request-parameter-style-changed',
    before: callback({ parameters: [ids()] }),
    after: callback({ parameters: [ids({ style: 'pipeDelimited' })] }),
    // An array in a header is written comma-separated, exploded or not.
    not: { before: callback({ parameters: [signature({ schema: { type: 'array', items: { type: 'string' } } })] }), after: callback({ parameters: [signature({ schema: { type: 'array', items: { type: 'string' } }, explode: true })] }) },
    openApi3Only: true,
  },
  { rule: 'callback-request-body-added', before: callback({}), after: callback(event()), not: { before: callback(event()), after: callback(event({ required: true })) }, openApi3Only: true },
  { rule: 'callback-request-body-removed', before: callback(event()), after: callback({}), not: { before: callback(event({ required: true })), after: callback({}) }, openApi3Only: true },
  { rule: 'callback-request-required-body-removed', before: callback(event({ required: true })), after: callback({}), not: { before: callback(event()), after: callback({}) }, openApi3Only: true },
  { rule: 'callback-request-body-became-required', before: callback(event()), after: callback(event({ required: true })), not: { before: callback(event({ required: true })), after: callback(event()) }, openApi3Only: true },
  { rule: 'callback-request-body-became-optional', before: callback(event({ required: true })), after: callback(event()), not: { before: callback(event()), after: callback(event({ required: true })) }, openApi3Only: true },
  { rule: 'callback-request-media-type-added', before: sentAs('application/json'), after: sentAs('application/json', 'application/xml'), not: { before: sentAs('application/json', 'application/xml'), after: sentAs('application/json') }, openApi3Only: true },
  { rule: 'callback-request-media-type-removed', before: sentAs('application/json', 'application/xml'), after: sentAs('application/json'), not: { before: sentAs('application/json'), after: sentAs('application/json', 'application/xml') }, openApi3Only: true },
  { rule: 'callback-request-media-type-generalized', before: sentAs('application/json'), after: sentAs('application/*'), not: { before: sentAs('application/*'), after: sentAs('application/json') }, openApi3Only: true },
  { rule: 'callback-request-media-type-narrowed', before: sentAs('application/json'), after: sentAs('application/cloudevents+json'), not: { before: sentAs('application/cloudevents+json'), after: sentAs('application/json') }, openApi3Only: true },
  {
    rule: 'callback-response-status-added',
    before: callback({}),
    after: callback({ responses: { ...ok, '410': { description: 'unsubscribe' } } }),
    not: { before: callback({ responses: { ...ok, '410': { description: 'gone' } } }), after: callback({ responses: { ...ok, '410': { description: 'unsubscribe' } } }) },
    openApi3Only: true,
  },
  {
    rule: 'callback-response-status-removed',
    before: callback({ responses: { ...ok, '204': { description: 'taken' } } }),
    after: callback({}),
    not: { before: callback({}), after: callback({ responses: { ...ok, '204': { description: 'taken' } } }) },
    openApi3Only: true,
  },
  { rule: 'callback-response-media-type-added', before: answeredAs('application/json'), after: answeredAs('application/json', 'text/plain'), not: { before: answeredAs('application/json', 'text/plain'), after: answeredAs('application/json') }, openApi3Only: true },
  { rule: 'callback-response-media-type-removed', before: answeredAs('application/json', 'text/plain'), after: answeredAs('application/json'), not: { before: answeredAs('application/json'), after: answeredAs('application/json', 'text/plain') }, openApi3Only: true },
  { rule: 'callback-response-media-type-generalized', before: answeredAs('text/plain'), after: answeredAs('text/*'), not: { before: answeredAs('text/*'), after: answeredAs('text/plain') }, openApi3Only: true },
  { rule: 'callback-response-media-type-narrowed', before: answeredAs('text/plain'), after: answeredAs('text/plain; charset=utf-8'), not: { before: answeredAs('text/plain; charset=utf-8'), after: answeredAs('text/plain') }, openApi3Only: true },
  { rule: 'callback-response-header-added', before: answerHeader(), after: answerHeader({}), not: { before: answerHeader(), after: answerHeader({ required: true }) }, openApi3Only: true },
  { rule: 'callback-response-required-header-added', before: answerHeader(), after: answerHeader({ required: true }), not: { before: answerHeader(), after: answerHeader({}) }, openApi3Only: true },
  { rule: 'callback-response-header-removed', before: answerHeader({ required: true }), after: answerHeader(), not: { before: answerHeader(), after: answerHeader({ required: true }) }, openApi3Only: true },
  { rule: 'callback-response-header-became-required', before: answerHeader({}), after: answerHeader({ required: true }), not: { before: answerHeader({ required: true }), after: answerHeader({}) }, openApi3Only: true },
  { rule: 'callback-response-header-became-optional', before: answerHeader({ required: true }), after: answerHeader({}), not: { before: answerHeader({}), after: answerHeader({ required: true }) }, openApi3Only: true },
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
  /** JSON Schema 2020-12 keywords: the documents are OpenAPI 3.1. */
  readonly openApi31Only?: boolean;
  /** Models the schemas refer to. */
  readonly components?: Json;
}

const obj = (extra: Json = {}) => ({ type: 'object', ...extra });

/** An alternative told apart by its `kind` (or another property). */
const pet = (kind: string, property = 'kind') => obj({ required: [property], properties: { [property]: { type: 'string', enum: [kind] } } });
const MODELS: Json = { Cat: pet('cat'), Dog: pet('dog') };
const choice = (mapping: Record<string, string>) => ({
  oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
  discriminator: { propertyName: 'kind', mapping: Object.fromEntries(Object.entries(mapping).map(([value, model]) => [value, `#/components/schemas/${model}`])) },
});

const SCHEMA_PAIRS: Record<SchemaKind, SchemaPair> = {
  // Boolean to integer: another type in JSON and on the wire alike (string to integer narrows a parameter's text).
  'type-changed': { before: { type: 'boolean' }, after: { type: 'integer' }, not: [{ type: 'integer' }, { type: 'number' }] },
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
  'pattern-changed': { before: { type: 'string', pattern: '^[a-z]+$' }, after: { type: 'string', pattern: '^[a-z0-9]+$' }, not: [{ type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }] },
  'multiple-of-changed': { before: { type: 'integer', multipleOf: 4 }, after: { type: 'integer', multipleOf: 6 }, not: [{ type: 'integer', multipleOf: 4 }, { type: 'integer', multipleOf: 8 }] },
  'multiple-of-narrowed': { before: { type: 'integer', multipleOf: 2 }, after: { type: 'integer', multipleOf: 4 }, not: [{ type: 'integer', multipleOf: 4 }, { type: 'integer', multipleOf: 2 }] },
  'multiple-of-widened': { before: { type: 'integer', multipleOf: 4 }, after: { type: 'integer' }, not: [{ type: 'integer' }, { type: 'integer', multipleOf: 4 }] },
  'unique-items-added': { before: { type: 'array', items: { type: 'string' } }, after: { type: 'array', items: { type: 'string' }, uniqueItems: true }, not: [{ type: 'array', items: { type: 'string' }, uniqueItems: true }, { type: 'array', items: { type: 'string' }, uniqueItems: true, description: 'tags' }] },
  'unique-items-removed': { before: { type: 'array', items: { type: 'string' }, uniqueItems: true }, after: { type: 'array', items: { type: 'string' } }, not: [{ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'string' }, uniqueItems: false }] },
  'default-changed': { before: { type: 'integer', default: 20 }, after: { type: 'integer', default: 50 }, not: [{ type: 'integer', default: 20 }, { type: 'integer', default: 20, maximum: 100 }] },
  'additional-properties-added': { before: obj({ additionalProperties: false }), after: obj(), not: [obj(), obj({ additionalProperties: { type: 'string' } })] },
  'additional-properties-removed': { before: obj(), after: obj({ additionalProperties: false }), not: [obj({ additionalProperties: false }), obj()] },
  'option-added': { before: { oneOf: [{ type: 'string' }] }, after: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, not: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ type: 'integer' }, { type: 'string' }] }], openApi3Only: true },
  'option-removed': { before: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, after: { oneOf: [{ type: 'string' }] }, not: [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { oneOf: [{ type: 'integer' }, { type: 'string' }] }], openApi3Only: true },
  'pattern-added': { before: { type: 'string' }, after: { type: 'string', pattern: '^[a-z]+$' }, not: [{ type: 'string', pattern: '^[a-z]+$' }, { type: 'string', pattern: '^[a-z0-9]+$' }] },
  'pattern-removed': { before: { type: 'string', pattern: '^[a-z]+$' }, after: { type: 'string' }, not: [{ type: 'string' }, { type: 'string', pattern: '^[a-z]+$' }] },
  // A const is an enum of one value: between the two, nothing changes.
  'const-added': { before: { type: 'string' }, after: { type: 'string', const: 'cat' }, not: [{ type: 'string', enum: ['cat'] }, { type: 'string', const: 'cat' }], openApi31Only: true },
  'const-removed': { before: { type: 'string', const: 'cat' }, after: { type: 'string' }, not: [{ type: 'string', const: 'cat' }, { type: 'string', enum: ['cat', 'dog'] }], openApi31Only: true },
  'const-changed': { before: { type: 'string', const: 'cat' }, after: { type: 'string', const: 'dog' }, not: [{ type: 'string', const: 'cat' }, { type: 'string', enum: ['cat'] }], openApi31Only: true },
  'extensible-enum-value-added': { before: { type: 'string', 'x-extensible-enum': ['cat'] }, after: { type: 'string', 'x-extensible-enum': ['cat', 'dog'] }, not: [{ type: 'string', 'x-extensible-enum': ['cat', 'dog'] }, { type: 'string', 'x-extensible-enum': ['dog', 'cat'] }] },
  'extensible-enum-value-removed': { before: { type: 'string', 'x-extensible-enum': ['cat', 'dog'] }, after: { type: 'string', 'x-extensible-enum': ['cat'] }, not: [{ type: 'string', 'x-extensible-enum': ['cat'] }, { type: 'string', 'x-extensible-enum': ['cat', 'dog'] }] },
  // No minContains beside contains is 1.
  'contains-added': { before: { type: 'array', items: { type: 'string' } }, after: { type: 'array', items: { type: 'string' }, contains: { const: 'admin' } }, not: [{ type: 'array', contains: { const: 'admin' } }, { type: 'array', contains: { const: 'admin' }, minContains: 1 }], openApi31Only: true },
  'contains-removed': { before: { type: 'array', contains: { const: 'admin' } }, after: { type: 'array' }, not: [{ type: 'array', contains: { type: 'string' } }, { type: 'array', contains: { type: 'string', maxLength: 5 } }], openApi31Only: true },
  'dependent-required-added': {
    before: obj({ properties: { card: { type: 'string' }, address: { type: 'string' } } }),
    after: obj({ properties: { card: { type: 'string' }, address: { type: 'string' } }, dependentRequired: { card: ['address'] } }),
    not: [obj({ properties: { card: { type: 'string' }, address: { type: 'string' } }, dependentRequired: { card: ['address'] } }), obj({ properties: { card: { type: 'string' }, address: { type: 'string' } }, dependentRequired: { card: ['address'] }, description: 'paid' })],
    openApi31Only: true,
  },
  'dependent-required-removed': {
    before: obj({ properties: { card: { type: 'string' }, address: { type: 'string' } }, dependentRequired: { card: ['address'] } }),
    after: obj({ properties: { card: { type: 'string' }, address: { type: 'string' } } }),
    not: [obj({ properties: { card: { type: 'string' }, address: { type: 'string' } } }), obj({ properties: { card: { type: 'string' }, address: { type: 'string' } }, dependentRequired: { card: ['address'] } })],
    openApi31Only: true,
  },
  'condition-changed': {
    before: obj({ if: { properties: { kind: { const: 'card' } } }, then: { required: ['number'] } }),
    after: obj({ if: { properties: { kind: { const: 'bank' } } }, then: { required: ['number'] } }),
    not: [obj({ if: { properties: { kind: { const: 'card' } } }, then: { required: ['number'] } }), obj({ if: { properties: { kind: { const: 'card' } } }, then: { required: ['number', 'expiry'] } })],
    openApi31Only: true,
  },
  'content-media-type-changed': { before: { type: 'string', contentMediaType: 'image/png' }, after: { type: 'string', contentMediaType: 'image/jpeg' }, not: [{ type: 'string', contentMediaType: 'image/png' }, { type: 'string', contentMediaType: 'image/png', description: 'a photo' }], openApi31Only: true },
  'content-encoding-changed': { before: { type: 'string', contentEncoding: 'base64' }, after: { type: 'string', contentEncoding: 'base64url' }, not: [{ type: 'string', contentEncoding: 'base64' }, { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' }], openApi31Only: true },
  // Two objects that tell nothing apart: a value with a name matches both, and a oneOf refuses it.
  'one-of-overlap-added': {
    before: obj({ properties: { name: { type: 'string' } } }),
    after: { oneOf: [obj({ properties: { name: { type: 'string' } } }), obj({ properties: { tag: { type: 'string' } } })] },
    not: [{ type: 'string' }, { oneOf: [{ type: 'string' }, { type: 'integer' }] }],
    openApi3Only: true,
  },
  'discriminator-added': { before: { oneOf: [pet('cat'), pet('dog')] }, after: { oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } }, not: [{ oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } }, { oneOf: [pet('dog'), pet('cat')], discriminator: { propertyName: 'kind' } }], openApi3Only: true },
  'discriminator-removed': { before: { oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } }, after: { oneOf: [pet('cat'), pet('dog')] }, not: [{ oneOf: [pet('cat'), pet('dog')] }, { oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } }], openApi3Only: true },
  'discriminator-property-changed': {
    before: { oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } },
    after: { oneOf: [pet('cat', 'type'), pet('dog', 'type')], discriminator: { propertyName: 'type' } },
    not: [{ oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind' } }, { oneOf: [pet('cat'), pet('dog')], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } } }],
    components: MODELS,
    openApi3Only: true,
  },
  'discriminator-mapping-added': { before: choice({ cat: 'Cat' }), after: choice({ cat: 'Cat', dog: 'Dog' }), not: [choice({ cat: 'Cat', dog: 'Dog' }), choice({ cat: 'Cat' })], components: MODELS, openApi3Only: true },
  'discriminator-mapping-removed': { before: choice({ cat: 'Cat', dog: 'Dog' }), after: choice({ cat: 'Cat' }), not: [choice({ cat: 'Cat' }), choice({ cat: 'Cat', dog: 'Dog' })], components: MODELS, openApi3Only: true },
  'discriminator-mapping-changed': { before: choice({ cat: 'Cat', dog: 'Dog' }), after: choice({ cat: 'Dog', dog: 'Cat' }), not: [choice({ cat: 'Cat' }), choice({ cat: 'Cat', dog: 'Dog' })], components: MODELS, openApi3Only: true },
  // Inside not, a value taken away from what is excluded passes again.
  'not-narrowed': { before: { type: 'string', not: { enum: ['root', 'admin'] } }, after: { type: 'string', not: { enum: ['root'] } }, not: [{ type: 'string', not: { enum: ['root'] } }, { type: 'string', not: { enum: ['root', 'admin'] } }], openApi3Only: true },
  'not-widened': { before: { type: 'string', not: { enum: ['root'] } }, after: { type: 'string', not: { enum: ['root', 'admin'] } }, not: [{ type: 'string', not: { enum: ['root', 'admin'] } }, { type: 'string', not: { enum: ['root'] } }], openApi3Only: true },
  'not-changed': { before: { type: 'string', not: { type: 'string', pattern: '^a' } }, after: { type: 'string', not: { type: 'string', pattern: '^b' } }, not: [{ type: 'string', not: { type: 'string', pattern: '^a' } }, { type: 'string', not: { type: 'string' } }], openApi3Only: true },
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
  'became-read-only': { before: props({ name, tag }), after: props({ name, tag: { ...tag, readOnly: true } }), not: [props({ name, tag: { ...tag, readOnly: true } }), props({ name, tag })] },
  'became-writable': { before: props({ name, tag: { ...tag, readOnly: true } }), after: props({ name, tag }), not: [props({ name, tag }), props({ name, tag: { ...tag, readOnly: true } })] },
  'became-write-only': { before: props({ name, tag }), after: props({ name, tag: { ...tag, writeOnly: true } }), not: [props({ name, tag: { ...tag, writeOnly: true } }), props({ name, tag })], openApi3Only: true },
  'became-readable': { before: props({ name, tag: { ...tag, writeOnly: true } }), after: props({ name, tag }), not: [props({ name, tag }), props({ name, tag: { ...tag, writeOnly: true } })], openApi3Only: true },
};

/** Where a schema case stands: each place of the catalog's schema rules. */
type Placement = (typeof CATALOG_SCOPES)[number];

/** The document with `schema` at `placement` (OpenAPI 3.1 for JSON Schema 2020-12 keywords), the models `pair` refers to beside it. */
function placed(placement: Placement, schema: unknown, pair: SchemaPair): Json {
  const document = at(placement, schema);
  return {
    ...document,
    ...(pair.openApi31Only ? { openapi: '3.1.0' } : {}),
    ...(pair.components === undefined ? {} : { components: { schemas: pair.components } }),
  };
}

/** The document with `schema` at `placement`: a query parameter, a body, a property of a body, a response header; of a callback's request and its answer. */
function at(placement: Placement, schema: unknown): Json {
  switch (placement) {
    case 'callback-request-parameter':
      return callback({ parameters: [{ name: 'filter', in: 'query', schema }] });
    case 'callback-request-body':
      return callback({ requestBody: { content: json(schema) } });
    case 'callback-response-body':
      return callback({ responses: { '200': { description: 'ok', content: json(schema) } } });
    case 'callback-response-header':
      return callback({ responses: { '200': { description: 'ok', headers: { 'X-Filter': { schema } } } } });
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
  for (const placement of CATALOG_SCOPES) {
    for (const kind of SCHEMA_KINDS) {
      const pair = SCHEMA_PAIRS[kind];
      cases.push({
        rule: `${placement}-${kind}` as RuleId,
        before: placed(placement, pair.before, pair),
        after: placed(placement, pair.after, pair),
        not: { before: placed(placement, pair.not[0], pair), after: placed(placement, pair.not[1], pair) },
        ...(pair.openApi3Only || placement.startsWith('callback-') ? { openApi3Only: true } : {}),
        ...(pair.openApi31Only ? { openApi31Only: true } : {}),
      });
    }
  }
  for (const direction of ['request', 'response'] as const) {
    for (const kind of PROPERTY_KINDS) {
      const pair = PROPERTY_PAIRS[kind];
      const body = direction === 'request' ? 'request-body' : 'response-body';
      cases.push({
        rule: `${direction}-property-${kind}`,
        before: placed(body, pair.before, pair),
        after: placed(body, pair.after, pair),
        not: { before: placed(body, pair.not[0], pair), after: placed(body, pair.not[1], pair) },
        ...(pair.openApi3Only ? { openApi3Only: true } : {}),
      });
    }
  }
  return cases;
}

export const CHANGE_CASES: readonly ChangeCase[] = [...FIXED, ...schemaCases()];

type Format = 'openapi-3.0' | 'swagger-2.0' | 'openapi-3.1';

/**
 * The case in each format it can be written in: OpenAPI 3.0, Swagger 2.0 unless it cannot say it,
 * and OpenAPI 3.1 (converted: `nullable` as a type list, exclusive bounds as numbers); a case of
 * 3.1 keywords only as written.
 */
export function formsOf(c: ChangeCase): { readonly format: Format; readonly before: Json; readonly after: Json; readonly not: { readonly before: Json; readonly after: Json } }[] {
  if (c.openApi31Only) return [{ format: 'openapi-3.1', before: c.before, after: c.after, not: c.not }];
  const forms: ReturnType<typeof formsOf> = [{ format: 'openapi-3.0', before: c.before, after: c.after, not: c.not }];
  if (!c.openApi3Only) {
    try {
      forms.push({ format: 'swagger-2.0', before: swagger2Of(c.before), after: swagger2Of(c.after), not: { before: swagger2Of(c.not.before), after: swagger2Of(c.not.after) } });
    } catch (error) {
      if (!(error instanceof Unexpressible)) throw error;
    }
  }
  forms.push({ format: 'openapi-3.1', before: openApi31Of(c.before), after: openApi31Of(c.after), not: { before: openApi31Of(c.not.before), after: openApi31Of(c.not.after) } });
  return forms;
}
