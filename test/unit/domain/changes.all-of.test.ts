import { expect } from 'chai';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import type { Change } from '../../../src/domain/spec/changes/change.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { CHANGE_CASES, formsOf } from '../../support/change-cases.js';

/**
 * A schema asks what each of its keywords asks: written as the `allOf` of its keywords, one member
 * each, it takes the same values. So a client sees no change between the two, and a change made
 * inside a member is the change made to the schema itself. Keywords that read one another stay in
 * one member: `additionalProperties` judges what `properties` leaves, `items` holds after
 * `prefixItems`, `minContains` counts `contains`, `then` follows its `if`, 3.0's `nullable` and
 * boolean exclusive bounds belong to their `type` and bound, a discriminator to its `oneOf`.
 */
type Json = Record<string, unknown>;

const TOGETHER: readonly (readonly string[])[] = [
  ['type', 'nullable', 'x-nullable'],
  ['properties', 'patternProperties', 'additionalProperties'],
  ['prefixItems', 'items'],
  ['contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['maximum', 'exclusiveMaximum'],
  ['minimum', 'exclusiveMinimum'],
  ['oneOf', 'anyOf', 'discriminator'],
];
/** Keywords that stay where they are: references and what names a schema resource. */
const IN_PLACE = new Set(['$ref', '$dynamicRef', '$anchor', '$dynamicAnchor', '$id', '$defs', '$schema']);
/** Keywords whose meaning depends on what the schema's other members evaluate: such a schema is not split. */
const SEEING_THROUGH = ['unevaluatedProperties', 'unevaluatedItems'];
/** Where subschemas stand (not `if`: a condition is compared as it is written). */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'contains', 'not', 'then', 'else', 'propertyNames']);
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SUBSCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf', 'prefixItems']);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema as the `allOf` of its keywords (each group of TOGETHER in one member), its subschemas split likewise. */
function split(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const inner: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SUBSCHEMA.has(key)) inner[key] = split(value);
    else if (SUBSCHEMA_MAPS.has(key) && isObject(value)) inner[key] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, split(member)]));
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) inner[key] = value.map(split);
    else inner[key] = value;
  }
  if (SEEING_THROUGH.some((key) => key in inner)) return inner;
  const kept: Json = {};
  const members: Json[] = [];
  const placed = new Set<string>();
  for (const key of Object.keys(inner)) {
    if (placed.has(key)) continue;
    if (IN_PLACE.has(key)) {
      kept[key] = inner[key];
      continue;
    }
    const group = TOGETHER.find((keys) => keys.includes(key)) ?? [key];
    const member = Object.fromEntries(group.filter((k) => k in inner).map((k) => [k, inner[k]]));
    for (const k of Object.keys(member)) placed.add(k);
    members.push(member);
  }
  return members.length === 0 ? kept : { ...kept, allOf: members };
}

/** The document with each of its schemas split: a Schema Object's place (`schema`) and the models. */
function splitDocument(document: unknown, key = ''): unknown {
  if (key === 'schema') return split(document);
  if (Array.isArray(document)) return document.map((value) => splitDocument(value));
  if (!isObject(document)) return document;
  if (key === 'schemas') return Object.fromEntries(Object.entries(document).map(([name, schema]) => [name, split(schema)]));
  return Object.fromEntries(Object.entries(document).map(([name, value]) => [name, splitDocument(value, name)]));
}

/** What an item says, without the pointer (a keyword moved into a member is found there) and what is derived from it. */
const said = (changes: readonly Change[]) => changes.map((c) => ({ rule: c.rule, level: c.level, location: c.location, message: c.message, afterSunset: c.afterSunset, alsoAt: c.alsoAt }));

/** Each case once, as OpenAPI 3.0 (3.1 where it is written so): 2.0 takes allOf in bodies only. */
const OPEN_API_3 = CHANGE_CASES.map((c) => ({ rule: c.rule, ...formsOf(c)[0]! }));

const INFO = { title: 'Pets', version: '1.0.0' };
const answer = (schema: unknown, components: Json = {}) => ({ openapi: '3.1.0', info: INFO, paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } }, components }) as JsonObject;
const rules = (before: JsonObject, after: JsonObject) => classifyChanges(before, after).map((c) => `${c.rule} ${c.level} ${c.pointer}`);

describe('domain: the change classifier, a choice reached through allOf', () => {
  const cat = { type: 'object', required: ['kind', 'meows'], properties: { kind: { const: 'cat' }, meows: { type: 'boolean' } } };
  const dog = { type: 'object', required: ['kind', 'barks'], properties: { kind: { const: 'dog' }, barks: { type: 'boolean' } } };
  const models = { schemas: { Cat: cat, Dog: dog, Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] } } };
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it('a model wrapped into a choice through an allOf (a $ref given a description) is compared with its alternative: only the other one was added', () => {
    const added = ['response-body-option-added breaking /components/schemas/Pet/oneOf/1'];
    expect(rules(answer(ref('Cat'), models), answer(ref('Pet'), models))).to.deep.equal(added);
    expect(rules(answer(ref('Cat'), models), answer({ allOf: [ref('Pet')], description: 'the pet' }, models))).to.deep.equal(added);
    expect(rules(answer({ allOf: [ref('Pet')], description: 'the pet' }, models), answer(ref('Cat'), models))).to.deep.equal(['response-body-option-removed info /components/schemas/Pet/oneOf/1']);
  });

  it('however deep the member that holds the choice, and whatever it asks beside it', () => {
    const added = ['response-body-option-added breaking /components/schemas/Pet/oneOf/1'];
    expect(rules(answer(ref('Cat'), models), answer({ allOf: [{ allOf: [ref('Pet')] }] }, models))).to.deep.equal(added);
    const anyPet = { schemas: { ...models.schemas, Pet: { anyOf: models.schemas.Pet.oneOf } } };
    expect(rules(answer(ref('Cat'), anyPet), answer({ allOf: [{ $ref: '#/components/schemas/Missing' }, ref('Pet')] }, anyPet))).to.deep.equal(['response-body-option-added breaking /components/schemas/Pet/anyOf/1']);
    const limited = { schemas: { ...models.schemas, Limited: { allOf: [ref('Pet')], maxProperties: 5 } } };
    expect(rules(answer(ref('Cat'), limited), answer({ allOf: [{ type: 'object' }, ref('Limited')] }, limited))).to.deep.equal([...added, 'response-body-max-decreased info /components/schemas/Pet/oneOf/0']);
  });

  it('an alternative written in place keeps its own pointers when nothing stands beside the choice', () => {
    const tagged = { ...cat, properties: { ...cat.properties, tag: { type: 'string' } } };
    expect(rules(answer(cat), answer({ allOf: [{ oneOf: [tagged, dog] }], description: 'the pet', 'x-order': 1 }))).to.deep.equal([
      'response-body-option-added breaking /paths/~1pets/get/responses/200/content/application~1json/schema/allOf/0/oneOf/1',
      'response-property-added info /paths/~1pets/get/responses/200/content/application~1json/schema/allOf/0/oneOf/0/properties/tag',
    ]);
  });

  it('a choice past the merge depth is not the one the view takes: the one it takes is left out', () => {
    const nested = (depth: number, innermost: unknown): unknown => (depth === 0 ? innermost : { allOf: [nested(depth - 1, innermost)] });
    const far = { oneOf: [ref('Dog'), { type: 'string' }] };
    expect(rules(answer(ref('Cat'), models), answer({ allOf: [nested(16, far), ref('Pet')] }, models))).to.deep.equal(['response-body-option-added breaking /components/schemas/Pet/oneOf/1']);
  });

  it('what the other allOf members ask holds for the alternative, not the choice itself', () => {
    expect(rules(answer(ref('Cat'), models), answer({ allOf: [{ maxProperties: 5 }, ref('Pet')] }, models))).to.deep.equal([
      'response-body-option-added breaking /components/schemas/Pet/oneOf/1',
      'response-body-max-decreased info /components/schemas/Pet/oneOf/0',
    ]);
  });
});

const body = (schema: unknown) =>
  ({ openapi: '3.1.0', info: INFO, paths: { '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } } }) as JsonObject;

describe('domain: the change classifier, the merged view of allOf members that ask the same keyword', () => {
  it('a value meets every maximum and minimum: a looser one beside a tighter one changes nothing', () => {
    expect(rules(body({ type: 'string', allOf: [{ maxLength: 100 }, { maxLength: 50 }] }), body({ type: 'string', maxLength: 50 }))).to.deep.equal([]);
    expect(rules(body({ type: 'string', allOf: [{ minLength: 1 }, { minLength: 5 }] }), body({ type: 'string', minLength: 5 }))).to.deep.equal([]);
    expect(rules(body({ type: 'array', maxItems: 10, allOf: [{ maxItems: 3 }] }), body({ type: 'array', maxItems: 3 }))).to.deep.equal([]);
  });
  it('so the tighter one lowered in its member is a maximum lowered, breaking a request', () => {
    const before = body({ type: 'string', allOf: [{ maxLength: 100 }, { maxLength: 50 }] });
    const after = body({ type: 'string', allOf: [{ maxLength: 100 }, { maxLength: 20 }] });
    expect(classifyChanges(before, after).map((c) => [c.rule, c.level, c.message])).to.deep.equal([
      ['request-body-max-decreased', 'breaking', 'POST /pets, request body (application/json): a maximum was lowered (maxLength 50 to 20).'],
    ]);
    expect(rules(body({ type: 'object', allOf: [{ minProperties: 2 }, { minProperties: 1 }] }), body({ type: 'object', allOf: [{ minProperties: 3 }, { minProperties: 1 }] }))).to.deep.equal([
      'request-body-min-increased breaking /paths/~1pets/post/requestBody/content/application~1json/schema',
    ]);
  });
});

describe('domain: the change classifier, a keyword asked only by an allOf member', () => {
  const said = (before: unknown, after: unknown) => classifyChanges(body(before), body(after)).map((c) => `${c.rule} ${c.level}${c.location.property === undefined ? '' : ` ${c.location.property}`}`);
  it('types: members of integer and number take integers, of string and boolean nothing', () => {
    expect(said({ type: 'integer' }, { allOf: [{ type: 'integer' }, { type: 'number' }] })).to.deep.equal([]);
    expect(said({ type: 'integer' }, { allOf: [{ type: 'number' }, { type: 'integer' }] })).to.deep.equal([]);
    expect(said({ type: 'string' }, { allOf: [{ type: 'string' }, { type: 'boolean' }] })).to.deep.equal(['request-body-type-narrowed breaking']);
  });
  it('a tuple position, a then, propertyNames, unevaluated items and properties, contentSchema: each narrowed inside its member breaks a request', () => {
    const member = (type: string, keyword: string, before: unknown, after: unknown) => [{ type, allOf: [{ [keyword]: before }] }, { type, allOf: [{ [keyword]: after }] }] as const;
    const text = { type: 'string' };
    const short = { type: 'string', maxLength: 3 };
    expect(said(...member('array', 'prefixItems', [text], [short]))).to.deep.equal(['request-property-max-decreased breaking [0]']);
    expect(said(...member('object', 'propertyNames', { maxLength: 5 }, { maxLength: 3 }))).to.deep.equal(['request-property-max-decreased breaking (propertyNames)']);
    expect(said(...member('object', 'unevaluatedProperties', text, short))).to.deep.equal(['request-property-max-decreased breaking (unevaluatedProperties)']);
    expect(said(...member('array', 'unevaluatedItems', text, short))).to.deep.equal(['request-property-max-decreased breaking (unevaluatedItems)']);
    const card = (required: string[]) => ({ type: 'object', allOf: [{ if: { required: ['card'] }, then: { required } }] });
    expect(said(card(['number']), card(['number', 'expiry']))).to.deep.equal(['request-property-became-required breaking (then).expiry']);
    const json = (required: string[]) => ({ type: 'string', allOf: [{ contentMediaType: 'application/json', contentSchema: { type: 'object', required } }] });
    expect(said(json([]), json(['a']))).to.deep.equal(['request-property-became-required breaking (contentSchema).a']);
  });
});

describe('domain: the change classifier, allOf members followed through references', () => {
  const named = (extra: Json = {}) => ({ type: 'object', properties: { name: { type: 'string' } }, ...extra });
  it('a property required by a member nested 16 allOf deep is seen; one 17 deep is past the merge and left out', () => {
    const nested = (depth: number, innermost: unknown): unknown => (depth === 0 ? innermost : { allOf: [nested(depth - 1, innermost)] });
    expect(rules(body(nested(16, named())), body(nested(16, named({ required: ['name'] }))))).to.deep.equal([
      `request-property-became-required breaking /paths/~1pets/post/requestBody/content/application~1json/schema${'/allOf/0'.repeat(16)}/properties/name`,
    ]);
    expect(rules(body(nested(17, named())), body(nested(17, named({ required: ['name'] }))))).to.deep.equal([]);
  });
  it('models that merge each other in (A allOf B, B allOf A) are each merged once: a property added to either is one change', () => {
    const models = (b: Json) => ({ schemas: { A: { allOf: [{ $ref: '#/components/schemas/B' }], ...named() }, B: { allOf: [{ $ref: '#/components/schemas/A' }], ...b } } });
    const api = (b: Json) => answer({ $ref: '#/components/schemas/A' }, models(b));
    expect(rules(api({ type: 'object' }), api({ type: 'object' }))).to.deep.equal([]);
    expect(rules(api({ type: 'object' }), api({ type: 'object', properties: { tag: { type: 'string' } } }))).to.deep.equal(['response-property-added info /components/schemas/B/properties/tag']);
  });
  it('a diamond of members (12 levels, each merging the next four times: 4^12 paths) is merged once per model, its deepest model seen', () => {
    const models = (leaf: Json) => {
      const schemas: Json = { L12: named(leaf) };
      for (let i = 11; i >= 0; i--) schemas[`L${i}`] = { allOf: Array.from({ length: 4 }, () => ({ $ref: `#/components/schemas/L${i + 1}` })) };
      return { schemas };
    };
    const api = (leaf: Json) => answer({ $ref: '#/components/schemas/L0' }, models(leaf));
    expect(rules(api({}), api({ properties: { name: { type: 'integer' } } }))).to.deep.equal(['response-property-type-changed breaking /components/schemas/L12/properties/name']);
  });
  it('a model first reached at the end of the merge depth, and again nearer, is merged from the nearer place: its own members are seen', () => {
    const models = (inner: Json) => {
      const schemas: Json = { M: { allOf: [{ $ref: '#/components/schemas/N' }] }, N: named(inner) };
      for (let i = 1; i <= 15; i++) schemas[`L${i}`] = { allOf: [{ $ref: i === 15 ? '#/components/schemas/M' : `#/components/schemas/L${i + 1}` }] };
      return { schemas };
    };
    const api = (inner: Json) => answer({ allOf: [{ $ref: '#/components/schemas/L1' }, { $ref: '#/components/schemas/M' }] }, models(inner));
    expect(rules(api({}), api({ properties: { name: { type: 'integer' } } }))).to.deep.equal(['response-property-type-changed breaking /components/schemas/N/properties/name']);
  });
  it('a choice first reached at the end of the merge depth, and again nearer, is the one compared: only the alternative replaced is a change', () => {
    const models = (alternative: string) => {
      const schemas: Json = { M: { allOf: [{ $ref: '#/components/schemas/C' }] }, C: { oneOf: [{ type: 'string' }, { type: alternative }] } };
      for (let i = 1; i <= 15; i++) schemas[`L${i}`] = { allOf: [{ $ref: i === 15 ? '#/components/schemas/M' : `#/components/schemas/L${i + 1}` }] };
      return { schemas };
    };
    const api = (alternative: string) => answer({ allOf: [{ $ref: '#/components/schemas/L1' }, { $ref: '#/components/schemas/M' }] }, models(alternative));
    expect(rules(api('integer'), api('boolean'))).to.deep.equal(['response-body-option-removed info /components/schemas/C/oneOf/1', 'response-body-option-added breaking /components/schemas/C/oneOf/1']);
  });
  it('a member whose reference leads nowhere is left out of the merge, the others kept', () => {
    const before = body({ allOf: [{ $ref: '#/components/schemas/Missing' }, named()] });
    expect(rules(before, body({ allOf: [{ $ref: '#/components/schemas/Missing' }, named({ required: ['name'] })] }))).to.deep.equal([
      'request-property-became-required breaking /paths/~1pets/post/requestBody/content/application~1json/schema/allOf/1/properties/name',
    ]);
  });
});

describe('domain: the change classifier, schemas written as the allOf of their keywords', () => {
  it('splits a schema into members as the tests below read it', () => {
    expect(split({ type: 'object', nullable: true, required: ['a'], properties: { a: { type: 'string', maxLength: 3 } }, additionalProperties: false })).to.deep.equal({
      allOf: [{ type: 'object', nullable: true }, { required: ['a'] }, { properties: { a: { allOf: [{ type: 'string' }, { maxLength: 3 }] } }, additionalProperties: false }],
    });
    expect(split({ $ref: '#/components/schemas/Pet' })).to.deep.equal({ $ref: '#/components/schemas/Pet' });
  });

  for (const form of OPEN_API_3) {
    describe(`${form.rule} [${form.format}]`, () => {
      it('finds no change between each document and the same with its schemas split', () => {
        for (const document of [form.before, form.after, form.not.before, form.not.after]) {
          expect(said(classifyChanges(document as JsonObject, splitDocument(document) as JsonObject))).to.deep.equal([]);
          expect(said(classifyChanges(splitDocument(document) as JsonObject, document as JsonObject)), 'split first').to.deep.equal([]);
        }
      });

      it('reports a change made inside the members as the same change made to the schema, and the change beside it likewise', () => {
        const [before, after] = [splitDocument(form.before) as JsonObject, splitDocument(form.after) as JsonObject];
        expect(said(classifyChanges(before, after))).to.deep.equal(said(classifyChanges(form.before as JsonObject, form.after as JsonObject)));
        const [notBefore, notAfter] = [splitDocument(form.not.before) as JsonObject, splitDocument(form.not.after) as JsonObject];
        expect(said(classifyChanges(notBefore, notAfter)), 'the change beside it').to.deep.equal(said(classifyChanges(form.not.before as JsonObject, form.not.after as JsonObject)));
      });
    });
  }
});
