import fc from 'fast-check';

/**
 * Pairs of JSON Schema 2020-12 schemas (OpenAPI 3.1), an older and a newer made from it by one or
 * two mutations, for the semantic oracle of the change classifier (test/support/schema-oracle.ts).
 * A pair is generated as a base schema and mutation seeds (numbers that pick a place, an operation
 * and its argument), so that fast-check, or {@link shrinkPair}, shrinks the base and the seeds and
 * the mutations stay applicable to whatever the base shrank to.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMap = { [key: string]: Json };

export const NAMES = ['a', 'b', 'c'] as const;
/** The only patterns used: the value sampler knows strings that match and strings that do not. */
export const PATTERNS = ['^[a-z]+$', '^[0-9]+$', '^a', 'b$'] as const;
const STRINGS = ['a', 'b', 'ab', '', '1'];
const NUMBERS = [0, 1, 2, -1, 2.5];
const MIXED: Json[] = ['a', 'b', 1, 2, true, null];

/** Small schemas put in place by mutations (a property added, an alternative, `items`...). */
export const LEAVES: readonly Json[] = [
  { type: 'string' },
  { type: 'integer' },
  { type: 'string', maxLength: 2 },
  { type: 'integer', minimum: 0 },
  { type: 'null' },
  { type: 'boolean' },
  { const: 'a' },
  { enum: ['a', 'b'] },
  { type: 'number' },
  { type: 'object' },
  { type: 'array', items: { type: 'string' } },
  {},
  { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
];
const CONDITIONS: readonly Json[] = [{ required: ['a'] }, { properties: { a: { const: 'a' } }, required: ['a'] }, { type: 'string' }, { minimum: 1 }, { maxLength: 1 }];
const CONSEQUENCES: readonly Json[] = [{ required: ['b'] }, { maxLength: 1 }, { type: 'string' }, { maximum: 1 }, { properties: { b: { type: 'integer' } } }, false];
const NAME_SCHEMAS: readonly Json[] = [{ pattern: '^[a-z]+$' }, { maxLength: 1 }, { enum: ['a', 'b'] }, { const: 'a' }];
const DEPENDENT: readonly Json[] = [{ a: ['b'] }, { b: ['a'] }, { a: ['b', 'c'] }, { c: ['a'] }];

const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'] as const;

/** `arb` `eighths` times in eight, else `undefined` (left out). */
function maybe<T>(arb: fc.Arbitrary<T>, eighths = 2): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 8 - eighths, arbitrary: fc.constant(undefined) }, { weight: eighths, arbitrary: arb });
}

function withoutUndefined(record: Record<string, Json | undefined>): JsonMap {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as JsonMap;
}

const typeOf = (type: string): fc.Arbitrary<Json> => fc.oneof({ weight: 3, arbitrary: fc.constant<Json>(type) }, { weight: 1, arbitrary: fc.constant<Json>([type, 'null']) });

/** One of enum, const, or neither. */
function values(pool: readonly Json[]): fc.Arbitrary<Record<string, Json | undefined>> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) }).map((e) => ({ enum: e })) },
    { weight: 1, arbitrary: fc.constantFrom(...pool).map((c) => ({ const: c })) },
  );
}

const stringSchema: fc.Arbitrary<Json> = fc
  .tuple(
    fc.record({ type: typeOf('string'), minLength: maybe(fc.integer({ min: 0, max: 3 })), maxLength: maybe(fc.integer({ min: 1, max: 5 })), pattern: maybe(fc.constantFrom(...PATTERNS)) }),
    values(STRINGS),
  )
  .map(([r, v]) => withoutUndefined({ ...r, ...v }));

const numberSchema: fc.Arbitrary<Json> = fc
  .tuple(
    fc.record({
      type: fc.constantFrom('integer', 'number').chain(typeOf),
      minimum: maybe(fc.integer({ min: -2, max: 3 })),
      maximum: maybe(fc.integer({ min: 0, max: 6 })),
      exclusiveMinimum: maybe(fc.integer({ min: -2, max: 3 }), 1),
      exclusiveMaximum: maybe(fc.integer({ min: 0, max: 6 }), 1),
      multipleOf: maybe(fc.constantFrom(2, 3, 0.5), 1),
    }),
    values(NUMBERS),
  )
  .map(([r, v]) => withoutUndefined({ ...r, ...v }));

const scalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: stringSchema },
  { weight: 3, arbitrary: numberSchema },
  { weight: 1, arbitrary: fc.constant({ type: 'boolean' }) },
  { weight: 1, arbitrary: fc.constant({ type: 'null' }) },
  { weight: 1, arbitrary: values(MIXED).map((v) => withoutUndefined(v)) },
  { weight: 1, arbitrary: fc.subarray([...TYPES], { minLength: 2, maxLength: 3 }).map((type) => ({ type })) },
);

/** A base schema at most `depth` applicators deep. */
export function baseSchema(depth: number): fc.Arbitrary<Json> {
  if (depth === 0) return scalar;
  const inner = baseSchema(depth - 1);
  const object = fc
    .record({
      type: maybe(typeOf('object'), 6),
      properties: fc.dictionary(fc.constantFrom(...NAMES), inner, { minKeys: 0, maxKeys: 3 }),
      required: maybe(fc.subarray([...NAMES], { minLength: 1 }), 4),
      additionalProperties: maybe(fc.oneof(fc.constant(false), inner)),
      propertyNames: maybe(fc.constantFrom(...NAME_SCHEMAS), 1),
      dependentRequired: maybe(fc.constantFrom(...DEPENDENT), 1),
      minProperties: maybe(fc.integer({ min: 0, max: 2 }), 1),
      maxProperties: maybe(fc.integer({ min: 1, max: 3 }), 1),
      unevaluatedProperties: maybe(fc.constant(false), 1),
    })
    .map(withoutUndefined);
  const array = fc
    .record({
      type: typeOf('array'),
      items: maybe(inner, 6),
      prefixItems: maybe(fc.array(inner, { minLength: 1, maxLength: 2 }), 1),
      contains: maybe(inner, 1),
      minContains: maybe(fc.integer({ min: 0, max: 2 }), 1),
      maxContains: maybe(fc.integer({ min: 1, max: 2 }), 1),
      minItems: maybe(fc.integer({ min: 0, max: 2 })),
      maxItems: maybe(fc.integer({ min: 1, max: 4 })),
      uniqueItems: maybe(fc.constant(true), 1),
    })
    .map(withoutUndefined);
  const choice = fc.tuple(fc.constantFrom('oneOf', 'anyOf', 'allOf'), fc.array(inner, { minLength: 1, maxLength: 3 }), maybe(fc.constantFrom(...TYPES), 1)).map(([keyword, list, type]) => withoutUndefined({ type, [keyword]: list }));
  const negation = fc.tuple(inner, maybe(fc.constantFrom(...TYPES))).map(([not, type]) => withoutUndefined({ type, not }));
  const condition = fc
    .record({ type: maybe(fc.constantFrom('object', 'string', 'integer')), if: fc.oneof(fc.constantFrom(...CONDITIONS), inner), then: maybe(fc.oneof(fc.constantFrom(...CONSEQUENCES), inner), 6), else: maybe(fc.oneof(fc.constantFrom(...CONSEQUENCES), inner), 4) })
    .map(withoutUndefined);
  return fc.oneof(
    { weight: 3, arbitrary: scalar },
    { weight: 4, arbitrary: object },
    { weight: 2, arbitrary: array },
    { weight: 2, arbitrary: choice },
    { weight: 1, arbitrary: negation },
    { weight: 1, arbitrary: condition },
  );
}

/** Picks a place (`at`), an operation there (`op`) and its argument (`arg`), each modulo what there is. */
export interface MutationSeed {
  readonly at: number;
  readonly op: number;
  readonly arg: number;
}

export interface PairInput {
  readonly base: Json;
  readonly seeds: readonly MutationSeed[];
}

export interface SchemaPair {
  readonly older: Json;
  readonly newer: Json;
  /** The mutations made, e.g. `remove:maxLength`, `wrap:oneOf`, `narrow:type`. */
  readonly kinds: readonly string[];
}

export const pairInputs: fc.Arbitrary<PairInput> = fc.record({
  base: baseSchema(2),
  seeds: fc.array(fc.record({ at: fc.nat(), op: fc.nat(), arg: fc.nat() }), { minLength: 1, maxLength: 2 }),
});

type Path = readonly (string | number)[];

const isMap = (value: Json | undefined): value is JsonMap => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a schema, a list of schemas or a map of schemas. */
const SCHEMA_KEYWORDS = ['items', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else'];
const LIST_KEYWORDS = ['prefixItems', 'oneOf', 'anyOf', 'allOf'];
const MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas'];

/** Every place a schema stands in `schema` (itself first), as paths of keys. */
export function schemaPlaces(schema: Json, path: Path = []): Path[] {
  const places: Path[] = [path];
  if (!isMap(schema)) return places;
  for (const keyword of SCHEMA_KEYWORDS) if (schema[keyword] !== undefined) places.push(...schemaPlaces(schema[keyword], [...path, keyword]));
  for (const keyword of LIST_KEYWORDS) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((member, i) => places.push(...schemaPlaces(member, [...path, keyword, i])));
  }
  for (const keyword of MAP_KEYWORDS) {
    const map = schema[keyword];
    if (isMap(map)) for (const [name, member] of Object.entries(map)) places.push(...schemaPlaces(member, [...path, keyword, name]));
  }
  return places;
}

function getAt(value: Json, path: Path): Json {
  let here: Json = value;
  for (const key of path) here = (here as Record<string | number, Json>)[key]!;
  return here;
}

function setAt(value: Json, path: Path, replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === key ? setAt(v, rest, replacement) : v));
  const map = value as JsonMap;
  return { ...map, [key as string]: setAt(map[key as string]!, rest, replacement) };
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

interface Operation {
  readonly kind: string;
  readonly apply: (node: JsonMap, arg: number) => Json;
}

/** The values a keyword added (or changed to) takes, by keyword. */
const ADDED: Record<string, readonly Json[]> = {
  minLength: [0, 1, 2, 3],
  maxLength: [0, 1, 2, 3, 5],
  pattern: PATTERNS,
  minimum: [-1, 0, 1, 2, 5],
  maximum: [-1, 0, 1, 2, 5],
  exclusiveMinimum: [-1, 0, 1, 2, 5],
  exclusiveMaximum: [-1, 0, 1, 2, 5],
  multipleOf: [2, 3, 0.5, 4],
  minItems: [0, 1, 2, 3],
  maxItems: [0, 1, 2, 3],
  minContains: [0, 1, 2],
  maxContains: [0, 1, 2],
  minProperties: [0, 1, 2],
  maxProperties: [0, 1, 2],
  uniqueItems: [true],
  items: [...LEAVES, false],
  prefixItems: LEAVES.map((leaf) => [leaf]),
  contains: LEAVES,
  additionalProperties: [false, ...LEAVES],
  unevaluatedProperties: [false, ...LEAVES],
  propertyNames: NAME_SCHEMAS,
  dependentRequired: DEPENDENT,
  not: LEAVES,
  if: CONDITIONS,
  then: CONSEQUENCES,
  else: CONSEQUENCES,
  const: MIXED,
  enum: [['a'], ['a', 'b'], [1, 2], ['a', 1, null], [true]],
  type: TYPES,
  required: NAMES.map((n) => [n]),
};

const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['minItems', 'maxItems', 'uniqueItems', 'items', 'prefixItems', 'contains', 'minContains', 'maxContains'],
  object: ['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'dependentRequired', 'minProperties', 'maxProperties', 'required'],
};
const ANY_TYPE = ['not', 'if', 'then', 'else', 'const', 'enum', 'type'];

function typesOf(node: JsonMap): string[] | null {
  const type = node['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return null;
}

function typeList(types: readonly string[]): Json {
  return types.length === 1 ? types[0]! : [...types];
}

export function without(map: JsonMap, key: string): JsonMap {
  return Object.fromEntries(Object.entries(map).filter(([k]) => k !== key));
}

function nudged(value: number, arg: number): number {
  const moved = pick([value + 1, value - 1, value * 2, value + 2, Math.floor(value / 2)], arg);
  return moved === value ? value + 1 : moved;
}

/** What can be done to the schema `node`. */
function operations(node: JsonMap): Operation[] {
  const ops: Operation[] = [];
  const types = typesOf(node);
  for (const key of Object.keys(node)) ops.push({ kind: `remove:${key}`, apply: (n) => without(n, key) });
  const applicable = types === null ? Object.values(KEYWORDS_OF).flat() : types.flatMap((t) => KEYWORDS_OF[t === 'integer' ? 'number' : t] ?? []);
  for (const keyword of [...applicable, ...ANY_TYPE]) {
    // then and else mean nothing without if: added only beside one.
    if ((keyword === 'then' || keyword === 'else') && node['if'] === undefined) continue;
    if (node[keyword] === undefined) ops.push({ kind: `add:${keyword}`, apply: (n, arg) => ({ ...n, [keyword]: pick(ADDED[keyword]!, arg) }) });
  }
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'number' && key !== 'multipleOf') ops.push({ kind: `change:${key}`, apply: (n, arg) => ({ ...n, [key]: Math.max(key.startsWith('m') && !key.endsWith('imum') ? 0 : -10, nudged(value, arg)) }) });
    if (key === 'multipleOf' || key === 'pattern' || key === 'const' || key === 'propertyNames' || key === 'if' || key === 'dependentRequired') {
      ops.push({ kind: `change:${key}`, apply: (n, arg) => ({ ...n, [key]: pick(ADDED[key]!.filter((v) => JSON.stringify(v) !== JSON.stringify(value)), arg) }) });
    }
    if ((key === 'minimum' || key === 'maximum') && typeof value === 'number') {
      const exclusive = key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
      ops.push({ kind: `change:${key}-to-${exclusive}`, apply: (n) => ({ ...without(n, key), [exclusive]: value }) });
    }
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number') {
      const inclusive = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      ops.push({ kind: `change:${key}-to-${inclusive}`, apply: (n) => ({ ...without(n, key), [inclusive]: value }) });
    }
    if (key === 'additionalProperties' || key === 'unevaluatedProperties' || key === 'items') {
      ops.push({ kind: `change:${key}`, apply: (n, arg) => ({ ...n, [key]: pick(ADDED[key]!.filter((v) => JSON.stringify(v) !== JSON.stringify(value)), arg) }) });
    }
  }
  if (types !== null) {
    const others = TYPES.filter((t) => !types.includes(t));
    ops.push({ kind: 'widen:type', apply: (n, arg) => ({ ...n, type: typeList([...types, pick(others, arg)]) }) });
    ops.push({ kind: 'change:type', apply: (n, arg) => ({ ...n, type: pick(others, arg) }) });
    if (types.length > 1) ops.push({ kind: 'narrow:type', apply: (n, arg) => ({ ...n, type: typeList(types.filter((_, i) => i !== arg % types.length)) }) });
    if (types.includes('integer')) ops.push({ kind: 'change:integer-to-number', apply: (n) => ({ ...n, type: typeList(types.map((t) => (t === 'integer' ? 'number' : t))) }) });
    if (types.includes('number')) ops.push({ kind: 'change:number-to-integer', apply: (n) => ({ ...n, type: typeList(types.map((t) => (t === 'number' ? 'integer' : t))) }) });
  }
  const list = node['enum'];
  if (Array.isArray(list)) {
    ops.push({ kind: 'add:enum-value', apply: (n, arg) => ({ ...n, enum: [...list, pick([...STRINGS, ...NUMBERS, ...MIXED].filter((v) => !list.some((w) => JSON.stringify(w) === JSON.stringify(v))), arg)] }) });
    if (list.length > 1) ops.push({ kind: 'remove:enum-value', apply: (n, arg) => ({ ...n, enum: list.filter((_, i) => i !== arg % list.length) }) });
  }
  const properties = isMap(node['properties']) ? node['properties'] : {};
  const required = Array.isArray(node['required']) ? node['required'].filter((r): r is string => typeof r === 'string') : [];
  const absent = NAMES.filter((name) => properties[name] === undefined);
  if (types === null || types.includes('object')) {
    if (absent.length > 0) {
      ops.push({ kind: 'add:property', apply: (n, arg) => ({ ...n, properties: { ...properties, [pick(absent, arg)]: pick(LEAVES, Math.floor(arg / 3)) } }) });
      ops.push({
        kind: 'add:required-property',
        apply: (n, arg) => {
          const name = pick(absent, arg);
          return { ...n, properties: { ...properties, [name]: pick(LEAVES, Math.floor(arg / 3)) }, required: [...new Set([...required, name])] };
        },
      });
    }
    const listed = Object.keys(properties);
    if (listed.length > 0) ops.push({ kind: 'remove:property', apply: (n, arg) => ({ ...n, properties: without(properties, pick(listed, arg)) }) });
    const optional = NAMES.filter((name) => !required.includes(name));
    if (optional.length > 0) ops.push({ kind: 'make-required', apply: (n, arg) => ({ ...n, required: [...required, pick(optional, arg)] }) });
    if (required.length > 0) {
      ops.push({
        kind: 'make-optional',
        apply: (n, arg) => {
          const rest = required.filter((_, i) => i !== arg % required.length);
          return rest.length === 0 ? without(n, 'required') : { ...n, required: rest };
        },
      });
    }
    const dependent = node['dependentRequired'];
    if (isMap(dependent) && Object.keys(dependent).length > 0) {
      ops.push({ kind: 'change:dependentRequired', apply: (n, arg) => ({ ...n, dependentRequired: { ...dependent, ...(pick(DEPENDENT, arg) as JsonMap) } }) });
    }
  }
  const prefix = node['prefixItems'];
  if (Array.isArray(prefix)) {
    ops.push({ kind: 'add:prefix-position', apply: (n, arg) => ({ ...n, prefixItems: [...prefix, pick(LEAVES, arg)] }) });
    if (prefix.length > 1) ops.push({ kind: 'remove:prefix-position', apply: (n) => ({ ...n, prefixItems: prefix.slice(0, -1) }) });
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    const options = node[keyword];
    if (!Array.isArray(options)) continue;
    ops.push({ kind: `add:${keyword}-option`, apply: (n, arg) => ({ ...n, [keyword]: [...options, pick(LEAVES, arg)] }) });
    if (options.length > 1) ops.push({ kind: `remove:${keyword}-option`, apply: (n, arg) => ({ ...n, [keyword]: options.filter((_, i) => i !== arg % options.length) }) });
    if (Object.keys(node).length === 1 && options.length === 1) ops.push({ kind: `unwrap:${keyword}`, apply: () => options[0]! });
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    ops.push({ kind: `wrap:${keyword}`, apply: (n, arg) => ({ [keyword]: arg % 4 === 0 ? [n] : [n, pick(LEAVES, arg)] }) });
  }
  return ops;
}

/** The schema `schema` after the mutation `seed`, and its kind; null where the place holds a boolean schema and `seed` leaves it. */
function mutated(schema: Json, seed: MutationSeed): { schema: Json; kind: string } {
  const places = schemaPlaces(schema);
  const path = pick(places, seed.at);
  const node = getAt(schema, path);
  if (!isMap(node)) {
    // A boolean schema: flipped, or written as the object schema it stands for.
    const replacement = seed.op % 2 === 0 ? !node : node === false ? { not: {} } : {};
    return { schema: setAt(schema, path, replacement), kind: `change:boolean-schema` };
  }
  const op = pick(operations(node), seed.op);
  return { schema: setAt(schema, path, op.apply(node, seed.arg)), kind: op.kind };
}

export function pairOf(input: PairInput): SchemaPair {
  let newer = input.base;
  const kinds: string[] = [];
  for (const seed of input.seeds) {
    const next = mutated(newer, seed);
    newer = next.schema;
    kinds.push(next.kind);
  }
  return { older: input.base, newer, kinds };
}

/** Smaller inputs than `value` (a key left out, an item left out, a number nearer 0), nearest first. */
function* smaller(value: Json): Generator<Json> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield value.filter((_, j) => j !== i);
    for (let i = 0; i < value.length; i++) for (const s of smaller(value[i]!)) yield value.map((v, j) => (j === i ? s : v));
    return;
  }
  if (isMap(value)) {
    const keys = Object.keys(value);
    for (const key of keys) yield without(value, key);
    for (const key of keys) {
      const inner = value[key]!;
      if (isMap(inner) && Object.keys(inner).length > 0) yield { ...value, [key]: {} };
      for (const s of smaller(inner)) yield { ...value, [key]: s };
    }
    return;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value !== 0) {
    yield 0;
    if (Math.abs(value) > 1) yield Math.trunc(value / 2);
    yield value > 0 ? value - 1 : value + 1;
  }
}

function safely(holds: (input: PairInput) => boolean, input: PairInput): boolean {
  try {
    return holds(input);
  } catch {
    return false;
  }
}

/**
 * The smallest input found, by greedy steps, that keeps `holds` true: its base and its seeds shrunk
 * a key, an item, a number at a time. `budget` bounds the inputs tried.
 */
export function shrinkPair(input: PairInput, holds: (input: PairInput) => boolean, budget = 3000): PairInput {
  let current = input;
  let tried = 0;
  let progress = true;
  while (progress && tried < budget) {
    progress = false;
    const candidates = function* (): Generator<PairInput> {
      for (const base of smaller(current.base)) yield { base, seeds: current.seeds };
      if (current.seeds.length > 1) for (let i = 0; i < current.seeds.length; i++) yield { base: current.base, seeds: current.seeds.filter((_, j) => j !== i) };
      for (let i = 0; i < current.seeds.length; i++) {
        for (const field of ['at', 'op', 'arg'] as const) {
          for (const n of smaller(current.seeds[i]![field])) yield { base: current.base, seeds: current.seeds.map((s, j) => (j === i ? { ...s, [field]: n as number } : s)) };
        }
      }
    };
    for (const candidate of candidates()) {
      if (++tried > budget) break;
      if (safely(holds, candidate)) {
        current = candidate;
        progress = true;
        break;
      }
    }
  }
  return current;
}
