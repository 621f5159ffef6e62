import { expect } from 'chai';
import fc from 'fast-check';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { inlined, shuffled } from '../../support/same-description.js';
import { swagger2Of, Unexpressible } from '../../support/swagger2-of.js';

/**
 * Property tests of the classifier: a document compared with itself, or with what describes the
 * same API differently (YAML instead of JSON, keys in another order, a model written in place of
 * its `$ref`, Swagger 2.0 instead of OpenAPI 3.0), yields no change at all.
 */
type Json = Record<string, unknown>;

const MODELS = ['Pet', 'Owner', 'Tag', 'Error'];
const NAMES = ['id', 'name', 'tag', 'age', 'status', 'owner'];

/** A schema that may refer to the models listed in `refs` (models refer only to earlier ones: no cycles to inline). */
function schema(refs: readonly string[], depth: number): fc.Arbitrary<Json> {
  const primitives = fc.oneof(
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('date', 'date-time', 'uuid'), maxLength: fc.integer({ min: 1, max: 100 }) }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }), nullable: fc.constant(true) }, { requiredKeys: ['type', 'enum'] }),
    fc.record({ type: fc.constantFrom('integer', 'number'), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 10, max: 20 }), default: fc.integer({ min: 5, max: 9 }) }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('boolean') }),
  );
  const leaves = refs.length === 0 ? primitives : fc.oneof(primitives, fc.constantFrom(...refs).map((ref) => ({ $ref: `#/components/schemas/${ref}` })));
  if (depth === 0) return leaves;
  const inner = schema(refs, depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaves },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('array'), items: inner, minItems: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['type', 'items'] }) },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.constantFrom(...NAMES), inner, { minKeys: 1, maxKeys: 4 }).chain((properties) =>
        fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) })),
      ),
    },
  );
}

const models: fc.Arbitrary<Json> = fc
  .tuple(...MODELS.map((_, i) => schema(MODELS.slice(0, i), 2)))
  .map((list) => Object.fromEntries(list.map((s, i) => [MODELS[i]!, s])));

const operation = (refs: readonly string[]) =>
  fc.record(
    {
      parameters: fc.uniqueArray(
        fc.record({ name: fc.constantFrom('limit', 'q', 'X-Trace'), in: fc.constantFrom('query', 'header'), required: fc.boolean(), schema: fc.oneof(fc.constant({ type: 'integer', minimum: 1 }), fc.constant({ type: 'string', enum: ['x', 'y'] })) }),
        { selector: (p) => `${p.in}:${p.name.toLowerCase()}`, maxLength: 3 },
      ),
      requestBody: fc.record({ required: fc.boolean(), content: fc.record({ 'application/json': fc.record({ schema: schema(refs, 2) }) }) }),
      responses: fc.record(
        {
          '200': fc.record({ description: fc.constant('ok'), content: fc.record({ 'application/json': fc.record({ schema: schema(refs, 2) }) }), headers: fc.constant({ 'X-Rate': { schema: { type: 'integer' } } }) }, { requiredKeys: ['description'] }),
          '404': fc.constant({ description: 'nothing there' }),
        },
        { requiredKeys: ['200'] },
      ),
      deprecated: fc.boolean(),
      security: fc.constantFrom([], [{ key: [] }], [{ oauth: ['read'] }], [{ key: [] }, { oauth: ['read', 'write'] }]),
    },
    { requiredKeys: ['responses'] },
  );

const documents: fc.Arbitrary<JsonObject> = fc
  .record({
    models,
    paths: fc.dictionary(fc.constantFrom('/pets', '/owners', '/tags', '/pets/{petId}'), fc.dictionary(fc.constantFrom('get', 'post', 'put', 'delete'), operation(MODELS), { minKeys: 1, maxKeys: 3 }), { minKeys: 1, maxKeys: 4 }),
    servers: fc.subarray([{ url: 'https://api.example.com/v1' }, { url: 'http://api.example.com/v1' }]),
  })
  .map(({ models: schemas, paths: generated, servers }) => {
    // Fresh objects: fast-check hands the same values again while it shrinks.
    const paths: Json = {};
    for (const [path, item] of Object.entries(generated)) {
      const operations: Json = {};
      for (const [method, op] of Object.entries(item) as [string, Json][]) {
        const { requestBody, parameters, ...rest } = op;
        operations[method] = {
          ...rest,
          ...(method === 'get' || method === 'delete' || requestBody === undefined ? {} : { requestBody }),
          parameters: [...(path.includes('{petId}') ? [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }] : []), ...((parameters as Json[] | undefined) ?? [])],
        };
      }
      paths[path] = operations;
    }
    return JSON.parse(
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Generated', version: '1.0.0' },
        ...(servers.length > 0 ? { servers } : {}),
        paths,
        components: {
          schemas,
          securitySchemes: {
            key: { type: 'apiKey', in: 'header', name: 'X-Key' },
            oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://a.example.com/auth', tokenUrl: 'https://a.example.com/token', scopes: { read: 'r', write: 'w' } } } },
          },
        },
      }),
    ) as JsonObject;
  });

const RUNS = { numRuns: 150, seed: 20261125 };

describe('domain: the change classifier, properties (fast-check)', () => {
  it('finds no change between a document and itself', () => {
    fc.assert(
      fc.property(documents, (document) => classifyChanges(document, document).length === 0),
      RUNS,
    );
  });

  it('finds no change between a document and its YAML or JSON re-serialisation', () => {
    fc.assert(
      fc.property(documents, (document) => {
        const yaml = parseYaml(stringifyYaml(document)) as JsonObject;
        const json = JSON.parse(JSON.stringify(document, null, 2)) as JsonObject;
        return classifyChanges(document, yaml).length === 0 && classifyChanges(yaml, json).length === 0;
      }),
      RUNS,
    );
  });

  it('finds no change when only the order of keys differs', () => {
    fc.assert(
      fc.property(documents, fc.integer({ min: 1, max: 2 ** 30 }), (document, seed) => {
        const changes = classifyChanges(document, shuffled(document, seed) as JsonObject);
        expect(changes).to.deep.equal([]);
      }),
      RUNS,
    );
  });

  it('finds no change when a model is written in place of its $refs (the model itself stays listed)', () => {
    fc.assert(
      fc.property(documents, fc.constantFrom(...MODELS), (document, model) => {
        const changes = classifyChanges(document, inlined(document, model));
        expect(changes).to.deep.equal([]);
      }),
      RUNS,
    );
  });

  it('finds no change between the OpenAPI 3.0 document and the same written as Swagger 2.0, either way', () => {
    let compared = 0;
    fc.assert(
      fc.property(documents, (document) => {
        let swagger: JsonObject;
        try {
          swagger = swagger2Of(document) as JsonObject;
        } catch (error) {
          if (error instanceof Unexpressible) return;
          throw error;
        }
        compared += 1;
        expect(classifyChanges(document, swagger), JSON.stringify(swagger)).to.deep.equal([]);
        expect(classifyChanges(swagger, document)).to.deep.equal([]);
      }),
      RUNS,
    );
    expect(compared, 'documents Swagger 2.0 could say').to.be.greaterThan(30);
  });
});
