import { expect } from 'chai';
import { describeApi, type ParameterDescription } from '../../../src/domain/spec/api-description.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';

const INFO = { title: 'Pets', version: '1.0.0' };
const OK = { '200': { description: 'ok' } };
const swagger2 = (extra: JsonObject): JsonObject => ({ swagger: '2.0', info: INFO, paths: {}, ...extra });
const openapi = (extra: JsonObject, version = '3.1.0'): JsonObject => ({ openapi: version, info: INFO, paths: {}, ...extra });
const only = (document: JsonObject) => describeApi(document).operations[0]!;
const wire = (p: ParameterDescription) => [p.name, p.in, p.serialization];

describe('domain: what a document describes (describeApi)', () => {
  describe('the document as a whole', () => {
    it('names its format; a document of no accepted format reads as OpenAPI 3.1', () => {
      expect(describeApi(swagger2({})).format).to.equal('swagger-2.0');
      expect(describeApi(openapi({}, '3.0.3')).format).to.equal('openapi-3.0');
      expect(describeApi(openapi({})).format).to.equal('openapi-3.1');
      expect(describeApi({ info: INFO, webhooks: { hook: { post: { responses: OK } } } }).format).to.equal('openapi-3.1');
      expect(describeApi({ info: INFO, webhooks: { hook: { post: { responses: OK } } } }).webhooks.map((w) => w.path)).to.deep.equal(['hook']);
    });

    it('lists the tags of its tags list with their descriptions, skipping entries without a name', () => {
      const tags = [{ name: 'pets', description: 'About pets' }, { name: 'bare' }, { description: 'nameless' }, { name: 7 }, 'store', null];
      expect(describeApi(openapi({ tags })).tags).to.deep.equal([
        { name: 'pets', description: 'About pets' },
        { name: 'bare', description: null },
      ]);
      expect(describeApi(openapi({ tags: 'pets' })).tags).to.deep.equal([]);
    });

    it('lists the models in document order, each with its pointer, and names the model a reference names', () => {
      const api = describeApi(openapi({ components: { schemas: { Pet: { type: 'object' }, 'a/b~c': { type: 'string' } } } }));
      expect(api.models).to.deep.equal([
        { name: 'Pet', schema: { type: 'object' }, pointer: '/components/schemas/Pet' },
        { name: 'a/b~c', schema: { type: 'string' }, pointer: '/components/schemas/a~1b~0c' },
      ]);
      expect(['#/components/schemas/Pet', '#/components/schemas/a~1b~0c', '#/components/schemas/Cat', '#/definitions/Pet', '#/components/schemas/Pet/properties'].map((ref) => api.modelName(ref))).to.deep.equal([
        'Pet',
        'a/b~c',
        null,
        null,
        null,
      ]);
    });

    it('takes Swagger 2.0 models from definitions, named by #/definitions/ references', () => {
      const api = describeApi(swagger2({ definitions: { Pet: { type: 'object' } } }));
      expect(api.models).to.deep.equal([{ name: 'Pet', schema: { type: 'object' }, pointer: '/definitions/Pet' }]);
      expect(['#/definitions/Pet', '#/components/schemas/Pet'].map((ref) => api.modelName(ref))).to.deep.equal(['Pet', null]);
    });

    it('says where the security schemes are, and reads them', () => {
      expect(describeApi(swagger2({ securityDefinitions: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } }))).to.deep.include({
        securitySchemesPointer: '/securityDefinitions',
        securitySchemes: [{ name: 'key', type: 'apiKey', description: null, flow: null, authorizationUrl: null, tokenUrl: null, scopes: [], in: 'header', parameterName: 'X-Key' }],
      });
      expect(describeApi(openapi({})).securitySchemesPointer).to.equal('/components/securitySchemes');
    });
  });

  describe('servers', () => {
    it('OpenAPI 3: each server as written, with its pointer; a server without a url is /', () => {
      expect(describeApi(openapi({ servers: [{ url: 'https://{env}.example.com', description: 'main' }, { description: 'no url' }, 'junk'] })).servers).to.deep.equal([
        { url: 'https://{env}.example.com', description: 'main', pointer: '/servers/0' },
        { url: '/', description: 'no url', pointer: '/servers/1' },
        { url: '/', description: null, pointer: '/servers/2' },
      ]);
      expect(describeApi(openapi({ servers: 'https://example.com' })).servers).to.deep.equal([]);
    });

    it('Swagger 2.0: one per scheme, without repeats, of host and basePath; / adds nothing', () => {
      expect(describeApi(swagger2({ host: 'api.example.com', basePath: '/v1', schemes: ['https', 'http', 'https', 7] })).servers).to.deep.equal([
        { url: 'https://api.example.com/v1', description: null, pointer: '/host' },
        { url: 'http://api.example.com/v1', description: null, pointer: '/host' },
      ]);
      expect(describeApi(swagger2({ host: 'api.example.com', basePath: '/', schemes: ['https'] })).servers.map((s) => s.url)).to.deep.equal(['https://api.example.com']);
    });

    it('Swagger 2.0: host and basePath alone without schemes, and none without a host', () => {
      expect(describeApi(swagger2({ host: 'api.example.com', basePath: '/v1' })).servers).to.deep.equal([{ url: 'api.example.com/v1', description: null, pointer: '/host' }]);
      expect(describeApi(swagger2({ host: 'api.example.com' })).servers.map((s) => s.url)).to.deep.equal(['api.example.com']);
      expect(describeApi(swagger2({ basePath: '/v1', schemes: ['https'] })).servers).to.deep.equal([]);
    });
  });

  describe('operations', () => {
    it('one per path and method in document order (trace in OpenAPI 3 only), skipping extensions, with what the operation says of itself', () => {
      const paths = {
        '/pets': {
          post: { operationId: 'addPet', summary: 'Add', description: 'Adds a *pet*', deprecated: true, 'x-sunset': '2027-06-30', tags: ['pets', 7, 'store'] },
          get: { responses: OK },
          trace: { responses: OK },
          'x-internal': { get: {} },
          summary: 'not an operation',
        },
        'x-extension': { get: { responses: OK } },
        '/pets/{id}': { delete: 'not an object' },
      };
      const api = describeApi(openapi({ paths }));
      expect(api.operations.map((op) => [op.method, op.path, op.pointer])).to.deep.equal([
        ['GET', '/pets', '/paths/~1pets/get'],
        ['POST', '/pets', '/paths/~1pets/post'],
        ['TRACE', '/pets', '/paths/~1pets/trace'],
      ]);
      expect(api.operations[1]).to.deep.include({ operationId: 'addPet', summary: 'Add', description: 'Adds a *pet*', deprecated: true, sunset: '2027-06-30', tags: ['pets', 'store'] });
      expect(api.operations[0]).to.deep.include({ operationId: null, summary: null, description: null, deprecated: false, sunset: null, tags: [], requestBody: null, callbacks: [] });
      expect(describeApi(swagger2({ paths })).operations.map((op) => op.method)).to.deep.equal(['GET', 'POST']);
    });

    it('reads a field of the wrong type as absent: deprecated only when true, texts only when strings', () => {
      const op = only(openapi({ paths: { '/a': { get: { operationId: 7, summary: [], description: {}, deprecated: 'yes', 'x-sunset': 20270630, tags: 'pets', responses: OK } } } }));
      expect(op).to.deep.include({ operationId: null, summary: null, description: null, deprecated: false, sunset: null, tags: [] });
    });

    it('follows a path item’s internal $ref, locating its operations where the reference leads', () => {
      const api = describeApi(openapi({ paths: { '/a': { $ref: '#/x-items/a' }, '/b': { $ref: '#/info' }, '/c': { $ref: 'other.yaml#/a' } }, 'x-items': { a: { get: { responses: OK } } } }));
      expect(api.operations.map((op) => [op.method, op.path, op.pointer])).to.deep.equal([['GET', '/a', '/x-items/a/get']]);
    });

    it('OpenAPI 3.1: webhooks are operations too, named by their key, extensions skipped; not read in 3.0', () => {
      const webhooks = { created: { post: { responses: OK } }, 'x-internal': { post: { responses: OK } } };
      expect(describeApi(openapi({ webhooks })).webhooks.map((w) => [w.method, w.path, w.pointer])).to.deep.equal([['POST', 'created', '/webhooks/created/post']]);
      expect(describeApi(openapi({ webhooks }, '3.0.3')).webhooks).to.deep.equal([]);
    });
  });

  describe('security', () => {
    const security = [{ key: [] }];

    it('the operation’s own requirements, an empty list too, else the document’s, else none; and where they come from', () => {
      const paths = { '/a': { get: { security: [{ oauth: ['read', 7] }, {}], responses: OK }, put: { security: [], responses: OK }, post: { responses: OK } } };
      const api = describeApi(openapi({ security, paths }));
      expect(api.operations.map((op) => [op.method, op.security, op.securityPointer])).to.deep.equal([
        ['GET', [[{ scheme: 'oauth', scopes: ['read'] }], []], '/paths/~1a/get/security'],
        ['PUT', [], '/paths/~1a/put/security'],
        ['POST', [[{ scheme: 'key', scopes: [] }]], '/security'],
      ]);
      expect(only(openapi({ paths: { '/a': { get: { responses: OK } } } }))).to.deep.include({ security: [], securityPointer: '/paths/~1a/get' });
    });

    it('skips requirements that are not objects, and scopes that are not a list', () => {
      const op = only(openapi({ security: [{ key: 'all' }, 'key', null], paths: { '/a': { get: { responses: OK } } } }));
      expect(op.security).to.deep.equal([[{ scheme: 'key', scopes: [] }]]);
      expect(only(openapi({ security: 'key', paths: { '/a': { get: { security: 'key', responses: OK } } } }))).to.deep.include({ security: [], securityPointer: '/paths/~1a/get' });
    });
  });

  describe('parameters', () => {
    it('path-level ones first, unless the operation redefines one (same name and place), each with its pointer', () => {
      const paths = {
        '/a/{id}': {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'trace', in: 'header', schema: { type: 'string' } },
            { name: 'limit', in: 'header', schema: { type: 'string' } },
          ],
          get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }, { name: 'trace', in: 'header', schema: { type: 'boolean' } }], responses: OK },
        },
      };
      expect(only(openapi({ paths })).parameters.map((p) => [p.name, p.in, p.schema, p.pointer])).to.deep.equal([
        ['id', 'path', { type: 'string' }, '/paths/~1a~1{id}/parameters/0'],
        ['limit', 'header', { type: 'string' }, '/paths/~1a~1{id}/parameters/2'],
        ['limit', 'query', { type: 'integer' }, '/paths/~1a~1{id}/get/parameters/0'],
        ['trace', 'header', { type: 'boolean' }, '/paths/~1a~1{id}/get/parameters/1'],
      ]);
    });

    it('OpenAPI 3: what a parameter says of itself, its schema and where it is', () => {
      const p = only(openapi({ paths: { '/a': { get: { parameters: [{ name: 'h', in: 'header', required: true, deprecated: true, description: 'D', schema: { type: 'string' } }], responses: OK } } } }))
        .parameters[0]!;
      expect(p).to.deep.equal({
        name: 'h',
        in: 'header',
        required: true,
        deprecated: true,
        description: 'D',
        schema: { type: 'string' },
        serialization: { style: 'simple', explode: false, allowReserved: false },
        pointer: '/paths/~1a/get/parameters/0',
        schemaPointer: '/paths/~1a/get/parameters/0/schema',
        ref: null,
      });
    });

    it('OpenAPI 3: a field of the wrong type reads as absent, required and deprecated only when true', () => {
      const p = only(openapi({ paths: { '/a': { get: { parameters: [{ name: 7, in: 8, required: 'yes', deprecated: 1, description: [], schema: { type: 'string' } }], responses: OK } } } })).parameters[0]!;
      expect(p).to.deep.include({ name: '', in: null, required: false, deprecated: false, description: null });
      expect(p.serialization).to.deep.equal({ style: 'simple', explode: false, allowReserved: false });
    });

    it('OpenAPI 3: a parameter described by content takes the schema of its media type, and no serialization', () => {
      const parameters = [{ name: 'f', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } }];
      const p = only(openapi({ paths: { '/a': { get: { parameters, responses: OK } } } })).parameters[0]!;
      expect(p).to.deep.include({ schema: { type: 'object' }, serialization: null, schemaPointer: '/paths/~1a/get/parameters/0/content/application~1json/schema' });
    });

    it('OpenAPI 3: a parameter with neither schema nor content has no schema, and is serialized as its place says', () => {
      const p = only(openapi({ paths: { '/a': { get: { parameters: [{ name: 'g', in: 'query' }], responses: OK } } } })).parameters[0]!;
      expect(p).to.deep.include({ schema: undefined, serialization: { style: 'form', explode: true, allowReserved: false }, schemaPointer: '/paths/~1a/get/parameters/0/schema' });
    });

    it('OpenAPI 3: style form in query and cookie, exploded; simple in path and header, not exploded; what is written wins', () => {
      const parameters = [
        { name: 'q', in: 'query', schema: {} },
        { name: 'c', in: 'cookie', schema: {} },
        { name: 'p', in: 'path', required: true, schema: {} },
        { name: 'h', in: 'header', schema: {} },
        { name: 'd', in: 'query', style: 'deepObject', schema: {} },
        { name: 'e', in: 'query', style: 'form', explode: false, allowReserved: true, schema: {} },
        { name: 'x', in: 'path', required: true, style: 'label', explode: true, allowReserved: 'yes', schema: {} },
        { name: 'y', in: 'query', explode: 'no', schema: {} },
      ];
      expect(only(openapi({ paths: { '/a/{p}': { get: { parameters, responses: OK } } } })).parameters.map(wire)).to.deep.equal([
        ['q', 'query', { style: 'form', explode: true, allowReserved: false }],
        ['c', 'cookie', { style: 'form', explode: true, allowReserved: false }],
        ['p', 'path', { style: 'simple', explode: false, allowReserved: false }],
        ['h', 'header', { style: 'simple', explode: false, allowReserved: false }],
        ['d', 'query', { style: 'deepObject', explode: false, allowReserved: false }],
        ['e', 'query', { style: 'form', explode: false, allowReserved: true }],
        ['x', 'path', { style: 'label', explode: true, allowReserved: false }],
        ['y', 'query', { style: 'form', explode: true, allowReserved: false }],
      ]);
    });

    it('follows an internal $ref, and lists one that cannot be followed as a parameter that could not be read', () => {
      const parameters = [{ $ref: '#/components/parameters/limit' }, { $ref: 'other.yaml#/limit' }, { $ref: '#/components/schemas/Pet' }];
      const components = { parameters: { limit: { name: 'limit', in: 'query', schema: { type: 'integer' } } }, schemas: { Pet: { type: 'object' } } };
      const read = only(openapi({ components, paths: { '/a': { get: { parameters, responses: OK } } } })).parameters;
      expect(read.map((p) => [p.name, p.in, p.pointer, p.ref])).to.deep.equal([
        ['limit', 'query', '/components/parameters/limit', null],
        ['other.yaml#/limit', null, '/paths/~1a/get/parameters/1', 'other.yaml#/limit'],
        ['#/components/schemas/Pet', null, '/paths/~1a/get/parameters/2', '#/components/schemas/Pet'],
      ]);
      expect(read[1]).to.deep.equal({
        name: 'other.yaml#/limit',
        in: null,
        required: false,
        deprecated: false,
        description: null,
        schema: undefined,
        serialization: null,
        pointer: '/paths/~1a/get/parameters/1',
        schemaPointer: '/paths/~1a/get/parameters/1',
        ref: 'other.yaml#/limit',
      });
    });

    it('skips entries that are not objects, and a list that is not a list', () => {
      expect(only(openapi({ paths: { '/a': { parameters: 'all', get: { parameters: [7, null, 'id'], responses: OK } } } })).parameters).to.deep.equal([]);
    });

    it('Swagger 2.0: a non-body parameter’s type keywords are its schema, a file a binary string, items too', () => {
      const parameters = [
        { name: 'ids', in: 'query', type: 'array', items: { type: 'integer', format: 'int64', maximum: 9, items: { type: 'file' } }, maxItems: 3, description: 'D', required: true, 'x-note': 1 },
        { name: 'f', in: 'formData', type: 'file' },
      ];
      const p = only(swagger2({ paths: { '/a': { get: { parameters, responses: OK } } } })).parameters[0]!;
      expect(p).to.deep.equal({
        name: 'ids',
        in: 'query',
        required: true,
        deprecated: false,
        description: 'D',
        schema: { type: 'array', maxItems: 3, items: { type: 'integer', format: 'int64', maximum: 9, items: { type: 'string', format: 'binary' } } },
        serialization: { style: 'form', explode: false, allowReserved: false },
        pointer: '/paths/~1a/get/parameters/0',
        schemaPointer: '/paths/~1a/get/parameters/0',
        ref: null,
      });
    });

    it('Swagger 2.0: every keyword a parameter shares with JSON Schema is kept', () => {
      const keywords = {
        type: 'string',
        format: 'f',
        enum: ['a'],
        default: 'a',
        maximum: 1,
        exclusiveMaximum: true,
        minimum: 0,
        exclusiveMinimum: true,
        maxLength: 5,
        minLength: 1,
        pattern: '^a$',
        maxItems: 2,
        minItems: 1,
        uniqueItems: true,
        multipleOf: 1,
        'x-nullable': true,
        'x-extensible-enum': ['b'],
      };
      const p = only(swagger2({ paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query', ...keywords, collectionFormat: 'csv', allowEmptyValue: true }], responses: OK } } } })).parameters[0]!;
      expect(p.schema).to.deep.equal(keywords);
    });

    it('Swagger 2.0: collectionFormat as the 3.x style that writes the same (csv the place’s own, unexploded)', () => {
      const parameters = [
        { name: 'csv', in: 'query', type: 'array' },
        { name: 'csv2', in: 'query', type: 'array', collectionFormat: 'csv' },
        { name: 'multi', in: 'query', type: 'array', collectionFormat: 'multi' },
        { name: 'ssv', in: 'query', type: 'array', collectionFormat: 'ssv' },
        { name: 'pipes', in: 'query', type: 'array', collectionFormat: 'pipes' },
        { name: 'tsv', in: 'query', type: 'array', collectionFormat: 'tsv' },
        { name: 'p', in: 'path', required: true, type: 'array' },
        { name: 'h', in: 'header', type: 'array', collectionFormat: 'csv' },
        { name: 'odd', in: 'query', type: 'array', collectionFormat: 'commas' },
        { name: 'scalar', in: 'query', type: 'integer', collectionFormat: 'multi' },
        { name: 'ps', in: 'path', required: true, type: 'string' },
      ];
      expect(only(swagger2({ paths: { '/a/{p}/{ps}': { get: { parameters, responses: OK } } } })).parameters.map(wire)).to.deep.equal([
        ['csv', 'query', { style: 'form', explode: false, allowReserved: false }],
        ['csv2', 'query', { style: 'form', explode: false, allowReserved: false }],
        ['multi', 'query', { style: 'form', explode: true, allowReserved: false }],
        ['ssv', 'query', { style: 'spaceDelimited', explode: false, allowReserved: false }],
        ['pipes', 'query', { style: 'pipeDelimited', explode: false, allowReserved: false }],
        ['tsv', 'query', { style: 'tabDelimited', explode: false, allowReserved: false }],
        ['p', 'path', { style: 'simple', explode: false, allowReserved: false }],
        ['h', 'header', { style: 'simple', explode: false, allowReserved: false }],
        ['odd', 'query', { style: 'form', explode: false, allowReserved: false }],
        ['scalar', 'query', { style: 'form', explode: true, allowReserved: false }],
        ['ps', 'path', { style: 'simple', explode: false, allowReserved: false }],
      ]);
    });

    it('Swagger 2.0: a field of the wrong type reads as absent', () => {
      const p = only(swagger2({ paths: { '/a': { get: { parameters: [{ name: 7, in: 'query', required: 'yes', description: 8, type: 'string' }], responses: OK } } } })).parameters[0]!;
      expect(p).to.deep.include({ name: '', in: 'query', required: false, description: null });
    });
  });

  describe('request bodies', () => {
    it('OpenAPI 3: its description, whether required, and its content by media type, each with its pointers', () => {
      const requestBody = { description: 'B', required: true, content: { 'application/json': { schema: { type: 'object' } }, 'text/plain': {} } };
      expect(only(openapi({ paths: { '/a': { post: { requestBody, responses: OK } } } })).requestBody).to.deep.equal({
        description: 'B',
        required: true,
        content: [
          { mediaType: 'application/json', schema: { type: 'object' }, pointer: '/paths/~1a/post/requestBody/content/application~1json/schema', at: '/paths/~1a/post/requestBody/content/application~1json' },
          { mediaType: 'text/plain', schema: undefined, pointer: '/paths/~1a/post/requestBody/content/text~1plain/schema', at: '/paths/~1a/post/requestBody/content/text~1plain' },
        ],
        pointer: '/paths/~1a/post/requestBody',
        ref: null,
      });
    });

    it('OpenAPI 3: fields of the wrong type read as absent; required only when true', () => {
      const body = only(openapi({ paths: { '/a': { post: { requestBody: { description: 7, required: 'yes', content: 'json' }, responses: OK } } } })).requestBody;
      expect(body).to.deep.equal({ description: null, required: false, content: [], pointer: '/paths/~1a/post/requestBody', ref: null });
    });

    it('OpenAPI 3: follows an internal $ref; one that cannot be followed, or leads to no request body, is a body that could not be read', () => {
      const components = { requestBodies: { B: { content: { 'a/b': {} } } } };
      const paths = {
        '/a': {
          put: { requestBody: { $ref: '#/components/requestBodies/B' }, responses: OK },
          post: { requestBody: { $ref: '#/nowhere' }, responses: OK },
          patch: { requestBody: { $ref: '#/info' }, responses: OK },
        },
      };
      expect(describeApi(openapi({ components, paths })).operations.map((op) => op.requestBody)).to.deep.equal([
        { description: null, required: false, content: [{ mediaType: 'a/b', schema: undefined, pointer: '/components/requestBodies/B/content/a~1b/schema', at: '/components/requestBodies/B/content/a~1b' }], pointer: '/components/requestBodies/B', ref: null },
        { description: null, required: false, content: [], pointer: '/paths/~1a/post/requestBody', ref: '#/nowhere' },
        { description: null, required: false, content: [], pointer: '/paths/~1a/patch/requestBody', ref: '#/info' },
      ]);
    });

    it('Swagger 2.0: the body parameter is the request body, under the operation’s consumes, else the document’s', () => {
      const body = { name: 'pet', in: 'body', required: true, description: 'the pet', schema: { $ref: '#/definitions/Pet' } };
      const paths = {
        '/a': {
          put: { consumes: ['application/xml', 7], parameters: [body], responses: OK },
          post: { parameters: [body], responses: OK },
        },
      };
      const [put, post] = describeApi(swagger2({ consumes: ['application/json', 'text/json'], paths })).operations;
      expect(put!.parameters).to.deep.equal([]);
      expect(put!.requestBody).to.deep.equal({
        description: 'the pet',
        required: true,
        content: [{ mediaType: 'application/xml', schema: { $ref: '#/definitions/Pet' }, pointer: '/paths/~1a/put/parameters/0/schema', at: '/paths/~1a/put/consumes/0' }],
        pointer: '/paths/~1a/put/parameters/0',
        ref: null,
      });
      expect(post!.requestBody!.content.map((c) => [c.mediaType, c.at])).to.deep.equal([
        ['application/json', '/consumes/0'],
        ['text/json', '/consumes/1'],
      ]);
    });

    it('Swagger 2.0: a body parameter without consumes anywhere is JSON, at the body itself; not required unless it says so', () => {
      const body = only(swagger2({ paths: { '/a': { post: { parameters: [{ name: 'pet', in: 'body', schema: { type: 'object' } }], responses: OK } } } })).requestBody;
      expect(body).to.deep.equal({
        description: null,
        required: false,
        content: [{ mediaType: 'application/json', schema: { type: 'object' }, pointer: '/paths/~1a/post/parameters/0/schema', at: '/paths/~1a/post/parameters/0' }],
        pointer: '/paths/~1a/post/parameters/0',
        ref: null,
      });
    });

    it('Swagger 2.0: formData parameters are an object body of their fields, required ones listed, under the form media types of consumes', () => {
      const parameters = [
        { name: 'id', in: 'query', type: 'string' },
        { name: 'file', in: 'formData', type: 'file', required: true, description: 'the file' },
        { name: 'note', in: 'formData', type: 'string' },
      ];
      const op = only(swagger2({ paths: { '/a': { post: { consumes: ['application/json', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'], parameters, responses: OK } } } }));
      expect(op.parameters.map((p) => p.name)).to.deep.equal(['id']);
      const form = { pointer: '/paths/~1a/post/parameters', fields: new Map([['file', '/paths/~1a/post/parameters/1'], ['note', '/paths/~1a/post/parameters/2']]) };
      const schema = { type: 'object', properties: { file: { type: 'string', format: 'binary', description: 'the file' }, note: { type: 'string' } }, required: ['file'] };
      expect(op.requestBody).to.deep.equal({
        description: null,
        required: true,
        content: [
          { mediaType: 'multipart/form-data; boundary=x', schema, pointer: '/paths/~1a/post/parameters', at: '/paths/~1a/post/consumes/1', form },
          { mediaType: 'application/x-www-form-urlencoded', schema, pointer: '/paths/~1a/post/parameters', at: '/paths/~1a/post/consumes/2', form },
        ],
        pointer: '/paths/~1a/post/parameters',
        ref: null,
      });
    });

    it('Swagger 2.0: a form without a form media type in consumes is multipart with a file, urlencoded without; optional when no field is required', () => {
      const withFile = only(swagger2({ consumes: ['application/json'], paths: { '/a': { post: { parameters: [{ name: 'f', in: 'formData', type: 'file' }], responses: OK } } } })).requestBody!;
      expect(withFile.content.map((c) => [c.mediaType, c.at, c.schema])).to.deep.equal([['multipart/form-data', '/paths/~1a/post/parameters', { type: 'object', properties: { f: { type: 'string', format: 'binary' } } }]]);
      expect(withFile.required).to.equal(false);
      const plain = only(swagger2({ paths: { '/a': { post: { parameters: [{ name: 'n', in: 'formData', type: 'string', description: 7 }], responses: OK } } } })).requestBody!;
      expect(plain.content.map((c) => [c.mediaType, c.schema])).to.deep.equal([['application/x-www-form-urlencoded', { type: 'object', properties: { n: { type: 'string' } } }]]);
    });

    it('Swagger 2.0: a form of path-level fields is listed where they are; a field behind a $ref is where the reference leads', () => {
      const shared = swagger2({
        parameters: { note: { name: 'note', in: 'formData', type: 'string' } },
        paths: { '/a': { parameters: [{ name: 'n', in: 'formData', type: 'string' }], post: { responses: OK } }, '/b': { post: { parameters: [{ $ref: '#/parameters/note' }], responses: OK } } },
      });
      const [a, b] = describeApi(shared).operations;
      expect([a!.requestBody!.pointer, a!.requestBody!.content[0]!.form!.pointer, a!.requestBody!.content[0]!.pointer]).to.deep.equal(['/paths/~1a/parameters', '/paths/~1a/parameters', '/paths/~1a/post/parameters']);
      expect(b!.requestBody!.content[0]!.form).to.deep.equal({ pointer: '/parameters/note', fields: new Map([['note', '/parameters/note']]) });
    });

    it('none without a body, in either format', () => {
      expect(only(swagger2({ paths: { '/a': { get: { parameters: [{ name: 'q', in: 'query', type: 'string' }], responses: OK } } } })).requestBody).to.equal(null);
      expect(only(openapi({ paths: { '/a': { get: { responses: OK } } } })).requestBody).to.equal(null);
    });
  });

  describe('responses', () => {
    it('OpenAPI 3: by status (extensions skipped), with description, content by media type and headers, each with its pointers', () => {
      const responses = {
        '200': {
          description: 'ok',
          content: { 'application/json': { schema: { type: 'object' } } },
          headers: {
            'X-A': { required: true, schema: { type: 'integer' } },
            'X-B': { content: { 'text/plain': { schema: { type: 'string' } } } },
            'X/C': { $ref: '#/components/headers/C' },
            'X-D': { required: 'yes' },
          },
        },
        '4XX': { description: 7 },
        'x-note': { description: 'not a response' },
      };
      const op = only(openapi({ components: { headers: { C: { schema: { type: 'boolean' } } } }, paths: { '/a': { get: { responses } } } }));
      const at = '/paths/~1a/get/responses/200';
      expect(op.responses).to.deep.equal([
        {
          status: '200',
          description: 'ok',
          content: [{ mediaType: 'application/json', schema: { type: 'object' }, pointer: `${at}/content/application~1json/schema`, at: `${at}/content/application~1json` }],
          headers: [
            { name: 'X-A', required: true, schema: { type: 'integer' }, pointer: `${at}/headers/X-A`, schemaPointer: `${at}/headers/X-A/schema` },
            { name: 'X-B', required: false, schema: { type: 'string' }, pointer: `${at}/headers/X-B`, schemaPointer: `${at}/headers/X-B/content/text~1plain/schema` },
            { name: 'X/C', required: false, schema: { type: 'boolean' }, pointer: '/components/headers/C', schemaPointer: '/components/headers/C/schema' },
            { name: 'X-D', required: false, schema: undefined, pointer: `${at}/headers/X-D`, schemaPointer: `${at}/headers/X-D/schema` },
          ],
          pointer: at,
          ref: null,
        },
        { status: '4XX', description: null, content: [], headers: [], pointer: '/paths/~1a/get/responses/4XX', ref: null },
      ]);
    });

    it('follows an internal $ref; one that cannot be followed, or leads to no response, is a response that could not be read', () => {
      const responses = { '200': { $ref: '#/components/responses/Ok' }, '404': { $ref: '#/components/schemas/Pet' }, default: { $ref: 'other.yaml#/Error' } };
      const components = { responses: { Ok: { description: 'ok' } }, schemas: { Pet: { type: 'object' } } };
      expect(only(openapi({ components, paths: { '/a': { get: { responses } } } })).responses).to.deep.equal([
        { status: '200', description: 'ok', content: [], headers: [], pointer: '/components/responses/Ok', ref: null },
        { status: '404', description: null, content: [], headers: [], pointer: '/paths/~1a/get/responses/404', ref: '#/components/schemas/Pet' },
        { status: 'default', description: null, content: [], headers: [], pointer: '/paths/~1a/get/responses/default', ref: 'other.yaml#/Error' },
      ]);
    });

    it('Swagger 2.0: a response schema is content under the operation’s produces, else the document’s, else JSON; its headers’ types are their schemas', () => {
      const responses = { '200': { description: 'ok', schema: { type: 'string' }, headers: { 'X-Rate': { type: 'integer', description: 'D' } } }, '204': { description: 'none' } };
      const paths = { '/a': { get: { produces: ['application/xml'], responses }, put: { responses } } };
      const [get, put] = describeApi(swagger2({ produces: ['text/plain', 7], paths })).operations;
      expect(get!.responses).to.deep.equal([
        {
          status: '200',
          description: 'ok',
          content: [{ mediaType: 'application/xml', schema: { type: 'string' }, pointer: '/paths/~1a/get/responses/200/schema', at: '/paths/~1a/get/produces/0' }],
          headers: [{ name: 'X-Rate', required: false, schema: { type: 'integer' }, pointer: '/paths/~1a/get/responses/200/headers/X-Rate', schemaPointer: '/paths/~1a/get/responses/200/headers/X-Rate' }],
          pointer: '/paths/~1a/get/responses/200',
          ref: null,
        },
        { status: '204', description: 'none', content: [], headers: [], pointer: '/paths/~1a/get/responses/204', ref: null },
      ]);
      expect(put!.responses[0]!.content.map((c) => [c.mediaType, c.at])).to.deep.equal([['text/plain', '/produces/0']]);
      const json = only(swagger2({ paths: { '/a': { get: { produces: [], responses } } } })).responses[0]!.content;
      expect(json.map((c) => [c.mediaType, c.at])).to.deep.equal([['application/json', '/paths/~1a/get/responses/200']]);
    });

    it('Swagger 2.0: follows an internal $ref to a response; one to something else is a response that could not be read', () => {
      const responses = { '200': { $ref: '#/responses/Ok' }, '404': { $ref: '#/definitions/Pet' } };
      const document = swagger2({ responses: { Ok: { description: 'ok', schema: { type: 'string' } } }, definitions: { Pet: { type: 'object' } }, paths: { '/a': { get: { responses } } } });
      expect(only(document).responses).to.deep.equal([
        { status: '200', description: 'ok', content: [{ mediaType: 'application/json', schema: { type: 'string' }, pointer: '/responses/Ok/schema', at: '/responses/Ok' }], headers: [], pointer: '/responses/Ok', ref: null },
        { status: '404', description: null, content: [], headers: [], pointer: '/paths/~1a/get/responses/404', ref: '#/definitions/Pet' },
      ]);
    });
  });

  describe('callbacks (OpenAPI 3)', () => {
    it('the requests the API sends, by callback and runtime expression, extensions skipped, not read below a callback’s own', () => {
      const callbacks = {
        onEvent: {
          '{$request.body#/url}': { post: { responses: OK, callbacks: { nested: { '/n': { get: { responses: OK } } } } } },
          'x-note': { post: { responses: OK } },
        },
        'x-cb': { '/x': { post: { responses: OK } } },
        shared: { $ref: '#/components/callbacks/Shared' },
        wrong: { $ref: '#/info' },
      };
      const components = { callbacks: { Shared: { '/cb': { put: { responses: OK } } } } };
      const op = only(openapi({ security: [{ key: [] }], components, paths: { '/a': { get: { callbacks, responses: OK } } } }));
      expect(op.callbacks.map((c) => [c.callback, c.method, c.path, c.pointer, c.callbacks])).to.deep.equal([
        ['onEvent', 'POST', '{$request.body#/url}', '/paths/~1a/get/callbacks/onEvent/{$request.body#~1url}/post', []],
        ['shared', 'PUT', '/cb', '/components/callbacks/Shared/~1cb/put', []],
      ]);
    });

    it('none in Swagger 2.0, and none below a webhook’s own', () => {
      const callbacks = { onEvent: { '/cb': { post: { responses: OK } } } };
      expect(only(swagger2({ paths: { '/a': { get: { callbacks, responses: OK } } } })).callbacks).to.deep.equal([]);
      expect(describeApi(openapi({ webhooks: { hook: { post: { callbacks, responses: OK } } } })).webhooks[0]!.callbacks).to.deep.equal([]);
    });
  });
});
