import { expect } from 'chai';
import type { ChangeLocation } from '../../../src/domain/spec/changes/change.js';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { oasdiffIdOf, oasdiffIdsOf } from '../../../src/domain/spec/changes/oasdiff-ids.js';
import { ruleCatalog, type RuleId } from '../../../src/domain/spec/changes/rules.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { CHANGE_CASES, doc } from '../../support/change-cases.js';

type OasdiffLevel = 'error' | 'warn' | 'info';

function each(places: readonly string[], changes: readonly string[], level: OasdiffLevel): [string, OasdiffLevel][] {
  return places.flatMap((place) => changes.map((change): [string, OasdiffLevel] => [`${place}-${change}`, level]));
}

function rated(level: OasdiffLevel, ids: readonly string[]): [string, OasdiffLevel][] {
  return ids.map((id): [string, OasdiffLevel] => [id, level]);
}

const REQUEST_SCHEMA = ['request-parameter', 'request-parameter-property', 'request-body', 'request-property'];
const REQUEST_BOUNDED = ['request-parameter', 'request-body', 'request-property'];
const BODIES = ['request-body', 'request-property', 'response-body', 'response-property'];
const REQUEST_BODIES = ['request-body', 'request-property'];
const RESPONSE_BODIES = ['response-body', 'response-property'];

/**
 * The level oasdiff gives each id we use (checker/rules.go: ERR, WARN, INFO), written out here so
 * that the mapping is checked against oasdiff's verdicts, not against itself.
 */
const OASDIFF_LEVELS: ReadonlyMap<string, OasdiffLevel> = new Map<string, OasdiffLevel>([
  ...rated('info', [
    'endpoint-added', 'endpoint-deprecated', 'endpoint-reactivated', 'api-operation-id-removed', 'api-operation-id-added', 'api-tag-added', 'api-tag-removed',
    'new-optional-request-parameter', 'request-parameter-became-optional', 'request-parameter-deprecated', 'request-body-added-optional', 'request-body-became-optional',
    'request-body-media-type-added', 'response-success-status-added', 'response-non-success-status-added', 'response-media-type-added', 'response-media-type-name-specialized',
    'response-header-added', 'api-security-component-added', 'api-security-component-removed', 'api-security-component-oauth-scope-added',
    'api-security-component-oauth-scope-removed', 'api-schema-removed', 'webhook-added', 'response-mediatype-enum-value-removed', 'request-parameter-min-items-decreased',
    'new-optional-request-property', 'request-property-became-optional', 'request-property-deprecated', 'response-optional-property-added',
    'response-required-property-added', 'response-property-became-required', 'response-property-deprecated',
  ]),
  ...rated('error', [
    'new-required-request-parameter', 'request-parameter-became-required', 'request-parameter-style-changed', 'request-body-added-required',
    'request-body-removed', 'request-body-became-required', 'request-body-media-type-removed', 'response-success-status-removed', 'response-media-type-removed',
    'response-media-type-name-generalized', 'required-response-header-removed', 'response-header-became-optional', 'api-security-scope-added', 'webhook-removed',
    'new-required-request-property', 'new-required-request-header-property', 'request-property-became-required', 'request-header-property-became-required',
    'response-property-became-optional',
  ]),
  ['request-parameter-removed', 'warn'],
  ['optional-response-header-removed', 'warn'],
  ['request-property-removed', 'warn'],
  ...each(['request-parameter', 'request-body', 'request-property', 'response-body', 'response-property', 'response-header'], ['type-changed'], 'error'),
  ['request-parameter-property-type-changed', 'warn'],
  ...each(REQUEST_SCHEMA, ['type-generalized', 'list-of-types-widened', 'became-nullable'], 'info'),
  ...each(REQUEST_SCHEMA, ['list-of-types-narrowed', 'became-not-nullable'], 'error'),
  ['request-parameter-property-type-specialized', 'error'],
  ...each(['response-body', 'response-property', 'response-header'], ['type-generalized', 'became-nullable'], 'error'),
  ...each(['response-body', 'response-property', 'response-header'], ['type-specialized', 'became-not-nullable'], 'info'),
  ...each(RESPONSE_BODIES, ['list-of-types-widened'], 'error'),
  ...each(RESPONSE_BODIES, ['list-of-types-narrowed'], 'info'),
  ...each(['request-parameter', 'request-parameter-property', 'request-property'], ['enum-value-added'], 'info'),
  ['response-property-enum-value-added', 'warn'],
  ...each(['request-parameter', 'request-parameter-property', 'request-body', 'request-property'], ['enum-value-removed'], 'error'),
  ['response-property-enum-value-removed', 'info'],
  ...each(['request-parameter', 'request-body', 'request-property', 'request-header-property'], ['became-enum'], 'error'),
  ...each(REQUEST_BOUNDED, [
    'max-decreased', 'max-set', 'exclusive-max-decreased', 'exclusive-max-set', 'max-length-decreased', 'max-length-set', 'max-items-decreased',
    'min-increased', 'min-set', 'exclusive-min-increased', 'exclusive-min-set', 'min-length-increased', 'min-items-increased', 'min-items-set',
  ], 'error'),
  ...each(REQUEST_BOUNDED, ['max-increased', 'exclusive-max-increased', 'max-length-increased', 'max-items-increased', 'min-decreased', 'exclusive-min-decreased', 'min-length-decreased'], 'info'),
  ...each(REQUEST_BODIES, ['max-items-set', 'max-properties-decreased', 'max-properties-set', 'min-properties-increased'], 'error'),
  ...each(REQUEST_BODIES, ['max-properties-increased'], 'info'),
  ...each(RESPONSE_BODIES, [
    'max-increased', 'exclusive-max-increased', 'max-length-increased', 'max-length-unset', 'max-items-increased', 'max-properties-increased',
    'min-decreased', 'exclusive-min-decreased', 'min-length-decreased', 'min-items-decreased', 'min-items-unset', 'min-properties-decreased',
  ], 'error'),
  ...each(['request-parameter', 'request-property'], ['pattern-added'], 'error'),
  ...each(['request-parameter', 'request-property'], ['pattern-removed'], 'info'),
  ...each(['request-parameter', 'request-property', 'response-property'], ['pattern-changed'], 'warn'),
  ['response-property-pattern-added', 'info'],
  ['response-property-pattern-removed', 'error'],
  ...each(REQUEST_BODIES, ['multiple-of-set', 'multiple-of-changed', 'unique-items-set'], 'error'),
  ...each(REQUEST_BODIES, ['multiple-of-unset', 'multiple-of-generalized', 'unique-items-unset'], 'info'),
  ...each(RESPONSE_BODIES, ['multiple-of-unset', 'multiple-of-changed', 'unique-items-unset'], 'error'),
  ...each(RESPONSE_BODIES, ['multiple-of-specialized'], 'info'),
  ...each(['request-parameter', ...BODIES], ['default-value-added', 'default-value-changed', 'default-value-removed'], 'info'),
  ...each(BODIES, ['discriminator-added', 'discriminator-removed', 'discriminator-property-name-changed', 'discriminator-mapping-added', 'discriminator-mapping-deleted', 'discriminator-mapping-changed'], 'info'),
  ...each(BODIES, ['const-changed', 'content-media-type-changed', 'content-encoding-changed'], 'error'),
  ...each(REQUEST_BODIES, ['const-added', 'dependent-required-added', 'pattern-property-added', 'contains-added'], 'error'),
  ...each(REQUEST_BODIES, ['const-removed', 'dependent-required-removed', 'pattern-property-removed', 'contains-removed'], 'info'),
  ...each(RESPONSE_BODIES, ['const-added', 'dependent-required-added', 'pattern-property-added', 'contains-added'], 'info'),
  ...each(RESPONSE_BODIES, ['const-removed', 'dependent-required-removed', 'pattern-property-removed', 'contains-removed'], 'error'),
  ...each(['request-parameter', 'request-property'], ['x-extensible-enum-value-removed'], 'error'),
]);

const catalog = ruleCatalog();

/** The direction a rule of ours is about, from its id; null for rules of neither (operations, security, models). */
function directionOf(rule: string): 'request' | 'response' | null {
  return rule.startsWith('request-') ? 'request' : rule.startsWith('response-') ? 'response' : null;
}

const post = (requestBody: object) => doc({ paths: { '/pets': { post: { requestBody: { content: { 'application/json': { schema: requestBody } } }, responses: { '200': { description: 'ok' } } } } } });
const get = (schema: object, status = '200') => doc({ paths: { '/pets': { get: { responses: { [status]: { description: 'ok', content: { 'application/json': { schema } } } } } } } });
const withParameter = (parameter: object) => doc({ paths: { '/pets': { get: { parameters: [parameter], responses: { '200': { description: 'ok' } } } } } });
const pet = (name: object) => ({ type: 'object', properties: { name } });
const v31 = (document: JsonObject): JsonObject => ({ ...document, openapi: '3.1.0' });

/** The oasdiff ids of what changed from `before` to `after`, by rule. */
function idsOf(before: JsonObject, after: JsonObject): [RuleId, string | undefined][] {
  return classifyChanges(before, after).map((change) => [change.rule, change.oasdiffId]);
}

describe('domain: the oasdiff ids of the change rules (oasdiffIdOf)', () => {
  it('gives every rule of the catalog the same answer each time, only ids of oasdiff\'s form that its catalog has', () => {
    for (const { rule } of catalog) {
      const ids = oasdiffIdsOf(rule);
      expect(oasdiffIdsOf(rule), rule).to.deep.equal(ids);
      expect(oasdiffIdOf(rule), rule).to.equal(ids.length === 1 ? ids[0] : undefined);
      for (const id of ids) {
        expect(id, rule).to.match(/^[a-z]+(-[a-z]+)*$/);
        expect(OASDIFF_LEVELS.has(id), `${rule}: ${id} is in oasdiff's catalog as this test records it`).to.equal(true);
      }
    }
  });

  it('never swaps a request for a response', () => {
    for (const { rule } of catalog) {
      const direction = directionOf(rule);
      if (direction === null) continue;
      const other = direction === 'request' ? 'response' : 'request';
      for (const id of oasdiffIdsOf(rule)) {
        expect(id, rule).to.contain(direction);
        expect(id, rule).to.not.contain(other);
      }
    }
  });

  it('never gives a breaking rule the id of a change oasdiff rates non-breaking', () => {
    const breaking = catalog.filter((entry) => entry.level === 'breaking');
    expect(breaking.length).to.be.greaterThan(50);
    for (const { rule } of breaking) {
      for (const id of oasdiffIdsOf(rule)) expect(OASDIFF_LEVELS.get(id), `${rule}: ${id}`).to.not.equal('info');
    }
  });

  it('gives each item of the catalog\'s examples one of the ids its rule lists, or none', () => {
    let given = 0;
    for (const c of CHANGE_CASES) {
      for (const change of classifyChanges(c.before as JsonObject, c.after as JsonObject)) {
        if (change.oasdiffId === undefined) continue;
        given += 1;
        expect(oasdiffIdsOf(change.rule), `${change.rule}: ${change.oasdiffId}`).to.include(change.oasdiffId);
      }
    }
    expect(given).to.be.greaterThan(80);
  });

  it('chooses the keyword oasdiff names by the item: maxLength, maxItems, maximum, or set where there was none', () => {
    const limited = (extra: object) => post(pet({ type: 'string', ...extra }));
    expect(idsOf(limited({ maxLength: 10 }), limited({ maxLength: 5 }))).to.deep.equal([['request-property-max-decreased', 'request-property-max-length-decreased']]);
    expect(idsOf(limited({}), limited({ maxLength: 5 }))).to.deep.equal([['request-property-max-decreased', 'request-property-max-length-set']]);
    expect(idsOf(post(pet({ type: 'array', maxItems: 3 })), post(pet({ type: 'array', maxItems: 2 })))).to.deep.equal([['request-property-max-decreased', 'request-property-max-items-decreased']]);
    expect(idsOf(post(pet({ type: 'integer', maximum: 10 })), post(pet({ type: 'integer', maximum: 5 })))).to.deep.equal([['request-property-max-decreased', 'request-property-max-decreased']]);
    expect(idsOf(post(pet({ type: 'integer' })), post(pet({ type: 'integer', maximum: 5 })))).to.deep.equal([['request-property-max-decreased', 'request-property-max-set']]);
    // A maximum made exclusive at the same value: oasdiff has no id for it.
    expect(idsOf(post(pet({ type: 'integer', maximum: 5 })), post(pet({ type: 'integer', maximum: 5, exclusiveMaximum: true })))).to.deep.equal([['request-property-max-decreased', undefined]]);
    expect(idsOf(get(pet({ type: 'string', maxLength: 5 })), get(pet({ type: 'string' })))).to.deep.equal([['response-property-max-increased', 'response-property-max-length-unset']]);
    expect(idsOf(get(pet({ type: 'array', minItems: 2 })), get(pet({ type: 'array', minItems: 1 })))).to.deep.equal([['response-property-min-decreased', 'response-property-min-items-decreased']]);
  });

  it('counts a minItems of 0 as none set, as oasdiff does, but a maxLength of 0 as a limit', () => {
    const list = (extra: object) => pet({ type: 'array', ...extra });
    expect(idsOf(post(list({})), post(list({ minItems: 2 })))).to.deep.equal([['request-property-min-increased', 'request-property-min-items-set']]);
    expect(idsOf(get(list({ minItems: 2 })), get(list({ minItems: 0 })))).to.deep.equal([['response-property-min-decreased', 'response-property-min-items-unset']]);
    expect(idsOf(post(pet({ type: 'string', maxLength: 5 })), post(pet({ type: 'string', maxLength: 0 })))).to.deep.equal([['request-property-max-decreased', 'request-property-max-length-decreased']]);
  });

  it('gives no id for a detail it cannot read, or one that goes the other way than its rule', () => {
    expect(oasdiffIdOf('request-body-multiple-of-changed', { detail: '5' })).to.equal(undefined);
    expect(oasdiffIdOf('request-body-max-decreased', { detail: 'maxLength 10 to 5 or fewer' })).to.equal(undefined);
    expect(oasdiffIdOf('request-body-max-decreased', { detail: 'the maxLength 10 to 5' })).to.equal(undefined);
    expect(oasdiffIdOf('request-body-max-decreased', { detail: 'maxContains 3 to maximum 2' })).to.equal(undefined);
    // A maximum set where there was none is lowered, never raised; one removed is raised, never lowered.
    expect(oasdiffIdOf('request-body-max-increased', { detail: 'none to maximum 5' })).to.equal(undefined);
    expect(oasdiffIdOf('response-body-max-decreased', { detail: 'maxLength 5 to none' })).to.equal(undefined);
    // The same details under the rules they belong to.
    expect(oasdiffIdOf('request-body-max-decreased', { detail: 'none to maximum 5' })).to.equal('request-body-max-set');
    expect(oasdiffIdOf('response-body-max-increased', { detail: 'maxLength 5 to none' })).to.equal('response-body-max-length-unset');
  });

  it('names a list of types that gained or lost types, and integer to number, as oasdiff does', () => {
    const one = (type: unknown) => ({ type });
    expect(idsOf(v31(post(one('string'))), v31(post(one(['integer', 'string']))))).to.deep.equal([['request-body-type-widened', 'request-body-list-of-types-widened']]);
    expect(idsOf(v31(post(one(['integer', 'string']))), v31(post(one('string'))))).to.deep.equal([['request-body-type-narrowed', 'request-body-list-of-types-narrowed']]);
    expect(idsOf(v31(get(one('string'))), v31(get(one(['integer', 'string']))))).to.deep.equal([['response-body-type-widened', 'response-body-list-of-types-widened']]);
    expect(idsOf(get(one('integer')), get(one('number')))).to.deep.equal([['response-body-type-widened', 'response-body-type-generalized']]);
    expect(idsOf(get(one('number')), get(one('integer')))).to.deep.equal([['response-body-type-narrowed', 'response-body-type-specialized']]);
  });

  it('gives no type id where a parameter\'s text takes what oasdiff counts as a type taken away', () => {
    const query = (schema: object) => withParameter({ name: 'limit', in: 'query', schema });
    const filter = (schema: object) => withParameter({ name: 'filter', in: 'query', schema: { type: 'object', properties: { kind: schema } } });
    // oasdiff: the integer (or the boolean) was taken away, a type changed; ours: a text takes it still.
    expect(idsOf(query({ type: 'integer' }), query({ type: 'string' }))).to.deep.equal([['request-parameter-type-widened', undefined]]);
    expect(idsOf(v31(query({ type: ['boolean', 'integer'] })), v31(query({ type: ['integer', 'number', 'string'] })))).to.deep.equal([['request-parameter-type-widened', undefined]]);
    expect(idsOf(filter({ type: 'string' }), filter({ type: 'integer' }))).to.deep.equal([['request-property-type-narrowed', undefined]]);
    expect(idsOf(filter({ type: 'number' }), filter({ type: 'integer' }))).to.deep.equal([['request-property-type-narrowed', 'request-parameter-property-type-specialized']]);
  });

  it('reads the direction from the item: an enum value added to a response, a property removed from a request', () => {
    const status = (values: string[]) => pet({ type: 'string', enum: values });
    expect(idsOf(get(status(['a'])), get(status(['a', 'b'])))).to.deep.equal([['response-property-enum-value-added', 'response-property-enum-value-added']]);
    expect(idsOf(post(status(['a', 'b'])), post(status(['a'])))).to.deep.equal([['request-property-enum-value-removed', 'request-property-enum-value-removed']]);
    expect(idsOf(post(pet({ type: 'string' })), post({ type: 'object', properties: {} }))).to.deep.equal([['request-property-removed', 'request-property-removed']]);
    // oasdiff tells a required property removed from a response (breaking) from an optional one (info); our item does not say.
    expect(idsOf(get(pet({ type: 'string' })), get({ type: 'object', properties: {} }))).to.deep.equal([['response-property-removed', undefined]]);
    expect(idsOf(post({ type: 'integer' }), post({ type: 'number' }))).to.deep.equal([['request-body-type-widened', 'request-body-type-generalized']]);
    expect(idsOf(get({ type: 'string' }), get({ type: 'string', nullable: true }))).to.deep.equal([['response-body-nullable-added', 'response-body-became-nullable']]);
  });

  it('names a property of a parameter\'s object as oasdiff does, a header\'s by its own ids where it has them', () => {
    const header = (schema: object) => withParameter({ name: 'X-Filter', in: 'header', schema: { type: 'object', properties: { kind: schema } } });
    const query = (schema: object) => withParameter({ name: 'filter', in: 'query', schema: { type: 'object', properties: { kind: schema } } });
    expect(idsOf(header({ type: 'string' }), header({ type: 'string', enum: ['a'] }))).to.deep.equal([['request-property-enum-added', 'request-header-property-became-enum']]);
    expect(idsOf(query({ type: 'string' }), query({ type: 'string', enum: ['a'] }))).to.deep.equal([['request-property-enum-added', undefined]]);
    expect(idsOf(header({ type: 'string', enum: ['a', 'b'] }), header({ type: 'string', enum: ['a'] }))).to.deep.equal([['request-property-enum-value-removed', 'request-parameter-property-enum-value-removed']]);
    expect(idsOf(query({ type: 'string' }), query({ type: 'string', nullable: true }))).to.deep.equal([['request-property-nullable-added', 'request-parameter-property-became-nullable']]);
  });

  it('tells patterns, multiples and defaults set, removed and changed apart, and a multiple oasdiff knows to widen or narrow', () => {
    expect(idsOf(post(pet({ type: 'string' })), post(pet({ type: 'string', pattern: '^[a-z]+$' })))).to.deep.equal([['request-property-pattern-added', 'request-property-pattern-added']]);
    expect(idsOf(post(pet({ type: 'string', pattern: '^[a-z]+$' })), post(pet({ type: 'string', pattern: '^[a-z ]+$' })))).to.deep.equal([['request-property-pattern-changed', 'request-property-pattern-changed']]);
    expect(idsOf(get(pet({ type: 'string', pattern: '^[a-z]+$' })), get(pet({ type: 'string' })))).to.deep.equal([['response-property-pattern-removed', 'response-property-pattern-removed']]);
    expect(idsOf(post(pet({ type: 'integer', multipleOf: 10 })), post(pet({ type: 'integer', multipleOf: 5 })))).to.deep.equal([['request-property-multiple-of-widened', 'request-property-multiple-of-generalized']]);
    expect(idsOf(post(pet({ type: 'integer', multipleOf: 5 })), post(pet({ type: 'integer', multipleOf: 10 })))).to.deep.equal([['request-property-multiple-of-narrowed', 'request-property-multiple-of-changed']]);
    expect(idsOf(get(pet({ type: 'integer', multipleOf: 5 })), get(pet({ type: 'integer', multipleOf: 10 })))).to.deep.equal([['response-property-multiple-of-narrowed', 'response-property-multiple-of-specialized']]);
    expect(idsOf(post(pet({ type: 'integer', multipleOf: 4 })), post(pet({ type: 'integer', multipleOf: 6 })))).to.deep.equal([['request-property-multiple-of-changed', 'request-property-multiple-of-changed']]);
    expect(idsOf(post(pet({ type: 'integer' })), post(pet({ type: 'integer', default: 5 })))).to.deep.equal([['request-property-default-changed', 'request-property-default-value-added']]);
    expect(idsOf(post(pet({ type: 'integer', default: 5 })), post(pet({ type: 'integer' })))).to.deep.equal([['request-property-default-changed', 'request-property-default-value-removed']]);
    expect(idsOf(post(pet({ type: 'integer', default: 5 })), post(pet({ type: 'integer', default: 6 })))).to.deep.equal([['request-property-default-changed', 'request-property-default-value-changed']]);
  });

  it('names a multiple set or removed, and one that lets more values into a request or fewer out of a response, in body and property alike', () => {
    const multiple = (multipleOf?: number) => ({ type: 'integer', ...(multipleOf === undefined ? {} : { multipleOf }) });
    expect(idsOf(post(pet(multiple())), post(pet(multiple(5))))).to.deep.equal([['request-property-multiple-of-narrowed', 'request-property-multiple-of-set']]);
    expect(idsOf(post(pet(multiple(5))), post(pet(multiple())))).to.deep.equal([['request-property-multiple-of-widened', 'request-property-multiple-of-unset']]);
    expect(idsOf(post(multiple(10)), post(multiple(5)))).to.deep.equal([['request-body-multiple-of-widened', 'request-body-multiple-of-generalized']]);
    expect(idsOf(get(multiple(5)), get(multiple(10)))).to.deep.equal([['response-body-multiple-of-narrowed', 'response-body-multiple-of-specialized']]);
    // A response's multiple that lets more values out, or another that neither divides nor is divided by the old: changed.
    expect(idsOf(get(pet(multiple(10))), get(pet(multiple(5))))).to.deep.equal([['response-property-multiple-of-widened', 'response-property-multiple-of-changed']]);
    expect(idsOf(get(pet(multiple(4))), get(pet(multiple(6))))).to.deep.equal([['response-property-multiple-of-changed', 'response-property-multiple-of-changed']]);
  });

  it('gives a property added the names oasdiff gives it, which do not read place then change', () => {
    const empty = { type: 'object', properties: {} };
    const required = { ...pet({ type: 'string' }), required: ['name'] };
    const header = (schema: object) => withParameter({ name: 'X-Filter', in: 'header', schema });
    expect(idsOf(post(empty), post(pet({ type: 'string' })))).to.deep.equal([['request-property-added', 'new-optional-request-property']]);
    expect(idsOf(post(empty), post(required))).to.deep.equal([['request-property-required-added', 'new-required-request-property']]);
    expect(idsOf(header({ type: 'object', properties: {} }), header({ type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] }))).to.deep.equal([['request-property-required-added', 'new-required-request-header-property']]);
    expect(idsOf(get(empty), get(pet({ type: 'string' })))).to.deep.equal([['response-property-added', 'response-optional-property-added']]);
    expect(idsOf(get(empty), get(required))).to.deep.equal([['response-property-required-added', 'response-required-property-added']]);
    expect(idsOf(get({ type: 'string', enum: ['a', 'b'] }), get({ type: 'string', enum: ['a'] }))).to.deep.equal([['response-body-enum-value-removed', 'response-mediatype-enum-value-removed']]);
  });

  it('names a response status added a success or not as oasdiff counts them, and leaves default and ranges out as it does', () => {
    const responses = (statuses: string[]) => doc({ paths: { '/pets': { get: { responses: Object.fromEntries(statuses.map((s) => [s, { description: 'ok' }])) } } } });
    expect(idsOf(responses(['200']), responses(['200', '201', '404', 'default', '5XX']))).to.deep.equal([
      ['response-status-added', 'response-success-status-added'],
      ['response-status-added', 'response-non-success-status-added'],
      ['response-status-added', undefined],
      ['response-status-added', undefined],
    ]);
    expect(idsOf(responses(['200', '201']), responses(['200']))).to.deep.equal([['response-success-status-removed', 'response-success-status-removed']]);
    expect(idsOf(responses(['200', '2XX']), responses(['200']))).to.deep.equal([['response-success-status-removed', undefined]]);
    // The same change, but oasdiff rates it info and we rate it breaking: no id.
    expect(idsOf(responses(['200', '404']), responses(['200']))).to.deep.equal([['response-status-removed', undefined]]);
  });

  it('counts a status a success from 200 to 299, both included, and only a status that is a number, as oasdiff does', () => {
    const responses = (statuses: string[]) => doc({ paths: { '/pets': { get: { responses: Object.fromEntries(statuses.map((s) => [s, { description: 'ok' }])) } } } });
    expect(idsOf(responses(['404']), responses(['404', '199', '200', '299', '300', '200x']))).to.deep.equal([
      ['response-status-added', 'response-non-success-status-added'],
      ['response-status-added', 'response-success-status-added'],
      ['response-status-added', 'response-success-status-added'],
      ['response-status-added', 'response-non-success-status-added'],
      ['response-status-added', undefined],
    ]);
    const at = (status: string): ChangeLocation => ({ method: 'GET', path: '/pets', status });
    expect(oasdiffIdOf('response-status-added', { location: at('x-201') })).to.equal(undefined);
    expect(oasdiffIdOf('response-success-status-removed', { location: at('201x') })).to.equal(undefined);
  });

  it('gives the operation and parameter rules their ids, and none where oasdiff says more than the item (a removal with or without deprecation)', () => {
    const op = (operation: object = {}, path = '/pets') => doc({ paths: { [path]: { get: { responses: { '200': { description: 'ok' } }, ...operation } } } });
    const limit = { name: 'limit', in: 'query', schema: { type: 'integer' } };
    expect(idsOf(op({ parameters: [limit] }), op())).to.deep.equal([['request-parameter-removed', 'request-parameter-removed']]);
    expect(idsOf(op(), op({ parameters: [{ ...limit, required: true }] }))).to.deep.equal([['request-parameter-required-added', 'new-required-request-parameter']]);
    expect(idsOf(op({ operationId: 'a' }), op({ operationId: 'b' }))).to.deep.equal([['endpoint-operation-id-changed', 'api-operation-id-removed']]);
    expect(idsOf(op(), doc())).to.deep.equal([['endpoint-removed', undefined]]);
    expect(classifyChanges(op(), doc())[0]).to.not.have.property('oasdiffId');
  });

  it('answers from a location alone where that decides, and gives nothing for a place oasdiff does not compare', () => {
    const body: ChangeLocation = { method: 'POST', path: '/pets', status: 'requestBody', mediaType: 'application/json', property: 'name' };
    expect(oasdiffIdOf('request-property-nullable-removed', { location: body })).to.equal('request-property-became-not-nullable');
    expect(oasdiffIdOf('request-property-nullable-removed')).to.equal(undefined);
    expect(oasdiffIdOf('request-property-max-decreased', { location: body })).to.equal(undefined);
    expect(oasdiffIdOf('request-property-max-decreased', { location: body, detail: 'maxProperties 5 to 3' })).to.equal('request-property-max-properties-decreased');
    expect(oasdiffIdOf('response-property-nullable-added', { location: { method: 'GET', path: '/pets', status: '200', header: 'X-Rate', property: 'limit' } })).to.equal(undefined);
    // A place of a kind not known here (a callback's) is not taken for an operation's.
    expect(oasdiffIdOf('request-property-nullable-removed', { location: { ...body, callback: 'onEvent' } })).to.equal(undefined);
  });

  it('lists, for an item without a location, the ids of every place its property may be in', () => {
    expect(oasdiffIdsOf('request-property-enum-added')).to.deep.equal(['request-property-became-enum', 'request-header-property-became-enum']);
    expect(oasdiffIdsOf('request-property-nullable-added')).to.deep.equal(['request-property-became-nullable', 'request-parameter-property-became-nullable']);
    expect(oasdiffIdsOf('response-property-nullable-added')).to.deep.equal(['response-property-became-nullable']);
  });

  it('gives a property no id where its location is not a place of its direction', () => {
    const operation = { method: 'GET', path: '/pets', property: 'name' };
    expect(oasdiffIdOf('response-property-nullable-added', { location: { ...operation, status: '200' } })).to.equal('response-property-became-nullable');
    expect(oasdiffIdOf('request-property-nullable-removed', { location: { ...operation, status: '200' } })).to.equal(undefined);
    expect(oasdiffIdOf('request-property-nullable-removed', { location: operation })).to.equal(undefined);
    expect(oasdiffIdOf('response-property-nullable-added', { location: { ...operation, status: 'requestBody' } })).to.equal(undefined);
    expect(oasdiffIdOf('response-property-nullable-added', { location: { ...operation, status: '200', parameter: 'query filter' } })).to.equal(undefined);
    expect(oasdiffIdOf('response-property-nullable-added', { location: operation })).to.equal(undefined);
  });
});
