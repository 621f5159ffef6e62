import { expect } from 'chai';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';

/**
 * What the classifier decides beyond one rule per keyword: parameters read as text on the wire,
 * keywords that cannot apply to a type, tuples by position, references to anchors, schemas moved
 * into or out of a oneOf, what `not` and `then` hold. Each verdict follows from "would a client
 * written against the older document fail against the newer?".
 */
type Json = Record<string, unknown>;

const INFO = { title: 'Pets', version: '1.0.0' };

function v31(paths: Json, components: Json = {}): JsonObject {
  return { openapi: '3.1.0', info: INFO, paths, components } as JsonObject;
}

const query = (schema: unknown) => v31({ '/pets': { get: { parameters: [{ name: 'limit', in: 'query', schema }], responses: { '200': { description: 'ok' } } } } });
const body = (schema: unknown, components: Json = {}) =>
  v31({ '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok' } } } } }, components);
const answer = (schema: unknown, components: Json = {}) => v31({ '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } }, components);

const rules = (before: JsonObject, after: JsonObject) => classifyChanges(before, after).map((c) => `${c.rule} ${c.level}${c.location.property === undefined ? '' : ` ${c.location.property}`}`);

describe('domain: the change classifier, keyword by keyword', () => {
  describe('a parameter travels as text', () => {
    it('integer to string widens what a query parameter takes (every integer is a text): information', () => {
      expect(rules(query({ type: 'integer' }), query({ type: 'string' }))).to.deep.equal(['request-parameter-type-widened info']);
    });
    it('string to integer narrows it: breaking', () => {
      expect(rules(query({ type: 'string' }), query({ type: 'integer' }))).to.deep.equal(['request-parameter-type-narrowed breaking']);
    });
    it('an enum of integers and one of their texts are the same values there', () => {
      expect(rules(query({ type: 'integer', enum: [10, 20] }), query({ type: 'string', enum: ['10', '20'] }))).to.deep.equal([]);
      expect(rules(query({ type: 'integer', enum: [10, 20] }), query({ type: 'string', enum: ['10'] }))).to.deep.equal(['request-parameter-enum-value-removed breaking']);
    });
    it('in a JSON body the same change is another type altogether: breaking both ways', () => {
      expect(rules(body({ type: 'integer' }), body({ type: 'string' }))).to.deep.equal(['request-body-type-changed breaking']);
      expect(rules(body({ type: 'string' }), body({ type: 'integer' }))).to.deep.equal(['request-body-type-changed breaking']);
    });
  });

  describe('a keyword that cannot apply to the type changes nothing', () => {
    it('maxLength on an integer, maxItems on a string, pattern on a number, properties on an array', () => {
      expect(rules(body({ type: 'integer', maxLength: 10 }), body({ type: 'integer', maxLength: 2 }))).to.deep.equal([]);
      expect(rules(body({ type: 'string', maxItems: 10 }), body({ type: 'string', maxItems: 2 }))).to.deep.equal([]);
      expect(rules(body({ type: 'number', pattern: '^1' }), body({ type: 'number', pattern: '^2' }))).to.deep.equal([]);
      expect(rules(body({ type: 'array', properties: { a: { type: 'string' } } }), body({ type: 'array', required: ['a'], properties: { a: { type: 'integer' } } }))).to.deep.equal([]);
    });
    it('no type is any type, whatever stands beside it: properties alone take strings and arrays too', () => {
      expect(rules(body({ properties: {} }), body({ properties: {}, minItems: 3 }))).to.deep.equal(['request-body-min-increased breaking']);
      expect(rules(answer({ type: 'object', properties: {} }), answer({ properties: {} }))).to.deep.equal(['response-body-type-widened breaking']);
    });
    it('a listed value of a type the schema does not take never passes: a type change beside an enum removes its values', () => {
      expect(rules(body({ type: 'number', enum: [1, 2] }), body({ type: 'boolean', enum: [1, 2] }))).to.deep.equal(['request-body-enum-value-removed breaking', 'request-body-enum-value-removed breaking']);
    });
    it('listed values have their own types: properties required beside const 0 constrain nothing, a type beside them changes nothing', () => {
      expect(rules(body({ const: 0 }), body({ const: 0, properties: { a: { type: 'string' } }, required: ['a'] }))).to.deep.equal([]);
      expect(rules(answer({ type: 'string', const: 'b' }), answer({ const: 'b' }))).to.deep.equal([]);
    });
    it('a not that excludes only types the schema does not take changes nothing', () => {
      expect(rules(body({ type: 'string' }), body({ type: 'string', not: { type: 'integer' } }))).to.deep.equal([]);
      expect(rules(body({ type: 'string' }), body({ type: 'string', not: { type: 'string', maxLength: 0 } }))).to.deep.equal(['request-body-not-widened breaking']);
      expect(rules(body({ type: 'string' }), body({ type: 'string', not: { type: ['string', 'integer'], maxLength: 0 } }))).to.deep.equal(['request-body-not-widened breaking']);
      expect(rules(body({ type: 'integer' }), body({ type: 'integer', not: { type: 'number', minimum: 5 } }))).to.deep.equal(['request-body-not-widened breaking']);
    });
    it('while with any type every keyword applies', () => {
      expect(rules(body({ maxLength: 10 }), body({ maxLength: 2 }))).to.deep.equal(['request-body-max-decreased breaking']);
    });
  });

  describe('tuples: prefixItems by position, items for the rest', () => {
    it('a position whose schema narrows breaks a request, at that position', () => {
      const before = body({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] });
      const after = body({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] });
      expect(rules(before, after)).to.deep.equal(['request-property-type-narrowed breaking [1]']);
    });
    it('items: false after the prefix refuses what came after it', () => {
      const before = body({ type: 'array', prefixItems: [{ type: 'string' }] });
      const after = body({ type: 'array', prefixItems: [{ type: 'string' }], items: false });
      expect(rules(before, after)).to.deep.equal(['request-property-type-narrowed breaking []']);
    });
    it('a position added to the prefix is judged against the items that held there before', () => {
      const before = body({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string' } });
      const after = body({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], items: { type: 'string' } });
      expect(rules(before, after)).to.deep.equal([]);
    });
  });

  describe('what an array holds and what a map holds are compared too', () => {
    const list = (items?: Json) => ({ type: 'array', ...(items === undefined ? {} : { items }) });
    const map = (additionalProperties?: Json | boolean) => ({ type: 'object', ...(additionalProperties === undefined ? {} : { additionalProperties }) });
    it('a change inside items is reported at [], by the direction of the data', () => {
      expect(rules(body(list({ type: 'string' })), body(list({ type: 'string', maxLength: 5 })))).to.deep.equal(['request-property-max-decreased breaking []']);
      expect(rules(answer(list({ type: 'string', enum: ['a'] })), answer(list({ type: 'string', enum: ['a', 'b'] })))).to.deep.equal(['response-property-enum-value-added breaking []']);
    });
    it('items set where there were none take fewer values than any: a request breaks; left out, a response does', () => {
      expect(rules(body(list()), body(list({ type: 'string' })))).to.deep.equal(['request-property-type-narrowed breaking []']);
      expect(rules(answer(list({ type: 'string' })), answer(list()))).to.deep.equal(['response-property-type-widened breaking []']);
    });
    it('a change inside the additionalProperties schema is reported at {}', () => {
      expect(rules(body(map({ type: 'string' })), body(map({ type: 'string', maxLength: 5 })))).to.deep.equal(['request-property-max-decreased breaking {}']);
    });
    it('an additionalProperties schema set where any value was taken narrows the values of unlisted properties; left out, it widens them', () => {
      expect(rules(body(map()), body(map({ type: 'integer' })))).to.deep.equal(['request-property-type-narrowed breaking {}']);
      expect(rules(body(map(true)), body(map({ type: 'integer' })))).to.deep.equal(['request-property-type-narrowed breaking {}']);
      expect(rules(answer(map({ type: 'integer' })), answer(map()))).to.deep.equal(['response-property-type-widened breaking {}']);
    });
    it('unlisted properties allowed or refused altogether is that change alone, not one of their values', () => {
      expect(rules(body(map(false)), body(map({ type: 'string' })))).to.deep.equal(['request-body-additional-properties-added info']);
      expect(rules(body(map({ type: 'string' })), body(map(false)))).to.deep.equal(['request-body-additional-properties-removed breaking']);
    });
  });

  describe('a limit set where there was none is a limit lowered (or raised) from no limit', () => {
    it('maxLength or maxItems set narrows: breaking in a request, not in a response', () => {
      expect(rules(body({ type: 'string' }), body({ type: 'string', maxLength: 10 }))).to.deep.equal(['request-body-max-decreased breaking']);
      expect(rules(answer({ type: 'string' }), answer({ type: 'string', maxLength: 10 }))).to.deep.equal(['response-body-max-decreased info']);
      expect(rules(body({ type: 'array' }), body({ type: 'array', maxItems: 3 }))).to.deep.equal(['request-body-max-decreased breaking']);
    });
    it('maxLength or maxItems removed widens: breaking in a response, not in a request', () => {
      expect(rules(body({ type: 'string', maxLength: 10 }), body({ type: 'string' }))).to.deep.equal(['request-body-max-increased info']);
      expect(rules(answer({ type: 'string', maxLength: 10 }), answer({ type: 'string' }))).to.deep.equal(['response-body-max-increased breaking']);
      expect(rules(answer({ type: 'array', maxItems: 3 }), answer({ type: 'array' }))).to.deep.equal(['response-body-max-increased breaking']);
    });
    it('a minLength set counts from 0, the length taken without one: minLength 0 set or removed changes nothing', () => {
      expect(rules(body({ type: 'string' }), body({ type: 'string', minLength: 1 }))).to.deep.equal(['request-body-min-increased breaking']);
      expect(rules(body({ type: 'string', minLength: 1 }), body({ type: 'string' }))).to.deep.equal(['request-body-min-decreased info']);
      expect(rules(body({ type: 'string', minLength: 0 }), body({ type: 'string' }))).to.deep.equal([]);
    });
    it('a multipleOf changed to a multiple of the old one narrows, to a divisor widens, to neither changes (decimal fractions too)', () => {
      const multiple = (before: number, after: number) => rules(body({ type: 'number', multipleOf: before }), body({ type: 'number', multipleOf: after }));
      expect(multiple(2, 4)).to.deep.equal(['request-body-multiple-of-narrowed breaking']);
      expect(multiple(4, 2)).to.deep.equal(['request-body-multiple-of-widened info']);
      expect(multiple(4, 6)).to.deep.equal(['request-body-multiple-of-changed warning']);
      expect(multiple(0.1, 0.3)).to.deep.equal(['request-body-multiple-of-narrowed breaking']);
      expect(multiple(0.3, 0.1)).to.deep.equal(['request-body-multiple-of-widened info']);
    });
    it('a maximum or minimum set narrows, removed widens; the same value made exclusive narrows, made inclusive widens', () => {
      expect(rules(body({ type: 'integer' }), body({ type: 'integer', maximum: 10 }))).to.deep.equal(['request-body-max-decreased breaking']);
      expect(rules(body({ type: 'integer', maximum: 10 }), body({ type: 'integer' }))).to.deep.equal(['request-body-max-increased info']);
      expect(rules(body({ type: 'integer' }), body({ type: 'integer', minimum: 0 }))).to.deep.equal(['request-body-min-increased breaking']);
      expect(rules(body({ type: 'integer', minimum: 0 }), body({ type: 'integer' }))).to.deep.equal(['request-body-min-decreased info']);
      expect(rules(body({ type: 'integer', maximum: 10 }), body({ type: 'integer', exclusiveMaximum: 10 }))).to.deep.equal(['request-body-max-decreased breaking']);
      expect(rules(body({ type: 'integer', exclusiveMaximum: 10 }), body({ type: 'integer', maximum: 10 }))).to.deep.equal(['request-body-max-increased info']);
      expect(rules(body({ type: 'integer', minimum: 0 }), body({ type: 'integer', exclusiveMinimum: 0 }))).to.deep.equal(['request-body-min-increased breaking']);
      expect(rules(body({ type: 'integer', exclusiveMinimum: 0 }), body({ type: 'integer', minimum: 0 }))).to.deep.equal(['request-body-min-decreased info']);
    });
  });

  describe('each change said in words, pointed at the schema it concerns (the older one for what was taken away)', () => {
    // The model is Old in the older document and New in the newer: a pointer tells which it leads into.
    const model = (name: string, schema: Json) => body({ $ref: `#/components/schemas/${name}` }, { schemas: { [name]: schema } });
    const said = (before: Json, after: Json) =>
      classifyChanges(model('Old', before), model('New', after))
        .filter((c) => !c.rule.startsWith('model-'))
        .map((c) => `${c.rule} ${c.level}${c.location.property === undefined ? '' : ` ${c.location.property}`} at ${c.pointer}: ${c.message.slice(c.message.indexOf(': ') + 2)}`);
    const CASES: [Json, Json, string[]][] = [
      [{ type: 'integer', maximum: 10 }, { type: 'integer', exclusiveMaximum: 5 }, ['request-body-max-decreased breaking at /components/schemas/New: a maximum was lowered (maximum 10 to exclusive maximum 5).']],
      [{ type: 'integer', exclusiveMinimum: 1 }, { type: 'integer', minimum: 3 }, ['request-body-min-increased breaking at /components/schemas/New: a minimum was raised (exclusive minimum 1 to minimum 3).']],
      [{ type: 'integer', minimum: 3 }, { type: 'integer' }, ['request-body-min-decreased info at /components/schemas/New: a minimum was lowered (minimum 3 to none).']],
      [{ type: 'string', maxLength: 10 }, { type: 'string' }, ['request-body-max-increased info at /components/schemas/New: a maximum was raised (maxLength 10 to none).']],
      [{ type: 'array' }, { type: 'array', maxItems: 3 }, ['request-body-max-decreased breaking at /components/schemas/New: a maximum was lowered (maxItems none to 3).']],
      [{ type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }, ['request-body-min-increased breaking at /components/schemas/New: a minimum was raised (minLength 1 to 3).']],
      [{ type: 'integer', multipleOf: 2 }, { type: 'integer' }, ['request-body-multiple-of-widened info at /components/schemas/New: multipleOf changed from 2 to none, so more values pass.']],
      [{ type: 'integer' }, { type: 'integer', multipleOf: 2 }, ['request-body-multiple-of-narrowed breaking at /components/schemas/New: multipleOf changed from none to 2, so fewer values pass.']],
      [{}, { type: 'string' }, ['request-body-type-narrowed breaking at /components/schemas/New: the type was narrowed from any type to string.']],
      [{ type: 'string' }, {}, ['request-body-type-widened info at /components/schemas/New: the type was widened from string to any type.']],
      [{ type: ['string', 'integer'] }, { type: 'string' }, ['request-body-type-narrowed breaking at /components/schemas/New: the type was narrowed from integer or string to string.']],
      [{ type: ['string', 'integer'] }, { type: ['string', 'boolean'] }, ['request-body-type-changed breaking at /components/schemas/New: the type changed from integer or string to boolean or string.']],
      [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }, ['request-body-format-changed breaking at /components/schemas/New: the format changed from date to date-time.']],
      [{ type: 'string' }, { type: 'string', format: 'uuid' }, ['request-body-format-added breaking at /components/schemas/New: the values must now have the format uuid.']],
      [{ type: 'string', format: 'uuid' }, { type: 'string' }, ['request-body-format-removed info at /components/schemas/Old: the values no longer need the format uuid.']],
      [{ type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['b', 'c'] }, ['request-body-enum-value-removed breaking at /components/schemas/Old: the enum value "a" was removed.', 'request-body-enum-value-added info at /components/schemas/New: the enum value "c" was added.']],
      [{ type: 'string', const: 'a' }, { type: 'string', const: 'b' }, ['request-body-const-changed breaking at /components/schemas/New: the one value taken changed from "a" to "b".']],
      [{ type: 'string', const: 'a' }, { type: 'string', enum: ['a', 'b'] }, ['request-body-enum-value-added info at /components/schemas/New: the enum value "b" was added.']],
      [{ type: 'string', enum: ['a', 'b'] }, { type: 'string', const: 'a' }, ['request-body-enum-value-removed breaking at /components/schemas/Old: the enum value "b" was removed.']],
      [{ type: 'string' }, { type: 'string', const: 'a' }, ['request-body-const-added breaking at /components/schemas/New: the value is now fixed to "a".']],
      [{ type: 'string', enum: ['a', 'b'] }, { type: 'string' }, ['request-body-enum-removed info at /components/schemas/Old: the values are no longer limited to an enum.']],
      [{ type: 'string', 'x-extensible-enum': ['a', 'b'] }, { type: 'string', 'x-extensible-enum': ['b', 'c'] }, ['request-body-extensible-enum-value-removed breaking at /components/schemas/Old: the extensible enum value "a" was removed.', 'request-body-extensible-enum-value-added info at /components/schemas/New: the extensible enum value "c" was added.']],
      [{ type: 'integer', default: 1 }, { type: 'integer' }, ['request-body-default-changed warning at /components/schemas/New: the default changed from 1 to none.']],
      [{ type: 'integer' }, { type: 'integer', default: 2 }, ['request-body-default-changed warning at /components/schemas/New: the default changed from none to 2.']],
      [{ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }, ['request-body-pattern-changed warning at /components/schemas/New: the pattern changed from ^a to ^b.']],
      [{ type: 'string' }, { type: 'string', pattern: '^b' }, ['request-body-pattern-added breaking at /components/schemas/New: the values must now match the pattern ^b.']],
      [{ type: 'string', pattern: '^a' }, { type: 'string' }, ['request-body-pattern-removed info at /components/schemas/Old: the values no longer need to match the pattern ^a.']],
      [{ type: 'string', contentMediaType: 'image/png' }, { type: 'string' }, ["request-body-content-media-type-changed breaking at /components/schemas/New: the content's media type changed from image/png to none."]],
      [{ type: 'string' }, { type: 'string', contentEncoding: 'base64' }, ["request-body-content-encoding-changed breaking at /components/schemas/New: the content's encoding changed from none to base64."]],
      [{ type: 'array', contains: { const: 'a' } }, { type: 'array' }, ['request-body-contains-removed info at /components/schemas/Old: the array no longer needs an item matching contains.']],
      [{ type: 'array' }, { type: 'array', contains: { const: 'a' } }, ['request-body-contains-added breaking at /components/schemas/New: the array must now contain an item matching contains.']],
      [{ type: 'array', contains: { const: 'a' } }, { type: 'array', contains: { const: 'b' } }, ['request-property-const-changed breaking (contains) at /components/schemas/New/contains: the one value taken changed from "a" to "b".']],
      [{ type: 'array' }, { type: 'array', uniqueItems: true }, ['request-body-unique-items-added breaking at /components/schemas/New: the items must now be unique.']],
      [{ type: 'array', uniqueItems: true }, { type: 'array' }, ['request-body-unique-items-removed info at /components/schemas/New: the items may now repeat.']],
      [{ type: 'object', dependentRequired: { card: ['address'] } }, { type: 'object', dependentRequired: { card: ['zip'] } }, ['request-body-dependent-required-added breaking at /components/schemas/New: card requires zip now (dependentRequired).', 'request-body-dependent-required-removed info at /components/schemas/Old: no longer: card requires address (dependentRequired).']],
      [{ type: 'object', additionalProperties: false }, { type: 'object' }, ['request-body-additional-properties-added info at /components/schemas/New: properties that are not listed became allowed.']],
      [{ type: 'object' }, { type: 'object', additionalProperties: false }, ['request-body-additional-properties-removed breaking at /components/schemas/New: properties that are not listed are no longer allowed.']],
      [{ oneOf: [{ type: 'string' }, { type: 'null' }] }, { oneOf: [{ type: 'string' }] }, ['request-body-option-removed breaking at /components/schemas/Old/oneOf/1: the alternative null was removed.']],
      [{ oneOf: [{ type: 'string' }] }, { oneOf: [{ type: 'string' }, { type: ['integer', 'null'] }] }, ['request-body-option-added info at /components/schemas/New/oneOf/1: the alternative integer was added.']],
      [{ type: 'array', prefixItems: [{ type: 'string' }] }, { type: 'array', prefixItems: [{ type: 'string' }], items: false }, ['request-property-type-narrowed breaking [] at /components/schemas/New/items: the type was narrowed from any type to no value.']],
      [{ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, { type: 'object', if: { required: ['c'] }, then: { required: ['b'] } }, ['request-body-condition-changed warning at /components/schemas/New: the if condition changed, so then and else apply to other values.']],
      [{ type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, { type: 'object', if: { required: ['a'] }, then: { required: ['b'] }, else: { required: ['c'] } }, ['request-property-became-required breaking (else).c at /components/schemas/New/else: the property (else).c became required.']],
      [{ type: 'string', not: { type: 'string', pattern: '^a' } }, { type: 'string', not: { type: 'string', pattern: '^b' } }, ['request-body-not-changed warning at /components/schemas/New/not: inside not, the pattern changed from ^a to ^b.']],
      [{ oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] }, { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] }, ['request-body-option-added info at /components/schemas/New/oneOf/1: the alternative object was added.', 'request-body-one-of-overlap-added breaking at /components/schemas/New: 1 pair of alternatives can match the same value, and a oneOf refuses a value that matches two.']],
      [{ oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind' } }, { oneOf: [{ type: 'string' }] }, ['request-body-discriminator-removed warning at /components/schemas/Old: the discriminator kind was removed.']],
      [{ oneOf: [{ type: 'string' }] }, { oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind' } }, ['request-body-discriminator-added warning at /components/schemas/New: the discriminator kind was added.']],
      [{ oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind' } }, { oneOf: [{ type: 'string' }], discriminator: { propertyName: 'type' } }, ["request-body-discriminator-property-changed breaking at /components/schemas/New: the discriminator's property changed from kind to type."]],
      [{ oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/A', b: '#/components/schemas/B' } } }, { oneOf: [{ type: 'string' }], discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/B', c: '#/components/schemas/C' } } }, ['request-body-discriminator-mapping-changed breaking at /components/schemas/New: the discriminator value a: A to B.', 'request-body-discriminator-mapping-removed breaking at /components/schemas/Old: the discriminator value b (B) is no longer mapped.', 'request-body-discriminator-mapping-added info at /components/schemas/New: the discriminator value c (C) was mapped.']],
    ];
    for (const [before, after, expected] of CASES) {
      it(`${JSON.stringify(before)} to ${JSON.stringify(after)}`, () => {
        expect(said(before, after)).to.deep.equal(expected);
      });
    }
  });

  describe('one model read in several ways', () => {
    const both = (model: Json) =>
      v31(
        { '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } } },
        { schemas: { Pet: model } },
      );
    const pet = (required: string[], properties: Json) => ({ type: 'object', ...(required.length > 0 ? { required } : {}), properties });
    const hidden = { id: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } };
    const located = (before: JsonObject, after: JsonObject) => classifyChanges(before, after).map((c) => `${c.rule} ${c.level} ${c.location.property}`);
    it('sent and received, a read-only property concerns only what is received, a write-only one only what is sent', () => {
      expect(located(both(pet([], hidden)), both(pet([], {})))).to.deep.equal(['request-property-removed warning secret', 'response-property-removed breaking id']);
      expect(located(both(pet(['id', 'secret'], hidden)), both(pet([], hidden)))).to.deep.equal(['request-property-became-optional info secret', 'response-property-became-optional breaking id']);
      expect(located(both(pet([], hidden)), both(pet(['id', 'secret'], hidden)))).to.deep.equal(['request-property-became-required breaking secret', 'response-property-became-required info id']);
      expect(located(both(pet([], {})), both(pet([], hidden)))).to.deep.equal(['request-property-added info secret', 'response-property-added info id']);
    });
    it('as a query parameter and as a JSON body, integer to string widens the text and changes the JSON', () => {
      const api = (model: Json) =>
        v31(
          {
            '/pets': {
              get: { parameters: [{ name: 'n', in: 'query', schema: { $ref: '#/components/schemas/N' } }], responses: { '200': { description: 'ok' } } },
              post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/N' } } } }, responses: { '200': { description: 'ok' } } },
            },
          },
          { schemas: { N: model } },
        );
      expect(rules(api({ type: 'integer' }), api({ type: 'string' }))).to.deep.equal(['request-parameter-type-widened info', 'request-body-type-changed breaking']);
    });
    it('a reference that cannot be followed (another file, nowhere) is not compared', () => {
      expect(rules(body({ $ref: 'other.yaml#/Pet' }), body({ $ref: 'other.yaml#/Dog' }))).to.deep.equal([]);
      expect(rules(body({ $ref: '#/components/schemas/Nowhere' }), body({ $ref: '#/components/schemas/Gone' }))).to.deep.equal([]);
      expect(rules(body({ type: 'string' }), body({ $ref: 'other.yaml#/Pet' }))).to.deep.equal([]);
      const owner = (a: Json) => body({ type: 'object', properties: { a } });
      expect(rules(owner({ $ref: 'other.yaml#/A' }), owner({ $ref: 'other.yaml#/B' }))).to.deep.equal([]);
      expect(rules(owner({ type: 'string' }), owner({ $ref: 'other.yaml#/B' }))).to.deep.equal([]);
      expect(rules(owner({ $ref: 'other.yaml#/B' }), owner({ type: 'string' }))).to.deep.equal([]);
      expect(rules(owner({ $ref: '#/components/schemas/Nowhere' }), owner({ type: 'string' }))).to.deep.equal([]);
    });
  });

  describe('references as a 3.1 validator resolves them', () => {
    const pet = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    it('a $ref to an $anchor is the schema that declares it', () => {
      const before = body({ $ref: '#pet' }, { schemas: { Pet: { $anchor: 'pet', ...pet } } });
      const after = body(pet, { schemas: { Pet: { $anchor: 'pet', ...pet } } });
      expect(rules(before, after)).to.deep.equal([]);
      const narrower = body({ $ref: '#pet' }, { schemas: { Pet: { $anchor: 'pet', ...pet, required: ['name', 'tag'], properties: { ...pet.properties, tag: { type: 'string' } } } } });
      expect(rules(before, narrower)).to.deep.equal(['request-property-required-added breaking tag']);
    });
    it('a $ref into $defs and a $dynamicRef to a $dynamicAnchor are followed', () => {
      const defs = { schemas: { Box: { $defs: { Pet: pet }, $dynamicAnchor: 'item', type: 'object' } } };
      expect(rules(body({ $ref: '#/components/schemas/Box/$defs/Pet' }, defs), body(pet, defs))).to.deep.equal([]);
      expect(rules(body({ $dynamicRef: '#item' }, defs), body({ type: 'object' }, defs))).to.deep.equal([]);
    });
  });

  describe('composition', () => {
    const cat = { type: 'object', required: ['kind', 'meows'], properties: { kind: { const: 'cat' }, meows: { type: 'boolean' } } };
    const dog = { type: 'object', required: ['kind', 'barks'], properties: { kind: { const: 'dog' }, barks: { type: 'boolean' } } };
    it('an inline alternative moved into an equal named schema is no change (but the model itself, added or removed)', () => {
      expect(rules(body({ oneOf: [cat, dog] }), body({ oneOf: [{ $ref: '#/components/schemas/Cat' }, dog] }, { schemas: { Cat: cat } }))).to.deep.equal(['model-added info']);
      expect(rules(answer({ anyOf: [{ $ref: '#/components/schemas/Cat' }, dog] }, { schemas: { Cat: cat } }), answer({ anyOf: [cat, dog] }))).to.deep.equal(['model-removed info']);
    });
    it('a schema wrapped into a oneOf is compared with its alternative: the other is an alternative added, no property removed', () => {
      expect(rules(answer(cat), answer({ oneOf: [cat, dog] }))).to.deep.equal(['response-body-option-added breaking']);
      expect(rules(answer({ oneOf: [cat, dog] }), answer(cat))).to.deep.equal(['response-body-option-removed info']);
    });
    it('so is one wrapped into `type: object` with a oneOf and a discriminator', () => {
      const wrapped = { type: 'object', oneOf: [cat, dog], discriminator: { propertyName: 'kind' } };
      expect(rules(answer(cat), answer(wrapped))).to.deep.equal(['response-body-option-added breaking', 'response-body-discriminator-added warning']);
    });
    it('wrapped into a choice that asks something beside its alternatives, the schema meets that too', () => {
      expect(rules(body({ type: 'string' }), body({ anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }], maxLength: 3 }))).to.deep.equal(['request-body-option-added info', 'request-body-max-decreased breaking']);
      expect(rules(body({ type: 'integer' }), body({ oneOf: [{ type: 'integer' }, { type: 'string', maxLength: 2 }], multipleOf: 4 }))).to.deep.equal(['request-body-option-added info', 'request-body-multiple-of-narrowed breaking']);
    });
    it('a schema replaced by a oneOf none of whose alternatives is it is judged by the types they take together', () => {
      expect(rules(body({ type: 'boolean' }), body({ oneOf: [{ type: 'null' }, { type: 'integer', minimum: 0 }] }))).to.deep.equal([
        'request-body-option-added info',
        'request-body-option-added info',
        'request-body-type-changed breaking',
      ]);
      expect(rules(body({ enum: ['a'] }), body({ oneOf: [{ enum: ['a'], type: 'integer' }, { type: 'null' }] }))).to.include('request-body-type-narrowed breaking');
    });
    it('wrapping a request schema into a oneOf whose alternatives overlap breaks the requests that match two; disjoint ones do not', () => {
      const named = { type: 'object', properties: { name: { type: 'string' } } };
      const tagged = { type: 'object', properties: { tag: { type: 'string' } } };
      expect(rules(body(named), body({ oneOf: [named, tagged] }))).to.include('request-body-one-of-overlap-added breaking');
      expect(rules(body(cat), body({ oneOf: [cat, dog] }))).to.not.include('request-body-one-of-overlap-added breaking');
    });
    describe('anyOf to oneOf: alternatives that can match one value refuse it now', () => {
      const overlaps = (...alternatives: Json[]) => rules(body({ anyOf: alternatives }), body({ oneOf: alternatives }));
      const object = (extra: Json) => ({ type: 'object', ...extra });
      const refused = ['request-body-one-of-overlap-added breaking'];
      it('types tell alternatives apart, but both take null if both are nullable, and an integer is a number', () => {
        expect(overlaps({ type: 'string' }, { type: 'integer' })).to.deep.equal([]);
        expect(overlaps({ type: ['string', 'null'] }, { type: ['integer', 'null'] })).to.deep.equal(refused);
        expect(overlaps({ type: 'number' }, { type: 'integer' })).to.deep.equal(refused);
        expect(overlaps({ type: 'integer' }, { type: 'number' })).to.deep.equal(refused);
        expect(overlaps({}, { type: 'string' })).to.deep.equal(refused);
      });
      it('listed values tell them apart when no value is listed by both', () => {
        expect(overlaps({ const: 'a' }, { const: 'b' })).to.deep.equal([]);
        expect(overlaps({ enum: ['a', 'b'] }, { enum: ['b', 'c'] })).to.deep.equal(refused);
      });
      it('a closed object tells itself apart from one that requires a property it does not list, whichever comes first', () => {
        const closed = object({ additionalProperties: false, properties: { a: {} } });
        expect(overlaps(closed, object({ required: ['b'] }))).to.deep.equal([]);
        expect(overlaps(object({ required: ['b'] }), closed)).to.deep.equal([]);
        expect(overlaps(object({ additionalProperties: false, properties: { b: {} } }), object({ required: ['b'] }))).to.deep.equal(refused);
      });
      it('a property both require tells them apart by its values, one level deep, and only where both give it a schema', () => {
        const kind = (value: string) => object({ required: ['kind'], properties: { kind: { const: value } } });
        expect(overlaps(kind('a'), kind('b'))).to.deep.equal([]);
        expect(overlaps(kind('a'), object({ required: ['kind'] }))).to.deep.equal(refused);
        expect(overlaps(kind('a'), object({ properties: { kind: { const: 'b' } } }))).to.deep.equal(refused);
        const deep = (value: string) => object({ required: ['a'], properties: { a: object({ required: ['b'], properties: { b: { const: value } } }) } });
        expect(overlaps(deep('x'), deep('y'))).to.deep.equal(refused);
      });
      it('the overlaps counted are pairs: three open objects are three pairs', () => {
        const changes = classifyChanges(body({ anyOf: [object({}), object({}), object({})] }), body({ oneOf: [object({}), object({}), object({})] }));
        expect(changes.map((c) => c.message)).to.deep.equal([
          'POST /pets, request body (application/json): 3 pairs of alternatives can match the same value, and a oneOf refuses a value that matches two.',
        ]);
      });
      it('an anyOf takes a value that matches several: alternatives added or wrapped into one overlap nothing', () => {
        const named = object({ properties: { n: {} } });
        const tagged = object({ properties: { t: {} } });
        expect(rules(body(named), body({ anyOf: [named, tagged] }))).to.deep.equal(['request-body-option-added info']);
        expect(rules(body({ anyOf: [named] }), body({ anyOf: [named, tagged] }))).to.deep.equal(['request-body-option-added info']);
      });
      it('a oneOf whose alternatives overlapped already overlaps no more with one that overlaps nothing', () => {
        const named = object({ properties: { n: {} } });
        const tagged = object({ properties: { t: {} } });
        expect(rules(body({ oneOf: [named, tagged] }), body({ oneOf: [named, tagged, { type: 'string' }] }))).to.deep.equal(['request-body-option-added info']);
      });
    });
    it('alternatives added beside properties are compared as alternatives, not as the schema wrapped', () => {
      const before = body({ type: 'object', properties: { a: {} } });
      const after = body({ type: 'object', properties: { a: {} }, oneOf: [{ required: ['a'] }, { type: 'object', required: ['b'] }] });
      expect(rules(before, after)).to.deep.equal(['request-body-option-added info', 'request-body-option-added info', 'request-body-one-of-overlap-added breaking']);
    });
    it('a schema replaced by alternatives that take the same types together changes no type', () => {
      expect(rules(body({ type: ['string', 'integer'] }), body({ oneOf: [{ type: 'string' }, { type: 'integer' }] }))).to.deep.equal(['request-body-option-added info', 'request-body-option-added info']);
    });
    it('alternatives that name a model of the newer document are read in the newer document', () => {
      const after = body({ oneOf: [{ $ref: '#/components/schemas/Int' }, { type: 'null' }] }, { schemas: { Int: { type: 'integer' } } });
      expect(rules(body({ type: 'boolean' }), after)).to.deep.equal(['model-added info', 'request-body-option-added info', 'request-body-option-added info', 'request-body-type-changed breaking']);
    });
    it('an alternative of no type of its own takes its own alternatives\' types: oneOf [object or array] beside boolean and number overlaps nothing', () => {
      const before = body({ oneOf: [{ type: 'boolean' }, { type: 'number' }] });
      const after = body({ oneOf: [{ type: 'boolean' }, { type: 'number' }, { oneOf: [{ type: 'object', required: ['c'] }, { type: 'array' }] }] });
      expect(rules(before, after)).to.deep.equal(['request-body-option-added info']);
    });
    it('a null alternative is named null, and an added alternative points at its place in the oneOf', () => {
      const changes = classifyChanges(answer({ anyOf: [{ $ref: '#/components/schemas/Cat' }] }, { schemas: { Cat: cat } }), answer({ anyOf: [{ $ref: '#/components/schemas/Cat' }, { type: 'null' }, { $ref: '#/components/schemas/Dog' }] }, { schemas: { Cat: cat, Dog: dog } }));
      const options = changes.filter((c) => c.rule === 'response-body-option-added');
      expect(options.map((c) => [c.pointer, c.message.includes('the alternative null was added') || c.message.includes('the alternative Dog was added')])).to.deep.equal([
        ['/paths/~1pets/get/responses/200/content/application~1json/schema/anyOf/1', true],
        ['/paths/~1pets/get/responses/200/content/application~1json/schema/anyOf/2', true],
      ]);
    });
    it('a property required without a schema that gets one is not added: its schema is compared with any type', () => {
      const before = body({ type: 'object', required: ['level'], properties: { name: { type: 'string' } } });
      const after = body({ type: 'object', required: ['level'], properties: { name: { type: 'string' }, level: { type: 'string', enum: ['off', 'on'] } } });
      expect(rules(before, after)).to.deep.equal(['request-property-type-narrowed breaking level', 'request-property-enum-added breaking level']);
      expect(rules(after, before)).to.deep.equal(['request-property-type-widened info level', 'request-property-enum-removed info level']);
    });
    it('anyOf to oneOf over overlapping alternatives narrows; over alternatives a required const tells apart it does not', () => {
      const named = { type: 'object', properties: { name: { type: 'string' } } };
      const tagged = { type: 'object', properties: { tag: { type: 'string' } } };
      expect(rules(body({ anyOf: [named, tagged] }), body({ oneOf: [named, tagged] }))).to.deep.equal(['request-body-one-of-overlap-added breaking']);
      expect(rules(body({ anyOf: [cat, dog] }), body({ oneOf: [cat, dog] }))).to.deep.equal([]);
    });
    it('an allOf member that constrains a property another member lists narrows that property', () => {
      const named = { type: 'object', properties: { name: { type: 'string' } } };
      expect(rules(body({ allOf: [named] }), body({ allOf: [named, { properties: { name: { maxLength: 5 } } }] }))).to.deep.equal(['request-property-max-decreased breaking name']);
    });
    it('a property added to a trait that many models merge in with allOf is one change, reached from each', () => {
      const trait = { type: 'object', properties: { name: { type: 'string' } } };
      const traitAfter = { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } } };
      const models = (t: Json) => ({ schemas: { Trait: t, Cat: { allOf: [{ $ref: '#/components/schemas/Trait' }, cat] }, Dog: { allOf: [{ $ref: '#/components/schemas/Trait' }, dog] } } });
      const schema = { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] };
      const changes = classifyChanges(answer(schema, models(trait)), answer(schema, models(traitAfter)));
      expect(changes.map((c) => [c.rule, c.pointer, c.alsoAt?.length])).to.deep.equal([['response-property-added', '/components/schemas/Trait/properties/tag', 1]]);
    });
    it('allOf members of number and integer take integers only, however deep', () => {
      expect(rules(body({ type: 'number', minimum: 0 }), body({ allOf: [{ allOf: [{ type: 'number', minimum: 0 }, { type: 'integer' }] }] }))).to.deep.equal(['request-body-type-narrowed breaking']);
    });
    it('allOf members with enums take the values both list', () => {
      expect(rules(body({ type: 'number', enum: [1, -1] }), body({ allOf: [{ type: 'number', enum: [1, -1] }, { enum: [1, 2] }] }))).to.deep.equal(['request-body-enum-value-removed breaking']);
    });
    it('an allOf member that requires a property breaks a request', () => {
      const extra = { type: 'object', required: ['age'], properties: { age: { type: 'integer' } } };
      expect(rules(body({ allOf: [cat] }), body({ allOf: [cat, extra] }))).to.deep.equal(['request-property-required-added breaking age']);
    });
  });

  describe('applicators', () => {
    it('what not excludes grows: fewer values pass, a request breaks, reported where the not stands', () => {
      const changes = classifyChanges(body({ type: 'object', properties: { name: { type: 'string', not: { const: 'root' } } } }), body({ type: 'object', properties: { name: { type: 'string', not: { enum: ['root', 'admin'] } } } }));
      expect(changes.map((c) => [c.rule, c.level, c.location.property])).to.deep.equal([['request-property-not-widened', 'breaking', 'name']]);
    });
    it('a property change inside not counts the other way: made required there lets more values through, removed or made optional fewer, deprecated neither', () => {
      const excluded = (properties: Json, required: string[] = []) => ({ type: 'object', not: { type: 'object', properties, required } });
      const name = { name: { type: 'string' } };
      // Required inside not: fewer values are excluded, so more pass (a request takes them, a response may send them).
      expect(rules(body(excluded(name)), body(excluded(name, ['name'])))).to.deep.equal(['request-body-not-narrowed info']);
      expect(rules(answer(excluded(name)), answer(excluded(name, ['name'])))).to.deep.equal(['response-body-not-narrowed breaking']);
      // Removed or made optional inside not: more values are excluded, so fewer pass.
      expect(rules(body(excluded({ ...name, age: { type: 'integer' } })), body(excluded(name)))).to.deep.equal(['request-body-not-widened breaking']);
      expect(rules(answer(excluded(name, ['name'])), answer(excluded(name)))).to.deep.equal(['response-body-not-widened info']);
      // Deprecated inside not: the same values pass.
      expect(rules(body(excluded(name)), body(excluded({ name: { type: 'string', deprecated: true } })))).to.deep.equal(['request-body-not-changed warning']);
    });
    it('then: a property required there is required of the values the if picks', () => {
      const before = body({ type: 'object', if: { properties: { kind: { const: 'card' } } }, then: { required: ['number'] } });
      const after = body({ type: 'object', if: { properties: { kind: { const: 'card' } } }, then: { required: ['number', 'expiry'] } });
      expect(rules(before, after)).to.deep.equal(['request-property-became-required breaking (then).expiry']);
      expect(rules(after, before)).to.deep.equal(['request-property-became-optional info (then).expiry']);
    });
    it('propertyNames and unevaluatedProperties set where there were none narrow what a request may hold', () => {
      expect(rules(body({ type: 'object' }), body({ type: 'object', propertyNames: { pattern: '^[a-z]+$' } }))).to.deep.equal(['request-property-pattern-added breaking (propertyNames)']);
      expect(rules(body({ type: 'object' }), body({ type: 'object', unevaluatedProperties: false }))).to.deep.equal(['request-property-type-narrowed breaking (unevaluatedProperties)']);
    });
    it('a patternProperties schema and a dependentSchemas one are compared with what held before', () => {
      const before = body({ type: 'object', patternProperties: { '^x-': { type: 'string' } } });
      const after = body({ type: 'object', patternProperties: { '^x-': { type: 'string', maxLength: 20 } } });
      expect(rules(before, after)).to.deep.equal(['request-property-max-decreased breaking (patternProperties ^x-)']);
      expect(rules(body({ type: 'object' }), body({ type: 'object', dependentSchemas: { card: { required: ['address'] } } }))).to.deep.equal(['request-property-became-required breaking (dependentSchemas card).address']);
    });
    it('minContains and maxContains count beside contains', () => {
      const before = body({ type: 'array', contains: { const: 'admin' } });
      expect(rules(before, body({ type: 'array', contains: { const: 'admin' }, minContains: 2 }))).to.deep.equal(['request-body-min-increased breaking']);
      expect(rules(before, body({ type: 'array', contains: { const: 'admin' }, maxContains: 1 }))).to.deep.equal(['request-body-max-decreased breaking']);
      expect(rules(body({ type: 'array', minContains: 2 }), body({ type: 'array', minContains: 5 }))).to.deep.equal([]);
    });
  });

  describe('the schema false, then without if, properties judged by additionalProperties', () => {
    it('against false only the types count: not set where there was none excludes more and reports nothing else', () => {
      expect(rules(answer({}), answer({ not: { type: 'string', maxLength: 2 } }))).to.deep.equal(['response-body-not-widened info']);
      expect(rules(body({ type: 'object', unevaluatedProperties: false }), body({ type: 'object', unevaluatedProperties: { type: 'string', maxLength: 3 } }))).to.deep.equal(['request-property-type-widened info (unevaluatedProperties)']);
    });
    it('then and else without an if apply to nothing', () => {
      expect(rules(answer({ then: { type: 'string' } }), answer({}))).to.deep.equal([]);
    });
    it('a property listed where additionalProperties judged it is compared with what additionalProperties took', () => {
      const before = body({ type: 'object', additionalProperties: { type: 'array' } });
      const after = body({ type: 'object', properties: { c: { type: 'string' } }, additionalProperties: { type: 'array' } });
      expect(rules(before, after)).to.deep.equal(['request-property-added info c', 'request-property-type-changed breaking c']);
      expect(rules(after, before)).to.deep.equal(['request-property-removed warning c', 'request-property-type-changed breaking c']);
    });
    it('a required property unlisted where additionalProperties judges it is still there, with the values additionalProperties takes', () => {
      const listed = body({ type: 'object', required: ['c'], properties: { c: { type: 'string' } }, additionalProperties: { type: 'array' } });
      const unlisted = body({ type: 'object', required: ['c'], additionalProperties: { type: 'array' } });
      expect(rules(listed, unlisted)).to.deep.equal(['request-property-type-changed breaking c']);
      expect(rules(unlisted, listed)).to.deep.equal(['request-property-type-changed breaking c']);
    });
  });

  describe('type lists and null', () => {
    it('an allOf member that takes no null takes null away from a schema that took only null', () => {
      expect(rules(body({ allOf: [{ type: 'null' }] }), body({ allOf: [{ type: 'null' }, { type: 'boolean' }] }))).to.deep.equal(['request-body-nullable-removed breaking']);
    });
    it('a schema of any type takes null already: const null there fixes the value, it adds no null', () => {
      expect(rules(answer({}), answer({ const: null }))).to.deep.equal(['response-body-const-added info']);
      expect(rules(body({}), body({ const: null }))).to.deep.equal(['request-body-const-added breaking']);
      expect(rules(body({ const: null }), body({}))).to.deep.equal(['request-body-const-removed info']);
    });
    it('type: [string, "null"] is nullable: taking the null away breaks a request, a list that adds a type breaks a response', () => {
      expect(rules(body({ type: ['string', 'null'] }), body({ type: 'string' }))).to.deep.equal(['request-body-nullable-removed breaking']);
      expect(rules(answer({ type: 'string' }), answer({ type: ['string', 'integer'] }))).to.deep.equal(['response-body-type-widened breaking']);
    });
    it('null added to a type list widens: breaking in a response, not in a request', () => {
      expect(rules(answer({ type: 'string' }), answer({ type: ['string', 'null'] }))).to.deep.equal(['response-body-nullable-added breaking']);
      expect(rules(body({ type: 'string' }), body({ type: ['string', 'null'] }))).to.deep.equal(['request-body-nullable-added info']);
      expect(rules(answer({ type: ['string', 'null'] }), answer({ type: 'string' }))).to.deep.equal(['response-body-nullable-removed info']);
    });
    it('no type takes null already: a type list with null set there narrows the types only, it adds no null', () => {
      expect(rules(body({}), body({ type: ['string', 'null'] }))).to.deep.equal(['request-body-type-narrowed breaking']);
      expect(rules(answer({ type: ['string', 'null'] }), answer({}))).to.deep.equal(['response-body-type-widened breaking']);
    });
    it('a type list is a set: its order changes nothing, a type swapped for another breaks both ways', () => {
      expect(rules(body({ type: ['string', 'integer'] }), body({ type: ['integer', 'string'] }))).to.deep.equal([]);
      expect(rules(body({ type: ['string', 'integer'] }), body({ type: ['string', 'boolean'] }))).to.deep.equal(['request-body-type-changed breaking']);
      expect(rules(answer({ type: ['string', 'integer'] }), answer({ type: 'string' }))).to.deep.equal(['response-body-type-narrowed info']);
    });
    it('type null to another type takes null away: a request sending null breaks', () => {
      expect(rules(body({ type: 'null' }), body({ type: 'string' }))).to.deep.equal(['request-body-type-widened info', 'request-body-nullable-removed breaking']);
      expect(rules(body({ type: 'null' }), body({ type: ['null', 'string'] }))).to.deep.equal(['request-body-type-widened info']);
    });
    it('a type changed altogether compares nothing below it: a bound beside the new type is not reported', () => {
      expect(rules(body({ type: 'boolean' }), body({ type: 'integer', maximum: 3 }))).to.deep.equal(['request-body-type-changed breaking']);
    });
  });
});
