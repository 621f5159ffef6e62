import fc from 'fast-check';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';

/**
 * Generated OpenAPI 3.1 documents whose schemas use the JSON Schema 2020-12 keywords 3.1 takes:
 * type lists, `const`, `enum` (with null), `x-extensible-enum`, numeric exclusive bounds,
 * `prefixItems` with or without `items` (`items: false` too), `unevaluatedItems`, `contains` with
 * `minContains`/`maxContains`, `patternProperties`, `propertyNames`, `dependentRequired`,
 * `dependentSchemas`, `unevaluatedProperties`, `if`/`then`/`else`, `not`, `allOf`, `oneOf`/`anyOf`
 * (some with a discriminator, with or without a mapping), `contentMediaType`/`contentEncoding`/
 * `contentSchema`, `readOnly`/`writeOnly`, boolean schemas, `$defs` referred to as
 * `#/components/schemas/X/$defs/Y` and `$anchor`s referred to as `#name`; with webhooks, callbacks,
 * and parameters in the path, query, headers and cookies with their styles.
 *
 * A model refers only to the models before it in {@link MODELS_31} and to its own `$defs`, and a
 * `$defs` member only to earlier models: no cycles, so any model can be written in place of its
 * references. No `$ref` has siblings. Discriminated choices are lists of references to the models
 * {@link VARIANTS} (both require `kind`); every other alternative is drawn like any schema.
 */
type Json = Record<string, unknown>;

export const MODELS_31 = ['Cat', 'Dog', 'Pet', 'Owner', 'Tag', 'Problem'] as const;
/** The models a discriminator on `kind` tells apart; first, so that every later model may choose between them. */
export const VARIANTS = ['Cat', 'Dog'] as const;
const DEF_NAMES = ['Id', 'Label', 'Money'];
const NAMES = ['id', 'name', 'tag', 'age', 'status', 'owner'];

/** The `$anchor` a model may carry (`#catAnchor` refers to it). */
export const anchorOf = (model: string): string => `${model.toLowerCase()}Anchor`;

/** Which models carry an anchor, and the names of their `$defs` members. */
interface Layout {
  readonly anchor: boolean;
  readonly defs: readonly string[];
}

/**
 * A reference as drawn, before the document's layout is known: `{ $ref: Draw }` (a `$ref` no
 * document has) becomes a reference to a model, its anchor or one of its `$defs` members, among
 * those the place may refer to, once the models are drawn.
 */
interface Draw {
  readonly pick: number;
  readonly form: 'model' | 'anchor' | 'def' | 'own-def';
}

const drawnRef: fc.Arbitrary<{ $ref: Draw }> = fc.record({ pick: fc.nat(), form: fc.constantFrom('model', 'model', 'anchor', 'def', 'own-def') }).map(($ref) => ({ $ref }));

/** What a place may refer to: the models before `bound` and, for a model's own body, its `$defs`. */
interface Place {
  readonly layout: readonly Layout[];
  readonly bound: number;
  readonly self: number | null;
}

/** A drawn reference made real, or `{}` (any value) where the place may refer to nothing. */
function realRef({ pick, form }: Draw, place: Place): Json {
  const own = place.self === null ? [] : place.layout[place.self]!.defs;
  if (form === 'own-def' && own.length > 0) return { $ref: `#/components/schemas/${MODELS_31[place.self!]}/$defs/${own[pick % own.length]}` };
  if (place.bound === 0) return {};
  const i = pick % place.bound;
  const [model, layout] = [MODELS_31[i]!, place.layout[i]!];
  if (form === 'anchor' && layout.anchor) return { $ref: `#${anchorOf(model)}` };
  if (form === 'def' && layout.defs.length > 0) return { $ref: `#/components/schemas/${model}/$defs/${layout.defs[pick % layout.defs.length]}` };
  return { $ref: `#/components/schemas/${model}` };
}

function resolved(value: unknown, place: Place): unknown {
  if (Array.isArray(value)) return value.map((v) => resolved(v, place));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as Json)['$ref'];
  if (typeof ref === 'object' && ref !== null) return realRef(ref as Draw, place);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v, place)]));
}

const leaves: fc.Arbitrary<unknown> = (() => {
  const values: fc.Arbitrary<unknown>[] = [
    fc.record({ type: fc.constant('string'), format: fc.constantFrom('date', 'date-time', 'uuid', 'email'), maxLength: fc.integer({ min: 1, max: 64 }), pattern: fc.constantFrom('^[a-z]+$', '^\\d{3}$') }, { requiredKeys: ['type'] }),
    fc.constantFrom(['string', 'null'], ['integer', 'null'], ['number', 'string'], ['boolean', 'null'], ['array', 'object']).map((type) => ({ type })),
    fc.constantFrom({ const: 'fixed' }, { type: 'integer', const: 7 }, { const: null }, { type: ['string', 'null'], const: 'fixed' }),
    fc
      .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 })
      .chain((values) => fc.constantFrom({ type: 'string', enum: values }, { type: ['string', 'null'], enum: [...values, null] }, { enum: [...values, 1] })),
    fc.uniqueArray(fc.constantFrom('new', 'used', 'broken'), { minLength: 1 }).map((values) => ({ type: 'string', 'x-extensible-enum': values })),
    fc.record(
      {
        type: fc.constantFrom('integer', 'number'),
        exclusiveMinimum: fc.integer({ min: -5, max: 0 }),
        exclusiveMaximum: fc.integer({ min: 10, max: 20 }),
        maximum: fc.integer({ min: 9, max: 30 }),
        multipleOf: fc.constantFrom(1, 5),
        default: fc.constant(5),
      },
      { requiredKeys: ['type'] },
    ),
    fc.constantFrom({ type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' }, { type: 'string', contentMediaType: 'text/html' }),
    fc.constantFrom(true, {}),
  ];
  // References as often as all the rest: they are what moving and inlining rewrite.
  return fc.oneof({ weight: values.length, arbitrary: fc.oneof(...values) }, { weight: values.length, arbitrary: drawnRef });
})();

/** A property's schema, sometimes read-only or write-only (never beside a `$ref`: no `$ref` has siblings). */
function propertySchema(inner: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(inner, fc.constantFrom('plain', 'plain', 'readOnly', 'writeOnly', 'deprecated')).map(([schema, modifier]) =>
    modifier === 'plain' || typeof schema !== 'object' || schema === null || '$ref' in schema ? schema : { ...schema, [modifier]: true },
  );
}

function object(inner: fc.Arbitrary<unknown>): fc.Arbitrary<Json> {
  return fc.dictionary(fc.constantFrom(...NAMES), propertySchema(inner), { minKeys: 1, maxKeys: 3 }).chain((properties) => {
    const names = Object.keys(properties);
    const pairs = names.flatMap((a) => names.filter((b) => b !== a).map((b) => [a, b] as const));
    return fc
      .record(
        {
          required: fc.subarray(names),
          closing: fc.oneof(
            fc.constant({}),
            fc.constant({ additionalProperties: false }),
            inner.map((additionalProperties) => ({ additionalProperties })),
            fc.constant({ unevaluatedProperties: false }),
            inner.map((unevaluatedProperties) => ({ unevaluatedProperties })),
          ),
          patternProperties: inner.map((s) => ({ '^x-': s })),
          propertyNames: fc.constantFrom({ pattern: '^[a-z][a-zA-Z-]*$' }, { maxLength: 40 }),
          dependentRequired: pairs.length === 0 ? fc.constant(undefined) : fc.subarray(pairs, { minLength: 1 }).map((chosen) => Object.fromEntries(chosen.map(([a, b]) => [a, [b]]))),
          dependentSchemas: fc.tuple(fc.constantFrom(...names), inner).map(([name, s]) => ({ [name]: s })),
          maxProperties: fc.integer({ min: 4, max: 10 }),
        },
        { requiredKeys: ['required', 'closing'] },
      )
      .map(({ required, closing, ...rest }) => ({
        type: 'object',
        properties,
        ...(required.length > 0 ? { required } : {}),
        ...closing,
        ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      }));
  });
}

function composites(inner: fc.Arbitrary<unknown>, variants: boolean): fc.Arbitrary<unknown>[] {
  const list: fc.Arbitrary<unknown>[] = [
    fc.record({ items: inner, minItems: fc.integer({ min: 0, max: 3 }), maxItems: fc.integer({ min: 5, max: 9 }), uniqueItems: fc.boolean() }, { requiredKeys: ['items'] }).map((s) => ({ type: 'array', ...s })),
    fc
      .record({ prefixItems: fc.array(inner, { minLength: 1, maxLength: 2 }), rest: fc.constantFrom('open', 'items', 'no-items', 'unevaluated', 'no-unevaluated'), extra: inner })
      .map(({ prefixItems, rest, extra }) => ({
        type: 'array',
        prefixItems,
        ...{ open: {}, items: { items: extra }, 'no-items': { items: false }, unevaluated: { unevaluatedItems: extra }, 'no-unevaluated': { unevaluatedItems: false } }[rest],
      })),
    fc.record({ contains: inner, minContains: fc.integer({ min: 1, max: 2 }), maxContains: fc.integer({ min: 2, max: 5 }) }, { requiredKeys: ['contains'] }).map((s) => ({ type: 'array', ...s })),
    object(inner),
    fc.record({ then: inner, else: inner }, { requiredKeys: ['then'] }).map((branches) => ({
      type: 'object',
      properties: { kind: { type: 'string', enum: ['a', 'b'] } },
      required: ['kind'],
      if: { properties: { kind: { const: 'a' } } },
      ...branches,
    })),
    fc.oneof(inner.map((not) => ({ not })), fc.constant({ type: 'string', not: { const: '' } })),
    fc.tuple(fc.constantFrom('oneOf', 'anyOf'), fc.array(inner, { minLength: 2, maxLength: 3 })).map(([keyword, alternatives]) => ({ [keyword]: alternatives })),
    fc
      .record({
        base: inner,
        own: fc.dictionary(fc.constantFrom(...NAMES), inner, { minKeys: 1, maxKeys: 2 }),
        closing: fc.oneof(fc.constant({}), fc.constant({ unevaluatedProperties: false }), inner.map((unevaluatedProperties) => ({ unevaluatedProperties }))),
      })
      .map(({ base, own, closing }) => ({ allOf: [base, { type: 'object', properties: own }], ...closing })),
    inner.map((contentSchema) => ({ type: 'string', contentMediaType: 'application/json', contentSchema })),
  ];
  if (variants) {
    list.push(
      fc.record({ keyword: fc.constantFrom('oneOf', 'anyOf'), mapped: fc.option(fc.subarray([...VARIANTS]), { nil: undefined }) }).map(({ keyword, mapped }) => ({
        [keyword]: VARIANTS.map((v) => ({ $ref: `#/components/schemas/${v}` })),
        discriminator: { propertyName: 'kind', ...(mapped === undefined ? {} : { mapping: Object.fromEntries(mapped.map((v) => [v.toLowerCase(), `#/components/schemas/${v}`])) }) },
      })),
    );
  }
  return list;
}

const schemas = new Map<string, fc.Arbitrary<unknown>>();

/** A schema nested at most `depth` levels of keywords deep; `variants`: it may choose between the {@link VARIANTS}. */
function schema31(depth: number, variants: boolean): fc.Arbitrary<unknown> {
  const key = `${depth} ${variants}`;
  let made = schemas.get(key);
  if (made === undefined) {
    const nested = depth === 0 ? [] : composites(schema31(depth - 1, variants), variants);
    made = depth === 0 ? leaves : fc.oneof({ weight: nested.length, arbitrary: leaves }, ...nested.map((arbitrary) => ({ weight: 1, arbitrary })));
    schemas.set(key, made);
  }
  return made;
}

/** A variant of a discriminated choice: an object that requires `kind`. */
const variant: fc.Arbitrary<Json> = fc.dictionary(fc.constantFrom(...NAMES), propertySchema(schema31(1, false)), { maxKeys: 3 }).chain((properties) =>
  fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties: { kind: { type: 'string' }, ...properties }, required: ['kind', ...required] })),
);

/** Each model's body and `$defs` members as drawn, their references not yet made real. */
const drawnModels = fc.tuple(
  ...MODELS_31.map((name, i) => {
    const isVariant = (VARIANTS as readonly string[]).includes(name);
    return fc.record({ body: isVariant ? variant : schema31(2, true), defs: fc.record(Object.fromEntries(DEF_NAMES.map((d) => [d, schema31(1, !isVariant && i >= VARIANTS.length)]))) });
  }),
);

function models(layout: readonly Layout[], drawn: readonly { body: unknown; defs: Record<string, unknown> }[]): Json {
  return Object.fromEntries(
    MODELS_31.map((name, i) => {
      const own = layout[i]!;
      const schema = resolved(drawn[i]!.body, { layout, bound: i, self: i });
      if (!own.anchor && own.defs.length === 0) return [name, schema];
      const $defs = Object.fromEntries(own.defs.map((d) => [d, resolved(drawn[i]!.defs[d], { layout, bound: i, self: null })]));
      // A model that holds its anchor or its $defs is an object, never a boolean schema, nor a $ref beside them.
      const holder = typeof schema !== 'object' || schema === null ? {} : '$ref' in schema ? { allOf: [schema] } : schema;
      return [name, { ...(own.anchor ? { $anchor: anchorOf(name) } : {}), ...holder, ...(own.defs.length > 0 ? { $defs } : {}) }];
    }),
  );
}

/** Content by media type; its schemas one level shallower than the models', which hold the deeper nesting once for every place that refers to them. */
const media: fc.Arbitrary<Json> = fc.record(
  { 'application/json': fc.record({ schema: schema31(1, true) }), 'text/plain': fc.constant({ schema: { type: 'string' } }) },
  { requiredKeys: ['application/json'] },
);

const parameters: fc.Arbitrary<Json[]> = (() => {
  const simple = schema31(1, true);
  const query = fc.oneof(
    fc.record({ name: fc.constantFrom('limit', 'q'), style: fc.constant('form'), explode: fc.boolean(), schema: simple }),
    fc.record({
      name: fc.constant('tags'),
      style: fc.constantFrom('spaceDelimited', 'pipeDelimited'),
      explode: fc.constant(false),
      schema: fc.constantFrom({ type: 'array', items: { type: 'string' } }, { type: 'array', prefixItems: [{ type: 'string' }], items: false }),
    }),
    fc.record({ name: fc.constant('filter'), style: fc.constant('deepObject'), explode: fc.constant(true), schema: fc.constant({ type: 'object', properties: { color: { type: 'string' }, size: { type: 'integer', exclusiveMinimum: 0 } } }) }),
  );
  const parameter = fc.tuple(
    fc.oneof(
      query.map((p) => ({ ...p, in: 'query' })),
      fc.record({ name: fc.constant('X-Trace'), in: fc.constant('header'), style: fc.constant('simple'), explode: fc.boolean(), schema: simple }),
      fc.record({ name: fc.constant('session'), in: fc.constant('cookie'), style: fc.constant('form'), explode: fc.boolean(), schema: simple }),
    ),
    fc.boolean(),
  );
  return fc.uniqueArray(parameter.map(([p, required]) => ({ ...p, required })), { selector: (p) => `${p.in}:${p.name}`, maxLength: 3 });
})();

const pathParameter = fc
  .record({ style: fc.constantFrom('simple', 'label', 'matrix'), explode: fc.boolean(), schema: fc.constantFrom({ type: 'string' }, { type: 'integer', exclusiveMinimum: 0 }, { type: 'string', format: 'uuid' }) })
  .map((p) => ({ name: 'petId', in: 'path', required: true, ...p }));

/** What an API sends: a webhook's or a callback's POST. */
const sent: fc.Arbitrary<Json> = fc.record({ requestBody: fc.record({ required: fc.boolean(), content: media }), responses: fc.constant({ '200': { description: 'received' } }) });

const operation: fc.Arbitrary<Json> = fc.record(
  {
    parameters,
    requestBody: fc.record({ required: fc.boolean(), content: media }),
    responses: fc.record(
      {
        '200': fc.record(
          {
            description: fc.constant('ok'),
            content: media,
            headers: fc.record({ 'X-Rate': fc.record({ required: fc.boolean(), style: fc.constant('simple'), explode: fc.boolean(), schema: schema31(1, true) }) }),
          },
          { requiredKeys: ['description'] },
        ),
        '404': fc.constant({ description: 'nothing there' }),
      },
      { requiredKeys: ['200'] },
    ),
    callbacks: fc.record({ onPetEvent: fc.record({ '{$request.body#/callbackUrl}': fc.record({ post: sent }) }) }),
    deprecated: fc.boolean(),
    security: fc.constantFrom([], [{ key: [] }], [{ oauth: ['read'] }], [{ key: [] }, { oauth: ['read', 'write'] }]),
  },
  { requiredKeys: ['responses'] },
);

export const openApi31Documents: fc.Arbitrary<JsonObject> = fc
  .record({
    layout: fc.tuple(...MODELS_31.map(() => fc.record({ anchor: fc.boolean(), defs: fc.subarray(DEF_NAMES) }))),
    drawn: drawnModels,
    paths: fc.dictionary(
      fc.constantFrom('/pets', '/owners', '/pets/{petId}'),
      fc.tuple(fc.dictionary(fc.constantFrom('get', 'post', 'put', 'delete'), operation, { minKeys: 1, maxKeys: 2 }), pathParameter),
      { maxKeys: 3 },
    ),
    webhooks: fc.dictionary(fc.constantFrom('petAdopted', 'petLost'), fc.record({ post: sent }), { maxKeys: 2 }),
  })
  .map(({ layout, drawn, paths: generated, webhooks }) => {
    const paths: Json = {};
    for (const [path, [item, petId]] of Object.entries(generated)) {
      const operations: Json = {};
      for (const [method, op] of Object.entries(item)) {
        const { requestBody, parameters: own, ...rest } = op;
        operations[method] = {
          ...rest,
          ...(method === 'get' || method === 'delete' || requestBody === undefined ? {} : { requestBody }),
          parameters: [...(path.includes('{petId}') ? [petId] : []), ...((own as Json[] | undefined) ?? [])],
        };
      }
      paths[path] = operations;
    }
    const everywhere = { layout, bound: MODELS_31.length, self: null };
    // Fresh objects, and no undefined left: fast-check hands the same values again while it shrinks.
    const document: Json = {
      openapi: '3.1.0',
      info: { title: 'Generated', version: '1.0.0' },
      paths: resolved(paths, everywhere),
      ...(Object.keys(webhooks).length > 0 ? { webhooks: resolved(webhooks, everywhere) } : {}),
      components: {
        schemas: models(layout, drawn),
        securitySchemes: {
          key: { type: 'apiKey', in: 'header', name: 'X-Key' },
          oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://a.example.com/auth', tokenUrl: 'https://a.example.com/token', scopes: { read: 'r', write: 'w' } } } },
        },
      },
    };
    return JSON.parse(JSON.stringify(document)) as JsonObject;
  });
