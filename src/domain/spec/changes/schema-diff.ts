import { unescapePointer } from '../json-pointer.js';
import type { JsonObject } from '../spec-document.js';
import type { Direction, PropertyKind, SchemaKind } from './rules.js';
import {
  accepted,
  both,
  DocumentSchemas,
  implied,
  MAXIMA,
  MINIMA,
  MINIMUM_DEFAULT,
  refName,
  reportable,
  resolved,
  text,
  tighter,
  viewOf,
  type Bound,
  type Node,
  type SchemaAt,
  type View,
} from './schema-view.js';

export type { SchemaAt } from './schema-view.js';

/** One difference between two schemas, relative to the schemas compared. */
export interface SchemaDifference {
  readonly kind: SchemaKind | `property-${PropertyKind}`;
  /**
   * From the compared schema down: property names, `[]` for array items, `{}` for map values,
   * `[0]` for a tuple's position, `(keyword)` for what an applicator (`not`, `contains`,
   * `propertyNames`, `then`...) holds.
   */
  readonly path: readonly string[];
  /** In the newer document; in the older one for what was removed. */
  readonly pointer: string;
  /** What changed, for the message: `string to integer`, `"sold"`, `maxLength 10 to 5`... */
  readonly detail: string;
}

/** How a pair of schemas is read: what a client sends or receives, and whether as text on the wire (a parameter, a header) or as JSON. */
export interface Reading {
  readonly direction: Direction;
  /**
   * Path, query, header and cookie values travel as text: every integer is also a string there,
   * so a type change is judged by the strings each side takes (integer to string widens).
   */
  readonly wire: boolean;
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

/** How many alternatives of one oneOf are looked at for overlaps (pairs grow as their square). */
const MAX_OVERLAP_OPTIONS = 64;

/** Scalars a text on the wire can be read as: any of them is also a string. */
const SCALARS = new Set(['integer', 'number', 'boolean']);

/** Whether a value of type `type` is still one of `types`; on the wire, any scalar is also a string. */
function takes(type: string, types: ReadonlySet<string>, wire: boolean): boolean {
  return accepted(type, types) || (wire && types.has('string') && SCALARS.has(type));
}

/**
 * How the types taken changed (null: any type): to another type altogether (some taken away and
 * others added), fewer, or more; null when the same.
 */
function typeChange(before: ReadonlySet<string> | null, after: ReadonlySet<string> | null, wire: boolean): { readonly kind: 'type-changed' | 'type-narrowed' | 'type-widened'; readonly detail: string } | null {
  if (before === null && after === null) return null;
  if (before === null) return { kind: 'type-narrowed', detail: `any type to ${listed(after)}` };
  if (after === null) return { kind: 'type-widened', detail: `${listed(before)} to any type` };
  const gone = [...before].some((t) => !takes(t, after, wire));
  const come = [...after].some((t) => !takes(t, before, wire));
  const detail = `${listed(before)} to ${listed(after)}`;
  if (gone && come) return { kind: 'type-changed', detail };
  if (gone) return { kind: 'type-narrowed', detail };
  return come ? { kind: 'type-widened', detail } : null;
}

/** A value's JSON text as it travels as text: a string without its quotes, any other value as JSON. */
function asText(json: string): string {
  const value: unknown = JSON.parse(json);
  return typeof value === 'string' ? value : json;
}

/** What an alternative takes, by type: `string`, `integer or string`, `null` for `type: 'null'`, `no value` for the schema false. */
function typeName(view: View): string {
  return view.types !== null && view.types.size === 0 && view.nullable ? 'null' : listed(view.types);
}

function listed(types: ReadonlySet<string> | null): string {
  if (types === null) return 'any type';
  return types.size === 0 ? 'no value' : [...types].sort().join(' or ');
}

type Below = { readonly segment: string | null; readonly from: Node; readonly to: Node; readonly negates?: true };

/** What a pair of schemas differs in by itself, and the pairs below it (properties, items, values, alternatives) to compare next. */
interface Local {
  /** Paths `[]`, or `[name]` for what concerns one of its properties. */
  readonly own: readonly SchemaDifference[];
  /** `segment`: the path's next segment (a property name, `[]`, `{}`...), null for an alternative; `negates`: it is inside a `not`. */
  readonly below: readonly Below[];
}

/** A difference reached by a walk, and the path to it from where the walk started. */
export interface Reached {
  /** The same object wherever, and however often, the pair of schemas it belongs to is reached. */
  readonly difference: SchemaDifference;
  readonly path: readonly string[];
  /** Inside an odd number of `not`s: what lets more values through there lets fewer through the schema compared. */
  readonly negated: boolean;
}

interface PairState {
  reached: number;
  expanded: boolean;
  /** The last walk that met the pair: a walk meets each pair once. */
  walk: number;
  local: Local | undefined;
}

interface Step {
  readonly from: Node;
  readonly to: Node;
  readonly parent: number;
  readonly segment: string | null;
  readonly depth: number;
  readonly negated: boolean;
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
  /**
   * Per reading (direction, wire, inside a `not` or not), per older and newer schema: how many walks
   * reached the pair, whether some walk went below it (not cut at SCHEMA_DEPTH), the walk that saw
   * it last and its differences. Keyed by the pointers themselves, never by a string made of them:
   * V8 keeps a string's hash, so each lookup of a pointer met before costs no rehash.
   */
  private readonly pairs = new Map<string, Map<string, Map<string, PairState>>>();
  /** Per direction, how many of the other document's schemas each schema was compared with. */
  private readonly pairings = new Map<string, { readonly older: Map<string, number>; readonly newer: Map<string, number> }>();
  private readonly olderViews = new Map<string, View>();
  private readonly newerViews = new Map<string, View>();
  private walks = 0;

  private readonly older: DocumentSchemas;
  private readonly newer: DocumentSchemas;

  constructor(older: JsonObject, newer: JsonObject) {
    this.older = new DocumentSchemas(older);
    this.newer = new DocumentSchemas(newer);
  }

  /** The differences reachable from `from` and `to`, each pair's once in this walk, nearest first. */
  walk(from: SchemaAt, to: SchemaAt, reading: Reading): Reached[] {
    const found: Reached[] = [];
    const steps: Step[] = [{ from, to, parent: -1, segment: null, depth: 0, negated: false }];
    const walk = ++this.walks;
    const pairings = this.pairingsOf(reading.direction);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const a = this.older.follow(step.from.schema, step.from.pointer);
      const b = this.newer.follow(step.to.schema, step.to.pointer);
      // A reference that cannot be followed (external, nowhere, or to something that is not a schema) is not compared.
      if (a.ref !== null || b.ref !== null || a.value === undefined || b.value === undefined) continue;
      const pair = this.pairState(reading, step.negated, a.at, b.at);
      if (pair.walk === walk) continue;
      pair.walk = walk;
      // Past its places, a pair is not walked again, unless every walk so far reached it too deep to go below it.
      if (pair.reached > MAX_OTHER_PLACES && pair.expanded) continue;
      if (pair.reached === 0) {
        const [olderPaired, newerPaired] = [pairings.older.get(a.at) ?? 0, pairings.newer.get(b.at) ?? 0];
        if (olderPaired >= MAX_PAIRINGS || newerPaired >= MAX_PAIRINGS) continue;
        pairings.older.set(a.at, olderPaired + 1);
        pairings.newer.set(b.at, newerPaired + 1);
      }
      pair.reached += 1;
      pair.local ??= new PairComparison(this, this.view(true, a.at, a.value), this.view(false, b.at, b.value), { schema: a.value, pointer: a.at }, { schema: b.value, pointer: b.at }, reading).run();
      const local = pair.local;
      if (local.own.length > 0) {
        const path = this.pathTo(steps, i);
        for (const difference of local.own) found.push({ difference, path: [...path, ...difference.path], negated: step.negated });
      }
      if (step.depth + 1 >= SCHEMA_DEPTH) continue;
      pair.expanded = true;
      for (const next of local.below) {
        steps.push({ from: next.from, to: next.to, parent: i, segment: next.segment, depth: step.depth + 1, negated: next.negates === true ? !step.negated : step.negated });
      }
    }
    return found;
  }

  private pairState(reading: Reading, negated: boolean, olderAt: string, newerAt: string): PairState {
    const readingKey = `${reading.direction}${reading.wire ? ' wire' : ''}${negated ? ' not' : ''}`;
    let byOlder = this.pairs.get(readingKey);
    if (byOlder === undefined) this.pairs.set(readingKey, (byOlder = new Map<string, Map<string, PairState>>()));
    let byNewer = byOlder.get(olderAt);
    if (byNewer === undefined) byOlder.set(olderAt, (byNewer = new Map<string, PairState>()));
    let state = byNewer.get(newerAt);
    if (state === undefined) byNewer.set(newerAt, (state = { reached: 0, expanded: false, walk: 0, local: undefined }));
    return state;
  }

  private pairingsOf(direction: Direction): { readonly older: Map<string, number>; readonly newer: Map<string, number> } {
    let pairings = this.pairings.get(direction);
    if (pairings === undefined) this.pairings.set(direction, (pairings = { older: new Map(), newer: new Map() }));
    return pairings;
  }

  private pathTo(steps: readonly Step[], index: number): string[] {
    const path: string[] = [];
    for (let i = index; i > 0; i = steps[i]!.parent) {
      const segment = steps[i]!.segment;
      if (segment !== null) path.push(segment);
    }
    return path.reverse();
  }

  /** The view of a schema of the older document (`older`) or the newer, its references followed. */
  viewAt(older: boolean, node: Node): View {
    const { schema, pointer } = resolved(older ? this.older : this.newer, node);
    return this.view(older, pointer, schema);
  }


  /** How many pairs of `view`'s alternatives can match one value (0 with a discriminator, which tells them apart). */
  overlaps(older: boolean, view: View): number {
    if (view.discriminator !== null) return 0;
    const options = view.options.slice(0, MAX_OVERLAP_OPTIONS).map((option) => this.viewAt(older, option));
    let count = 0;
    for (let i = 0; i < options.length; i++) for (let j = i + 1; j < options.length; j++) if (!this.disjoint(older, options[i]!, options[j]!)) count += 1;
    return count;
  }

  /**
   * The types and null a view takes: its own, or, with none and alternatives, those of its
   * alternatives together (`oneOf: [string, number]` takes strings and numbers, not any type).
   */
  takenTypes(older: boolean, view: View): { readonly types: ReadonlySet<string> | null; readonly nullable: boolean } {
    if (view.types !== null || view.options.length === 0) return view;
    const types = new Set<string>();
    let nullable = view.nullable;
    for (const option of view.options.slice(0, MAX_OVERLAP_OPTIONS)) {
      const alternative = this.viewAt(older, option);
      if (alternative.types === null) return view;
      for (const type of alternative.types) types.add(type);
      nullable ||= alternative.nullable;
    }
    return { types, nullable };
  }

  /** Whether no value can match both: their types, their values, a required property's types or values, or a closed object tell them apart. */
  private disjoint(older: boolean, x: View, y: View, depth = 0): boolean {
    const [xt, yt] = [this.takenTypes(older, x), this.takenTypes(older, y)];
    if (xt.nullable && yt.nullable) return false;
    // An integer is a number: the two share the integers.
    const shared = (t: string, types: ReadonlySet<string>) => accepted(t, types) || (t === 'number' && types.has('integer'));
    if (xt.types !== null && yt.types !== null && ![...xt.types].some((t) => shared(t, yt.types!))) return true;
    const values = (v: View) => (v.const !== undefined ? [v.const] : v.enum);
    const [xv, yv] = [values(x), values(y)];
    if (xv !== null && yv !== null && !xv.some((value) => yv.includes(value))) return true;
    const closed = (v: View, other: View) => v.additional === false && [...other.required].some((name) => !v.properties.has(name));
    if (closed(x, y) || closed(y, x)) return true;
    if (depth > 0) return false;
    for (const name of x.required) {
      if (!y.required.has(name)) continue;
      const [p, q] = [x.properties.get(name), y.properties.get(name)];
      if (p !== undefined && q !== undefined && this.disjoint(older, this.viewAt(older, p), this.viewAt(older, q), depth + 1)) return true;
    }
    return false;
  }

  private view(older: boolean, pointer: string, schema: Node['schema']): View {
    const views = older ? this.olderViews : this.newerViews;
    let view = views.get(pointer);
    if (view === undefined) {
      view = viewOf(older ? this.older : this.newer, { schema, pointer });
      views.set(pointer, view);
    }
    return view;
  }
}

/** The differences of one pair of schemas, and the pairs below it. */
class PairComparison {
  private readonly found: SchemaDifference[] = [];
  private readonly below: Below[] = [];

  constructor(
    private readonly schemas: SchemaComparator,
    private readonly a: View,
    private readonly b: View,
    private readonly aNode: Node,
    private readonly bNode: Node,
    private readonly reading: Reading,
  ) {
    this.aAt = reportable(aNode.pointer);
    this.bAt = reportable(bNode.pointer);
  }

  private readonly aAt: string;
  private readonly bAt: string;

  run(): Local {
    if (this.wrapping()) return { own: this.found, below: this.below };
    // Against the schema false (no value at all), only what the other takes counts: its keywords constrain nothing there.
    if (!this.types() || nothing(this.a) || nothing(this.b)) return { own: this.found, below: this.below };
    this.values();
    this.bounds();
    this.strings();
    this.properties();
    this.objects();
    this.arrays();
    this.applicators();
    this.options();
    return { own: this.found, below: this.below };
  }

  private add(kind: SchemaDifference['kind'], detail: string, removed = false, path: readonly string[] = []): void {
    this.found.push({ kind, path, pointer: removed ? this.aAt : this.bAt, detail });
  }

  /** A pair below, compared next; a side that leaves the keyword out stands for `absent` (true: no constraint). */
  private next(segment: string | null, from: Node | null, to: Node | null, absent = true, negates = false): void {
    if (from === null && to === null) return;
    const keyword = segment ?? 'option';
    const pair: Below = { segment, from: from ?? implied(absent, this.aAt, keyword), to: to ?? implied(absent, this.bAt, keyword) };
    this.below.push(negates ? { ...pair, negates: true } : pair);
  }

  /** Types and null; false when the types have nothing in common (nothing below compares like with like). */
  private types(): boolean {
    const { a, b } = this;
    const wire = this.reading.wire;
    // Values listed on both sides (const, enum) say what passes: a type beside them, given or taken, changes nothing.
    if (fixesValues(a) && fixesValues(b)) return true;
    const change = typeChange(a.types, b.types, wire);
    if (change !== null) this.add(change.kind, change.detail);
    // Values of another type altogether: nothing below compares like with like.
    if (change?.kind === 'type-changed') return false;
    // Any type takes null already: with no type on a side, the type change says it all.
    if (a.types === null || b.types === null) return true;
    if (a.nullable && !b.nullable) this.add('nullable-removed', 'null');
    if (!a.nullable && b.nullable) this.add('nullable-added', 'null');
    return true;
  }

  /** `const`, `enum`, `x-extensible-enum`, `default`, `format`. */
  private values(): void {
    const { a, b } = this;
    if (a.format !== null && b.format !== null && a.format !== b.format) this.add('format-changed', `${a.format} to ${b.format}`);
    if (a.format === null && b.format !== null) this.add('format-added', b.format);
    if (a.format !== null && b.format === null) this.add('format-removed', a.format, true);

    // A `const` is an enum of one value: between them, only a value taken away or added is a change.
    // On the wire a value is its text: 1 and "1" are one value.
    // A listed value of a type the schema does not take never passes.
    const texts = (view: View, values: readonly string[] | null) => {
      const typed = values === null || view.types === null ? values : values.filter((value) => takesValue(view.types!, value));
      return typed === null || !this.reading.wire ? typed : typed.map(asText);
    };
    const before = texts(a, a.const !== undefined ? (a.enum === null || a.enum.includes(a.const) ? [a.const] : []) : a.enum);
    const after = texts(b, b.const !== undefined ? (b.enum === null || b.enum.includes(b.const) ? [b.const] : []) : b.enum);
    const constant = a.const !== undefined || b.const !== undefined;
    if (before !== null && after !== null) {
      const [had, has] = [new Set(before), new Set(after)];
      const removed = before.filter((v) => !has.has(v));
      const added = after.filter((v) => !had.has(v));
      if (constant && removed.length > 0 && added.length > 0 && (before.length === 1 || after.length === 1)) {
        this.add('const-changed', `${before.join(', ')} to ${after.join(', ')}`);
      } else {
        for (const value of removed) this.add('enum-value-removed', value, true);
        for (const value of added) this.add('enum-value-added', value);
      }
    } else if (before === null && after !== null) {
      this.add(b.const !== undefined ? 'const-added' : 'enum-added', after.join(', '));
    } else if (before !== null && after === null) {
      this.add(a.const !== undefined ? 'const-removed' : 'enum-removed', before.join(', '), true);
    }

    if (a.extensible !== null || b.extensible !== null) {
      const [had, has] = [new Set(a.extensible ?? []), new Set(b.extensible ?? [])];
      for (const value of had) if (!has.has(value)) this.add('extensible-enum-value-removed', value, true);
      for (const value of has) if (!had.has(value)) this.add('extensible-enum-value-added', value);
    }
    if (a.default !== b.default) this.add('default-changed', `${a.default ?? 'none'} to ${b.default ?? 'none'}`);
  }

  private bounds(): void {
    const { a, b } = this;
    const [upperBefore, upperAfter] = [a.upper, b.upper];
    if (upperBefore?.value !== upperAfter?.value || upperBefore?.exclusive !== upperAfter?.exclusive) {
      const detail = `${boundText('maximum', upperBefore)} to ${boundText('maximum', upperAfter)}`;
      this.add(tighter(upperBefore, upperAfter, true) === upperAfter ? 'max-decreased' : 'max-increased', detail);
    }
    const [lowerBefore, lowerAfter] = [a.lower, b.lower];
    if (lowerBefore?.value !== lowerAfter?.value || lowerBefore?.exclusive !== lowerAfter?.exclusive) {
      const detail = `${boundText('minimum', lowerBefore)} to ${boundText('minimum', lowerAfter)}`;
      this.add(tighter(lowerBefore, lowerAfter, false) === lowerAfter ? 'min-increased' : 'min-decreased', detail);
    }
    for (const limit of MAXIMA) {
      const [x, y] = [a.limits[limit], b.limits[limit]];
      if (x === y) continue;
      if (y !== undefined && (x === undefined || y < x)) this.add('max-decreased', `${limit} ${x ?? 'none'} to ${y}`);
      else this.add('max-increased', `${limit} ${x ?? 'none'} to ${y ?? 'none'}`);
    }
    for (const limit of MINIMA) {
      // minContains counts only beside contains on both sides (contains set or removed is its own change).
      if (limit === 'minContains' && (a.contains === null || b.contains === null)) continue;
      const [x, y] = [a.limits[limit] ?? MINIMUM_DEFAULT[limit], b.limits[limit] ?? MINIMUM_DEFAULT[limit]];
      if (x === y) continue;
      this.add(y > x ? 'min-increased' : 'min-decreased', `${limit} ${x} to ${y}`);
    }
    if (a.multipleOf !== b.multipleOf) this.add(multipleOfKind(a.multipleOf, b.multipleOf), `${a.multipleOf ?? 'none'} to ${b.multipleOf ?? 'none'}`);
  }

  /** `pattern` and the content keywords of strings. */
  private strings(): void {
    const { a, b } = this;
    if (a.pattern === null && b.pattern !== null) this.add('pattern-added', b.pattern);
    else if (a.pattern !== null && b.pattern === null) this.add('pattern-removed', a.pattern, true);
    else if (a.pattern !== b.pattern) this.add('pattern-changed', `${a.pattern} to ${b.pattern}`);
    if (a.contentMediaType !== b.contentMediaType) this.add('content-media-type-changed', `${a.contentMediaType ?? 'none'} to ${b.contentMediaType ?? 'none'}`);
    if (a.contentEncoding !== b.contentEncoding) this.add('content-encoding-changed', `${a.contentEncoding ?? 'none'} to ${b.contentEncoding ?? 'none'}`);
    this.next('(contentSchema)', a.contentSchema, b.contentSchema);
  }

  private properties(): void {
    const { a, b } = this;
    const direction = this.reading.direction;
    // A client never sends a read-only property, nor receives a write-only one.
    const hidden = (view: View) => (direction === 'request' ? view.readOnly : view.writeOnly);
    const older = (node: Node) => this.schemas.viewAt(true, node);
    const newer = (node: Node) => this.schemas.viewAt(false, node);
    for (const [name, before] of a.properties) {
      const after = b.properties.get(name);
      const was = older(before);
      if (after === undefined) {
        if (!b.required.has(name) && !hidden(was)) this.found.push({ kind: 'property-removed', path: [name], pointer: before.pointer, detail: name });
        // Unlisted now, its values are those additionalProperties takes; still required without a
        // schema of its own there, it is still there, of any type.
        if (typeof b.additional === 'object') this.next(name, before, b.additional);
        else if (b.required.has(name)) this.next(name, before, implied(true, this.bAt, `properties/${name}`));
        continue;
      }
      const is = newer(after);
      const property = (kind: PropertyKind) => this.found.push({ kind: `property-${kind}`, path: [name], pointer: after.pointer, detail: name });
      if (!was.readOnly && is.readOnly) property('became-read-only');
      if (was.readOnly && !is.readOnly) property('became-writable');
      if (!was.writeOnly && is.writeOnly) property('became-write-only');
      if (was.writeOnly && !is.writeOnly) property('became-readable');
      // The property where its object lists it (not the model it may refer to).
      if (!hidden(is) && !hidden(was)) {
        if (a.required.has(name) && !b.required.has(name)) property('became-optional');
        if (!a.required.has(name) && b.required.has(name)) property('became-required');
      }
      if (!was.deprecated && is.deprecated) property('deprecated');
      this.next(name, before, after);
    }
    for (const [name, after] of b.properties) {
      if (a.properties.has(name)) continue;
      // Required before without a schema of its own: it was there, with the values
      // additionalProperties took (any without a schema there); now it has one.
      if (a.required.has(name)) {
        this.next(name, typeof a.additional === 'object' ? a.additional : implied(true, this.aAt, `properties/${name}`), after);
        continue;
      }
      if (hidden(newer(after))) continue;
      this.found.push({ kind: b.required.has(name) ? 'property-required-added' : 'property-added', path: [name], pointer: after.pointer, detail: name });
      // Unlisted before, its values were those additionalProperties took.
      if (typeof a.additional === 'object') this.next(name, a.additional, after);
    }
    // A name required without being listed (in `then`, or with its schema left open) is required all the same.
    const unlisted = (name: string) => !a.properties.has(name) && !b.properties.has(name);
    for (const name of b.required) if (!a.required.has(name) && unlisted(name)) this.found.push({ kind: 'property-became-required', path: [name], pointer: this.bAt, detail: name });
    for (const name of a.required) if (!b.required.has(name) && unlisted(name)) this.found.push({ kind: 'property-became-optional', path: [name], pointer: this.bAt, detail: name });
  }

  /** What objects allow beyond their properties. */
  private objects(): void {
    const { a, b } = this;
    const allows = (x: boolean | Node) => x !== false;
    if (allows(a.additional) && !allows(b.additional)) this.add('additional-properties-removed', 'any other property');
    if (!allows(a.additional) && allows(b.additional)) this.add('additional-properties-added', 'any other property');
    if (typeof a.additional === 'object' || typeof b.additional === 'object') {
      if (allows(a.additional) && allows(b.additional)) this.next('{}', typeof a.additional === 'object' ? a.additional : null, typeof b.additional === 'object' ? b.additional : null);
    }
    for (const pattern of new Set([...a.patternProperties.keys(), ...b.patternProperties.keys()])) {
      this.next(`(patternProperties ${pattern})`, a.patternProperties.get(pattern) ?? null, b.patternProperties.get(pattern) ?? null);
    }
    this.next('(propertyNames)', a.propertyNames, b.propertyNames);
    this.next('(unevaluatedProperties)', a.unevaluatedProperties, b.unevaluatedProperties);
    for (const name of new Set([...a.dependentRequired.keys(), ...b.dependentRequired.keys()])) {
      const [had, has] = [a.dependentRequired.get(name) ?? new Set<string>(), b.dependentRequired.get(name) ?? new Set<string>()];
      for (const other of has) if (!had.has(other)) this.add('dependent-required-added', `${name} requires ${other}`);
      for (const other of had) if (!has.has(other)) this.add('dependent-required-removed', `${name} requires ${other}`, true);
    }
    for (const name of new Set([...a.dependentSchemas.keys(), ...b.dependentSchemas.keys()])) {
      this.next(`(dependentSchemas ${name})`, a.dependentSchemas.get(name) ?? null, b.dependentSchemas.get(name) ?? null);
    }
  }

  /** Items, by position for tuples (`prefixItems`, then `items` for the rest), and `contains`. */
  private arrays(): void {
    const { a, b } = this;
    const positions = Math.max(a.prefix.length, b.prefix.length);
    for (let i = 0; i < positions; i++) this.next(`[${i}]`, a.prefix[i] ?? a.items, b.prefix[i] ?? b.items);
    this.next('[]', a.items, b.items);
    this.next('(unevaluatedItems)', a.unevaluatedItems, b.unevaluatedItems);
    if (a.contains === null && b.contains !== null) this.add('contains-added', 'contains');
    else if (a.contains !== null && b.contains === null) this.add('contains-removed', 'contains', true);
    else if (a.contains !== null && b.contains !== null) this.next('(contains)', a.contains, b.contains);
    if (!a.uniqueItems && b.uniqueItems) this.add('unique-items-added', 'uniqueItems');
    if (a.uniqueItems && !b.uniqueItems) this.add('unique-items-removed', 'uniqueItems');
  }

  /** `if` / `then` / `else` and `not`. */
  private applicators(): void {
    const { a, b } = this;
    // then and else apply only beside an if.
    if (a.condition === null && b.condition === null) {
      // nothing to compare
    } else if (a.condition !== b.condition) {
      // Which values the condition picks changed: then and else no longer apply to the same ones.
      this.add('condition-changed', 'if');
    } else {
      this.next('(then)', a.then, b.then);
      this.next('(else)', a.else, b.else);
    }
    // No `not` excludes nothing: the schema false inside it. A `not` that excludes only values of
    // types the schema does not take (`type: string, not: {type: integer}`) changes nothing.
    if (!this.excludesNothingTaken()) this.next('(not)', a.not, b.not, false, true);
  }

  /** Whether the `not`s of both sides exclude only types that neither side takes. */
  private excludesNothingTaken(): boolean {
    const { a, b } = this;
    if (a.types === null || b.types === null) return false;
    const taken = new Set([...a.types, ...b.types]);
    const outside = (older: boolean, not: Node | null) => {
      if (not === null) return true;
      const excluded = this.schemas.takenTypes(older, this.schemas.viewAt(older, not)).types;
      return excluded !== null && ![...excluded].some((t) => accepted(t, taken) || (t === 'number' && taken.has('integer')));
    };
    return outside(true, a.not) && outside(false, b.not);
  }

  /**
   * A schema wrapped into a `oneOf`/`anyOf` of which it is one alternative (or taken out of one): it
   * is compared with the alternative that matches it, the others are added (or removed); nothing
   * else of the two is compared. False when it is not that.
   */
  private wrapping(): boolean {
    const { a, b } = this;
    const wrapped = a.options.length === 0 && b.options.length > 0 && bare(b);
    const unwrapped = a.options.length > 0 && b.options.length === 0 && bare(a);
    if (!wrapped && !unwrapped) return false;
    const options = wrapped ? b.options : a.options;
    const pairs = wrapped ? this.match([this.aNode], options) : this.match(options, [this.bNode]);
    const matched = new Set(pairs.map(([x, y]) => (wrapped ? y : x)));
    for (const option of options) {
      if (matched.has(option)) continue;
      if (wrapped) this.found.push({ kind: 'option-added', path: [], pointer: reportable(option.pointer), detail: this.optionName(false, option) });
      else this.found.push({ kind: 'option-removed', path: [], pointer: reportable(option.pointer), detail: this.optionName(true, option) });
    }
    // The alternative as the choice takes it: with what the choice asks beside its alternatives.
    const beside = (wrapped ? b : a).beside;
    const withBeside = (alternative: Node) => (beside === null ? alternative : both(alternative, beside));
    for (const [from, to] of pairs) this.below.push(wrapped ? { segment: null, from, to: withBeside(to) } : { segment: null, from: withBeside(from), to });
    // No alternative is the schema itself: it is judged by the types the alternatives take together.
    if (pairs.length === 0) this.typesAgainstAlternatives(wrapped);
    if (wrapped && b.choice === 'oneOf') this.overlapsAdded(0);
    this.discriminators();
    return true;
  }

  private typesAgainstAlternatives(wrapped: boolean): void {
    const plain = wrapped ? this.a : this.b;
    const taken = this.schemas.takenTypes(!wrapped, wrapped ? this.b : this.a);
    const [before, after] = wrapped ? [plain.types, taken.types] : [taken.types, plain.types];
    const change = typeChange(before, after, this.reading.wire);
    if (change !== null) this.add(change.kind, change.detail);
  }

  /** oneOf/anyOf alternatives, matched by the model they name, else by their types in order; and the discriminator. */
  private options(): void {
    const { a, b } = this;
    this.discriminators();
    if (a.options.length === 0 && b.options.length === 0) return;
    const pairs = this.match(a.options, b.options);
    const [from, to] = [new Set(pairs.map(([x]) => x)), new Set(pairs.map(([, y]) => y))];
    for (const option of a.options) {
      if (!from.has(option)) this.found.push({ kind: 'option-removed', path: [], pointer: reportable(option.pointer), detail: this.optionName(true, option) });
    }
    for (const option of b.options) {
      if (!to.has(option)) this.found.push({ kind: 'option-added', path: [], pointer: reportable(option.pointer), detail: this.optionName(false, option) });
    }
    for (const [x, y] of pairs) this.below.push({ segment: null, from: x, to: y });
    if (b.choice === 'oneOf') this.overlapsAdded(a.choice === 'oneOf' ? this.schemas.overlaps(true, a) : 0);
  }

  /**
   * A oneOf takes a value that matches exactly one alternative: alternatives that can match the same
   * value (no type, no required value and no closed object tells them apart) refuse it where it was
   * taken. Reported when the newer has more such pairs than the older.
   */
  private overlapsAdded(before: number): void {
    const after = this.schemas.overlaps(false, this.b);
    if (after > before) this.add('one-of-overlap-added', `${after} pair${after === 1 ? '' : 's'} of alternatives can match the same value`);
  }

  /**
   * Pairs of alternatives, one of `older`'s with one of `newer`'s: first those naming the same
   * model, then the others by their types, in order (an alternative written in place and the same
   * schema moved into a named model pair up, and compare equal).
   */
  private match(older: readonly Node[], newer: readonly Node[]): [Node, Node][] {
    const pairs: [Node, Node][] = [];
    const left = [...older];
    const right = [...newer];
    const take = (key: (older: boolean, node: Node) => string | null) => {
      for (let i = 0; i < left.length; i++) {
        const k = key(true, left[i]!);
        if (k === null) continue;
        const j = right.findIndex((node) => key(false, node) === k);
        if (j < 0) continue;
        pairs.push([left[i]!, right[j]!]);
        left.splice(i--, 1);
        right.splice(j, 1);
      }
    };
    take((_, node) => nameOf(node));
    take((inOlder, node) => `types:${typeName(this.schemas.viewAt(inOlder, node))}`);
    return pairs;
  }

  private optionName(older: boolean, option: Node): string {
    return nameOf(option) ?? typeName(this.schemas.viewAt(older, option));
  }

  private discriminators(): void {
    const [x, y] = [this.a.discriminator, this.b.discriminator];
    if (x === null && y === null) return;
    if (x === null) return this.add('discriminator-added', y!.property);
    if (y === null) return this.add('discriminator-removed', x.property, true);
    if (x.property !== y.property) return this.add('discriminator-property-changed', `${x.property} to ${y.property}`);
    for (const [value, target] of x.mapping) {
      const next = y.mapping.get(value);
      if (next === undefined) this.add('discriminator-mapping-removed', `${value} (${target})`, true);
      else if (next !== target) this.add('discriminator-mapping-changed', `${value}: ${target} to ${next}`);
    }
    for (const [value, target] of y.mapping) if (!x.mapping.has(value)) this.add('discriminator-mapping-added', `${value} (${target})`);
  }
}

/** Whether `x` is a whole multiple of `y` (within the precision of decimal fractions: 0.3 of 0.1). */
function multipleOf(x: number, y: number): boolean {
  const ratio = x / y;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

/** A multipleOf set, or changed to a multiple of the old one, lets fewer values through; removed, or changed to a divisor, more. */
function multipleOfKind(before: number | undefined, after: number | undefined): SchemaKind {
  if (before === undefined) return 'multiple-of-narrowed';
  if (after === undefined) return 'multiple-of-widened';
  if (multipleOf(after, before)) return 'multiple-of-narrowed';
  if (multipleOf(before, after)) return 'multiple-of-widened';
  return 'multiple-of-changed';
}

/** The model a node names: its reference's last segment, or its own name where models are kept. */
function nameOf(node: Node): string | null {
  const schema = node.schema;
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema)) {
    const ref = text(schema['$ref']) ?? text(schema['$dynamicRef']);
    if (ref !== null) return refName(ref);
  }
  const model = /^\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(node.pointer);
  return model === null ? null : unescapePointer(model[1]!);
}

/** Whether a value (its JSON text) is of one of `types`; null passes by `nullable`, not here. */
function takesValue(types: ReadonlySet<string>, json: string): boolean {
  const value: unknown = JSON.parse(json);
  if (value === null) return true;
  if (typeof value === 'number') return types.has('number') || (types.has('integer') && Number.isInteger(value));
  return types.has(Array.isArray(value) ? 'array' : typeof value);
}

/** Whether a view lists the values it takes (`const`, `enum`). */
function fixesValues(view: View): boolean {
  return view.const !== undefined || view.enum !== null;
}

/** The schema false, or one that takes no value: no type and not null. */
function nothing(view: View): boolean {
  return view.types !== null && view.types.size === 0 && !view.nullable;
}

/** A composite with nothing of its own beside its alternatives but perhaps a type (`type: object, oneOf: [...]`): it is only the choice. */
function bare(view: View): boolean {
  return view.properties.size === 0 && view.enum === null && view.const === undefined;
}
