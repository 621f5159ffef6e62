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

  it('reads the Kubernetes document (520 paths, 891 models, $ref cycles) quickly', () => {
    const kubernetes = JSON.parse(gunzipSync(readFileSync(fixture('kubernetes-1.13.json.gz'))).toString('utf8')) as JsonObject;
    const started = performance.now();
    const reference = describeReference(kubernetes);
    const elapsed = performance.now() - started;
    expect(reference.models).to.have.length(891);
    expect(reference.groups.flatMap((g) => g.operations).length).to.be.greaterThan(1000);
    expect(elapsed, `${elapsed.toFixed(0)} ms`).to.be.below(1000);
  });
});
