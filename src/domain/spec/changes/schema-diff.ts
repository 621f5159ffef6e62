import { escapePointer, References, type Followed } from '../json-pointer.js';
import { isOfKind } from '../reference-kinds.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue } from '../spec-document.js';
import type { Direction, PropertyKind, SchemaKind } from './rules.js';

/** A schema where a document has it: the value as written and its JSON pointer. */
export interface SchemaAt {
  readonly schema: JsonValue | undefined;
  readonly pointer: string;
}

/** One difference between two schemas, relative to the schemas compared. */
export interface SchemaDifference {
  readonly kind: SchemaKind | `property-${PropertyKind}`;
  /** Property names from the compared schema down, `[]` for array items, `{}` for map values. */
  readonly path: readonly string[];
  /** In the newer document; in the older one for what was removed. */
  readonly pointer: string;
  /** What changed, for the message: `string to integer`, `"sold"`, `maxLength 10 to 5`... */
  readonly detail: string;
}

type Node = SchemaAt;

/** The facts of a schema the comparison looks at, `allOf` members merged in. */
interface View {
  /** null: any type. */
  readonly types: ReadonlySet<string> | null;
  readonly nullable: boolean;
  readonly format: string | null;
  /** JSON texts of the values, null excluded; null: no enum. */
  readonly enum: readonly string[] | null;
  readonly properties: ReadonlyMap<string, Node>;
  readonly required: ReadonlySet<string>;
  readonly items: Node | null;
  /** true: any other property is allowed (the default); false: none; a node: those of that schema. */
  readonly additional: boolean | Node;
  readonly limits: Readonly<Record<Limit, number | undefined>>;
  /** The numeric bounds: maximum or exclusiveMaximum (3.1's number, or 2.0's and 3.0's flag), the tighter. */
  readonly upper: Bound | undefined;
  readonly lower: Bound | undefined;
  readonly multipleOf: number | undefined;
  readonly uniqueItems: boolean;
  readonly pattern: string | null;
  /** JSON text of the default, if any. */
  readonly default: string | undefined;
  readonly options: readonly Node[];
  readonly deprecated: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
}

const MAXIMA = ['maxLength', 'maxItems', 'maxProperties'] as const;
const MINIMA = ['minLength', 'minItems', 'minProperties'] as const;
type Limit = (typeof MAXIMA)[number] | (typeof MINIMA)[number];

interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
}

/** The tighter of two bounds; `below`: upper bounds (the lower value is tighter), else lower bounds. */
function tighter(a: Bound | undefined, b: Bound | undefined, below: boolean): Bound | undefined {
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

function boundText(name: string, bound: Bound | undefined): string {
  return bound === undefined ? 'none' : `${bound.exclusive ? `exclusive ${name}` : name} ${bound.value}`;
}

/**
 * How many schemas deep, one inside another, a difference is looked for from where a comparison
 * starts (a property's schema is one level below its object's). Inline nesting stops far earlier
 * (documents nest at most 128 JSON levels), so only a chain of distinct models referring to each
 * other reaches it; below it nothing is compared.
 */
const SCHEMA_DEPTH = 100;

/**
 * How many places beyond the first a pair of schemas is looked for from, per direction: a change
 * inside a schema that many operations use lists those places (`alsoAt`) up to this many, and a
 * schema reached from more is not walked again, so the walk is at most this many times the pairs.
 */
export const MAX_OTHER_PLACES = 10;

/**
 * How many schemas of the other document one schema is compared with, per direction. A document
 * compared with itself, or with its next version, pairs each schema with one or two (GitHub
 * Enterprise Server 3.6 against 3.8: 6,823 pairs for 105,173 JSON objects); two graphs whose
 * references cross (a property to the next model before, to the same one after) can pair every
 * schema with every other, older x newer. Past this many, a schema's further pairings are not
 * compared: the pairs are at most this many times either document's schemas, and as each pair's
 * own differences are at most its two schemas' properties and keywords, so are the items.
 */
export const MAX_PAIRINGS = 8;

/** How deep `allOf` members are merged into one view; deeper ones are left out (a pathological document). */
const ALL_OF_DEPTH = 16;

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function finite(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Whether a value of type `type` is still a value of one of `types` (an integer is a number). */
function accepted(type: string, types: ReadonlySet<string>): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function listed(types: ReadonlySet<string> | null): string {
  return types === null ? 'any type' : [...types].sort().join(' or ');
}

/** What a pair of schemas differs in by itself, and the pairs below it (properties, items, values, alternatives) to compare next. */
interface Local {
  /** Paths `[]`, or `[name]` for what concerns one of its properties. */
  readonly own: readonly SchemaDifference[];
  /** `segment`: the path's next segment (a property name, `[]`, `{}`), null for an alternative. */
  readonly below: readonly { readonly segment: string | null; readonly from: Node; readonly to: Node }[];
}

/** A difference reached by a walk, and the path to it from where the walk started. */
export interface Reached {
  /** The same object wherever, and however often, the pair of schemas it belongs to is reached. */
  readonly difference: SchemaDifference;
  readonly path: readonly string[];
  /** Reached for the first time in this direction; otherwise reported from an earlier place. */
  readonly first: boolean;
}

interface Step {
  readonly from: Node;
  readonly to: Node;
  readonly parent: number;
  readonly segment: string | null;
  readonly depth: number;
}

/**
 * Compares schemas of two documents (any format: `$ref`s are followed in each, so a reference and
 * the definition written in place compare equal), in the direction of the data: what a client
 * sends (`request`) or receives (`response`).
 *
 * Each pair of schemas is compared once, and a difference belongs to the pair it is found in,
 * whatever the paths that lead there: a walk from a place (an operation's request body, say) goes
 * breadth first, so each pair is reached by its shortest path and cycles end where they close; a
 * pair already walked from {@link MAX_OTHER_PLACES} other places is not walked again, and a schema
 * is paired with at most {@link MAX_PAIRINGS} of the other document's. So the differences reported
 * are at most the pairs' own (never one per path: a chain of models each referring twice to the
 * next has 2^n paths), the pairs at most MAX_PAIRINGS times either document's schemas, and the
 * work at most 1 + MAX_OTHER_PLACES times the pairs.
 */
export class SchemaComparator {
  private readonly locals = new Map<string, Local>();
  private readonly views = new Map<string, View>();
  /** Per direction and pair, how many walks reached it. */
  private readonly reached = new Map<string, number>();
  /** Per direction, the pairs whose own pairs below were walked from some place (not cut at SCHEMA_DEPTH). */
  private readonly expanded = new Set<string>();
  /** Per direction and schema (`o` or `n` and its pointer), how many of the other document's it was compared with. */
  private readonly pairings = new Map<string, number>();

  private readonly older: DocumentSchemas;
  private readonly newer: DocumentSchemas;

  constructor(older: JsonObject, newer: JsonObject) {
    this.older = new DocumentSchemas(older);
    this.newer = new DocumentSchemas(newer);
  }

  /** The differences reachable from `from` and `to`, each pair's once in this walk, nearest first. */
  walk(from: SchemaAt, to: SchemaAt, direction: Direction): Reached[] {
    const found: Reached[] = [];
    const steps: Step[] = [{ from, to, parent: -1, segment: null, depth: 0 }];
    const walked = new Set<string>();
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const a = this.older.follow(step.from.schema, step.from.pointer);
      const b = this.newer.follow(step.to.schema, step.to.pointer);
      // A reference that cannot be followed (external, nowhere, or to something that is not a schema) is not compared.
      if (a.ref !== null || b.ref !== null || a.value === undefined || b.value === undefined) continue;
      const pair = `${a.at}\u0000${b.at}`;
      if (walked.has(pair)) continue;
      walked.add(pair);
      const key = `${direction}\u0000${pair}`;
      const times = this.reached.get(key) ?? 0;
      // Past its places, a pair is not walked again, unless every walk so far reached it too deep to go below it.
      if (times > MAX_OTHER_PLACES && this.expanded.has(key)) continue;
      if (times === 0) {
        const [older, newer] = [`${direction}\u0000o${a.at}`, `${direction}\u0000n${b.at}`];
        const [olderPaired, newerPaired] = [this.pairings.get(older) ?? 0, this.pairings.get(newer) ?? 0];
        if (olderPaired >= MAX_PAIRINGS || newerPaired >= MAX_PAIRINGS) continue;
        this.pairings.set(older, olderPaired + 1);
        this.pairings.set(newer, newerPaired + 1);
      }
      this.reached.set(key, times + 1);
      const local = this.local(key, { schema: a.value, pointer: a.at }, { schema: b.value, pointer: b.at }, direction);
      if (local.own.length > 0) {
        const path = this.pathTo(steps, i);
        for (const difference of local.own) found.push({ difference, path: [...path, ...difference.path], first: times === 0 });
      }
      if (step.depth + 1 >= SCHEMA_DEPTH) continue;
      this.expanded.add(key);
      for (const next of local.below) steps.push({ from: next.from, to: next.to, parent: i, segment: next.segment, depth: step.depth + 1 });
    }
    return found;
  }

  private pathTo(steps: readonly Step[], index: number): string[] {
    const path: string[] = [];
    for (let i = index; i > 0; i = steps[i]!.parent) {
      const segment = steps[i]!.segment;
      if (segment !== null) path.push(segment);
    }
    return path.reverse();
  }

  private local(key: string, a: Node, b: Node, direction: Direction): Local {
    let local = this.locals.get(key);
    if (local === undefined) {
      local = this.differences(this.view(this.older, a), this.view(this.newer, b), a.pointer, b.pointer, direction);
      this.locals.set(key, local);
    }
    return local;
  }

  private view(document: DocumentSchemas, node: Node): View {
    const cacheKey = `${document === this.older ? 'o' : 'n'}${node.pointer}`;
    let view = this.views.get(cacheKey);
    if (view === undefined) {
      view = viewOf(document, node, ALL_OF_DEPTH, new Set());
      this.views.set(cacheKey, view);
    }
    return view;
  }

  private differences(a: View, b: View, aAt: string, bAt: string, direction: Direction): Local {
    const found: SchemaDifference[] = [];
    const below: Local['below'][number][] = [];
    const add = (kind: SchemaDifference['kind'], detail: string, removed = false, path: readonly string[] = []) =>
      found.push({ kind, path, pointer: removed ? aAt : bAt, detail });

    if (a.types !== null && b.types !== null) {
      const gone = [...a.types].filter((t) => !accepted(t, b.types!));
      const come = [...b.types].filter((t) => !accepted(t, a.types!));
      if (gone.length > 0 && come.length > 0) {
        // Values of another type altogether: nothing below compares like with like.
        add('type-changed', `${listed(a.types)} to ${listed(b.types)}`);
        return { own: found, below };
      }
      if (gone.length > 0) add('type-narrowed', `${listed(a.types)} to ${listed(b.types)}`);
      if (come.length > 0) add('type-widened', `${listed(a.types)} to ${listed(b.types)}`);
    } else if (a.types === null && b.types !== null) {
      add('type-narrowed', `any type to ${listed(b.types)}`);
    } else if (a.types !== null && b.types === null) {
      add('type-widened', `${listed(a.types)} to any type`);
    }

    if (a.nullable && !b.nullable) add('nullable-removed', 'null');
    if (!a.nullable && b.nullable) add('nullable-added', 'null');
    if (a.format !== null && b.format !== null && a.format !== b.format) add('format-changed', `${a.format} to ${b.format}`);
    if (a.format === null && b.format !== null) add('format-added', b.format);
    if (a.format !== null && b.format === null) add('format-removed', a.format, true);

    if (a.enum !== null && b.enum !== null) {
      const before = new Set(a.enum);
      const after = new Set(b.enum);
      for (const value of a.enum) if (!after.has(value)) add('enum-value-removed', value, true);
      for (const value of b.enum) if (!before.has(value)) add('enum-value-added', value);
    } else if (a.enum === null && b.enum !== null) {
      add('enum-added', b.enum.join(', '));
    } else if (a.enum !== null && b.enum === null) {
      add('enum-removed', a.enum.join(', '));
    }

    const [upperBefore, upperAfter] = [a.upper, b.upper];
    if (upperBefore?.value !== upperAfter?.value || upperBefore?.exclusive !== upperAfter?.exclusive) {
      const detail = `${boundText('maximum', upperBefore)} to ${boundText('maximum', upperAfter)}`;
      add(tighter(upperBefore, upperAfter, true) === upperAfter ? 'max-decreased' : 'max-increased', detail);
    }
    const [lowerBefore, lowerAfter] = [a.lower, b.lower];
    if (lowerBefore?.value !== lowerAfter?.value || lowerBefore?.exclusive !== lowerAfter?.exclusive) {
      const detail = `${boundText('minimum', lowerBefore)} to ${boundText('minimum', lowerAfter)}`;
      add(tighter(lowerBefore, lowerAfter, false) === lowerAfter ? 'min-increased' : 'min-decreased', detail);
    }
    for (const limit of MAXIMA) {
      const [x, y] = [a.limits[limit], b.limits[limit]];
      if (x === y) continue;
      if (y !== undefined && (x === undefined || y < x)) add('max-decreased', `${limit} ${x ?? 'none'} to ${y}`);
      else add('max-increased', `${limit} ${x ?? 'none'} to ${y ?? 'none'}`);
    }
    for (const limit of MINIMA) {
      // No minLength, minItems or minProperties is 0.
      const [x, y] = [a.limits[limit] ?? 0, b.limits[limit] ?? 0];
      if (x === y) continue;
      if (y > x) add('min-increased', `${limit} ${x} to ${y}`);
      else add('min-decreased', `${limit} ${x} to ${y}`);
    }
    if (a.multipleOf !== b.multipleOf) add('multiple-of-changed', `${a.multipleOf ?? 'none'} to ${b.multipleOf ?? 'none'}`);
    if (!a.uniqueItems && b.uniqueItems) add('unique-items-added', 'uniqueItems');
    if (a.uniqueItems && !b.uniqueItems) add('unique-items-removed', 'uniqueItems');
    if (a.pattern !== b.pattern) add('pattern-changed', `${a.pattern ?? 'none'} to ${b.pattern ?? 'none'}`);
    if (a.default !== b.default) add('default-changed', `${a.default ?? 'none'} to ${b.default ?? 'none'}`);

    this.properties(a, b, direction, found, below);

    if (a.items !== null && b.items !== null) below.push({ segment: '[]', from: a.items, to: b.items });
    const allows = (x: boolean | Node) => x !== false;
    if (allows(a.additional) && !allows(b.additional)) add('additional-properties-removed', 'any other property');
    if (!allows(a.additional) && allows(b.additional)) add('additional-properties-added', 'any other property');
    if (typeof a.additional === 'object' && typeof b.additional === 'object') below.push({ segment: '{}', from: a.additional, to: b.additional });

    this.options(a, b, found, below, aAt);
    return { own: found, below };
  }

  private properties(a: View, b: View, direction: Direction, found: SchemaDifference[], below: Local['below'][number][]): void {
    // A client never sends a read-only property, nor receives a write-only one.
    const unseen = (view: View, name: string, doc: DocumentSchemas) => {
      const node = view.properties.get(name);
      if (node === undefined) return false;
      const v = this.view(doc, resolved(doc, node));
      return direction === 'request' ? v.readOnly : v.writeOnly;
    };
    for (const [name, before] of a.properties) {
      const after = b.properties.get(name);
      if (after === undefined) {
        if (!unseen(a, name, this.older)) found.push({ kind: 'property-removed', path: [name], pointer: before.pointer, detail: name });
        continue;
      }
      // The property where its object lists it (not the model it may refer to).
      if (a.required.has(name) && !b.required.has(name) && !unseen(b, name, this.newer)) found.push({ kind: 'property-became-optional', path: [name], pointer: after.pointer, detail: name });
      if (!a.required.has(name) && b.required.has(name) && !unseen(b, name, this.newer)) found.push({ kind: 'property-became-required', path: [name], pointer: after.pointer, detail: name });
      if (!this.view(this.older, resolved(this.older, before)).deprecated && this.view(this.newer, resolved(this.newer, after)).deprecated) {
        found.push({ kind: 'property-deprecated', path: [name], pointer: after.pointer, detail: name });
      }
      below.push({ segment: name, from: before, to: after });
    }
    for (const [name, after] of b.properties) {
      if (a.properties.has(name) || unseen(b, name, this.newer)) continue;
      const kind = b.required.has(name) ? 'property-required-added' : 'property-added';
      found.push({ kind, path: [name], pointer: after.pointer, detail: name });
    }
  }

  /** oneOf/anyOf alternatives, matched by the model they name, else by their types and order. */
  private options(a: View, b: View, found: SchemaDifference[], below: Local['below'][number][], aAt: string): void {
    if (a.options.length === 0 && b.options.length === 0) return;
    const keys = (doc: DocumentSchemas, options: readonly Node[]) => {
      const seen = new Map<string, number>();
      return options.map((option) => {
        const ref = isJsonObject(option.schema) ? text(option.schema['$ref']) : null;
        const base = ref !== null ? `ref:${ref.split('/').at(-1) ?? ref}` : `types:${listed(this.view(doc, resolved(doc, option)).types)}`;
        const n = (seen.get(base) ?? 0) + 1;
        seen.set(base, n);
        return `${base}#${n}`;
      });
    };
    const before = new Map(keys(this.older, a.options).map((key, i) => [key, a.options[i]!]));
    const after = new Map(keys(this.newer, b.options).map((key, i) => [key, b.options[i]!]));
    for (const [key, option] of before) {
      const match = after.get(key);
      if (match === undefined) found.push({ kind: 'option-removed', path: [], pointer: resolved(this.older, option).pointer || aAt, detail: key.split('#')[0]!.replace(/^(ref|types):/, '') });
      else below.push({ segment: null, from: option, to: match });
    }
    for (const [key, option] of after) {
      if (!before.has(key)) found.push({ kind: 'option-added', path: [], pointer: resolved(this.newer, option).pointer, detail: key.split('#')[0]!.replace(/^(ref|types):/, '') });
    }
  }
}

/**
 * The schemas of one document: its references followed, each chain once however many schemas use
 * it, and only to schemas (a reference to a parameter or to `#/info` is not followed).
 */
class DocumentSchemas {
  private readonly references: References;
  private readonly isSchema: (target: JsonValue) => boolean;

  constructor(document: JsonObject) {
    this.references = new References(document);
    const format = specFormatOf(document) ?? 'openapi-3.1';
    this.isSchema = (target) => isOfKind('schema', format, target);
  }

  follow(value: JsonValue | undefined, at: string): Followed {
    return this.references.follow(value, at, this.isSchema);
  }
}

/** A node with its internal references followed (as written when they cannot be). */
function resolved(document: DocumentSchemas, node: Node): Node {
  const { value, ref, at } = document.follow(node.schema, node.pointer);
  return ref === null ? { schema: value, pointer: at } : node;
}

function typesOf(schema: JsonObject): { types: Set<string> | null; nullable: boolean } {
  const raw = schema['type'];
  let nullable = schema['nullable'] === true || schema['x-nullable'] === true;
  let types: Set<string> | null = null;
  if (typeof raw === 'string') types = new Set([raw]);
  else if (Array.isArray(raw)) types = new Set(raw.filter((t): t is string => typeof t === 'string'));
  else if (isJsonObject(schema['properties']) || isJsonObject(schema['additionalProperties']) || schema['additionalProperties'] === false) types = new Set(['object']);
  else if (schema['items'] !== undefined) types = new Set(['array']);
  if (types?.has('null')) {
    types.delete('null');
    nullable = true;
  }
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) nullable = true;
  if ('const' in schema && schema['const'] === null) nullable = true;
  return { types, nullable };
}

function viewOf(document: DocumentSchemas, node: Node, depth: number, visiting: Set<string>): View {
  const schema = isJsonObject(node.schema) ? node.schema : {};
  const { types, nullable } = typesOf(schema);
  const enumValues = Array.isArray(schema['enum']) ? schema['enum'] : 'const' in schema ? [schema['const']!] : null;
  const properties = new Map<string, Node>();
  for (const [name, value] of Object.entries(isJsonObject(schema['properties']) ? schema['properties'] : {})) {
    properties.set(name, { schema: value, pointer: `${node.pointer}/properties/${escapePointer(name)}` });
  }
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : []);
  const items = schema['items'] !== undefined && !Array.isArray(schema['items']) ? { schema: schema['items'], pointer: `${node.pointer}/items` } : null;
  const additionalRaw = schema['additionalProperties'];
  const additional: boolean | Node = additionalRaw === false ? false : isJsonObject(additionalRaw) ? { schema: additionalRaw, pointer: `${node.pointer}/additionalProperties` } : true;
  const limits = Object.fromEntries([...MAXIMA, ...MINIMA].map((l) => [l, finite(schema[l])])) as Record<Limit, number | undefined>;
  const choices = Array.isArray(schema['oneOf']) ? 'oneOf' : Array.isArray(schema['anyOf']) ? 'anyOf' : null;
  const options = choices === null ? [] : (schema[choices] as JsonValue[]).map((option, i) => ({ schema: option, pointer: `${node.pointer}/${choices}/${i}` }));
  let view: View = {
    types,
    nullable,
    format: text(schema['format']),
    enum: enumValues === null ? null : enumValues.filter((v) => v !== null).map((v) => JSON.stringify(v)),
    properties,
    required,
    items,
    additional,
    limits,
    upper: boundOf(schema, 'maximum', 'exclusiveMaximum'),
    lower: boundOf(schema, 'minimum', 'exclusiveMinimum'),
    multipleOf: finite(schema['multipleOf']),
    uniqueItems: schema['uniqueItems'] === true,
    pattern: text(schema['pattern']),
    default: schema['default'] === undefined ? undefined : JSON.stringify(schema['default']),
    options,
    deprecated: schema['deprecated'] === true,
    readOnly: schema['readOnly'] === true,
    writeOnly: schema['writeOnly'] === true,
  };
  if (Array.isArray(schema['allOf']) && depth > 0) {
    visiting.add(node.pointer);
    for (const [i, member] of schema['allOf'].entries()) {
      const { value, ref, at } = document.follow(member, `${node.pointer}/allOf/${i}`);
      if (ref !== null || visiting.has(at)) continue;
      view = merged(view, viewOf(document, { schema: value, pointer: at }, depth - 1, visiting));
    }
    visiting.delete(node.pointer);
  }
  return view;
}

/** A schema and an `allOf` member of it as one: a value must satisfy both. */
function merged(a: View, b: View): View {
  const types = a.types === null ? b.types : b.types === null ? a.types : new Set([...a.types].filter((t) => accepted(t, b.types!) || (t === 'number' && b.types!.has('integer'))));
  const properties = new Map(a.properties);
  for (const [name, node] of b.properties) if (!properties.has(name)) properties.set(name, node);
  const limits = { ...a.limits };
  for (const key of Object.keys(b.limits) as Limit[]) limits[key] ??= b.limits[key];
  return {
    types,
    nullable: a.nullable && (b.nullable || b.types === null),
    format: a.format ?? b.format,
    enum: a.enum ?? b.enum,
    properties,
    required: new Set([...a.required, ...b.required]),
    items: a.items ?? b.items,
    additional: a.additional === true ? b.additional : a.additional,
    limits,
    upper: tighter(a.upper, b.upper, true),
    lower: tighter(a.lower, b.lower, false),
    multipleOf: a.multipleOf ?? b.multipleOf,
    uniqueItems: a.uniqueItems || b.uniqueItems,
    pattern: a.pattern ?? b.pattern,
    default: a.default ?? b.default,
    options: a.options.length > 0 ? a.options : b.options,
    deprecated: a.deprecated || b.deprecated,
    readOnly: a.readOnly || b.readOnly,
    writeOnly: a.writeOnly || b.writeOnly,
  };
}
