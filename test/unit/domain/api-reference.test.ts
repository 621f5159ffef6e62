import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describeReference } from '../../../src/domain/spec/api-reference.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';

const fixture = (name: string) => new URL(`../../fixtures/swagger/${name}`, import.meta.url);
const petstore = JSON.parse(readFileSync(fixture('petstore.json'), 'utf8')) as JsonObject;

describe('domain: the reference a reader sees (describeReference)', () => {
  it('groups the petstore’s operations by tag in the order of its tags list, with parameters and responses', () => {
    const reference = describeReference(petstore);
    expect(reference.servers).to.deep.equal([{ url: 'http://petstore.swagger.io/v2', description: null }]);
    expect(reference.groups.map((g) => [g.tag, g.description, g.operations.length])).to.deep.equal([
      ['pet', 'Everything about your Pets', 8],
      ['store', 'Access to Petstore orders', 4],
      ['user', 'Operations about user', 8],
    ]);
    const getPet = reference.groups[0]!.operations.find((op) => op.operationId === 'getPetById')!;
    expect(getPet).to.deep.include({ method: 'GET', path: '/pet/{petId}', summary: 'Find pet by ID', description: 'Returns a single pet', deprecated: false });
    expect(getPet.parameters).to.deep.equal([
      { name: 'petId', in: 'path', required: true, deprecated: false, description: 'ID of pet to return', type: { kind: 'primitive', type: 'integer', format: 'int64', enum: [] } },
    ]);
    expect(getPet.responses, 'one schema under every media type of produces').to.deep.equal([
      { status: '200', description: 'successful operation', contents: [{ mediaTypes: ['application/xml', 'application/json'], type: { kind: 'model', name: 'Pet' }, properties: [] }] },
      { status: '400', description: 'Invalid ID supplied', contents: [] },
      { status: '404', description: 'Pet not found', contents: [] },
    ]);
    expect(getPet.security).to.deep.equal([[{ scheme: 'api_key', scopes: [] }]]);
    const findByStatus = reference.groups[0]!.operations.find((op) => op.operationId === 'findPetsByStatus')!;
    expect(findByStatus.deprecated).to.equal(false);
    expect(findByStatus.parameters[0]!.type).to.deep.equal({ kind: 'array', items: { kind: 'primitive', type: 'string', format: null, enum: ['available', 'pending', 'sold'] } });
    expect(findByStatus.responses[0]!.contents[0]!.type).to.deep.equal({ kind: 'array', items: { kind: 'model', name: 'Pet' } });
  });

  it('lists the models with their properties, required ones marked, and links to other models', () => {
    const pet = describeReference(petstore).models.find((m) => m.name === 'Pet')!;
    expect(pet.type).to.deep.equal({ kind: 'primitive', type: 'object', format: null, enum: [] });
    expect(pet.properties.map((p) => [p.name, p.required])).to.deep.equal([
      ['id', false],
      ['category', false],
      ['name', true],
      ['photoUrls', true],
      ['tags', false],
      ['status', false],
    ]);
    expect(pet.properties[1]!.type).to.deep.equal({ kind: 'model', name: 'Category' });
    expect(pet.properties[4]!.type).to.deep.equal({ kind: 'array', items: { kind: 'model', name: 'Tag' } });
    expect(pet.properties[5]).to.deep.include({ description: 'pet status in the store' });
  });

  it('applies path-level parameters, lets an operation replace one, and follows internal parameter and response references', () => {
    const reference = describeReference({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      parameters: { limit: { name: 'limit', in: 'query', type: 'integer' } },
      responses: { NotFound: { description: 'nothing there' } },
      paths: {
        '/items/{id}': {
          parameters: [
            { name: 'id', in: 'path', required: true, type: 'string' },
            { name: 'trace', in: 'header', type: 'string' },
          ],
          get: {
            parameters: [{ $ref: '#/parameters/limit' }, { name: 'trace', in: 'header', type: 'boolean', description: 'mine' }],
            responses: { '404': { $ref: '#/responses/NotFound' }, default: { $ref: 'other.yaml#/responses/Error' } },
          },
        },
      },
    });
    const op = reference.groups[0]!.operations[0]!;
    expect(reference.groups[0]!.tag, 'untagged').to.equal(null);
    expect(op.parameters.map((p) => [p.in, p.name, p.description])).to.deep.equal([
      ['path', 'id', null],
      ['query', 'limit', null],
      ['header', 'trace', 'mine'],
    ]);
    expect(op.responses).to.deep.equal([
      { status: '404', description: 'nothing there', contents: [] },
      { status: 'default', description: null, contents: [{ mediaTypes: [], type: { kind: 'reference', ref: 'other.yaml#/responses/Error' }, properties: [] }] },
    ]);
  });

  it('names models instead of expanding them, so a self-referencing model is harmless, and keeps external and unknown references as such', () => {
    const reference = describeReference({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { post: { tags: ['b', 'a'], parameters: [{ name: 'body', in: 'body', schema: { $ref: '#/definitions/node' } }], responses: { '200': { description: 'ok', schema: { $ref: 'https://example.com/x.json' } } } } } },
      definitions: {
        node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/node' } }, ghost: { $ref: '#/definitions/missing' } } },
        loop: { $ref: '#/definitions/loop' },
        labelled: { allOf: [{ $ref: '#/definitions/node' }, { type: 'object', required: ['label'], properties: { label: { type: 'string' } } }] },
        dictionary: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    });
    expect(reference.groups.map((g) => g.tag), 'the first tag, tags without a list in order of appearance').to.deep.equal(['b']);
    const op = reference.groups[0]!.operations[0]!;
    expect(op.parameters, 'the body parameter is the request body').to.deep.equal([]);
    expect(op.requestBody).to.deep.equal({ description: null, required: false, contents: [{ mediaTypes: ['application/json'], type: { kind: 'model', name: 'node' }, properties: [] }] });
    expect(op.responses[0]!.contents[0]!.type).to.deep.equal({ kind: 'reference', ref: 'https://example.com/x.json' });
    const [node, loop, labelled, dictionary] = reference.models;
    expect(node!.properties.map((p) => p.type)).to.deep.equal([
      { kind: 'array', items: { kind: 'model', name: 'node' } },
      { kind: 'reference', ref: '#/definitions/missing' },
    ]);
    expect(loop!.type).to.deep.equal({ kind: 'model', name: 'loop' });
    expect(labelled!.extends).to.deep.equal([{ kind: 'model', name: 'node' }]);
    expect(labelled!.properties).to.deep.equal([{ name: 'label', required: true, description: null, type: { kind: 'primitive', type: 'string', format: null, enum: [] } }]);
    expect(dictionary!.type).to.deep.equal({ kind: 'map', values: { kind: 'primitive', type: 'integer', format: null, enum: [] } });
  });

  it('does not trust field types: a document of the wrong shapes gives an empty or partial reference, not an exception', () => {
    const odd = { swagger: '2.0', info: {}, paths: { '/x': { get: { parameters: 'no', responses: [1, 2], tags: [3] } }, '/y': 7, 'x-ext': {} }, definitions: [], tags: 'no' } as unknown as JsonObject;
    const reference = describeReference(odd);
    expect(reference.groups).to.have.length(1);
    expect(reference.groups[0]!.operations[0]).to.deep.include({ method: 'GET', path: '/x', parameters: [], requestBody: null, responses: [] });
    expect(reference.models).to.deep.equal([]);
    expect(describeReference({}).groups).to.deep.equal([]);
  });

  it('reads an OpenAPI 3.1 document: parameters by schema or content, request bodies and responses by media type, security, servers, webhooks', () => {
    const reference = describeReference({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      servers: [{ url: 'https://{env}.example.com', description: 'main', variables: { env: { default: 'api' } } }],
      security: [{ key: [] }],
      paths: {
        '/items': {
          parameters: [{ name: 'trace', in: 'header', schema: { type: 'string' } }],
          post: {
            tags: ['items'],
            security: [{ oauth: ['write'] }, {}],
            parameters: [{ name: 'filter', in: 'query', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } }, { name: 'old', in: 'cookie', deprecated: true, schema: { type: ['integer', 'null'] } }],
            requestBody: { $ref: '#/components/requestBodies/NewItem' },
            responses: {
              '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } }, 'application/xml': { schema: { $ref: '#/components/schemas/Item' } } } },
              '4XX': { $ref: '#/components/responses/Problem' },
            },
          },
          trace: { responses: { '200': { description: 'echo' } } },
        },
      },
      webhooks: { created: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } }, responses: { '200': { description: 'ok' } } } } },
      components: {
        schemas: {
          Item: { type: 'object', required: ['id'], properties: { id: { const: 7 }, kind: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Item/$defs/Kind' }] }, note: { type: 'string', nullable: true } }, $defs: { Kind: { enum: ['a', 'b'], type: 'string' } } },
        },
        requestBodies: { NewItem: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } } },
        responses: { Problem: { description: 'a problem', content: { 'application/problem+json': { schema: { type: 'object' } } } } },
        securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://t', scopes: { write: 'w' } } } } },
      },
    });
    expect(reference.format).to.equal('openapi-3.1');
    expect(reference.servers).to.deep.equal([{ url: 'https://{env}.example.com', description: 'main' }]);
    const [post, trace] = reference.groups.flatMap((g) => g.operations);
    expect(post!.parameters.map((p) => [p.name, p.in, p.deprecated, p.type])).to.deep.equal([
      ['trace', 'header', false, { kind: 'primitive', type: 'string', format: null, enum: [] }],
      ['filter', 'query', false, { kind: 'model', name: 'Item' }],
      ['old', 'cookie', true, { kind: 'union', options: [{ kind: 'primitive', type: 'integer', format: null, enum: [] }, { kind: 'primitive', type: 'null', format: null, enum: [] }] }],
    ]);
    expect(post!.requestBody).to.deep.equal({
      description: null,
      required: true,
      contents: [{ mediaTypes: ['multipart/form-data'], type: { kind: 'primitive', type: 'object', format: null, enum: [] }, properties: [{ name: 'file', required: false, description: null, type: { kind: 'primitive', type: 'string', format: 'binary', enum: [] } }] }],
    });
    expect(post!.responses).to.deep.equal([
      { status: '201', description: 'made', contents: [{ mediaTypes: ['application/json', 'application/xml'], type: { kind: 'model', name: 'Item' }, properties: [] }] },
      { status: '4XX', description: 'a problem', contents: [{ mediaTypes: ['application/problem+json'], type: { kind: 'primitive', type: 'object', format: null, enum: [] }, properties: [] }] },
    ]);
    expect(post!.security, 'its own, the empty alternative included').to.deep.equal([[{ scheme: 'oauth', scopes: ['write'] }], []]);
    expect(trace).to.deep.include({ method: 'TRACE', security: [[{ scheme: 'key', scopes: [] }]] });
    expect(reference.webhooks.map((w) => [w.method, w.path, w.requestBody?.contents[0]?.type])).to.deep.equal([['POST', 'created', { kind: 'model', name: 'Item' }]]);
    const item = reference.models[0]!;
    expect(item.properties.map((p) => [p.name, p.required, p.type])).to.deep.equal([
      ['id', true, { kind: 'primitive', type: 'number', format: null, enum: ['7'] }],
      ['kind', false, { kind: 'union', options: [{ kind: 'primitive', type: 'string', format: null, enum: [] }, { kind: 'primitive', type: 'string', format: null, enum: ['a', 'b'] }] }],
      ['note', false, { kind: 'union', options: [{ kind: 'primitive', type: 'string', format: null, enum: [] }, { kind: 'primitive', type: 'null', format: null, enum: [] }] }],
    ]);
    expect(reference.securitySchemes.map((s) => [s.name, s.type])).to.deep.equal([
      ['key', 'apiKey'],
      ['oauth', 'oauth2'],
    ]);
  });

  it('reads a Swagger 2.0 formData operation as an object request body under its form media type, and a missing consumes as JSON', () => {
    const op = describeReference({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {
        '/upload': {
          post: {
            parameters: [
              { name: 'file', in: 'formData', type: 'file', required: true, description: 'the file' },
              { name: 'tags', in: 'formData', type: 'array', items: { type: 'string', enum: ['a'] } },
            ],
            responses: { '200': { description: 'ok', schema: { type: 'string' } } },
          },
        },
      },
    }).groups[0]!.operations[0]!;
    expect(op.parameters).to.deep.equal([]);
    expect(op.requestBody).to.deep.equal({
      description: null,
      required: true,
      contents: [
        {
          mediaTypes: ['multipart/form-data'],
          type: { kind: 'primitive', type: 'object', format: null, enum: [] },
          properties: [
            { name: 'file', required: true, description: 'the file', type: { kind: 'primitive', type: 'string', format: 'binary', enum: [] } },
            { name: 'tags', required: false, description: null, type: { kind: 'array', items: { kind: 'primitive', type: 'string', format: null, enum: ['a'] } } },
          ],
        },
      ],
    });
    expect(op.responses[0]!.contents).to.deep.equal([{ mediaTypes: ['application/json'], type: { kind: 'primitive', type: 'string', format: null, enum: [] }, properties: [] }]);
  });

  it('shows a request body given by a reference it cannot follow as that reference: one content, no media types, not required, no description', () => {
    const op = describeReference({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/items': { post: { requestBody: { $ref: 'bodies.yaml#/NewItem' }, responses: { '201': { description: 'made' } } } } },
    }).groups[0]!.operations[0]!;
    expect(op.requestBody).to.deep.equal({ description: null, required: false, contents: [{ mediaTypes: [], type: { kind: 'reference', ref: 'bodies.yaml#/NewItem' }, properties: [] }] });
  });

  it('puts media types side by side when they carry the same schema or the same reference, and no schema at all; other schemas apart', () => {
    const model = (name: string) => ({ schema: { $ref: `#/components/schemas/${name}` } });
    const response = describeReference({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/items': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': model('A'),
                  'text/plain': { schema: { type: 'string' } },
                  'application/xml': model('A'),
                  'application/yaml': model('B'),
                  'text/csv': { schema: { type: 'number' } },
                  'application/octet-stream': {},
                  'image/png': {},
                },
              },
            },
          },
        },
      },
      components: { schemas: { A: { type: 'object' }, B: { type: 'object' } } },
    }).groups[0]!.operations[0]!.responses[0]!;
    expect(response.contents.map((c) => [c.mediaTypes, c.type])).to.deep.equal([
      [['application/json', 'application/xml'], { kind: 'model', name: 'A' }],
      [['text/plain'], { kind: 'primitive', type: 'string', format: null, enum: [] }],
      [['application/yaml'], { kind: 'model', name: 'B' }],
      [['text/csv'], { kind: 'primitive', type: 'number', format: null, enum: [] }],
      [['application/octet-stream', 'image/png'], { kind: 'any' }],
    ]);
  });

  it('shows a Swagger 2.0 schema written in place once for all the media types of produces, with its properties', () => {
    const op = describeReference({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      produces: ['application/json', 'application/xml'],
      paths: { '/status': { get: { responses: { '200': { description: 'ok', schema: { type: 'object', properties: { up: { type: 'boolean' } } } } } } } },
    }).groups[0]!.operations[0]!;
    expect(op.responses[0]!.contents).to.deep.equal([
      {
        mediaTypes: ['application/json', 'application/xml'],
        type: { kind: 'primitive', type: 'object', format: null, enum: [] },
        properties: [{ name: 'up', required: false, description: null, type: { kind: 'primitive', type: 'boolean', format: null, enum: [] } }],
      },
    ]);
  });

  it('lists the properties of a schema written in place, not of one given by a reference (3.0 ignores what is written beside a $ref)', () => {
    const op = describeReference({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/items': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item', properties: { beside: { type: 'string' } } } } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } },
          },
        },
      },
      components: { schemas: { Item: { type: 'object', properties: { id: { type: 'integer' } } } } },
    }).groups[0]!.operations[0]!;
    expect(op.requestBody!.contents).to.deep.equal([{ mediaTypes: ['application/json'], type: { kind: 'model', name: 'Item' }, properties: [] }]);
    expect(op.responses[0]!.contents[0]!.properties.map((p) => p.name)).to.deep.equal(['id']);
  });

  it('lists a composed model’s own properties and its inline allOf members’, required by any of them; members given by reference are what it extends', () => {
    const models = describeReference({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Base: { type: 'object', description: 'what every item has', properties: { id: { type: 'integer' } } },
          Item: {
            description: 'an item',
            required: ['label', 7],
            properties: { own: { type: 'string' } },
            allOf: [
              { $ref: '#/components/schemas/Base', required: ['size'], properties: { beside: { type: 'string' } } },
              { properties: { label: { type: 'string', description: 'what it is called' } } },
              { required: ['own', { name: 'size' }], properties: { size: { type: 'integer' } } },
              'not a schema',
            ],
          },
          Named: { allOf: [{ $ref: '#/components/schemas/Base' }] },
        },
      },
    }).models;
    const [base, item, named] = models;
    expect(base).to.deep.include({ name: 'Base', description: 'what every item has' });
    expect(item).to.deep.include({ description: 'an item', type: { kind: 'primitive', type: 'object', format: null, enum: [] }, extends: [{ kind: 'model', name: 'Base' }] });
    expect(item!.properties.map((p) => [p.name, p.required, p.description])).to.deep.equal([
      ['own', true, null],
      ['label', true, 'what it is called'],
      ['size', false, null],
    ]);
    expect(named, 'a model of one allOf member is an object extending it, not that member').to.deep.include({
      type: { kind: 'primitive', type: 'object', format: null, enum: [] },
      extends: [{ kind: 'model', name: 'Base' }],
      properties: [],
    });
  });

  it('describes a tag listed twice by its first entry', () => {
    const reference = describeReference({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      tags: [
        { name: 'items', description: 'the first' },
        { name: 'orders', description: 'orders' },
        { name: 'items', description: 'the second' },
      ],
      paths: { '/items': { get: { tags: ['items'], responses: {} } }, '/orders': { get: { tags: ['orders'], responses: {} } } },
    });
    expect(reference.groups.map((g) => [g.tag, g.description])).to.deep.equal([
      ['items', 'the first'],
      ['orders', 'orders'],
    ]);
  });

  describe('a schema as a reader sees it', () => {
    const str = { kind: 'primitive', type: 'string', format: null, enum: [] };
    const num = { kind: 'primitive', type: 'number', format: null, enum: [] };
    const nul = { kind: 'primitive', type: 'null', format: null, enum: [] };
    const obj = { kind: 'primitive', type: 'object', format: null, enum: [] };
    /** The type of each property of a model M (3.1 unless said), by name. */
    const typesOf = (properties: JsonObject, version = '3.1.0', $defs: JsonObject = {}) =>
      Object.fromEntries(
        describeReference({ openapi: version, info: { title: 't', version: '1' }, paths: {}, components: { schemas: { M: { type: 'object', properties, $defs } } } }).models[0]!.properties.map((p) => [p.name, p.type]),
      );

    it('a nullable type (nullable, x-nullable, a type list with null) is a union with null, null once', () => {
      expect(typesOf({ a: { type: 'string', nullable: true }, b: { type: 'string', 'x-nullable': true }, c: { type: ['string', 'null'], nullable: true }, d: { type: 'string', nullable: 'yes' } }, '3.0.3')).to.deep.equal({
        a: { kind: 'union', options: [str, nul] },
        b: { kind: 'union', options: [str, nul] },
        c: { kind: 'union', options: [str, nul] },
        d: str,
      });
    });

    it('a primitive names its format and its values, each as written in JSON unless a string', () => {
      expect(typesOf({ b: { type: 'integer', format: 'int32', enum: [1, 'two', null] }, f: { type: 'string', format: 7 } })).to.deep.equal({
        b: { kind: 'primitive', type: 'integer', format: 'int32', enum: ['1', 'two', 'null'] },
        f: str,
      });
    });

    it('a type list is a union of its types, strings only; one type is that type, none is any', () => {
      expect(typesOf({ a: { type: ['string', 7, 'number'] }, b: { type: ['null'] }, c: { type: [] } })).to.deep.equal({ a: { kind: 'union', options: [str, num] }, b: nul, c: { kind: 'any' } });
    });

    it('oneOf, else anyOf, is a union of its choices; one choice is that choice; an empty oneOf is no choice', () => {
      expect(typesOf({ a: { anyOf: [{ type: 'string' }, { type: 'number' }] }, b: { oneOf: [{ type: 'string' }] }, c: { oneOf: [{ type: 'number' }], anyOf: [{ type: 'string' }] }, d: { oneOf: [] } })).to.deep.equal({
        a: { kind: 'union', options: [str, num] },
        b: str,
        c: num,
        d: { kind: 'any' },
      });
    });

    it('allOf of one schema is that schema; of several, or properties alone, an object; nothing said is any', () => {
      expect(typesOf({ a: { allOf: [{ type: 'string' }] }, b: { allOf: [{ type: 'string' }, { type: 'number' }] }, c: { properties: {} }, d: {}, e: true })).to.deep.equal({
        a: str,
        b: obj,
        c: obj,
        d: { kind: 'any' },
        e: { kind: 'any' },
      });
    });

    it('additionalProperties of a schema without properties is a map, with or without type object; with properties an object', () => {
      const int = { kind: 'primitive', type: 'integer', format: null, enum: [] };
      expect(
        typesOf({
          a: { additionalProperties: { type: 'integer' } },
          b: { type: 'object', additionalProperties: { type: 'integer' } },
          c: { type: 'object', additionalProperties: { type: 'integer' }, properties: { x: {} } },
          d: { additionalProperties: { type: 'integer' }, properties: { x: {} } },
          e: { type: 'object', additionalProperties: true },
        }),
      ).to.deep.equal({ a: { kind: 'map', values: int }, b: { kind: 'map', values: int }, c: obj, d: obj, e: obj });
    });

    it('a const is a primitive of the value’s type, the value its only one', () => {
      expect(typesOf({ a: { const: null }, b: { const: [1] }, c: { const: 'x' }, d: { const: 3 }, e: { const: { k: 1 } } })).to.deep.equal({
        a: { kind: 'primitive', type: 'null', format: null, enum: ['null'] },
        b: { kind: 'primitive', type: 'array', format: null, enum: ['[1]'] },
        c: { kind: 'primitive', type: 'string', format: null, enum: ['x'] },
        d: { kind: 'primitive', type: 'number', format: null, enum: ['3'] },
        e: { kind: 'primitive', type: 'object', format: null, enum: ['{"k":1}'] },
      });
    });

    it('an array of items; a tuple (prefixItems) of any of its positions’ types, and of items after them', () => {
      expect(
        typesOf({
          a: { type: 'array', items: { type: 'string' } },
          b: { type: 'array' },
          c: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
          d: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } },
          e: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
        }),
      ).to.deep.equal({
        a: { kind: 'array', items: str },
        b: { kind: 'array', items: { kind: 'any' } },
        c: { kind: 'array', items: { kind: 'union', options: [str, num] } },
        d: { kind: 'array', items: { kind: 'union', options: [str, num] } },
        e: { kind: 'array', items: str },
      });
    });

    it('a reference that names no model is the type it leads to; in a cycle, or to no schema, the reference itself', () => {
      const $defs = { D: { type: 'string', format: 'date' }, R1: { $ref: '#/components/schemas/M/$defs/R2' }, R2: { $ref: '#/components/schemas/M/$defs/R1' }, Via: { $ref: '#/components/schemas/M/$defs/D' } };
      const at = (name: string) => ({ $ref: `#/components/schemas/M/$defs/${name}` });
      expect(typesOf({ a: at('D'), b: at('R1'), c: at('Via'), d: { $ref: '#/paths' }, e: { $ref: '#/nowhere' } }, '3.1.0', $defs)).to.deep.equal({
        a: { kind: 'primitive', type: 'string', format: 'date', enum: [] },
        b: { kind: 'reference', ref: '#/components/schemas/M/$defs/R1' },
        c: { kind: 'primitive', type: 'string', format: 'date', enum: [] },
        d: { kind: 'any' },
        e: { kind: 'reference', ref: '#/nowhere' },
      });
      expect(typesOf({ d: { $ref: '#/info' } }, '3.0.3')).to.deep.equal({ d: { kind: 'reference', ref: '#/info' } });
    });
    it('additionalProperties makes a map of type object only: another type stays that type', () => {
      const int = { kind: 'primitive', type: 'integer', format: null, enum: [] };
      expect(typesOf({ a: { type: 'string', additionalProperties: { type: 'integer' } }, b: { type: ['string', 'object'], additionalProperties: { type: 'integer' } } })).to.deep.equal({
        a: str,
        b: { kind: 'union', options: [str, { kind: 'map', values: int }] },
      });
    });

    it('an empty oneOf or anyOf offers no choice: the rest of the schema says what it is', () => {
      expect(typesOf({ a: { oneOf: [], allOf: [{ type: 'string' }] }, b: { anyOf: [], properties: {} }, c: { oneOf: [], additionalProperties: { type: 'number' } } })).to.deep.equal({
        a: str,
        b: obj,
        c: { kind: 'map', values: num },
      });
    });
  });

  it('follows references that are not models within a budget: a document cannot make the reader expand it without end', () => {
    // 40 levels of $defs, each offering the next twice: 2^40 expansions if nothing stopped them.
    const defs: JsonObject = { L40: { type: 'string' } };
    for (let i = 39; i >= 0; i--) defs[`L${i}`] = { oneOf: [{ $ref: `#/components/schemas/M/$defs/L${i + 1}` }, { $ref: `#/components/schemas/M/$defs/L${i + 1}` }] };
    // 2^40 expansions would never end: that this returns (within mocha's timeout) is the bound.
    const reference = describeReference({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { M: { properties: { p: { $ref: '#/components/schemas/M/$defs/L0' } }, $defs: defs } } } });
    expect(JSON.stringify(reference.models[0]!.properties[0]!.type)).to.include('"kind":"reference"');
  });

  describe('how far references that name no model are followed', () => {
    /** A 3.0 document whose one response has `schema`, with `extra` at its root. */
    const responseType = (schema: JsonObject, extra: JsonObject) =>
      describeReference({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } }, ...extra })
        .groups[0]!.operations[0]!.responses[0]!.contents[0]!.type;
    /** Links 0 to 9,999, each a reference to the next; entry 10,000 a string. */
    const chain = Array.from({ length: 10_001 }, (_, i) => (i < 10_000 ? { $ref: `#/x-chain/${i + 1}` } : { type: 'string' }));

    it('follows a chain of 10,000 references (the budget) to its end; of 10,001 the last link is left as a reference', () => {
      expect(responseType({ $ref: '#/x-chain/1' }, { 'x-chain': chain }), '10,000 references').to.deep.equal({ kind: 'primitive', type: 'string', format: null, enum: [] });
      expect(responseType({ $ref: '#/x-chain/0' }, { 'x-chain': chain }), '10,001 references').to.deep.equal({ kind: 'reference', ref: '#/x-chain/10000' });
    });

    it('charges nothing for types written in place: a reference after 10,001 of them is still followed', () => {
      const properties: JsonObject = {};
      for (let i = 0; i <= 10_000; i++) properties[`p${i}`] = { type: 'integer' };
      properties['last'] = { $ref: '#/components/schemas/M/$defs/D' };
      const m = describeReference({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { M: { properties, $defs: { D: { type: 'string' } } } } } }).models[0]!;
      expect(m.properties).to.have.length(10_002);
      expect(m.properties.at(-1)!.type).to.deep.equal({ kind: 'primitive', type: 'string', format: null, enum: [] });
    });

    it('follows a reference only when fewer than 32 schemas enclose it (itself counted): of arrays nested through references, 16 are read', () => {
      const at = (i: number) => `#/components/schemas/M/$defs/A${i}`;
      const $defs: JsonObject = { A40: { type: 'string' } };
      for (let i = 0; i < 40; i++) $defs[`A${i}`] = { type: 'array', items: { $ref: at(i + 1) } };
      // The property's array is schema 1; the reference in its items 2, the array it leads to 3, the next reference 4... A15's is 32.
      const m = describeReference({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { M: { properties: { p: { type: 'array', items: { $ref: at(0) } } }, $defs } } } }).models[0]!;
      let arrays = 0;
      let type = m.properties[0]!.type;
      for (; type.kind === 'array'; type = type.items) arrays++;
      expect([arrays, type]).to.deep.equal([16, { kind: 'reference', ref: at(15) }]);
    });

    it('counts how deep a type is, not how many came before it: a reference after 40 sibling properties is followed', () => {
      const properties: JsonObject = {};
      for (let i = 0; i < 40; i++) properties[`p${i}`] = { type: 'array', items: { type: 'integer' } };
      properties['last'] = { $ref: '#/components/schemas/M/$defs/D' };
      const m = describeReference({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { M: { properties, $defs: { D: { type: 'string' } } } } } }).models[0]!;
      expect(m.properties.at(-1)!.type).to.deep.equal({ kind: 'primitive', type: 'string', format: null, enum: [] });
    });
  });

  // How fast is for bench/, not for a unit test that must pass on a busy machine (it took 2.5 s
  // under StrykerJS at a load average of 20, against a 1 s bound).
  it('reads the Kubernetes document (520 paths, 891 models, $ref cycles) whole', () => {
    const kubernetes = JSON.parse(gunzipSync(readFileSync(fixture('kubernetes-1.13.json.gz'))).toString('utf8')) as JsonObject;
    const reference = describeReference(kubernetes);
    expect(reference.models).to.have.length(891);
    expect(reference.groups.flatMap((g) => g.operations).length).to.be.greaterThan(1000);
  });
});
