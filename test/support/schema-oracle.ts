import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { Change } from '../../src/domain/spec/changes/change.js';
import { classifyChanges } from '../../src/domain/spec/changes/classify.js';
import type { JsonObject } from '../../src/domain/spec/spec-document.js';
import { NAMES, pairOf, without, type Json, type JsonMap, type PairInput, type SchemaPair } from './schema-pairs.js';

/**
 * A semantic judge of the change classifier's verdicts on schemas. A client sends request bodies
 * and receives responses, so a change of a request body's schema breaks a client when some value
 * valid under the older schema is invalid under the newer (the client sent it; it is refused now),
 * and a change of a response body's schema when some value valid under the newer is invalid under
 * the older (the server sends it now; the client never expected it). ajv's JSON Schema 2020-12
 * build decides validity; values are sampled at both schemas' boundaries, repaired towards
 * validity from ajv's errors and varied one place at a time. A value found is a proof (a
 * `witness`); none found proves nothing (the sampler may miss it).
 */
export type Direction = 'request' | 'response';
export const DIRECTIONS: readonly Direction[] = ['request', 'response'];

const isMap = (value: Json | undefined): value is JsonMap => typeof value === 'object' && value !== null && !Array.isArray(value);
const key = (value: Json) => JSON.stringify(value);

/** An ordered set of values, without repeats. */
class Values {
  private readonly seen = new Map<string, Json>();
  add(value: Json): void {
    const k = key(value);
    if (!this.seen.has(k)) this.seen.set(k, value);
  }
  addAll(values: Iterable<Json>): void {
    for (const value of values) this.add(value);
  }
  list(limit = Infinity): Json[] {
    return [...this.seen.values()].slice(0, limit);
  }
}

const finite = (value: Json | undefined): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A schema and what its in-place applicators hold (allOf, anyOf, oneOf, if, then, else, not, dependentSchemas): all that can constrain the same value. */
function parts(schema: Json, depth = 5): JsonMap[] {
  if (!isMap(schema)) return [];
  const found = [schema];
  if (depth === 0) return found;
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const member of list) found.push(...parts(member, depth - 1));
  }
  for (const keyword of ['if', 'then', 'else', 'not']) if (schema[keyword] !== undefined) found.push(...parts(schema[keyword], depth - 1));
  const dependent = schema['dependentSchemas'];
  if (isMap(dependent)) for (const member of Object.values(dependent)) found.push(...parts(member, depth - 1));
  return found;
}

function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** The schemas that can apply to the member `at` (a property name or an array position) of a value that `schemas` apply to. */
function childSchemas(schemas: readonly JsonMap[], at: string | number): Json[] {
  const found: Json[] = [];
  for (const p of schemas) {
    if (typeof at === 'string') {
      const properties = p['properties'];
      const listed = isMap(properties) ? properties[at] : undefined;
      if (listed !== undefined) found.push(listed);
      const patterns = p['patternProperties'];
      if (isMap(patterns)) for (const [pattern, s] of Object.entries(patterns)) if (matches(pattern, at)) found.push(s);
      if (listed === undefined && p['additionalProperties'] !== undefined) found.push(p['additionalProperties']);
      if (p['unevaluatedProperties'] !== undefined) found.push(p['unevaluatedProperties']);
    } else {
      const prefix = p['prefixItems'];
      const positional = Array.isArray(prefix) ? prefix[at] : undefined;
      if (positional !== undefined) found.push(positional);
      else if (p['items'] !== undefined) found.push(p['items']);
      if (p['contains'] !== undefined) found.push(p['contains']);
      if (p['unevaluatedItems'] !== undefined) found.push(p['unevaluatedItems']);
    }
  }
  return found;
}

/** Strings of `length` that match `pattern` (one of the generator's PATTERNS), if any. */
function matching(pattern: string, length: number): string[] {
  if (length === 0) return [];
  switch (pattern) {
    case '^[a-z]+$':
      return ['a'.repeat(length), 'b'.repeat(length)];
    case '^[0-9]+$':
      return ['1'.repeat(length)];
    case '^a':
      return ['a' + 'b'.repeat(length - 1), 'a'.repeat(length)];
    case 'b$':
      return ['a'.repeat(length - 1) + 'b', 'b'.repeat(length)];
    default:
      return [];
  }
}

const GENERIC: readonly Json[] = [null, true, false, 0, 1, -1, 0.5, '', 'a', '1', [], {}];
/** How many values of each place are combined: of an array's items and an object's properties, of a place varied, of a member added. */
const TAKEN = { item: 12, property: 12, varied: 40, added: 16 } as const;
const EXTRA_NAMES = ['zz', 'A', ''];

/** Values already made, by depth and schemas. */
const made = new Map<string, Json[]>();

/** How deep the values made for a schema nest (an object of arrays of objects is 3). */
export const VALUE_DEPTH = 3;

/**
 * Values aimed at the boundaries of `schemas` (all that apply at one place): their enum and const
 * values, values just inside and just outside each bound, matching and non-matching strings,
 * objects with and without each property, arrays of lengths around the limits, and a value of
 * every type, interleaved so that the first few already cover every kind. Made once per schemas.
 */
export function valuesFor(schemas: readonly Json[], depth = VALUE_DEPTH): Json[] {
  // Nothing said of the place: any value; the generic ones stand for them all.
  if (schemas.every((s) => s === true || (isMap(s) && Object.keys(s).length === 0))) return [...GENERIC];
  const k = `${depth}${key(schemas as Json[])}`;
  let found = made.get(k);
  if (found === undefined) {
    if (made.size > 20_000) made.clear();
    found = make(schemas, depth);
    made.set(k, found);
  }
  return found;
}

function make(schemas: readonly Json[], depth: number): Json[] {
  const ps = schemas.flatMap((s) => parts(s));
  const listed: Json[] = [];
  const declared = new Set<string>();
  for (const p of ps) {
    if (Array.isArray(p['enum'])) listed.push(...p['enum']);
    if ('const' in p) listed.push(p['const']);
    const type = p['type'];
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') declared.add(t === 'integer' ? 'number' : t);
  }
  // Kinds the keywords speak of, beside the types named: `propertyNames` is of objects, `minLength` of strings...
  for (const p of ps) for (const [kind, keywords] of Object.entries(KEYWORDS_OF)) if (keywords.some((k) => p[k] !== undefined)) declared.add(kind);
  const typed: [string, Json[]][] = [
    ['null', [null]],
    ['boolean', [true, false]],
    ['number', numbers(ps)],
    ['string', strings(ps)],
    ['object', depth > 0 ? objects(ps, depth) : [{}]],
    ['array', depth > 0 ? arrays(ps, depth) : [[]]],
  ];
  // One value of each list in turn, so that the first few already cover every kind; three at a time of the kinds the schemas speak of.
  const lists = typed.flatMap(([kind, values]) => (declared.has(kind) ? [values.filter((_, i) => i % 3 === 0), values.filter((_, i) => i % 3 === 1), values.filter((_, i) => i % 3 === 2)] : [values]));
  const out = new Values();
  out.addAll(interleaved([listed, ...lists, [...GENERIC]]));
  return out.list();
}

/** Keywords that apply to one kind of value only. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'minProperties', 'maxProperties', 'unevaluatedProperties'],
  array: ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains', 'unevaluatedItems'],
};

/** At most `n` of `values`, of every kind in turn (objects and arrays first), the largest of each first: seeds whose neighbours reach far. */
function diverse(values: readonly Json[], n: number): Json[] {
  const kinds = new Map<string, { value: Json; size: number }[]>();
  for (const value of values) {
    const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    const list = kinds.get(kind) ?? [];
    list.push({ value, size: key(value).length });
    kinds.set(kind, list);
  }
  const order = ['object', 'array', 'string', 'number', 'boolean', 'null'];
  const lists = [...kinds].sort(([x], [y]) => order.indexOf(x) - order.indexOf(y)).map(([, list]) => list.sort((x, y) => y.size - x.size).map((e) => e.value));
  return interleaved(lists).slice(0, n);
}

/** The first of each list, then the second of each, and so on. */
function interleaved(lists: readonly Json[][]): Json[] {
  const found: Json[] = [];
  const longest = Math.max(...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) found.push(list[i]!);
  return found;
}

function numbers(ps: readonly JsonMap[]): Json[] {
  const found = new Values();
  const bounds: number[] = [];
  const multiples: number[] = [];
  for (const p of ps) {
    for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      const v = finite(p[k]);
      if (v !== undefined) bounds.push(v);
    }
    const m = finite(p['multipleOf']);
    if (m !== undefined && m > 0) multiples.push(m);
  }
  for (const b of bounds) for (const d of [0, -1, 1, -0.5, 0.5, -2, 2]) found.add(b + d);
  for (const m of multiples) {
    for (const k of [1, 2, 3, -1]) found.add(m * k);
    found.add(m + 1);
    for (const b of bounds) for (const k of [-1, 0, 1]) found.add((Math.floor(b / m) + k) * m);
  }
  found.addAll([0, 1, 2, -1, 1.5]);
  return found.list();
}

/** Lengths just outside and at each limit of `keywords`, then 0 to 3. */
function lengthsOf(ps: readonly JsonMap[], keywords: readonly string[], extra: readonly number[] = []): number[] {
  const lengths: number[] = [];
  for (const p of ps) {
    for (const k of keywords) {
      const v = finite(p[k]);
      if (v !== undefined && v <= 6) lengths.push(v + 1, v - 1, v);
    }
  }
  return [...new Set([...lengths, ...extra, 0, 1, 2, 3])].filter((n) => n >= 0);
}

function strings(ps: readonly JsonMap[]): Json[] {
  const found = new Values();
  const lengths = lengthsOf(ps, ['minLength', 'maxLength']);
  const patterns = ps.map((p) => p['pattern']).filter((x): x is string => typeof x === 'string');
  // One string of each length first, those that match the patterns among them.
  for (const length of lengths) {
    for (const pattern of patterns) found.addAll(matching(pattern, length).slice(0, 1));
    found.add('a'.repeat(length));
  }
  for (const length of lengths) {
    for (const pattern of patterns) found.addAll(matching(pattern, length));
    for (const c of ['1', 'b', 'x']) found.add(c.repeat(length));
  }
  found.addAll(['A', 'ab', 'ba', 'a1', '1a']);
  return found.list();
}

function arrays(ps: readonly JsonMap[], depth: number): Json[] {
  const found = new Values();
  const prefix = Math.max(0, ...ps.map((p) => (Array.isArray(p['prefixItems']) ? p['prefixItems'].length : 0)));
  const lengths = lengthsOf(ps, ['minItems', 'maxItems', 'minContains', 'maxContains'], prefix > 0 ? [prefix + 1, prefix - 1, prefix] : []);
  const longest = Math.max(...lengths);
  const items = Array.from({ length: longest }, (_, i) => valuesFor(childSchemas(ps, i), depth - 1).slice(0, TAKEN.item));
  const filled = (length: number, pick: (i: number) => number) => Array.from({ length }, (_, i) => items[i]![pick(i) % items[i]!.length]!);
  // Every length with the first values (repeated: not unique), then with distinct ones, then with others.
  for (const length of lengths) found.add(filled(length, () => 0));
  for (const length of lengths) found.add(filled(length, (i) => i));
  // Each value the first item can take, alone.
  for (const value of items[0] ?? []) found.add([value]);
  for (let j = 1; j < 6; j++) for (const length of lengths) found.add(filled(length, () => j));
  return found.list();
}

function objects(ps: readonly JsonMap[], depth: number): Json[] {
  const found = new Values();
  const names = new Set<string>(NAMES);
  const required = new Set<string>();
  for (const p of ps) {
    if (isMap(p['properties'])) for (const name of Object.keys(p['properties'])) names.add(name);
    if (Array.isArray(p['required'])) for (const name of p['required']) if (typeof name === 'string') required.add(name);
    if (isMap(p['dependentRequired'])) for (const [name, list] of Object.entries(p['dependentRequired'])) {
      names.add(name);
      if (Array.isArray(list)) for (const other of list) if (typeof other === 'string') names.add(other);
    }
  }
  for (const name of required) names.add(name);
  // Names at the limits of propertyNames: strings its schemas take or refuse.
  const limited = ps.filter((p) => p['propertyNames'] !== undefined).map((p) => p['propertyNames']!);
  const extra = [...new Set([...valuesFor(limited, 0).filter((v): v is string => typeof v === 'string').slice(0, 6), ...EXTRA_NAMES])].filter((n) => !names.has(n));
  const valuesOf = new Map([...names, ...extra].map((name) => [name, valuesFor(childSchemas(ps, name), depth - 1).slice(0, TAKEN.property)]));
  const build = (chosen: Iterable<string>, j: number): JsonMap => Object.fromEntries([...chosen].map((name) => [name, valuesOf.get(name)![j % valuesOf.get(name)!.length]!]));
  const bases: JsonMap[] = [{}];
  for (let j = 0; j < 4; j++) bases.push(build(names, j), build(required, j));
  for (const base of bases) found.add(base);
  const all = [...extra, ...names];
  // Each name left out of, or added to, the first bases with its first value; then with every value.
  for (const base of bases.slice(0, 3)) {
    for (const name of all) found.add(name in base ? without(base, name) : { ...base, [name]: valuesOf.get(name)![0]! });
  }
  for (const base of bases.slice(0, 3)) for (const name of all) for (const value of valuesOf.get(name)!) found.add({ ...base, [name]: value });
  return found.list();
}

type ValuePath = readonly (string | number)[];

function pointerPath(pointer: string): ValuePath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getAt(value: Json, path: ValuePath): Json | undefined {
  let here: Json | undefined = value;
  for (const k of path) {
    if (Array.isArray(here)) here = here[Number(k)];
    else if (isMap(here)) here = here[String(k)];
    else return undefined;
  }
  return here;
}

function setAt(value: Json, path: ValuePath, replacement: Json | undefined): Json {
  if (path.length === 0) return replacement ?? null;
  const [k, ...rest] = path;
  if (Array.isArray(value)) {
    const i = Number(k);
    if (rest.length === 0 && replacement === undefined) return value.filter((_, j) => j !== i);
    const copy = [...value];
    copy[i] = setAt(value[i] ?? null, rest, replacement);
    return copy;
  }
  if (isMap(value)) {
    const name = String(k);
    if (rest.length === 0 && replacement === undefined) return without(value, name);
    return { ...value, [name]: setAt(value[name] ?? null, rest, replacement) };
  }
  return value;
}

/** Every place in a value, itself first. */
function placesIn(value: Json, path: ValuePath = [], found: ValuePath[] = []): ValuePath[] {
  found.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => placesIn(v, [...path, i], found));
  else if (isMap(value)) for (const [k, v] of Object.entries(value)) placesIn(v, [...path, k], found);
  return found;
}

/** Compiles schemas with ajv's 2020-12 build; a compiled validator is kept per schema text. */
export class Validators {
  private ajv = Validators.fresh();
  private readonly cache = new Map<string, ValidateFunction | null>();

  private static fresh(): Ajv2020 {
    // The schemas are checked against the meta-schema once (validateSchema below), not at each compile; unoptimised code compiles faster.
    // allErrors: with it off, ajv 8.20 skips what follows prefixItems on an empty array (`contains` takes []).
    return new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false, code: { optimize: false } });
  }

  /** null when ajv refuses the schema. */
  of(schema: Json): ValidateFunction | null {
    const k = key(schema);
    if (this.cache.has(k)) return this.cache.get(k)!;
    if (this.cache.size > 2000) {
      this.cache.clear();
      this.ajv = Validators.fresh();
    }
    let compiled: ValidateFunction | null = null;
    try {
      if (this.ajv.validateSchema(schema as object) === true) compiled = this.ajv.compile(typeof schema === 'boolean' ? schema : (structuredClone(schema) as object));
    } catch {
      compiled = null;
    }
    this.cache.set(k, compiled);
    return compiled;
  }
}

export interface Witnesses {
  /** Valid under the older, invalid under the newer: a request a client sent is refused. */
  readonly request?: Json;
  /** Valid under the newer, invalid under the older: a response the client never expected. */
  readonly response?: Json;
}

/** Stops the search for a pair after this many values checked, by default. */
export const SEARCH_BUDGET = 6000;

class Search {
  private readonly locations = new Map<string, Json[]>();
  private checked = 0;

  constructor(
    private readonly older: Json,
    private readonly newer: Json,
    private readonly isOlder: ValidateFunction,
    private readonly isNewer: ValidateFunction,
    private readonly seed: number,
    private readonly budget: number,
  ) {}

  run(): Witnesses {
    const found: { request?: Json; response?: Json } = {};
    const pool = [...valuesFor([this.older, this.newer]), ...this.random()];
    const valid: Record<Direction, Json[]> = { request: [], response: [] };
    for (const value of pool) {
      const [a, b] = [this.check(this.isOlder, value), this.check(this.isNewer, value)];
      if (a && !b) found.request ??= value;
      if (b && !a) found.response ??= value;
      if (a) valid.request.push(value);
      if (b) valid.response.push(value);
    }
    for (const direction of DIRECTIONS) {
      if (found[direction] !== undefined) continue;
      const witness = this.deeper(direction, pool, valid[direction]);
      if (witness !== undefined) found[direction] = witness;
    }
    return found;
  }

  /** Values valid under the schema a client relies on (older for requests, newer for responses), varied one place at a time, and repaired ones. */
  private deeper(direction: Direction, pool: readonly Json[], valid: Json[]): Json | undefined {
    const [primary, other] = direction === 'request' ? [this.isOlder, this.isNewer] : [this.isNewer, this.isOlder];
    const witness = (value: Json) => this.check(primary, value) && !this.check(other, value);
    const seeds = new Values();
    seeds.addAll(diverse(valid, 24));
    for (const value of pool.slice(0, 60)) {
      if (this.checked > this.budget) break;
      const repaired = this.repair(value, primary);
      if (repaired === undefined) continue;
      if (witness(repaired)) return repaired;
      seeds.add(repaired);
    }
    for (const seed of diverse(seeds.list(), 16)) {
      for (const neighbour of this.neighbours(seed)) {
        if (this.checked > this.budget) return undefined;
        if (witness(neighbour)) return neighbour;
      }
    }
    return undefined;
  }

  private check(validate: ValidateFunction, value: Json): boolean {
    this.checked += 1;
    return validate(value);
  }

  /** Candidates for the place `path` of a value: what both schemas' parts say of it. */
  private at(path: ValuePath): Json[] {
    const k = key(path as Json);
    let found = this.locations.get(k);
    if (found === undefined) {
      let schemas: Json[] = [this.older, this.newer];
      for (const step of path) schemas = childSchemas(schemas.flatMap((s) => parts(s)), step);
      found = valuesFor(schemas, Math.max(0, VALUE_DEPTH - path.length)).slice(0, 40);
      this.locations.set(k, found);
    }
    return found;
  }

  /** `value` changed, from ajv's first error, until `validate` takes it: at most a few steps. */
  private repair(value: Json, validate: ValidateFunction): Json | undefined {
    let current = value;
    const tries = new Map<string, number>();
    for (let step = 0; step < 8; step++) {
      if (this.check(validate, current)) return current;
      const error = validate.errors?.[0];
      if (error === undefined) return undefined;
      const path = pointerPath(error.instancePath).map((s, i, all) => (Array.isArray(getAt(current, all.slice(0, i))) ? Number(s) : s));
      const params = error.params as Record<string, unknown>;
      const next = (at: ValuePath) => {
        const k = key(at as Json);
        const n = tries.get(k) ?? 0;
        tries.set(k, n + 1);
        const candidates = this.at(at);
        return candidates[n % candidates.length]!;
      };
      switch (error.keyword) {
        case 'required':
        case 'dependentRequired': {
          const name = String(params['missingProperty']);
          current = setAt(current, [...path, name], next([...path, name]));
          break;
        }
        case 'additionalProperties':
          current = setAt(current, [...path, String(params['additionalProperty'])], undefined);
          break;
        case 'unevaluatedProperties':
          current = setAt(current, [...path, String(params['unevaluatedProperty'])], undefined);
          break;
        case 'propertyNames':
          current = setAt(current, [...path, String(params['propertyName'])], undefined);
          break;
        case 'maxItems':
        case 'maxProperties': {
          const here = getAt(current, path);
          if (Array.isArray(here)) current = setAt(current, path, here.slice(0, Number(params['limit'])));
          else if (isMap(here)) current = setAt(current, path, Object.fromEntries(Object.entries(here).slice(0, Number(params['limit']))));
          break;
        }
        case 'minItems': {
          const here = getAt(current, path);
          if (Array.isArray(here)) current = setAt(current, [...path, here.length], next([...path, here.length]));
          break;
        }
        default:
          current = setAt(current, path, next(path));
      }
    }
    return this.check(validate, current) ? current : undefined;
  }

  /** `value` with one place changed: replaced by a candidate, left out, or an item or property added. */
  private *neighbours(value: Json): Generator<Json> {
    for (const path of placesIn(value).slice(0, 24)) {
      const here = getAt(value, path);
      if (path.length > 0) yield setAt(value, path, undefined);
      for (const candidate of this.at(path).slice(0, TAKEN.varied)) yield setAt(value, path, candidate);
      if (Array.isArray(here)) {
        for (const candidate of this.at([...path, here.length]).slice(0, TAKEN.added)) yield setAt(value, [...path, here.length], candidate);
        if (here.length > 0) yield setAt(value, path, [...here, here[0]!]);
      }
      if (isMap(here)) {
        for (const name of [...NAMES, ...EXTRA_NAMES]) {
          if (name in here) continue;
          for (const candidate of this.at([...path, name]).slice(0, TAKEN.added)) yield setAt(value, [...path, name], candidate);
        }
      }
    }
  }

  /** fast-check's JSON values, and objects and arrays of the schemas' names and values, seeded by the pair. */
  private random(): Json[] {
    const small = this.at([]).filter((v) => typeof v !== 'object' || v === null).slice(0, 30);
    const leaf = small.length > 0 ? fc.constantFrom(...small) : fc.constant(null);
    const arb = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
      fc.dictionary(fc.constantFrom(...NAMES, ...EXTRA_NAMES), leaf, { maxKeys: 4 }) as fc.Arbitrary<Json>,
      fc.array(leaf, { maxLength: 4 }) as fc.Arbitrary<Json>,
    );
    return fc.sample(arb, { seed: this.seed, numRuns: 24 });
  }
}

/** A number from a text, the same for the same text: so a pair is judged the same each time. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h | 0;
}

/** The witnesses of a pair; null when ajv refuses either schema. */
export function witnesses(validators: Validators, older: Json, newer: Json, budget = SEARCH_BUDGET): Witnesses | null {
  const [isOlder, isNewer] = [validators.of(older), validators.of(newer)];
  if (isOlder === null || isNewer === null) return null;
  return new Search(older, newer, isOlder, isNewer, hash(key([older, newer])), budget).run();
}

/** A minimal OpenAPI 3.1 document with `schema` as the request body of POST /x and the response body of GET /x. */
export function documentOf(schema: Json): JsonObject {
  const content = { 'application/json': { schema } };
  return {
    openapi: '3.1.0',
    info: { title: 'Oracle', version: '1.0.0' },
    paths: { '/x': { post: { requestBody: { required: true, content }, responses: { '204': { description: 'stored' } } }, get: { responses: { '200': { description: 'ok', content } } } } },
  };
}

/** The classifier's items for each direction of the pair placed in {@link documentOf}. */
export function classified(older: Json, newer: Json): Record<Direction, Change[]> {
  const changes = classifyChanges(documentOf(older), documentOf(newer));
  return {
    request: changes.filter((c) => c.location.status === 'requestBody'),
    response: changes.filter((c) => c.location.status === '200'),
  };
}

/**
 * The kinds of warning that say by design "cannot be told": a witness with only such a warning is a
 * known limit, not a miss (docs/changes.md, "Not compared": a changed pattern, multipleOf or if;
 * what `not` excludes changed both ways; a default).
 */
export const UNDECIDABLE_WARNINGS = ['pattern-changed', 'multiple-of-changed', 'condition-changed', 'not-changed', 'default-changed'] as const;

export const OUTCOMES = ['agreed-breaking', 'agreed-safe', 'known-limit', 'unlisted', 'miss', 'miss-warned', 'possible-false-alarm'] as const;

export type Outcome =
  /** Both say it breaks. */
  | 'agreed-breaking'
  /** Neither: no breaking item, no witness. */
  | 'agreed-safe'
  /** A witness, and no breaking item: only a warning the classifier gives by design (see {@link UNDECIDABLE_WARNINGS}). */
  | 'known-limit'
  /**
   * A witness with a property the older schema does not list: a client written against the older
   * document does not send it, and ignores it when it receives it (a tolerant reader), so a
   * property added there breaks none (docs/changes.md: an optional property added is information,
   * in a request and in a response). Not a miss.
   */
  | 'unlisted'
  /** A witness, and no breaking item nor warning: the classifier missed a break. */
  | 'miss'
  /** A witness, and only warnings that do not say "cannot be told" (a property removed from a closed request object, say): a miss all the same, listed apart. */
  | 'miss-warned'
  /** A breaking item and no witness: the classifier may be wrong, or the sampler weak. */
  | 'possible-false-alarm';

export interface Judgement {
  readonly outcome: Outcome;
  readonly witness?: Json;
  readonly items: readonly Change[];
}

const ruleKind = (change: Change) => change.rule.replace(/^(request|response)-(body|property)-/, '');

export function outcomeOf(items: readonly Change[], witness: Json | undefined): Outcome {
  const breaking = items.some((c) => c.level === 'breaking');
  if (breaking) return witness === undefined ? 'possible-false-alarm' : 'agreed-breaking';
  if (witness === undefined) return 'agreed-safe';
  const undecidable = items.some((c) => c.level === 'warning' && (UNDECIDABLE_WARNINGS as readonly string[]).includes(ruleKind(c)));
  if (undecidable) return 'known-limit';
  return items.some((c) => c.level === 'warning') ? 'miss-warned' : 'miss';
}

export interface PairJudgement {
  readonly pair: SchemaPair;
  readonly request: Judgement;
  readonly response: Judgement;
}

/** The judgement of the pair made from `input`; null when the mutations changed nothing or ajv refuses a schema. */
export function judge(validators: Validators, input: PairInput, budget = SEARCH_BUDGET): PairJudgement | null {
  const pair = pairOf(input);
  if (key(pair.older) === key(pair.newer)) return null;
  const found = witnesses(validators, pair.older, pair.newer, budget);
  if (found === null) return null;
  const items = classified(pair.older, pair.newer);
  const of = (direction: Direction): Judgement => {
    const witness = found[direction];
    let outcome = outcomeOf(items[direction], witness);
    // Clients send the properties the older document lists, and ignore those it does not (a tolerant reader).
    if ((outcome === 'miss' || outcome === 'miss-warned') && sendsUnlisted(witness, pair.older)) outcome = 'unlisted';
    return { outcome, ...(witness === undefined ? {} : { witness }), items: items[direction] };
  };
  return { pair, request: of('request'), response: of('response') };
}

const isPlainObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The properties a schema lists, its allOf/oneOf/anyOf members' included; null when a keyword of its own describes the other names (additionalProperties or unevaluatedProperties as a schema, patternProperties, propertyNames). */
function listedProperties(schema: Record<string, Json>): Map<string, Json> | null {
  // A schema for the other names describes them; false (a closed object) or none leaves them unlisted.
  const describes = (keyword: string) => keyword in schema && schema[keyword] !== false;
  if (describes('additionalProperties') || describes('unevaluatedProperties') || 'patternProperties' in schema || 'propertyNames' in schema) return null;
  const listed = new Map<string, Json>(isPlainObject(schema['properties']) ? Object.entries(schema['properties']) : []);
  for (const keyword of ['allOf', 'oneOf', 'anyOf']) {
    const members = schema[keyword];
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      if (!isPlainObject(member)) continue;
      const more = listedProperties(member);
      if (more === null) return null;
      for (const [name, value] of more) if (!listed.has(name)) listed.set(name, value);
    }
  }
  return listed;
}

/** Whether `value` holds, at any depth the schema describes, a property the schema's open object does not list. */
export function sendsUnlisted(value: Json | undefined, schema: Json): boolean {
  if (!isPlainObject(schema)) return false;
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
    return value.some((item, i) => sendsUnlisted(item, i < prefix.length ? prefix[i]! : (schema['items'] ?? true)));
  }
  if (!isPlainObject(value)) return false;
  const listed = listedProperties(schema);
  if (listed === null) return false;
  return Object.entries(value).some(([name, inner]) => !listed.has(name) || sendsUnlisted(inner, listed.get(name)!));
}

/** A judgement as text: the schemas, the witness, and the classifier's items. */
export function describe(j: PairJudgement, direction: Direction): string {
  const d = j[direction];
  const items = d.items.length === 0 ? '  (none)' : d.items.map((c) => `  ${c.level} ${c.rule}${c.location.property === undefined ? '' : ` at ${c.location.property}`}: ${c.message}`).join('\n');
  return [
    `${direction}, ${d.outcome} (${j.pair.kinds.join(' + ')})`,
    `  older:   ${key(j.pair.older)}`,
    `  newer:   ${key(j.pair.newer)}`,
    `  witness: ${d.witness === undefined ? '(none found)' : key(d.witness)}`,
    `  classifier:`,
    items,
  ].join('\n');
}
