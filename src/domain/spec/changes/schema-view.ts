import { escapePointer, References, type Followed } from '../json-pointer.js';
import { isOfKind } from '../reference-kinds.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue } from '../spec-document.js';

/** A schema where a document has it: the value as written and its JSON pointer. */
export interface SchemaAt {
  readonly schema: JsonValue | undefined;
  readonly pointer: string;
}

export type Node = SchemaAt;

/**
 * A keyword left out means "no constraint": the schema `true`. Where a comparison needs a schema in
 * its place (a tuple position one side does not list, `propertyNames` set on one side only), it
 * stands at the pointer of the schema that leaves it out, marked so that it is never taken for that
 * schema itself ({@link reportable} strips the mark).
 */
const IMPLIED = '\u0000';

export function implied(value: boolean, container: string, keyword: string): Node {
  return { schema: value, pointer: `${container}${IMPLIED}${keyword}` };
}

/** The pointer to report for a node: an implied schema's is that of the schema that leaves it out. */
export function reportable(pointer: string): string {
  const mark = pointer.indexOf(IMPLIED);
  return mark < 0 ? pointer : pointer.slice(0, mark);
}

export const MAXIMA = ['maxLength', 'maxItems', 'maxProperties', 'maxContains'] as const;
export const MINIMA = ['minLength', 'minItems', 'minProperties', 'minContains'] as const;
export type Limit = (typeof MAXIMA)[number] | (typeof MINIMA)[number];

/** What a minimum left out means: no `minLength` is 0, no `minContains` (beside `contains`) is 1. */
export const MINIMUM_DEFAULT: Readonly<Record<(typeof MINIMA)[number], number>> = { minLength: 0, minItems: 0, minProperties: 0, minContains: 1 };

export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

export interface Discriminator {
  readonly property: string;
  /** Value to the name of the schema it selects (the last segment of its reference). */
  readonly mapping: ReadonlyMap<string, string>;
}

/** The facts of a schema the comparison looks at, `allOf` members merged in, keywords that cannot apply to its types left out. */
export interface View {
  /** null: any type; empty: no value at all (the schema `false`). */
  readonly types: ReadonlySet<string> | null;
  readonly nullable: boolean;
  readonly format: string | null;
  /** JSON texts of the values, null excluded; null: no enum. */
  readonly enum: readonly string[] | null;
  /** JSON text of `const` (`null` too: the one value, which also makes the schema nullable). */
  readonly const: string | undefined;
  /** `x-extensible-enum`: the values known today, others may come. */
  readonly extensible: readonly string[] | null;
  readonly properties: ReadonlyMap<string, Node>;
  readonly required: ReadonlySet<string>;
  readonly items: Node | null;
  /** 3.1 `prefixItems`: the schema of each position of a tuple; `items` then holds for the positions after. */
  readonly prefix: readonly Node[];
  readonly contains: Node | null;
  /** true: any other property is allowed (the default); false: none; a node: those of that schema. */
  readonly additional: boolean | Node;
  /** `patternProperties`, by pattern. */
  readonly patternProperties: ReadonlyMap<string, Node>;
  readonly propertyNames: Node | null;
  /** `dependentRequired`: a property to those it requires. */
  readonly dependentRequired: ReadonlyMap<string, ReadonlySet<string>>;
  readonly dependentSchemas: ReadonlyMap<string, Node>;
  readonly unevaluatedItems: Node | null;
  readonly unevaluatedProperties: Node | null;
  /** `if` as written (its JSON text, references as written), and `then` / `else`. */
  readonly condition: string | null;
  readonly then: Node | null;
  readonly else: Node | null;
  readonly not: Node | null;
  readonly contentMediaType: string | null;
  readonly contentEncoding: string | null;
  readonly contentSchema: Node | null;
  readonly limits: Readonly<Record<Limit, number | undefined>>;
  /** The numeric bounds: maximum or exclusiveMaximum (3.1's number, or 2.0's and 3.0's flag), the tighter. */
  readonly upper: Bound | undefined;
  readonly lower: Bound | undefined;
  readonly multipleOf: number | undefined;
  readonly uniqueItems: boolean;
  readonly pattern: string | null;
  /** JSON text of the default, if any. */
  readonly default: string | undefined;
  /** The alternatives of `oneOf` (or else `anyOf`), and which of the two. */
  readonly options: readonly Node[];
  readonly choice: 'oneOf' | 'anyOf' | null;
  /** With alternatives: what the schema asks beside them, as a schema of its own (besideChoice); null when it asks nothing more. */
  readonly beside: Node | null;
  readonly discriminator: Discriminator | null;
  readonly deprecated: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
}

/** The tighter of two bounds; `below`: upper bounds (the lower value is tighter), else lower bounds. */
export function tighter(a: Bound | undefined, b: Bound | undefined, below: boolean): Bound | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.value !== b.value) return (a.value < b.value) === below ? a : b;
  return a.exclusive ? a : b;
}

/** A numeric bound of a schema: `maximum` (exclusive with 2.0's and 3.0's `exclusiveMaximum: true`) and 3.1's numeric `exclusiveMaximum`. */
function boundOf(schema: JsonObject, inclusive: 'maximum' | 'minimum', exclusive: 'exclusiveMaximum' | 'exclusiveMinimum'): Bound | undefined {
  const limit = finite(schema[inclusive]);
  const flagged = limit === undefined ? undefined : { value: limit, exclusive: schema[exclusive] === true };
  const numeric = finite(schema[exclusive]);
  return tighter(flagged, numeric === undefined ? undefined : { value: numeric, exclusive: true }, inclusive === 'maximum');
}

/** How deep `allOf` members are merged into one view; deeper ones are left out (a pathological document). */
const ALL_OF_DEPTH = 16;

/** How many anchors (`$ref: '#name'`, `$dynamicRef`) one reference may lead through before it is taken as written. */
const ANCHOR_HOPS = 32;

export function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function finite(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The last segment of a reference: the name of the schema it leads to. */
export function refName(ref: string): string {
  return ref.split('/').at(-1) ?? ref;
}

/**
 * The schemas of one document: its references followed, each chain once however many schemas use
 * it, and only to schemas (a reference to a parameter or to `#/info` is not followed). A 3.1
 * reference to an anchor (`$ref: '#name'`, `$dynamicRef: '#name'`) leads to the schema that
 * declares it (`$anchor`, `$dynamicAnchor`: the first in document order, as one resource resolves it).
 */
export class DocumentSchemas {
  private readonly references: References;
  private readonly isSchema: (target: JsonValue) => boolean;
  private anchors: Map<string, Node> | undefined;

  constructor(private readonly document: JsonObject) {
    this.references = new References(document);
    const format = specFormatOf(document) ?? 'openapi-3.1';
    this.isSchema = (target) => isOfKind('schema', format, target);
  }

  follow(value: JsonValue | undefined, at: string): Followed {
    for (let hop = 0; hop < ANCHOR_HOPS; hop++) {
      const anchor = this.anchorOf(value);
      if (anchor !== null) {
        const target = this.anchorTargets().get(anchor);
        if (target === undefined) return { value: undefined, ref: `#${anchor}`, at };
        [value, at] = [target.schema, target.pointer];
        continue;
      }
      const followed = this.references.follow(value, at, this.isSchema);
      // A chain of JSON pointers that ends in a reference to an anchor goes on from there.
      if (followed.ref === null || this.anchorOf({ $ref: followed.ref }) === null) return followed;
      [value, at] = [{ $ref: followed.ref }, followed.at];
    }
    return { value: undefined, ref: '#', at };
  }

  /** The anchor a value refers to (`$ref: '#name'` or `$dynamicRef: '#name'`), null for anything else. */
  private anchorOf(value: JsonValue | undefined): string | null {
    if (!isJsonObject(value)) return null;
    const ref = text(value['$ref']) ?? text(value['$dynamicRef']);
    return ref !== null && ref.startsWith('#') && !ref.startsWith('#/') && ref.length > 1 ? ref.slice(1) : null;
  }

  /** Every `$anchor` and `$dynamicAnchor` of the document, found once, without recursion. */
  private anchorTargets(): Map<string, Node> {
    if (this.anchors !== undefined) return this.anchors;
    const anchors = new Map<string, Node>();
    const stack: Node[] = [{ schema: this.document, pointer: '' }];
    while (stack.length > 0) {
      const { schema, pointer } = stack.pop()!;
      if (Array.isArray(schema)) {
        for (let i = schema.length - 1; i >= 0; i--) stack.push({ schema: schema[i], pointer: `${pointer}/${i}` });
        continue;
      }
      if (!isJsonObject(schema)) continue;
      for (const keyword of ['$anchor', '$dynamicAnchor']) {
        const name = text(schema[keyword]);
        if (name !== null && !anchors.has(name)) anchors.set(name, { schema, pointer });
      }
      const entries = Object.entries(schema);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ schema: entries[i]![1], pointer: `${pointer}/${escapePointer(entries[i]![0])}` });
    }
    this.anchors = anchors;
    return anchors;
  }
}

/** Keywords that say nothing of the values a schema takes, or that a choice's comparison reads apart. */
const BESIDE_A_CHOICE = new Set(['oneOf', 'anyOf', 'discriminator', 'description', 'title', 'example', 'examples', 'externalDocs', 'xml', '$comment', 'deprecated']);

/**
 * What a `oneOf`/`anyOf` schema asks beside its alternatives (`{ oneOf: [...], maxLength: 5 }`:
 * every value, whichever alternative it matches, has at most 5 characters), as a schema of its
 * own at the schema's place; null when it asks nothing more. A choice its view takes from an
 * `allOf` member (`allOf: [{ $ref: Pet }]`, Pet a oneOf) is left out of that member in the same way.
 */
function besideChoice(document: DocumentSchemas, node: Node): Node | null {
  const rest = withoutChoice(document, node.schema, node.pointer, ALL_OF_DEPTH, new Map()).rest;
  return rest === null ? null : { schema: rest, pointer: `${node.pointer}${IMPLIED}beside` };
}

/**
 * A schema without the choice its view takes (its own, else the first `allOf` member's that has
 * one, as ownView merges them), and whether it had one. `searched`: the members already searched
 * in vain, with the depth left then (a diamond of models reaches them again), so the search is
 * linear in the members, not in the paths to them.
 */
function withoutChoice(document: DocumentSchemas, schema: JsonValue | undefined, at: string, depth: number, searched: Map<string, number>): { rest: JsonObject | null; found: boolean } {
  if (!isJsonObject(schema)) return { rest: null, found: false };
  const rest: JsonObject = Object.fromEntries(Object.entries(schema).filter(([key]) => !BESIDE_A_CHOICE.has(key) && !key.startsWith('x-')));
  let found = Array.isArray(schema['oneOf']) || Array.isArray(schema['anyOf']);
  const members = rest['allOf'];
  if (!found && Array.isArray(members) && depth > 0) {
    for (const [i, member] of members.entries()) {
      // A member that cannot be followed is no schema here (its value undefined): it has no choice.
      const { value, at: memberAt } = document.follow(member, `${at}/allOf/${i}`);
      if ((searched.get(memberAt) ?? -1) >= depth - 1) continue;
      const inner = withoutChoice(document, value, memberAt, depth - 1, searched);
      if (!inner.found) {
        searched.set(memberAt, depth - 1);
        continue;
      }
      const kept = members.flatMap((other, j) => (j !== i ? [other] : inner.rest === null ? [] : [inner.rest]));
      if (kept.length > 0) rest['allOf'] = kept;
      else delete rest['allOf'];
      found = true;
      break;
    }
  }
  return { rest: Object.keys(rest).length === 0 ? null : rest, found };
}

/** A node with its internal references followed (as written when they cannot be). */
export function resolved(document: DocumentSchemas, node: Node): Node {
  const { value, ref, at } = document.follow(node.schema, node.pointer);
  return ref === null ? { schema: value, pointer: at } : node;
}

function typesOf(schema: JsonObject): { types: Set<string> | null; nullable: boolean } {
  const raw = schema['type'];
  let nullable = schema['nullable'] === true || schema['x-nullable'] === true;
  let types: Set<string> | null = null;
  if (typeof raw === 'string') types = new Set([raw]);
  else if (Array.isArray(raw)) types = new Set(raw.filter((t): t is string => typeof t === 'string'));
  // No `type`: any type, whatever keywords stand beside it (`properties` alone takes strings too).
  if (types?.has('null')) {
    types.delete('null');
    nullable = true;
    // `type: 'null'` alone: null is the only value.
    if (types.size === 0 && raw !== undefined) return { types, nullable };
  }
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) nullable = true;
  if ('const' in schema && schema['const'] === null) nullable = true;
  return { types, nullable };
}

const child = (container: string, keyword: string, value: JsonValue | undefined): Node | null =>
  value === undefined ? null : { schema: value, pointer: `${container}/${keyword}` };

/** Shared by every view without such a keyword: most schemas have none, and views are many (one per schema of both documents). */
const NO_NODES: ReadonlyMap<string, Node> = new Map();
const NO_NAMES: ReadonlySet<string> = new Set();
const NO_DEPENDENCIES: ReadonlyMap<string, ReadonlySet<string>> = new Map();

function nodes(container: string, keyword: string, value: JsonValue | undefined): ReadonlyMap<string, Node> {
  if (!isJsonObject(value)) return NO_NODES;
  const found = new Map<string, Node>();
  for (const [name, schema] of Object.entries(value)) found.set(name, { schema, pointer: `${container}/${keyword}/${escapePointer(name)}` });
  return found;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function discriminatorOf(schema: JsonObject): Discriminator | null {
  const raw = schema['discriminator'];
  if (!isJsonObject(raw) || typeof raw['propertyName'] !== 'string') return null;
  const mapping = new Map<string, string>();
  if (isJsonObject(raw['mapping'])) for (const [value, target] of Object.entries(raw['mapping'])) if (typeof target === 'string') mapping.set(value, refName(target));
  return { property: raw['propertyName'], mapping };
}

const LIMITS: readonly Limit[] = [...MAXIMA, ...MINIMA];
const MAXIMUM_LIMITS: ReadonlySet<Limit> = new Set(MAXIMA);
const NO_LIMITS: Readonly<Record<Limit, undefined>> = Object.fromEntries(LIMITS.map((l) => [l, undefined])) as Record<Limit, undefined>;

function limitsOf(schema: JsonObject): Readonly<Record<Limit, number | undefined>> {
  if (!LIMITS.some((limit) => limit in schema)) return NO_LIMITS;
  return Object.fromEntries(LIMITS.map((l) => [l, finite(schema[l])])) as Record<Limit, number | undefined>;
}

const EMPTY: View = {
  types: null,
  nullable: false,
  format: null,
  enum: null,
  const: undefined,
  extensible: null,
  properties: NO_NODES,
  required: NO_NAMES,
  items: null,
  prefix: [],
  contains: null,
  additional: true,
  patternProperties: NO_NODES,
  propertyNames: null,
  dependentRequired: NO_DEPENDENCIES,
  dependentSchemas: NO_NODES,
  unevaluatedItems: null,
  unevaluatedProperties: null,
  condition: null,
  then: null,
  else: null,
  not: null,
  contentMediaType: null,
  contentEncoding: null,
  contentSchema: null,
  limits: NO_LIMITS,
  upper: undefined,
  lower: undefined,
  multipleOf: undefined,
  uniqueItems: false,
  pattern: null,
  default: undefined,
  options: [],
  choice: null,
  beside: null,
  discriminator: null,
  deprecated: false,
  readOnly: false,
  writeOnly: false,
};

/** The view of a schema, its `allOf` members merged in and what cannot apply to its types left out. */
export function viewOf(document: DocumentSchemas, node: Node): View {
  const view = applicable(ownView(document, node, ALL_OF_DEPTH, new Map([[node.pointer, ALL_OF_DEPTH]])));
  return view.options.length === 0 ? view : { ...view, beside: besideChoice(document, node) };
}

/**
 * `merging`: each schema merged so far, with the depth left when it was; a member reached again
 * (a cycle, or a diamond of models that merge the same one) adds nothing unless reached with more
 * depth left, so the work is linear in the members, not in the paths to them.
 */
function ownView(document: DocumentSchemas, node: Node, depth: number, merging: Map<string, number>): View {
  if (node.schema === false) return { ...EMPTY, types: new Set() };
  if (!isJsonObject(node.schema)) return EMPTY;
  const schema = node.schema;
  const at = node.pointer;
  const { types, nullable } = typesOf(schema);
  const values = (raw: JsonValue | undefined) => (Array.isArray(raw) ? raw.filter((v) => v !== null).map((v) => JSON.stringify(v)) : null);
  const choice = Array.isArray(schema['oneOf']) ? 'oneOf' : Array.isArray(schema['anyOf']) ? 'anyOf' : null;
  let dependentRequired = NO_DEPENDENCIES;
  if (isJsonObject(schema['dependentRequired'])) dependentRequired = new Map(Object.entries(schema['dependentRequired']).map(([name, list]) => [name, new Set(strings(list))]));
  const additionalRaw = schema['additionalProperties'];
  let view: View = {
    types,
    nullable,
    format: text(schema['format']),
    enum: values(schema['enum']),
    const: 'const' in schema ? JSON.stringify(schema['const']) : undefined,
    extensible: values(schema['x-extensible-enum']),
    properties: nodes(at, 'properties', schema['properties']),
    required: Array.isArray(schema['required']) ? new Set(strings(schema['required'])) : NO_NAMES,
    // 2.0's and 3.0's tuple-less `items`; an array of schemas (draft 4 tuples) is not compared.
    items: Array.isArray(schema['items']) ? null : child(at, 'items', schema['items']),
    prefix: Array.isArray(schema['prefixItems']) ? schema['prefixItems'].map((item, i) => ({ schema: item, pointer: `${at}/prefixItems/${i}` })) : [],
    contains: child(at, 'contains', schema['contains']),
    additional: additionalRaw === false ? false : isJsonObject(additionalRaw) ? { schema: additionalRaw, pointer: `${at}/additionalProperties` } : true,
    patternProperties: nodes(at, 'patternProperties', schema['patternProperties']),
    propertyNames: child(at, 'propertyNames', schema['propertyNames']),
    dependentRequired,
    dependentSchemas: nodes(at, 'dependentSchemas', schema['dependentSchemas']),
    unevaluatedItems: child(at, 'unevaluatedItems', schema['unevaluatedItems']),
    unevaluatedProperties: child(at, 'unevaluatedProperties', schema['unevaluatedProperties']),
    condition: schema['if'] === undefined ? null : JSON.stringify(schema['if']),
    then: child(at, 'then', schema['then']),
    else: child(at, 'else', schema['else']),
    not: child(at, 'not', schema['not']),
    contentMediaType: text(schema['contentMediaType']),
    contentEncoding: text(schema['contentEncoding']),
    contentSchema: child(at, 'contentSchema', schema['contentSchema']),
    limits: limitsOf(schema),
    upper: boundOf(schema, 'maximum', 'exclusiveMaximum'),
    lower: boundOf(schema, 'minimum', 'exclusiveMinimum'),
    multipleOf: finite(schema['multipleOf']),
    uniqueItems: schema['uniqueItems'] === true,
    pattern: text(schema['pattern']),
    default: schema['default'] === undefined ? undefined : JSON.stringify(schema['default']),
    options: choice === null ? [] : (schema[choice] as JsonValue[]).map((option, i) => ({ schema: option, pointer: `${at}/${choice}/${i}` })),
    choice,
    beside: null,
    discriminator: discriminatorOf(schema),
    deprecated: schema['deprecated'] === true,
    readOnly: schema['readOnly'] === true,
    writeOnly: schema['writeOnly'] === true,
  };
  if (Array.isArray(schema['allOf']) && depth > 0) {
    for (const [i, member] of schema['allOf'].entries()) {
      const { value, ref, at: memberAt } = document.follow(member, `${at}/allOf/${i}`);
      if (ref !== null || (merging.get(memberAt) ?? -1) >= depth - 1) continue;
      merging.set(memberAt, depth - 1);
      view = merged(view, ownView(document, { schema: value, pointer: memberAt }, depth - 1, merging));
    }
  }
  return view;
}

/** Whether a value of type `type` is still a value of one of `types` (an integer is a number). */
export function accepted(type: string, types: ReadonlySet<string>): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** Two schemas a value must satisfy both of, as one (`allOf`), at the first one's place. */
export function both(x: Node, y: Node): Node {
  return { schema: { allOf: [x.schema ?? true, y.schema ?? true] }, pointer: `${x.pointer}${IMPLIED}allOf ${y.pointer}` };
}

/** The types a value of both lists may have: a number that must also be an integer is an integer. */
function intersection(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const both = new Set<string>();
  for (const type of a) {
    if (b.has(type)) both.add(type);
    else if ((type === 'number' && b.has('integer')) || (type === 'integer' && b.has('number'))) both.add('integer');
  }
  return both;
}

/** A schema and an `allOf` member of it as one: a value must satisfy both. */
function merged(a: View, b: View): View {
  const types = a.types === null ? b.types : b.types === null ? a.types : intersection(a.types, b.types);
  const union = <T>(x: ReadonlyMap<string, T>, y: ReadonlyMap<string, T>) => {
    const all = new Map(x);
    for (const [key, value] of y) if (!all.has(key)) all.set(key, value);
    return all;
  };
  // A property both list must satisfy both schemas.
  const properties = new Map(a.properties);
  for (const [name, node] of b.properties) {
    const other = properties.get(name);
    properties.set(name, other === undefined ? node : both(other, node));
  }
  // A value meets both limits: the lower maximum, the higher minimum.
  const limits = { ...a.limits };
  for (const key of LIMITS) {
    const [x, y] = [a.limits[key], b.limits[key]];
    limits[key] = x === undefined || y === undefined ? (x ?? y) : MAXIMUM_LIMITS.has(key) ? Math.min(x, y) : Math.max(x, y);
  }
  return {
    types,
    // Null passes both when each takes it (any type does); with any type left, it goes without saying.
    nullable: types !== null && (a.nullable || a.types === null) && (b.nullable || b.types === null),
    format: a.format ?? b.format,
    // A value must be in both lists.
    enum: a.enum === null ? b.enum : b.enum === null ? a.enum : a.enum.filter((value) => b.enum!.includes(value)),
    const: a.const ?? b.const,
    extensible: a.extensible ?? b.extensible,
    properties,
    required: new Set([...a.required, ...b.required]),
    items: a.items ?? b.items,
    prefix: a.prefix.length > 0 ? a.prefix : b.prefix,
    contains: a.contains ?? b.contains,
    additional: a.additional === true ? b.additional : a.additional,
    patternProperties: union(a.patternProperties, b.patternProperties),
    propertyNames: a.propertyNames ?? b.propertyNames,
    dependentRequired: union(a.dependentRequired, b.dependentRequired),
    dependentSchemas: union(a.dependentSchemas, b.dependentSchemas),
    unevaluatedItems: a.unevaluatedItems ?? b.unevaluatedItems,
    unevaluatedProperties: a.unevaluatedProperties ?? b.unevaluatedProperties,
    condition: a.condition ?? b.condition,
    then: a.condition !== null ? a.then : b.then,
    else: a.condition !== null ? a.else : b.else,
    not: a.not ?? b.not,
    contentMediaType: a.contentMediaType ?? b.contentMediaType,
    contentEncoding: a.contentEncoding ?? b.contentEncoding,
    contentSchema: a.contentSchema ?? b.contentSchema,
    limits,
    upper: tighter(a.upper, b.upper, true),
    lower: tighter(a.lower, b.lower, false),
    multipleOf: a.multipleOf ?? b.multipleOf,
    uniqueItems: a.uniqueItems || b.uniqueItems,
    pattern: a.pattern ?? b.pattern,
    default: a.default ?? b.default,
    options: a.options.length > 0 ? a.options : b.options,
    choice: a.options.length > 0 ? a.choice : b.choice,
    beside: null,
    discriminator: a.discriminator ?? b.discriminator,
    deprecated: a.deprecated || b.deprecated,
    readOnly: a.readOnly || b.readOnly,
    writeOnly: a.writeOnly || b.writeOnly,
  };
}

/**
 * A view without the keywords that cannot apply to its types: `maxItems` on a string, `pattern` on
 * an integer or `properties` on an array constrain nothing (JSON Schema applies each keyword only
 * to instances of its kind), so changing them changes nothing. With any type (no `type`), all apply.
 */
function applicable(view: View): View {
  // Listed values (const, enum) have their own types: keywords of other types constrain nothing.
  const types = view.types ?? typesOfValues(view);
  if (types === null || !inapplicable(view, types)) return containsless(view);
  const has = (...kinds: string[]) => kinds.some((kind) => types.has(kind));
  const limits = { ...view.limits };
  let result: View = view;
  if (!has('string')) {
    limits.maxLength = limits.minLength = undefined;
    result = { ...result, pattern: null, contentMediaType: null, contentEncoding: null, contentSchema: null };
  }
  if (!has('number', 'integer')) result = { ...result, upper: undefined, lower: undefined, multipleOf: undefined };
  if (!has('array')) {
    limits.maxItems = limits.minItems = limits.maxContains = limits.minContains = undefined;
    result = { ...result, items: null, prefix: [], contains: null, uniqueItems: false, unevaluatedItems: null };
  }
  if (!has('object')) {
    limits.maxProperties = limits.minProperties = undefined;
    result = {
      ...result,
      properties: NO_NODES,
      required: NO_NAMES,
      additional: true,
      patternProperties: NO_NODES,
      propertyNames: null,
      dependentRequired: NO_DEPENDENCIES,
      dependentSchemas: NO_NODES,
      unevaluatedProperties: null,
    };
  }
  return containsless({ ...result, limits });
}

/** The JSON types of the values a view lists (`const`, `enum`), null when it lists none. */
function typesOfValues(view: View): ReadonlySet<string> | null {
  const values = view.const !== undefined ? [view.const] : view.enum;
  if (values === null) return null;
  const types = new Set<string>();
  for (const text of values) {
    const value: unknown = JSON.parse(text);
    types.add(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);
  }
  return types;
}

/** Whether a view holds a keyword its types leave without effect (most do not: then it is kept as it is). */
function inapplicable(view: View, types: ReadonlySet<string>): boolean {
  const { limits } = view;
  if (!types.has('string') && (limits.maxLength !== undefined || limits.minLength !== undefined || view.pattern !== null || view.contentMediaType !== null || view.contentEncoding !== null || view.contentSchema !== null)) return true;
  if (!types.has('number') && !types.has('integer') && (view.upper !== undefined || view.lower !== undefined || view.multipleOf !== undefined)) return true;
  if (
    !types.has('array') &&
    (view.items !== null || view.prefix.length > 0 || view.contains !== null || view.uniqueItems || view.unevaluatedItems !== null || limits.maxItems !== undefined || limits.minItems !== undefined || limits.maxContains !== undefined || limits.minContains !== undefined)
  ) {
    return true;
  }
  return (
    !types.has('object') &&
    (view.properties.size > 0 ||
      view.required.size > 0 ||
      view.additional !== true ||
      view.patternProperties.size > 0 ||
      view.propertyNames !== null ||
      view.dependentRequired.size > 0 ||
      view.dependentSchemas.size > 0 ||
      view.unevaluatedProperties !== null ||
      limits.maxProperties !== undefined ||
      limits.minProperties !== undefined)
  );
}

/** `minContains` and `maxContains` mean nothing without `contains`. */
function containsless(view: View): View {
  if (view.contains !== null) return view;
  if (view.limits.minContains === undefined && view.limits.maxContains === undefined) return view;
  return { ...view, limits: { ...view.limits, minContains: undefined, maxContains: undefined } };
}
