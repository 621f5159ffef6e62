import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { SCOPES } from '../../src/domain/token/scope.js';
import { cpuMs } from '../support/cpu.js';
import { sqlite } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

/**
 * Since specs are validated as written (cfc64f6), an internal `$ref` must lead somewhere, but not
 * to something of its kind: a parameter may refer to a schema, a response to `#/info`, a path item
 * to itself. Each such document is imported, then read by everything a client and a reader can
 * read; no answer may be a 5xx, and what cannot use such a reference must say it is not resolved.
 * SQLite only: the subject is the reading of documents, not their storage.
 */
type Json = Record<string, unknown>;
interface Change {
  rule: string;
  location: Record<string, string>;
  message: string;
}
type Format = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';
const FORMATS: readonly Format[] = ['swagger-2.0', 'openapi-3.0', 'openapi-3.1'];
const OPENAPI3: readonly Format[] = ['openapi-3.0', 'openapi-3.1'];

/** A small document of each format with one of every kind of thing a `$ref` may name, each named once. */
function base(format: Format): Json {
  const info = { title: 'Wrong kinds', version: '1.0.0', description: 'An API whose references point at the wrong things.' };
  const pet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } };
  if (format === 'swagger-2.0') {
    return {
      swagger: '2.0',
      info,
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['https'],
      tags: [{ name: 'pets', description: 'Pets' }],
      security: [{ key: [] }],
      paths: {
        '/a': {
          get: { tags: ['pets'], operationId: 'getA', parameters: [{ name: 'q', in: 'query', type: 'string' }], responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } } },
          post: { tags: ['pets'], operationId: 'postA', parameters: [{ name: 'body', in: 'body', schema: { $ref: '#/definitions/Pet' } }], responses: { '201': { description: 'created' } } },
        },
        '/b': { get: { operationId: 'getB', parameters: [{ name: 'id', in: 'query', type: 'integer' }], responses: { '200': { description: 'ok' } } } },
      },
      definitions: { Pet: pet },
      parameters: { Limit: { name: 'limit', in: 'query', type: 'integer' } },
      responses: { NotFound: { description: 'not found' } },
      securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    };
  }
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } };
  return {
    openapi: format === 'openapi-3.0' ? '3.0.3' : '3.1.0',
    info,
    servers: [{ url: 'https://api.example.com/v1' }],
    tags: [{ name: 'pets', description: 'Pets' }],
    security: [{ key: [] }],
    paths: {
      '/a': {
        get: { tags: ['pets'], operationId: 'getA', parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'ok', ...body } } },
        post: { tags: ['pets'], operationId: 'postA', requestBody: body, responses: { '201': { description: 'created' } } },
      },
      '/b': { get: { operationId: 'getB', parameters: [{ name: 'id', in: 'query', schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } } },
    },
    components: {
      schemas: { Pet: pet },
      parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } },
      responses: { NotFound: { description: 'not found' } },
      requestBodies: { PetBody: body },
      headers: { Rate: { schema: { type: 'integer' } } },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
  };
}

/** Where each kind is named in the format. */
function refs(format: Format): { schema: string; parameter: string; response: string } {
  return format === 'swagger-2.0'
    ? { schema: '#/definitions/Pet', parameter: '#/parameters/Limit', response: '#/responses/NotFound' }
    : { schema: '#/components/schemas/Pet', parameter: '#/components/parameters/Limit', response: '#/components/responses/NotFound' };
}

const at = (doc: Json, ...keys: string[]): Json => keys.reduce((node, key) => node[key] as Json, doc);
const operation = (doc: Json, path: string, method: string) => at(doc, 'paths', path, method);
const parametersOf = (doc: Json) => operation(doc, '/a', 'get')['parameters'] as Json[];
const components = (doc: Json, kind: string): Json => {
  const all = (doc['components'] ??= {}) as Json;
  return (all[kind] ??= {}) as Json;
};

/** What a reader must be shown for a planted reference. */
interface Expected {
  /** References the docs page shows as `not resolved`. */
  readonly docsUnresolved?: readonly string[];
  /** Paths whose endpoint is listed as unresolved (method null). */
  readonly endpointsUnresolved?: readonly string[];
  /** Security schemes listed as unresolved. */
  readonly adaptersUnresolved?: readonly string[];
  /** Models listed as unresolved. */
  readonly modelsUnresolved?: readonly string[];
  /** Texts the docs page must show: what a reference of the right kind leads to. */
  readonly docsShow?: readonly string[];
  /** The longest docs page (characters), and the most CPU the docs page and a dry run may take (ms of this process, server and test). */
  readonly bounds?: { readonly page: number; readonly ms: number };
}

interface Probe {
  readonly name: string;
  readonly formats: readonly Format[];
  /** Plants the reference(s) in the base document of `format`, in place; returns what a reader must see. */
  plant(doc: Json, format: Format): Expected | void;
}

const parameter = (target: (format: Format) => string): Probe['plant'] => (doc, format) => {
  parametersOf(doc).push({ $ref: target(format) });
  return { docsUnresolved: [target(format)] };
};
const response = (target: (format: Format) => string): Probe['plant'] => (doc, format) => {
  (operation(doc, '/a', 'get')['responses'] as Json)['404'] = { $ref: target(format) };
  return { docsUnresolved: [target(format)] };
};
const requestBody = (target: (format: Format) => string): Probe['plant'] => (doc, format) => {
  operation(doc, '/a', 'post')['requestBody'] = { $ref: target(format) };
  return { docsUnresolved: [target(format)] };
};
const pathItem = (target: (format: Format) => string): Probe['plant'] => (doc, format) => {
  (doc['paths'] as Json)['/c'] = { $ref: target(format) };
  return { endpointsUnresolved: ['/c'] };
};
const securityScheme = (target: string): Probe['plant'] => (doc) => {
  components(doc, 'securitySchemes')['odd'] = { $ref: target };
  return { adaptersUnresolved: ['odd'] };
};
const header = (target: string): Probe['plant'] => (doc) => {
  const ok = at(operation(doc, '/a', 'get'), 'responses', '200');
  ok['headers'] = { 'X-Rate': { $ref: target } };
};
/**
 * A property of Pet, unresolved in the formats named. A 2.0 or 3.0 Schema Object has only its own
 * fields; in 3.1 a schema is any object or boolean (JSON Schema ignores keywords it does not know).
 */
const property = (target: (format: Format) => string, unresolvedIn: readonly Format[] = []): Probe['plant'] => (doc, format) => {
  const pet = format === 'swagger-2.0' ? at(doc, 'definitions', 'Pet') : at(doc, 'components', 'schemas', 'Pet');
  (pet['properties'] as Json)['owner'] = { $ref: target(format) };
  return unresolvedIn.includes(format) ? { docsUnresolved: [target(format)] } : {};
};
const model = (target: (format: Format) => string, unresolvedIn: readonly Format[] = []): Probe['plant'] => (doc, format) => {
  const models = format === 'swagger-2.0' ? (doc['definitions'] as Json) : components(doc, 'schemas');
  models['Odd'] = { $ref: target(format) };
  return unresolvedIn.includes(format) ? { modelsUnresolved: ['Odd'] } : {};
};
/** Where an object of another kind is not a schema. */
const BEFORE_31: readonly Format[] = ['swagger-2.0', 'openapi-3.0'];

/**
 * Values of an extension, which nothing validates: every field a reader of any kind looks at, with
 * a value of the wrong type, and keys a plain object already has (`constructor`, `__proto__`).
 */
const GARBAGE = {
  'x-scalars': {
    type: { nested: true }, format: 7, enum: 'abc', properties: ['a', 'b'], required: 'name', items: 'string', additionalProperties: 'yes', allOf: { a: 1 }, oneOf: 'x', anyOf: 5,
    nullable: 'true', 'x-nullable': 1, maximum: 'big', minimum: {}, exclusiveMaximum: 'x', maxLength: 'long', minLength: [], pattern: 12, multipleOf: 'm', uniqueItems: 'yes', default: { deep: [1] },
    deprecated: 'yes', readOnly: 1, writeOnly: 'x', prefixItems: 'p', const: { a: [] }, discriminator: 5, name: 42, in: ['query'], schema: 'string', content: ['application/json'], description: ['not text'],
    headers: 'h', examples: 'e', links: 1, get: 'op', post: ['op'], parameters: 'p', summary: 9, flows: 'f', scheme: 1, bearerFormat: 2, openIdConnectUrl: 3, flow: 4, scopes: 'all', tokenUrl: [], authorizationUrl: {},
    consumes: 'json', produces: 7, requestBody: 'b', responses: [1], security: 'none', tags: 'pets', operationId: ['id'],
  },
  'x-containers': {
    type: ['string', 5, null, 'object'], enum: [{}, [], null, 'a'], properties: { a: 'string', b: 5, c: null, d: [1], constructor: { type: 'string' }, ['__proto__']: { type: 'integer' }, toString: true },
    required: [1, null, {}, 'constructor', '__proto__'], items: ['x', 5], allOf: [5, 'x', null, { properties: 7 }, { required: 'a' }], oneOf: [null, 3, 'x'], additionalProperties: { type: 9 },
    in: 'path', name: 'constructor', schema: { type: ['integer', {}] }, content: { 'application/json': 'no', 'text/plain': { schema: 5 } },
    headers: { 'X-A': 'h', 'X-B': [1], constructor: {} }, get: { parameters: ['p', 5, null, { $ref: '#/info' }], responses: { '200': 'ok', '201': [1], default: null }, requestBody: { content: 5 }, tags: [1, null, 'pets'], security: [5, 'x', { key: 'all' }] },
    flows: { implicit: 'str', password: { scopes: [1, 2], tokenUrl: 5 }, constructor: {} }, scopes: ['a'],
    description: 'containers',
  },
};

/** References from `kind`'s place to every garbage value. */
const toGarbage = (plant: (target: (format: Format) => string) => Probe['plant']) => (doc: Json, format: Format) => {
  Object.assign(doc, structuredClone(GARBAGE));
  return plant(() => '#/x-scalars')(doc, format);
};

/** `n` references in an extension, each to the next, the last to a model: a chain no model name ends early. */
function chain(doc: Json, format: Format, n: number): string {
  doc['x-chain'] = Array.from({ length: n }, (_, i) => (i === n - 1 ? { $ref: refs(format).schema } : { $ref: `#/x-chain/${i + 1}` }));
  return '#/x-chain/0';
}

const PROBES: readonly Probe[] = [
  { name: 'a parameter referring to a schema', formats: FORMATS, plant: parameter((f) => refs(f).schema) },
  { name: 'a parameter referring to #/info', formats: FORMATS, plant: parameter(() => '#/info') },
  { name: 'a parameter referring to the document (#)', formats: FORMATS, plant: parameter(() => '#') },
  { name: 'a parameter referring to a string (#/info/title)', formats: FORMATS, plant: parameter(() => '#/info/title') },
  { name: 'a parameter referring to an array (#/tags)', formats: FORMATS, plant: parameter(() => '#/tags') },
  { name: 'a parameter referring to an array element that is a tag (#/tags/0)', formats: FORMATS, plant: parameter(() => '#/tags/0') },
  { name: 'a parameter referring to a response', formats: FORMATS, plant: parameter((f) => refs(f).response) },
  {
    name: 'a parameter referring to an array element that is a parameter (#/paths/~1b/get/parameters/0): the right kind',
    formats: FORMATS,
    plant: (doc) => {
      parametersOf(doc).push({ $ref: '#/paths/~1b/get/parameters/0' });
      return { docsShow: ['<td><code>id</code></td><td>query</td><td><code>integer</code></td>'] };
    },
  },
  {
    name: 'parameters referring to each other (A to B to A)',
    formats: FORMATS,
    plant: (doc, format) => {
      const [home, prefix] = format === 'swagger-2.0' ? [doc['parameters'] as Json, '#/parameters/'] : [components(doc, 'parameters'), '#/components/parameters/'];
      home['A'] = { $ref: `${prefix}B` };
      home['B'] = { $ref: `${prefix}A` };
      parametersOf(doc).push({ $ref: `${prefix}A` });
      return { docsUnresolved: [`${prefix}A`] };
    },
  },
  { name: 'a response referring to a schema', formats: FORMATS, plant: response((f) => refs(f).schema) },
  { name: 'a response referring to #/info', formats: FORMATS, plant: response(() => '#/info') },
  { name: 'a response referring to the document (#)', formats: FORMATS, plant: response(() => '#') },
  { name: 'a response referring to #/paths', formats: FORMATS, plant: response(() => '#/paths') },
  { name: 'a response referring to a parameter', formats: FORMATS, plant: response((f) => refs(f).parameter) },
  { name: 'a response referring to a string (#/info/title)', formats: FORMATS, plant: response(() => '#/info/title') },
  {
    name: 'a response referring to another operation’s response: the right kind',
    formats: FORMATS,
    plant: (doc) => {
      (operation(doc, '/a', 'get')['responses'] as Json)['404'] = { $ref: '#/paths/~1b/get/responses/200' };
      return { docsShow: ['<tr><td><code>404</code></td><td>ok</td>'] };
    },
  },
  { name: 'a request body referring to a parameter', formats: OPENAPI3, plant: requestBody((f) => refs(f).parameter) },
  { name: 'a request body referring to a schema', formats: OPENAPI3, plant: requestBody((f) => refs(f).schema) },
  { name: 'a request body referring to a string (#/info/title)', formats: OPENAPI3, plant: requestBody(() => '#/info/title') },
  { name: 'a request body referring to the document (#)', formats: OPENAPI3, plant: requestBody(() => '#') },
  { name: 'a path item referring to a schema', formats: FORMATS, plant: pathItem((f) => refs(f).schema) },
  { name: 'a path item referring to itself', formats: FORMATS, plant: pathItem(() => '#/paths/~1c') },
  {
    name: 'path items referring to each other',
    formats: FORMATS,
    plant: (doc) => {
      const paths = doc['paths'] as Json;
      paths['/c'] = { $ref: '#/paths/~1d' };
      paths['/d'] = { $ref: '#/paths/~1c' };
      return { endpointsUnresolved: ['/c', '/d'] };
    },
  },
  { name: 'a path item referring to the document (#)', formats: FORMATS, plant: pathItem(() => '#') },
  { name: 'a path item referring to a string (#/info/title)', formats: FORMATS, plant: pathItem(() => '#/info/title') },
  { name: 'a path item referring to #/info', formats: FORMATS, plant: pathItem(() => '#/info') },
  {
    name: 'a path item referring to another path item: the right kind',
    formats: FORMATS,
    plant: (doc) => {
      (doc['paths'] as Json)['/c'] = { $ref: '#/paths/~1b' };
      return { docsShow: ['<span class="sb-method get">GET</span> <code>/c</code>'] };
    },
  },
  { name: 'a security scheme referring to a string (#/info/title)', formats: OPENAPI3, plant: securityScheme('#/info/title') },
  { name: 'a security scheme referring to a schema', formats: OPENAPI3, plant: securityScheme('#/components/schemas/Pet') },
  { name: 'a security scheme referring to the document (#)', formats: OPENAPI3, plant: securityScheme('#') },
  { name: 'a security scheme referring to #/info', formats: OPENAPI3, plant: securityScheme('#/info') },
  {
    name: 'security schemes referring to each other',
    formats: OPENAPI3,
    plant: (doc) => {
      const schemes = components(doc, 'securitySchemes');
      schemes['odd'] = { $ref: '#/components/securitySchemes/even' };
      schemes['even'] = { $ref: '#/components/securitySchemes/odd' };
      return { adaptersUnresolved: ['odd', 'even'] };
    },
  },
  { name: 'a response header referring to an array (#/servers)', formats: OPENAPI3, plant: header('#/servers') },
  { name: 'a response header referring to a schema', formats: OPENAPI3, plant: header('#/components/schemas/Pet') },
  { name: 'a response header referring to a string (#/info/title)', formats: OPENAPI3, plant: header('#/info/title') },
  { name: 'a schema referring to #/paths', formats: FORMATS, plant: property(() => '#/paths', BEFORE_31) },
  { name: 'a schema referring to the document (#)', formats: FORMATS, plant: property(() => '#', BEFORE_31) },
  { name: 'a schema referring to a string (#/info/title)', formats: FORMATS, plant: property(() => '#/info/title', FORMATS) },
  { name: 'a schema referring to an array (#/tags)', formats: FORMATS, plant: property(() => '#/tags', FORMATS) },
  { name: 'a schema referring to a parameter (as enode.io.json’s items do)', formats: FORMATS, plant: property((f) => refs(f).parameter, BEFORE_31) },
  {
    name: 'a schema referring to another schema inside a model: the right kind',
    formats: FORMATS,
    plant: (doc, format) => {
      property((f) => `${refs(f).schema}/properties/name`)(doc, format);
      return { docsShow: ['<td><code>owner</code></td><td><code>string</code></td>'] };
    },
  },
  {
    name: 'a schema referring to a schema written in place that refers to a model: the right kind, followed to the model',
    formats: FORMATS,
    plant: (doc, format) => {
      const body = format === 'swagger-2.0' ? '#/paths/~1a/post/parameters/0/schema' : '#/paths/~1a/post/requestBody/content/application~1json/schema';
      property(() => body)(doc, format);
      return { docsShow: ['<td><code>owner</code></td><td><a href="#model-pet"><code>Pet</code></a></td>'] };
    },
  },
  { name: 'a model that is a reference to #/paths', formats: FORMATS, plant: model(() => '#/paths', BEFORE_31) },
  { name: 'a model that is a reference to a string (#/info/title)', formats: FORMATS, plant: model(() => '#/info/title', FORMATS) },
  { name: 'a model that is a reference to itself', formats: FORMATS, plant: model((f) => `${refs(f).schema.replace(/Pet$/, 'Odd')}`, FORMATS) },
  {
    name: 'a body schema referring to a parameter',
    formats: FORMATS,
    plant: (doc, format) => {
      const post = operation(doc, '/a', 'post');
      if (format === 'swagger-2.0') (post['parameters'] as Json[])[0]!['schema'] = { $ref: refs(format).parameter };
      else post['requestBody'] = { content: { 'application/json': { schema: { $ref: refs(format).parameter } } } };
    },
  },
  {
    name: '$refs in an example, an operation’s x- extension and a paths x- key',
    formats: FORMATS,
    plant: (doc, format) => {
      const pet = format === 'swagger-2.0' ? at(doc, 'definitions', 'Pet') : at(doc, 'components', 'schemas', 'Pet');
      pet['example'] = { $ref: refs(format).schema, name: 'Rex' };
      operation(doc, '/a', 'get')['x-extra'] = { $ref: '#/info' };
      (doc['paths'] as Json)['x-hidden'] = { $ref: refs(format).schema };
    },
  },
  {
    name: '$refs of the wrong kind in examples, links and callbacks',
    formats: OPENAPI3,
    plant: (doc) => {
      const ok = at(operation(doc, '/a', 'get'), 'responses', '200');
      at(ok, 'content', 'application/json')['examples'] = { rex: { $ref: '#/components/schemas/Pet' } };
      ok['links'] = { self: { $ref: '#/info' } };
      operation(doc, '/a', 'post')['callbacks'] = { done: { $ref: '#/components/schemas/Pet' } };
    },
  },
  {
    name: 'a webhook referring to a schema, and a components path item referring to #/info',
    formats: ['openapi-3.1'],
    plant: (doc) => {
      doc['webhooks'] = { petAdded: { $ref: '#/components/schemas/Pet' } };
      components(doc, 'pathItems')['Odd'] = { $ref: '#/info' };
    },
  },
  { name: 'a parameter referring to an extension whose fields all have the wrong types', formats: FORMATS, plant: toGarbage(parameter) },
  { name: 'a response referring to an extension whose fields all have the wrong types', formats: FORMATS, plant: toGarbage(response) },
  { name: 'a request body referring to an extension whose fields all have the wrong types', formats: OPENAPI3, plant: toGarbage(requestBody) },
  { name: 'a path item referring to an extension whose fields all have the wrong types', formats: FORMATS, plant: toGarbage(pathItem) },
  { name: 'a schema referring to an extension whose fields all have the wrong types', formats: FORMATS, plant: toGarbage(property) },
  { name: 'a model referring to an extension whose fields all have the wrong types', formats: FORMATS, plant: toGarbage(model) },
  {
    name: 'a security scheme and a header referring to an extension whose fields all have the wrong types',
    formats: OPENAPI3,
    plant: (doc, format) => {
      Object.assign(doc, structuredClone(GARBAGE));
      header('#/x-scalars')(doc, format);
      return securityScheme('#/x-scalars')(doc, format);
    },
  },
  {
    name: 'every kind referring to an extension of containers holding the wrong things',
    formats: FORMATS,
    plant: (doc, format) => {
      Object.assign(doc, structuredClone(GARBAGE));
      const target = () => '#/x-containers';
      for (const plant of [parameter, response, pathItem, property, model]) plant(target)(doc, format);
      if (format !== 'swagger-2.0') {
        requestBody(target)(doc, format);
        header('#/x-containers')(doc, format);
        securityScheme('#/x-containers')(doc, format);
      }
      return { docsUnresolved: ['#/x-containers'], endpointsUnresolved: ['/c'], ...(format === 'swagger-2.0' ? {} : { adaptersUnresolved: ['odd'] }) };
    },
  },
  {
    name: 'a schema at the start of a chain of 12,000 references that name no model',
    formats: FORMATS,
    plant: (doc, format) => {
      const start = chain(doc, format, 12_000);
      property(() => start)(doc, format);
      parametersOf(doc).push(format === 'swagger-2.0' ? { name: 'long', in: 'query', type: 'string' } : { name: 'long', in: 'query', schema: { $ref: start } });
      // Before: the docs page overflowed the stack (a 500), one call per link.
      return { bounds: { page: 100_000, ms: 2000 } };
    },
  },
  {
    name: 'a schema referring to a fan: 2,000 alternatives referring to a schema of 2,000 alternatives referring back, none naming a model',
    formats: FORMATS,
    plant: (doc, format) => {
      const fan = (to: string) => ({ oneOf: Array.from({ length: 2000 }, () => ({ $ref: `#/x-fan/${to}` })) });
      doc['x-fan'] = { A: fan('B'), B: fan('A') };
      property(() => '#/x-fan/A')(doc, format);
      // Before: 4,000,000 alternatives (156 MB as JSON) for an 84 KB document; a page per path through the fan.
      return { bounds: { page: 1_000_000, ms: 2000 } };
    },
  },
  {
    name: '2,000 operations whose parameter refers to the first of 2,000 parameters each referring to the next (the right kind, a chain every operation shares)',
    // Swagger 2.0's `parameters` take no references.
    formats: OPENAPI3,
    plant: (doc) => {
      const [home, prefix] = [components(doc, 'parameters'), '#/components/parameters/'];
      for (let i = 0; i < 2000; i++) home[`P${i}`] = { $ref: `${prefix}P${i + 1}` };
      home['P2000'] = structuredClone(home['Limit']!);
      const paths = doc['paths'] as Json;
      for (let i = 0; i < 2000; i++) paths[`/many/${i}`] = { get: { parameters: [{ $ref: `${prefix}P0` }], responses: { '200': { description: 'ok' } } } };
      // Before: every operation walked the whole chain (K x N): 5.5 s of describing for a 108 KB document, 100 s at 438 KB.
      return { bounds: { page: 5_000_000, ms: 3000 } };
    },
  },
  {
    name: 'a schema of 1,000 properties each referring to the first of 1,000 models each referring to the next',
    formats: FORMATS,
    plant: (doc, format) => {
      const [models, prefix] = format === 'swagger-2.0' ? [doc['definitions'] as Json, '#/definitions/'] : [components(doc, 'schemas'), '#/components/schemas/'];
      for (let i = 0; i < 1000; i++) models[`C${i}`] = { $ref: `${prefix}${i === 999 ? 'Pet' : `C${i + 1}`}` };
      const properties: Json = {};
      for (let i = 0; i < 1000; i++) properties[`p${i}`] = { $ref: `${prefix}C0` };
      models['Many'] = { type: 'object', properties };
      property((f) => `${refs(f).schema.replace(/Pet$/, 'Many')}`)(doc, format);
      // Before: the classifier walked the whole chain from every property, K x N: 170 s for a dry run of 4,000 of each (410 KB).
      // (Swagger 2.0's validation still does, in its rule checks: 0.7 s here, 2.6 s at 2,000, 11 s at 4,000.)
      return { bounds: { page: 5_000_000, ms: 3000 } };
    },
  },
];

/** The same document slightly changed: a new version, an optional parameter and a property added, an operation described. */
function changed(doc: Json): Json {
  const next = structuredClone(doc);
  at(next, 'info')['version'] = '1.1.0';
  const b = operation(next, '/b', 'get');
  b['summary'] = 'B, described';
  (b['parameters'] as Json[]).push(next['swagger'] === '2.0' ? { name: 'page', in: 'query', type: 'integer' } : { name: 'page', in: 'query', schema: { type: 'integer' } });
  const pet = next['swagger'] === '2.0' ? at(next, 'definitions', 'Pet') : at(next, 'components', 'schemas', 'Pet');
  (pet['properties'] as Json)['age'] = { type: 'integer' };
  return next;
}

describe('wrong-kind references: documents accepted with $refs to the wrong kind of thing, read by every reader', () => {
  let server: TestServer;
  let ada: TestUser;
  let token: string;
  let n = 0;

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(sqlite, { JSON_MAX_BYTES: '65536' });
    ada = await server.user('ada@example.com', 'ada');
    token = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });

  /** 2xx, or a 4xx problem+json: never a 5xx. */
  async function answered(what: string, response: Response): Promise<Response> {
    const text = await response.clone().text();
    expect(response.status, `${what}: ${response.status} ${text.slice(0, 500)}`).to.be.below(500);
    if (response.status >= 400) expect((await problem(response.clone())).status, what).to.equal(response.status);
    return response;
  }

  const get = async (path: string): Promise<Response> => answered(`GET ${path}`, await server.request('GET', path, { token }));
  const json = async <T>(path: string): Promise<T> => {
    const response = await get(path);
    expect(response.status, `GET ${path}`).to.equal(200);
    return (await response.json()) as T;
  };
  /** A docs page (HTML, not part of /openapi.json): a 5xx is as much a failure as anywhere. */
  const page = async (path: string): Promise<string> => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status, `GET ${path}: ${(await response.clone().text()).slice(0, 500)}`).to.equal(200);
    return response.text();
  };

  for (const probe of PROBES) {
    for (const format of probe.formats) {
      it(`${format}: ${probe.name}`, async function () {
        this.timeout(60_000);
        const doc = base(format);
        const expected = probe.plant(doc, format) ?? {};
        const nickname = `wrong-${++n}`;
        const imported = await answered(
          'import',
          await server.multipart('POST', `/api/${ada.accountId}/import`, token, [
            { name: 'spec', value: JSON.stringify(doc), filename: 'spec.json', type: 'application/json' },
            { name: 'body', value: JSON.stringify({ nickname, type: 'public' }) },
          ]),
        );
        if (imported.status !== 201) {
          // Refused as invalid: nothing to read. Its reasons are part of the probe's report.
          const refused = await problem(imported);
          expect(refused.status, JSON.stringify(refused)).to.equal(422);
          this.test!.title += ` (refused: ${refused.errors?.slice(0, 3).map((e) => `${e.field}: ${e.message}`).join('; ')})`;
          return;
        }
        const { api } = (await imported.json()) as { api: { id: string } };
        const apiPath = `/api/${ada.accountId}/${api.id}`;
        const docsPath = `/docs/${ada.accountId}/${nickname}`;

        await json(apiPath);
        const endpoints = await server.walk<{ method: string | null; path: string; unresolved: boolean }>(`${apiPath}/endpoints`, token, 100);
        const models = await server.walk<{ name: string; unresolved: boolean }>(`${apiPath}/models`, token, 100);
        await server.walk<Json>(`${apiPath}/environments`, token, 100);
        const adapters = await server.walk<{ name: string; type: string; unresolved?: boolean }>(`${apiPath}/auth-adapters`, token, 100);
        expect(JSON.parse(await (await get(`${apiPath}/export?format=json`)).text())).to.deep.equal(doc);
        expect(parseYaml(await (await get(`${apiPath}/export?format=yaml`)).text())).to.deep.equal(doc);
        const started = process.cpuUsage();
        const reference = await page(docsPath);
        const pageCpuMs = cpuMs(started);

        const next = changed(doc);
        const put = (document: Json, query: string) =>
          server.request('PUT', `${apiPath}/spec${query}`, { token, body: JSON.stringify(document), headers: { 'Content-Type': 'application/json' } });
        const asked = process.cpuUsage();
        const dryRun = await answered('dry run', await put(next, '?dryRun=true'));
        if (expected.bounds !== undefined) expect(cpuMs(asked), 'the dry run (CPU ms)').to.be.below(expected.bounds.ms);
        expect(dryRun.status).to.equal(200);
        const compared = ((await dryRun.json()) as { changes: { items: Change[] } }).changes.items;
        // What was changed is found, whatever the planted references.
        expect(compared.map((c) => `${c.rule} ${c.location['method']} ${c.location['path']} ${c.location['parameter'] ?? ''}`)).to.include('request-parameter-added GET /b query page');
        const back = await answered('dry run to the clean document', await put(base(format), '?dryRun=true'));
        expect(back.status).to.equal(200);
        const stored = await answered('update', await put(next, '?allowBreaking=probe'));
        expect(stored.status).to.equal(200);
        const changes = await json<{ items: Change[] }>(`${apiPath}/changes`);
        expect(changes.items).to.deep.equal(compared);
        await json(`${apiPath}/changes?fromRevision=1&toRevision=2`);
        const release = await answered('release', await server.request('POST', `${apiPath}/releases`, { token, body: { version: '1.1.0' } }));
        expect(release.status).to.equal(201);
        const changelog = await json<{ items: { items: Change[] }[] }>(`${apiPath}/changelog`);
        const items = [...compared, ...((await back.json()) as { changes: { items: Change[] } }).changes.items, ...changelog.items.flatMap((entry) => entry.items)];
        for (const item of items) {
          // Nothing read from a thing of another kind: no parameter without a place or a name.
          expect(item.message, JSON.stringify(item)).not.to.match(/\bnull\b|undefined|\[object Object\]|parameter {2}| {2}parameter/);
          for (const value of Object.values(item.location)) expect(value, JSON.stringify(item)).to.be.a('string').that.is.not.empty;
        }
        await page(`${docsPath}/changelog`);
        await page(`${docsPath}/changelog.atom`);
        await page(`${docsPath}/1.1.0`);
        await page(docsPath);
        await server.walk<Json>(`${apiPath}/endpoints`, token, 100);
        await server.walk<Json>(`${apiPath}/auth-adapters`, token, 100);

        // What the first revision showed of the planted references.
        for (const path of expected.endpointsUnresolved ?? []) {
          expect(endpoints.filter((e) => e.path === path), `the endpoints of ${path}`).to.deep.equal([{ method: null, path, operationId: null, summary: null, tags: [], deprecated: false, unresolved: true }]);
        }
        for (const name of expected.adaptersUnresolved ?? []) {
          expect(adapters.find((a) => a.name === name), `the adapter ${name}`).to.deep.include({ type: 'unknown', unresolved: true });
        }
        for (const name of expected.modelsUnresolved ?? []) expect(models.find((m) => m.name === name)?.unresolved, `the model ${name}`).to.equal(true);
        for (const ref of expected.docsUnresolved ?? []) {
          expect(reference, `the docs page shows ${ref} as not resolved`).to.include(`<code>${ref}</code> <span class="sb-badge">not resolved</span>`);
        }
        for (const shown of expected.docsShow ?? []) expect(reference, 'the docs page').to.include(shown);
        if (expected.docsShow !== undefined) expect(reference, 'a reference of the right kind is followed').not.to.include('not resolved');
        // Nothing read from a thing of another kind: no parameter, property or field without a name.
        expect(reference).not.to.include('<tr><td><code></code>');
        if (expected.bounds !== undefined) {
          expect(reference.length, 'the docs page is linear in the document').to.be.below(expected.bounds.page);
          expect(pageCpuMs, 'the docs page (CPU ms)').to.be.below(expected.bounds.ms);
        }
      });
    }
  }
});
