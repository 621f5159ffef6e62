import { expect } from 'chai';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describeApi } from '../../../src/domain/spec/api-description.js';
import { describeReference, type TypeRef } from '../../../src/domain/spec/api-reference.js';
import { deriveResources } from '../../../src/domain/spec/derived-resources.js';
import { follow, pointer, References } from '../../../src/domain/spec/json-pointer.js';
import { isOfKind, type ReferenceKind } from '../../../src/domain/spec/reference-kinds.js';
import type { JsonObject, JsonValue, SpecFormat } from '../../../src/domain/spec/spec-document.js';
import { FIXTURES, OPENAPI_FIXTURES, packageFixture, swaggerFixture, type SpecFixture } from '../../support/fixtures.js';

const documentOf = (fixture: SpecFixture): JsonObject =>
  (fixture.syntax === 'json' ? JSON.parse(fixture.bytes.toString('utf8')) : parseYaml(fixture.bytes.toString('utf8'), { maxAliasCount: -1 })) as JsonObject;

/** Every `reference` a type summary holds. */
function references(type: TypeRef): string[] {
  switch (type.kind) {
    case 'reference':
      return [type.ref];
    case 'array':
      return references(type.items);
    case 'map':
      return references(type.values);
    case 'union':
      return type.options.flatMap(references);
    default:
      return [];
  }
}

const INFO = { title: 'T', version: '1', description: 'About' };
const SCHEMA = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

describe('references to things of the wrong kind', () => {
  describe('isOfKind', () => {
    const cases: [ReferenceKind, SpecFormat, JsonValue, boolean][] = [
      ['parameter', 'openapi-3.0', { name: 'id', in: 'query', schema: { type: 'integer' } }, true],
      ['parameter', 'openapi-3.0', SCHEMA, false],
      ['parameter', 'openapi-3.0', INFO, false],
      ['parameter', 'openapi-3.0', 'a title', false],
      ['parameter', 'openapi-3.0', [{ name: 'pets' }], false],
      ['parameter', 'openapi-3.0', { name: 'pets', description: 'a tag' }, false],
      ['parameter', 'openapi-3.0', { name: 'id', in: 'formData', type: 'string' }, false],
      ['parameter', 'swagger-2.0', { name: 'id', in: 'formData', type: 'string' }, true],
      ['parameter', 'swagger-2.0', { name: 'body', in: 'body', schema: SCHEMA, 'x-note': 1 }, true],
      ...(['query', 'header', 'path'] as const).flatMap((place): [ReferenceKind, SpecFormat, JsonValue, boolean][] => [
        ['parameter', 'openapi-3.0', { name: 'id', in: place, schema: { type: 'integer' } }, true],
        ['parameter', 'swagger-2.0', { name: 'id', in: place, type: 'integer' }, true],
      ]),
      ['parameter', 'openapi-3.1', { name: 'id', in: 'cookie', schema: { type: 'integer' } }, true],
      ['parameter', 'swagger-2.0', { name: 'id', in: 'cookie', type: 'integer' }, false],
      ['parameter', 'openapi-3.0', { name: 7, in: 'query', schema: { type: 'integer' } }, false],
      ['parameter', 'swagger-2.0', { name: 7, in: 'query', type: 'integer' }, false],
      ['parameter', 'swagger-2.0', { in: 'query', type: 'integer' }, false],
      ['response', 'openapi-3.1', { description: 'ok', content: {} }, true],
      ['response', 'openapi-3.1', INFO, false],
      ['response', 'openapi-3.1', { description: 'not found', schema: SCHEMA }, false],
      ['response', 'swagger-2.0', { description: 'not found', schema: SCHEMA }, true],
      ['response', 'swagger-2.0', SCHEMA, false],
      ['response', 'openapi-3.0', { content: {} }, false],
      ['response', 'swagger-2.0', { description: 7, schema: SCHEMA }, false],
      ['requestBody', 'openapi-3.0', { content: { 'application/json': {} } }, true],
      ['requestBody', 'openapi-3.0', { name: 'limit', in: 'query', schema: { type: 'integer' } }, false],
      ['header', 'openapi-3.0', { schema: { type: 'integer' } }, true],
      ['header', 'openapi-3.0', [{ url: '/' }], false],
      ['header', 'openapi-3.0', SCHEMA, false],
      ['pathItem', 'openapi-3.1', { summary: 'S', get: {}, trace: {} }, true],
      ['pathItem', 'swagger-2.0', { get: {}, trace: {} }, false],
      ['pathItem', 'openapi-3.1', SCHEMA, false],
      ['pathItem', 'openapi-3.1', { openapi: '3.1.0', info: INFO, paths: {} }, false],
      ['securityScheme', 'openapi-3.0', { type: 'http', scheme: 'bearer' }, true],
      ['securityScheme', 'openapi-3.0', { type: 'apiKey', name: 'key', in: 'header' }, true],
      ['securityScheme', 'openapi-3.0', { type: 'oauth2', flows: {} }, true],
      ['securityScheme', 'openapi-3.0', { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com' }, true],
      ['securityScheme', 'openapi-3.1', { type: 'mutualTLS' }, true],
      ['securityScheme', 'openapi-3.0', { type: 'basic' }, false],
      ['securityScheme', 'openapi-3.0', SCHEMA, false],
      ['securityScheme', 'openapi-3.0', 'Wrong kinds', false],
      ['schema', 'swagger-2.0', SCHEMA, true],
      ['schema', 'swagger-2.0', { name: 'limit', in: 'query', type: 'integer' }, false],
      ['schema', 'openapi-3.0', { '/a': { get: {} } }, false],
      ['schema', 'openapi-3.0', { oneOf: [], nullable: true, 'x-tag': 1 }, true],
      ['schema', 'openapi-3.1', { '/a': { get: {} } }, true],
      ['schema', 'openapi-3.1', true, true],
      ['schema', 'openapi-3.1', 'a title', false],
      ['schema', 'openapi-3.1', [SCHEMA], false],
    ];
    for (const [kind, format, value, expected] of cases) {
      it(`${format}: ${JSON.stringify(value).slice(0, 60)} ${expected ? 'is' : 'is not'} a ${kind}`, () => {
        expect(isOfKind(kind, format, value)).to.equal(expected);
      });
    }
  });

  describe('follow', () => {
    const document: JsonObject = { info: INFO, a: { $ref: '#/b' }, b: { $ref: '#/info' }, c: { $ref: '#/info/title' } };
    const isObject = (value: JsonValue) => typeof value === 'object' && value !== null && !Array.isArray(value);

    it('judges only where a chain ends, and names the last reference, where it stands', () => {
      expect(follow(document, { $ref: '#/a' }, '/here', isObject)).to.deep.equal({ value: INFO, ref: null, at: '/info' });
      expect(follow(document, { $ref: '#/a' }, '/here', () => false)).to.deep.equal({ value: undefined, ref: '#/info', at: '/b' });
      expect(follow(document, { $ref: '#/c' }, '/here', isObject)).to.deep.equal({ value: undefined, ref: '#/info/title', at: '/c' });
    });

    it('never judges a value written in place', () => {
      expect(follow(document, 'as written', '/here', () => false)).to.deep.equal({ value: 'as written', ref: null, at: '/here' });
    });

    /** The chain walked from its start alone, one step at a time: what `follow` answered before chains were shared. */
    function walked(doc: JsonObject, value: JsonValue, at: string, accepts: (target: JsonValue) => boolean) {
      const seen = new Set<string>();
      let [current, where, last] = [value as JsonValue | undefined, at, null as { ref: string; at: string } | null];
      for (let ref = refOf(current); ref !== null; ref = refOf(current)) {
        if (seen.has(ref)) return { value: undefined, ref, at: where, cycle: true };
        seen.add(ref);
        current = pointer(doc, ref);
        if (current === undefined) return { value: undefined, ref, at: where, cycle: false };
        [last, where] = [{ ref, at: where }, ref.slice(1)];
      }
      if (last !== null && current !== undefined && !accepts(current)) return { value: undefined, ref: last.ref, at: last.at, cycle: false };
      return { value: current, ref: null, at: where, cycle: false };
    }
    const refOf = (value: JsonValue | undefined) => (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value['$ref'] === 'string' ? value['$ref'] : null);

    it('answers as the chain walked alone, whatever was followed before in the document (a cycle names one of its references)', () => {
      // Nodes n0..n(k-1), each a reference to another node, to nowhere, or a value (some refused); looked up in any order.
      const node = (k: number) => fc.oneof(fc.nat(k - 1).map((j) => ({ $ref: `#/n${j}` })), fc.constant({ $ref: '#/nowhere' }), fc.nat(9).map((v) => ({ v })));
      const graph = fc.integer({ min: 1, max: 8 }).chain((k) => fc.tuple(fc.array(node(k), { minLength: k, maxLength: k }), fc.array(fc.nat(k - 1), { minLength: 1, maxLength: 20 })));
      fc.assert(
        fc.property(graph, ([nodes, starts]) => {
          const doc: JsonObject = Object.fromEntries(nodes.map((n, i) => [`n${i}`, n]));
          const accepts = (target: JsonValue) => (target as { v: number }).v !== 3;
          const shared = new References(doc);
          for (const i of starts) {
            const start = { $ref: `#/n${i}` };
            const expected = walked(doc, start, '/start', accepts);
            const actual = shared.follow(start, '/start', accepts);
            if (expected.cycle) {
              expect(actual.value).to.equal(undefined);
              // A reference of the cycle: followed, it comes back to itself.
              let next = refOf(pointer(doc, actual.ref!));
              for (let hops = 0; next !== null && next !== actual.ref && hops < nodes.length; hops++) next = refOf(pointer(doc, next));
              expect(next, `${actual.ref} is on a cycle`).to.equal(actual.ref);
            } else {
              expect(actual).to.deep.equal({ value: expected.value, ref: expected.ref, at: expected.at });
            }
          }
        }),
        { numRuns: 500 },
      );
    });

    it('walks a chain once however many places refer into it: 2,000 starts along a chain of 2,000 read each node once, entered from its start or its end (K x N before)', () => {
      const n = 2000;
      const nodes: JsonObject = Object.fromEntries(Array.from({ length: n }, (_, i) => [`n${i}`, i === n - 1 ? { v: 1 } : { $ref: `#/n${i + 1}` }]));
      // From the start, every later start is known; from the end, each start walks one step to a known one.
      for (const order of ['from the start', 'from the end']) {
        let reads = 0;
        // Counts the document's nodes read: a count, unlike a time, that no busy machine moves.
        const doc = new Proxy(nodes, { get: (target, key) => ((reads += 1), Reflect.get(target, key) as unknown) });
        const shared = new References(doc);
        for (let k = 0; k < n; k++) {
          const i = order === 'from the start' ? k : n - 1 - k;
          expect(shared.follow({ $ref: `#/n${i}` }).at).to.equal(`/n${n - 1}`);
        }
        expect(reads, order).to.equal(n);
      }
    });
  });

  describe('the real-world documents (Swagger 2.0 and OpenAPI 3.x fixtures)', () => {
    const fixtures = [...FIXTURES.map((file) => swaggerFixture(file)), ...OPENAPI_FIXTURES.map((path) => packageFixture(path))];
    for (const fixture of fixtures) {
      it(`${fixture.name}: every reference leads to a thing of its kind, so nothing reads as unresolved`, function () {
        this.timeout(60_000);
        const document = documentOf(fixture);
        const api = describeApi(document);
        for (const op of [...api.operations, ...api.webhooks]) {
          expect(op.parameters.filter((p) => p.ref !== null).map((p) => p.ref), `${op.method} ${op.path}`).to.deep.equal([]);
          expect(op.responses.filter((r) => r.ref !== null).map((r) => r.ref), `${op.method} ${op.path}`).to.deep.equal([]);
          expect(op.requestBody?.ref ?? null, `${op.method} ${op.path}`).to.equal(null);
        }
        const derived = deriveResources(document);
        const unresolved = [...derived.endpoints, ...derived.models, ...derived.authAdapters].filter((r) => 'unresolved' in r && r.unresolved);
        expect(unresolved).to.deep.equal([]);
        const reference = describeReference(document);
        const types = [
          ...[...reference.groups.flatMap((g) => g.operations), ...reference.webhooks].flatMap((op) => [
            ...op.parameters.map((p) => p.type),
            ...[...(op.requestBody?.contents ?? []), ...op.responses.flatMap((r) => r.contents)].flatMap((c) => [c.type, ...c.properties.map((p) => p.type)]),
          ]),
          ...reference.models.flatMap((m) => [m.type, ...m.extends, ...m.properties.map((p) => p.type)]),
        ];
        expect(types.flatMap(references)).to.deep.equal([]);
      });
    }
  });

  describe("the reader's reference of hostile chains and fans of references that name no model", () => {
    const withSchema = (schema: JsonObject, extra: JsonObject): JsonObject => ({
      openapi: '3.0.3',
      info: INFO,
      paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
      components: { schemas: { Pet: SCHEMA } },
      ...extra,
    });

    it('reads a chain of 12,000 references without a call per link (it overflowed the stack), each link read once, and stops at the budget', () => {
      const n = 12_000;
      const chain = Array.from({ length: n }, (_, i) => (i === n - 1 ? { $ref: '#/components/schemas/Pet' } : { $ref: `#/x-chain/${i + 1}` }));
      const linksRead: string[] = [];
      // Counts the links read: a bound on the work done that, unlike a time, no busy machine moves.
      const counted = new Proxy(chain, { get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) && linksRead.push(key), Reflect.get(target, key) as unknown) });
      const reference = describeReference(withSchema({ $ref: '#/x-chain/0' }, { 'x-chain': counted }));
      const type = reference.groups[0]!.operations[0]!.responses[0]!.contents[0]!.type;
      expect(new Set(linksRead).size, 'no link read twice').to.equal(linksRead.length);
      expect(linksRead.length, 'the chain is not walked to its end').to.be.below(n);
      expect(type, 'past the budget, the first link not read is left as a reference').to.deep.equal({ kind: 'reference', ref: `#/x-chain/${linksRead.length}` });
    });

    it('reads arrays nested through 12,000 references no deeper than 32 types', () => {
      const n = 12_000;
      const chain = Array.from({ length: n }, (_, i) => ({ type: 'array', items: { $ref: `#/x-chain/${(i + 1) % n}` } }));
      const type = describeReference(withSchema({ $ref: '#/x-chain/0' }, { 'x-chain': chain })).groups[0]!.operations[0]!.responses[0]!.contents[0]!.type;
      let depth = 0;
      for (let t: TypeRef = type; t.kind === 'array'; t = t.items) depth++;
      expect(depth).to.be.within(1, 32);
    });

    it('yields types linear in the document for a fan of 2,000 alternatives referring to 2,000 referring back (4,000,000 before)', () => {
      const width = 2000;
      let reads = 0;
      // Counts the reads of the alternatives: the work done, where the text below is the work yielded.
      const alternative = (to: string) => new Proxy({ $ref: `#/x-fan/${to}` }, { get: (target, key) => ((reads += 1), Reflect.get(target, key) as unknown) });
      const fan = (to: string) => ({ oneOf: Array.from({ length: width }, () => alternative(to)) });
      const document = withSchema({ $ref: '#/x-fan/A' }, { 'x-fan': { A: fan('B'), B: fan('A') } });
      const text = JSON.stringify(describeReference(document));
      expect(reads, 'reads of the 4,000 alternatives').to.be.below(10 * 2 * width);
      expect(text.length).to.be.below(10 * JSON.stringify(document).length);
    });
  });
});
