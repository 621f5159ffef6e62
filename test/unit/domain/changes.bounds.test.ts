import { expect } from 'chai';
import fc from 'fast-check';
import { countChanges } from '../../../src/domain/spec/changes/change.js';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { MAX_OTHER_PLACES, MAX_PAIRINGS } from '../../../src/domain/spec/changes/schema-diff.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';

/**
 * The classifier's output is bounded by the documents, not by the paths through their schema
 * graphs (issue 41: K models each referring to every other one, one leaf type changed, gave
 * 2^(K-1) items; 65,536 of them stored with a release grew the database by 100 MB).
 */
type Json = Record<string, unknown>;

/** A model graph: model i has a leaf of `leafType[i]`, optional `extra` properties, and properties referring to `edges[i]`. */
interface Graph {
  readonly edges: readonly (readonly number[])[];
  /** The newer document's edges, when its references cross the older's; else the same. */
  readonly newerEdges?: readonly (readonly number[])[];
  readonly leafType: readonly string[];
  readonly dropped: ReadonlySet<number>;
  readonly required: ReadonlySet<number>;
}

function documentOf(graph: Graph, side: 'before' | 'after', operations: number): JsonObject {
  const schemas: Json = {};
  const edges = side === 'after' ? (graph.newerEdges ?? graph.edges) : graph.edges;
  edges.forEach((targets, i) => {
    const properties: Json = { leaf: { type: side === 'before' ? 'string' : graph.leafType[i] } };
    if (side === 'before' || !graph.dropped.has(i)) properties['extra'] = { type: 'integer', enum: [1, 2] };
    targets.forEach((j, k) => (properties[`to${k}`] = { $ref: `#/components/schemas/M${j}` }));
    schemas[`M${i}`] = { type: 'object', properties, ...(side === 'after' && graph.required.has(i) ? { required: ['leaf'] } : {}) };
  });
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/M0' } } } };
  const paths: Json = {};
  for (let p = 0; p < operations; p++) {
    paths[`/things${p}`] = { post: { requestBody: body, responses: { '200': { description: 'ok', ...body } } } };
  }
  return { openapi: '3.1.0', info: { title: 'graph', version: '1' }, paths, components: { schemas } } as JsonObject;
}

/** Every schema object of a document: the models and whatever they nest (properties, items, values, members). */
function schemaNodes(document: JsonObject): number {
  let count = 0;
  const walk = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
    count += 1;
    const s = schema as Json;
    for (const child of Object.values((s['properties'] as Json | undefined) ?? {})) walk(child);
    walk(s['items']);
    walk(s['additionalProperties']);
    for (const key of ['allOf', 'oneOf', 'anyOf']) for (const member of (s[key] as unknown[] | undefined) ?? []) walk(member);
  };
  for (const model of Object.values(((document['components'] as Json)['schemas'] as Json) ?? {})) walk(model);
  return count;
}

const graphs: fc.Arbitrary<Graph> = fc.integer({ min: 2, max: 24 }).chain((n) =>
  fc.record({
    // Edges to any model, itself included: cycles, and diamonds wherever two edges meet.
    edges: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 6 }), { minLength: n, maxLength: n }),
    leafType: fc.array(fc.constantFrom('string', 'integer', 'boolean'), { minLength: n, maxLength: n }),
    dropped: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 })).map((list) => new Set(list)),
    required: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 })).map((list) => new Set(list)),
  }),
);

describe('domain: the change classifier, bounded by the documents (issue 41)', () => {
  it('reports at most a few items per schema node of random model graphs with cycles and diamonds, however many paths lead to a change', () => {
    fc.assert(
      fc.property(graphs, fc.integer({ min: 1, max: 3 }), (graph, operations) => {
        const before = documentOf(graph, 'before', operations);
        const after = documentOf(graph, 'after', operations);
        const changes = classifyChanges(before, after);
        const nodes = schemaNodes(before) + schemaNodes(after);
        // Per model at most: the leaf's type, the extra property removed, the leaf became required;
        // per operation: nothing but those (each change is reported once, the other places listed).
        expect(changes.length, JSON.stringify(changes.map((c) => c.rule))).to.be.at.most(nodes);
        for (const change of changes) expect(change.alsoAt?.length ?? 0).to.be.at.most(MAX_OTHER_PLACES);
        // Every difference is still found: each changed leaf, dropped property and new requirement of a model the operations reach.
        const reachable = new Set<number>([0]);
        for (const i of reachable) for (const j of graph.edges[i]!) reachable.add(j);
        const expected = [...reachable].reduce((sum, i) => sum + (graph.leafType[i] !== 'string' ? 1 : 0) + (graph.dropped.has(i) ? 1 : 0) + (graph.required.has(i) ? 1 : 0), 0);
        // Each in both directions: the models are a request body and a response.
        expect(changes.filter((c) => c.location.property !== undefined).length).to.equal(2 * expected);
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  it('reports items at most linear in the schema nodes when the two graphs refer across each other (every model may meet every other)', () => {
    const crossed = graphs.chain((graph) =>
      fc
        .array(fc.array(fc.integer({ min: 0, max: graph.edges.length - 1 }), { minLength: 1, maxLength: 6 }), { minLength: graph.edges.length, maxLength: graph.edges.length })
        .map((newerEdges) => ({ ...graph, newerEdges })),
    );
    fc.assert(
      fc.property(crossed, (graph) => {
        const before = documentOf(graph, 'before', 1);
        const after = documentOf(graph, 'after', 1);
        const changes = classifyChanges(before, after);
        // A pair's own differences are at most its two schemas' properties and a few keywords, and
        // each schema meets at most MAX_PAIRINGS of the other document's, per direction.
        expect(changes.length).to.be.at.most(2 * MAX_PAIRINGS * 2 * (schemaNodes(before) + schemaNodes(after)));
      }),
      { numRuns: 100, seed: 20261129 },
    );
  });

  it('compares a schema with at most MAX_PAIRINGS of the other document, so crossed graphs of 60 models stay linear (3,600 pairs before)', () => {
    const k = 60;
    // Before: each model's p refers to the next and q to itself; after: p to itself and q to the next.
    const model = (p: number, q: number, side: 'before' | 'after') => ({ type: 'object', maxProperties: side === 'before' ? 1 : 2, properties: { p: { $ref: `#/components/schemas/M${p}` }, q: { $ref: `#/components/schemas/M${q}` } } });
    const document = (side: 'before' | 'after'): JsonObject => {
      const schemas = Object.fromEntries(Array.from({ length: k }, (_, i) => [`M${i}`, side === 'before' ? model((i + 1) % k, i, side) : model(i, (i + 1) % k, side)]));
      return { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/M0' } } } } } } } }, components: { schemas } };
    };
    const changes = classifyChanges(document('before'), document('after'));
    // One change per newer model reached (the same maxProperties change of Mj, whichever older model
    // it is paired with, is one item): M0 alone meets MAX_PAIRINGS of them.
    expect(changes.length).to.be.at.least(MAX_PAIRINGS);
    expect(new Set(changes.map((c) => c.pointer)).size).to.equal(changes.length);
    expect(changes.length).to.be.at.most(MAX_PAIRINGS * k);
  });

  it('still goes below a schema reached from many places too deep to go further, when a later place reaches it near', () => {
    // C0 -> ... -> C98 -> P: from C0, P is 99 schemas deep, the last compared; P's property q refers to Q.
    const document = (leaf: string): JsonObject => {
      const schemas: Json = { P: { type: 'object', properties: { q: { $ref: '#/components/schemas/Q' } } }, Q: { type: leaf } };
      for (let i = 0; i < 99; i++) schemas[`C${i}`] = { type: 'object', properties: { n: { $ref: `#/components/schemas/${i === 98 ? 'P' : `C${i + 1}`}` } } };
      const body = (model: string) => ({ description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${model}` } } } });
      // Eleven responses reach P through the chain first (MAX_OTHER_PLACES + 1 places), then /near reaches it directly.
      const responses = Object.fromEntries(Array.from({ length: MAX_OTHER_PLACES + 1 }, (_, i) => [String(200 + i), body('C0')]));
      return { openapi: '3.1.0', info: { title: 'deep', version: '1' }, paths: { '/deep': { get: { responses } }, '/near': { get: { responses: { '200': body('P') } } } }, components: { schemas } } as JsonObject;
    };
    const changes = classifyChanges(document('string'), document('integer'));
    expect(changes.map((c) => [c.rule, c.location.path, c.location.property])).to.deep.equal([['response-property-type-changed', '/near', 'q']]);
  });

  it('reports one item per direction for a chain of 24 models each referring twice to the next (2^24 paths to the leaf)', () => {
    const chain = (leaf: string): JsonObject => {
      const schemas: Json = {};
      for (let i = 0; i < 24; i++) schemas[`S${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/S${i + 1}` }, b: { $ref: `#/components/schemas/S${i + 1}` } } };
      schemas['S24'] = { type: 'object', properties: { leaf: { type: leaf } } };
      const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } };
      return { openapi: '3.1.0', info: { title: 'chain', version: '1' }, paths: { '/x': { put: { requestBody: body, responses: { '200': { description: 'ok', ...body } } } } }, components: { schemas } } as JsonObject;
    };
    const changes = classifyChanges(chain('string'), chain('integer'));
    expect(changes.map((c) => [c.rule, c.location.property])).to.deep.equal([
      ['request-property-type-changed', 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.leaf'],
      ['response-property-type-changed', 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.leaf'],
    ]);
  });

  it('reports each change of 20 models that all refer to each other once per direction, with at most MAX_OTHER_PLACES other places', () => {
    const k = 20;
    const graph: Graph = {
      edges: Array.from({ length: k }, () => Array.from({ length: k }, (_, j) => j)),
      leafType: Array.from({ length: k }, (_, i) => (i === k - 1 ? 'integer' : 'string')),
      dropped: new Set(),
      required: new Set(),
    };
    const operations = 30;
    const changes = classifyChanges(documentOf(graph, 'before', operations), documentOf(graph, 'after', operations));
    expect(changes.map((c) => c.rule)).to.deep.equal(['request-property-type-changed', 'response-property-type-changed']);
    expect(countChanges(changes)).to.deep.equal({ breaking: 2, warning: 0, info: 0 });
    for (const change of changes) {
      expect(change.location).to.include({ method: 'POST', path: '/things0', property: `to${k - 1}.leaf` });
      expect(change.alsoAt?.map((place) => place.path)).to.deep.equal(Array.from({ length: MAX_OTHER_PLACES }, (_, p) => `/things${p + 1}`));
    }
  });

  it('merges a diamond of allOf models once each: 16 levels of models merging the next six times (6^16 paths) beside a choice', () => {
    // Each level's allOf names the next level six times; the body is that graph and a oneOf. Merging
    // every path (6^16) never ended, nor did looking for the choice through every path.
    const api = (alternative: string): JsonObject => {
      const schemas: Json = { L16: { type: 'object', properties: { a: { type: 'string' } } } };
      for (let i = 15; i >= 0; i--) schemas[`L${i}`] = { allOf: Array.from({ length: 6 }, () => ({ $ref: `#/components/schemas/L${i + 1}` })) };
      schemas['Choice'] = { oneOf: [{ type: 'string' }, { type: alternative }] };
      schemas['Body'] = { allOf: [{ $ref: '#/components/schemas/L0' }, { $ref: '#/components/schemas/Choice' }] };
      const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } } };
      return { openapi: '3.0.3', info: { title: 'diamond', version: '1' }, paths: { '/x': { post: { requestBody: body, responses: { '200': { description: 'ok' } } } } }, components: { schemas } } as JsonObject;
    };
    expect(classifyChanges(api('integer'), api('boolean')).map((c) => c.rule)).to.deep.equal(['request-body-option-removed', 'request-body-option-added']);
  });
});
