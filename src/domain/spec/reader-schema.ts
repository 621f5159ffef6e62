import { DocumentSchemas } from './changes/schema-view.js';
import { escapePointer, nameUnder } from './json-pointer.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue } from './spec-document.js';

/**
 * A schema as a reader of an API's documentation sees it (Swagger 2.0, OpenAPI 3.0 or 3.1): each
 * node with what the document says of a value there, `allOf` members merged into it, `oneOf` and
 * `anyOf` as labelled alternatives, and its properties, items and alternatives as nodes of their
 * own, nested to any depth. A model reached again on its own path is a link to it, never expanded
 * again; so is a model past the budget ({@link READER_BUDGET}).
 */
export type ReaderSchema = ReaderNode | ModelLink | UnreadReference;

export interface ReaderNode {
  readonly kind: 'schema';
  /** Where the document says it: the schema's pointer, after the `$ref`s that led to it. */
  readonly pointer: string;
  /** The model (a 3.x component schema, a 2.0 definition) that the tree's root is, or the first its schemas refer to (its `allOf` members' are in `extends`). */
  readonly model: string | null;
  /** As a 3.1 type list: `nullable` (3.0) and `x-nullable` (2.0) add `null`, which comes last. Empty: the schema names no type. */
  readonly types: readonly string[];
  readonly format: string | null;
  readonly title: string | null;
  /** Markdown, as written. */
  readonly description: string | null;
  readonly deprecated: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  /** The values listed, with or without a `type`; null: no `enum`. */
  readonly enum: readonly JsonValue[] | null;
  /** `const` (`null` is a value); undefined: none. */
  readonly const: JsonValue | undefined;
  readonly default: JsonValue | undefined;
  /** `example` (2.0, 3.0; deprecated in 3.1). */
  readonly example: JsonValue | undefined;
  /** 3.1's `examples` (a list of values); null: none. */
  readonly examples: readonly JsonValue[] | null;
  /** Every constraint of every part, in the order of {@link CONSTRAINT_ORDER}, each once. */
  readonly constraints: readonly Constraint[];
  /** In the order they first appear: the schema's own, then its `allOf` members' (depth first). */
  readonly properties: readonly ReaderProperty[];
  /** false: no other property; true: any (as written); a schema: those of it; null: not said. */
  readonly additionalProperties: boolean | ReaderSchema | null;
  /** The same for an array's `items` (3.1's `items: false` closes a tuple). */
  readonly items: boolean | ReaderSchema | null;
  /** 3.1 `prefixItems`: the schema of each position of a tuple. */
  readonly prefixItems: readonly ReaderSchema[];
  /** Each `oneOf` and `anyOf` of the schema and of its `allOf` members. */
  readonly choices: readonly Choice[];
  readonly discriminator: Discriminator | null;
  /** The models its `allOf` members name, merged into it. */
  readonly extends: readonly string[];
  /** `allOf` members not merged (a model reached again on its path or past the budget, a reference that cannot be followed). */
  readonly links: readonly (ModelLink | UnreadReference)[];
  /** Built past the budget: it shows what the schema says of its values, not its properties, items, alternatives or `allOf` members. */
  readonly truncated: boolean;
}

export interface ReaderProperty {
  readonly name: string;
  /** Listed in the `required` of the schema or of any `allOf` member. */
  readonly required: boolean;
  readonly schema: ReaderSchema;
}

export interface Choice {
  readonly keyword: 'oneOf' | 'anyOf';
  readonly options: readonly { readonly label: string; readonly schema: ReaderSchema }[];
}

export interface Discriminator {
  readonly propertyName: string;
  /** As written: each value with the reference (or 3.x's bare model name) it selects and the model that is, if any. */
  readonly mapping: readonly { readonly value: string; readonly ref: string; readonly model: string | null }[];
}

/** A model not expanded here: it is being shown on this path already (`cycle`), or the tree is past its budget. */
export interface ModelLink {
  readonly kind: 'link';
  readonly model: string;
  /** Where the model is (`/components/schemas/Pet`, `/definitions/Pet`). */
  readonly pointer: string;
  readonly reason: 'cycle' | 'budget';
}

/** A `$ref` naming no model, not followed: it cannot be (`unresolved`: external, leading nowhere or to no schema), it leads back on its path, or the tree is past its budget. */
export interface UnreadReference {
  readonly kind: 'reference';
  readonly ref: string;
  readonly reason: 'unresolved' | 'cycle' | 'budget';
}

/**
 * A bound: `minimum`/`maximum` from 2.0's and 3.0's `minimum` with `exclusiveMinimum: true` (exclusive)
 * and from 3.1's numeric `exclusiveMinimum` alike; the others as written.
 */
export type Constraint =
  | { readonly keyword: 'minimum' | 'maximum'; readonly value: number; readonly exclusive: boolean }
  | { readonly keyword: 'multipleOf' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties'; readonly value: number }
  | { readonly keyword: 'pattern'; readonly value: string }
  | { readonly keyword: 'uniqueItems'; readonly value: true };

export const CONSTRAINT_ORDER = ['minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties'] as const;

/** The tree of one schema, and what building it cost. */
export interface ReaderTree {
  readonly root: ReaderSchema;
  /** Entries of the tree: the root and every property, additional-properties, items, position and option schema. */
  readonly nodes: number;
  /** Schemas read to build it (what the budget counts): each entry's sources and each `allOf` member merged. */
  readonly read: number;
}

/**
 * How many schemas one tree reads before it stops expanding: each entry's schemas (a property
 * listed by two `allOf` members has two) and each `allOf` member merged. Hostile input is the
 * rule: a document whose every model refers to the next ten times would otherwise expand
 * exponentially. The tree is built breadth first, so what the budget leaves out is the deepest
 * part; past it, a model is a link by name ({@link ModelLink}, reason `budget`) and a schema
 * written in place shows only what it says of its values (`truncated`). A tree reads at most this
 * many schemas plus what the last one expanded within it adds (its `allOf` members, its entries),
 * and has no more entries than schemas read. Generous: the largest body of
 * GitHub's description (the 5.7 MB fixture) reads 2,282 schemas, of Okta's 1,244, of Kubernetes'
 * 932; none of the real fixtures comes near it, so every body of theirs is shown whole.
 */
export const READER_BUDGET = 10_000;

/**
 * How deep entries nest before expansion stops, as past the budget: deeper than any real
 * description, shallow enough for whoever renders the tree to recurse, and it keeps the cycle check
 * (a walk up the path) short.
 */
export const READER_DEPTH = 64;

export interface ReaderLimits {
  readonly budget: number;
  readonly depth: number;
}

/** Side of an exchange: a request shows `writeOnly` properties and hides `readOnly` ones; a response the other way round. */
export type Side = 'request' | 'response';

/** A schema where the document has it. */
interface Source {
  readonly value: JsonValue | undefined;
  readonly at: string;
}

/** The pointers of the schemas `$ref`s led to on the way to an entry (and the root's own): a model among them is a cycle. */
interface Path {
  readonly at: string;
  readonly up: Path | null;
}

function onPath(path: Path | null, at: string): boolean {
  for (let p = path; p !== null; p = p.up) if (p.at === at) return true;
  return false;
}

/** An entry to build: the schemas it is made of, where it goes in its parent. */
interface Hole {
  readonly sources: readonly Source[];
  readonly depth: number;
  readonly path: Path | null;
  readonly put: (schema: ReaderSchema) => void;
}

/** One schema merged into a node. */
interface Part {
  readonly value: JsonValue | undefined;
  readonly at: string;
}

/** What one schema object says of its values, read once per document however often it is shown. */
interface Facts
  extends Pick<ReaderNode, 'format' | 'title' | 'description' | 'deprecated' | 'readOnly' | 'writeOnly' | 'enum' | 'default' | 'example' | 'examples' | 'constraints' | 'discriminator'> {
  readonly types: readonly string[] | null;
  readonly nullable: boolean;
  readonly hasConst: boolean;
  readonly required: ReadonlySet<JsonValue>;
}

const NO_FACTS: Facts = {
  types: null,
  nullable: false,
  format: null,
  title: null,
  description: null,
  deprecated: false,
  readOnly: false,
  writeOnly: false,
  enum: null,
  hasConst: false,
  default: undefined,
  example: undefined,
  examples: null,
  constraints: [],
  required: new Set(),
  discriminator: null,
};

/** Keywords whose schemas a node shows as entries of its own, or merges: past the budget they are not shown. */
const STRUCTURE = ['properties', 'additionalProperties', 'items', 'prefixItems', 'oneOf', 'anyOf', 'allOf'];

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function finite(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function constraintsOf(schema: JsonObject): Constraint[] {
  const found: Constraint[] = [];
  for (const [keyword, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    const bound = finite(schema[keyword]);
    if (bound !== undefined) found.push({ keyword, value: bound, exclusive: schema[exclusive] === true });
    // 3.1 says an exclusive bound with a number of its own.
    const numeric = finite(schema[exclusive]);
    if (numeric !== undefined) found.push({ keyword, value: numeric, exclusive: true });
  }
  for (const keyword of ['multipleOf', 'minLength', 'maxLength'] as const) {
    const value = finite(schema[keyword]);
    if (value !== undefined) found.push({ keyword, value });
  }
  const pattern = text(schema['pattern']);
  if (pattern !== null) found.push({ keyword: 'pattern', value: pattern });
  for (const keyword of ['minItems', 'maxItems'] as const) {
    const value = finite(schema[keyword]);
    if (value !== undefined) found.push({ keyword, value });
  }
  if (schema['uniqueItems'] === true) found.push({ keyword: 'uniqueItems', value: true });
  for (const keyword of ['minProperties', 'maxProperties'] as const) {
    const value = finite(schema[keyword]);
    if (value !== undefined) found.push({ keyword, value });
  }
  return found;
}

function typesOf(raw: JsonValue | undefined): string[] | null {
  if (typeof raw === 'string') return [raw];
  if (!Array.isArray(raw)) return null;
  return [...new Set(raw.filter((t): t is string => typeof t === 'string'))];
}

/**
 * The trees a reader sees of the schemas of one document: `$ref`s followed (3.1 anchors too), each
 * chain once however many schemas use it, and only to schemas.
 */
export class ReaderSchemas {
  private readonly schemas: DocumentSchemas;
  private readonly facts = new WeakMap<JsonObject, Facts>();
  private readonly modelPrefix: string;
  private readonly modelsPointer: string;
  private readonly models: JsonObject;
  /** The model at each model's place (`/components/schemas/Pet`). */
  private readonly modelsAt: ReadonlyMap<string, string>;
  /** 3.1 reads what stands beside a `$ref`; 2.0 and 3.0 ignore it. */
  private readonly siblings: boolean;

  constructor(
    document: JsonObject,
    private readonly limits: ReaderLimits = { budget: READER_BUDGET, depth: READER_DEPTH },
  ) {
    this.schemas = new DocumentSchemas(document);
    const format = specFormatOf(document) ?? 'openapi-3.1';
    const swagger2 = format === 'swagger-2.0';
    this.modelPrefix = swagger2 ? '#/definitions/' : '#/components/schemas/';
    this.modelsPointer = swagger2 ? '/definitions' : '/components/schemas';
    const models = swagger2 ? document['definitions'] : isJsonObject(document['components']) ? document['components']['schemas'] : undefined;
    this.models = isJsonObject(models) ? models : {};
    this.modelsAt = new Map(Object.keys(this.models).map((name) => [`${this.modelsPointer}/${escapePointer(name)}`, name]));
    this.siblings = format === 'openapi-3.1';
  }

  /** The model a `$ref` names, if the document has it. */
  private modelOfRef(ref: string): string | null {
    const name = nameUnder(this.modelPrefix, ref);
    return name !== null && Object.hasOwn(this.models, name) ? name : null;
  }

  /**
   * The tree of `schema`, found in the document at `pointer` (a model's own place makes the root
   * that model). Never throws; expands nothing once it has read {@link READER_BUDGET} schemas.
   */
  tree(schema: JsonValue | undefined, pointer: string): ReaderTree {
    let root: ReaderSchema | undefined;
    const queue: Hole[] = [{ sources: [{ value: schema, at: pointer }], depth: 0, path: { at: pointer, up: null }, put: (built) => (root = built) }];
    const count = { nodes: 1, read: 1 };
    for (let next = 0; next < queue.length; next++) {
      const hole = queue[next]!;
      const over = count.read > this.limits.budget || hole.depth > this.limits.depth;
      hole.put(this.build(hole, over, queue, count, hole.depth === 0 ? (this.modelsAt.get(pointer) ?? null) : null));
    }
    return { root: root!, nodes: count.nodes, read: count.read };
  }

  /** The entry for one hole; unless `over`, its children are queued as holes of their own. */
  private build(hole: Hole, over: boolean, queue: Hole[], count: { nodes: number; read: number }, rootModel: string | null): ReaderSchema {
    const parts: Part[] = [];
    const links: (ModelLink | UnreadReference)[] = [];
    const extended: string[] = [];
    const merged = new Set<string>();
    let path = hole.path;
    let model: string | null = rootModel;
    let pointer: string | null = null;
    /** Adds a schema to the node; `member`: an `allOf` member (a model it names is one the node extends). */
    const add = (value: JsonValue | undefined, at: string, member: boolean, first: boolean) => {
      const ref = isJsonObject(value) && typeof value['$ref'] === 'string' ? value['$ref'] : null;
      if (ref === null) {
        if (first) pointer = at;
        merged.add(at);
        merge({ value, at });
        return;
      }
      const name = this.modelOfRef(ref);
      const link = (reason: 'cycle' | 'budget'): ModelLink | UnreadReference =>
        name !== null ? { kind: 'link', model: name, pointer: `${this.modelsPointer}/${escapePointer(name)}`, reason } : { kind: 'reference', ref, reason };
      if (over) {
        links.push(link('budget'));
        return;
      }
      const followed = this.schemas.follow(value, at);
      if (followed.ref !== null) {
        links.push({ kind: 'reference', ref, reason: 'unresolved' });
        return;
      }
      if (merged.has(followed.at)) return;
      if (onPath(path, followed.at)) {
        links.push(link('cycle'));
        return;
      }
      path = { at: followed.at, up: path };
      if (member) {
        if (name !== null) extended.push(name);
      } else model ??= name;
      // What 3.1 writes beside a reference says more of the same value, and before the model's own words.
      if (this.siblings && Object.keys(value as JsonObject).length > 1) merge({ value, at });
      if (first) pointer = followed.at;
      merged.add(followed.at);
      merge({ value: followed.value, at: followed.at });
    };
    /** A part of the node, then its `allOf` members, depth first (past the budget, none). */
    const merge = (part: Part) => {
      parts.push(part);
      if (over || !isJsonObject(part.value) || !Array.isArray(part.value['allOf'])) return;
      for (const [i, each] of part.value['allOf'].entries()) {
        count.read++;
        add(each, `${part.at}/allOf/${i}`, true, false);
      }
    };
    for (const [i, source] of hole.sources.entries()) add(source.value, source.at, false, i === 0);
    if (parts.length === 0) return links[0]!;
    return this.node(parts, { pointer: pointer ?? parts[0]!.at, model, extended, links, over, depth: hole.depth, path, queue, count });
  }

  private factsOf(value: JsonValue | undefined): Facts {
    if (!isJsonObject(value)) return NO_FACTS;
    const known = this.facts.get(value);
    if (known !== undefined) return known;
    const types = typesOf(value['type']);
    const facts: Facts = {
      types,
      nullable: value['nullable'] === true || value['x-nullable'] === true || (types?.includes('null') ?? false),
      format: text(value['format']),
      title: text(value['title']),
      description: text(value['description']),
      deprecated: value['deprecated'] === true,
      readOnly: value['readOnly'] === true,
      writeOnly: value['writeOnly'] === true,
      enum: Array.isArray(value['enum']) ? value['enum'] : null,
      hasConst: Object.hasOwn(value, 'const'),
      default: value['default'],
      example: value['example'],
      examples: Array.isArray(value['examples']) ? value['examples'] : null,
      constraints: constraintsOf(value),
      required: new Set(Array.isArray(value['required']) ? value['required'] : []),
      discriminator: this.discriminatorOf(value['discriminator']),
    };
    this.facts.set(value, facts);
    return facts;
  }

  /** 3.x's `{ propertyName, mapping }`; 2.0's is the property's name alone. */
  private discriminatorOf(raw: JsonValue | undefined): Discriminator | null {
    if (typeof raw === 'string') return { propertyName: raw, mapping: [] };
    if (!isJsonObject(raw) || typeof raw['propertyName'] !== 'string') return null;
    const mapping = Object.entries(isJsonObject(raw['mapping']) ? raw['mapping'] : {}).flatMap(([value, ref]) =>
      typeof ref === 'string' ? [{ value, ref, model: this.modelOfRef(ref) ?? (Object.hasOwn(this.models, ref) ? ref : null) }] : [],
    );
    return { propertyName: raw['propertyName'], mapping };
  }

  private node(
    parts: readonly Part[],
    context: {
      pointer: string;
      model: string | null;
      extended: string[];
      links: (ModelLink | UnreadReference)[];
      over: boolean;
      depth: number;
      path: Path | null;
      queue: Hole[];
      count: { nodes: number; read: number };
    },
  ): ReaderNode {
    const facts = parts.map((p) => this.factsOf(p.value));
    const first = <T>(pick: (f: Facts) => T | null | undefined): T | undefined => {
      for (const f of facts) {
        const value = pick(f);
        if (value !== null && value !== undefined) return value;
      }
      return undefined;
    };
    const stated = first((f) => f.types);
    const nullable = facts.some((f) => f.nullable);
    const types = stated === undefined ? [] : [...stated.filter((t) => t !== 'null'), ...(nullable ? ['null'] : [])];
    const withConst = facts.findIndex((f) => f.hasConst);
    const node = {
      kind: 'schema' as const,
      pointer: context.pointer,
      model: context.model,
      types,
      format: first((f) => f.format) ?? null,
      title: first((f) => f.title) ?? null,
      description: first((f) => f.description) ?? null,
      deprecated: facts.some((f) => f.deprecated),
      readOnly: facts.some((f) => f.readOnly),
      writeOnly: facts.some((f) => f.writeOnly),
      enum: first((f) => f.enum) ?? null,
      const: withConst < 0 ? undefined : (parts[withConst]!.value as JsonObject)['const'],
      default: first((f) => f.default),
      example: first((f) => f.example),
      examples: first((f) => f.examples) ?? null,
      constraints: mergedConstraints(facts),
      properties: [] as ReaderProperty[],
      additionalProperties: null as boolean | ReaderSchema | null,
      items: null as boolean | ReaderSchema | null,
      prefixItems: [] as ReaderSchema[],
      choices: [] as Choice[],
      discriminator: first((f) => f.discriminator) ?? null,
      extends: context.extended,
      links: context.links,
      truncated: false,
    };
    if (context.over) {
      node.truncated = parts.some((p) => isJsonObject(p.value) && STRUCTURE.some((keyword) => (p.value as JsonObject)[keyword] !== undefined));
      return node;
    }
    const { queue, count } = context;
    const hole = (sources: Source[], put: (schema: ReaderSchema) => void) => {
      count.nodes++;
      count.read += sources.length;
      queue.push({ sources, depth: context.depth + 1, path: context.path, put });
    };
    const objects = parts.flatMap((p) => (isJsonObject(p.value) ? [{ schema: p.value, at: p.at }] : []));

    const byName = new Map<string, Source[]>();
    for (const { schema, at } of objects) {
      if (!isJsonObject(schema['properties'])) continue;
      for (const [name, value] of Object.entries(schema['properties'])) {
        const source = { value, at: `${at}/properties/${escapePointer(name)}` };
        const known = byName.get(name);
        if (known === undefined) byName.set(name, [source]);
        else known.push(source);
      }
    }
    for (const [name, sources] of byName) {
      const property = { name, required: facts.some((f) => f.required.has(name)), schema: undefined as unknown as ReaderSchema };
      node.properties.push(property);
      hole(sources, (schema) => (property.schema = schema));
    }

    for (const keyword of ['additionalProperties', 'items'] as const) {
      const sources = objects.flatMap(({ schema, at }) => (schema[keyword] === undefined || Array.isArray(schema[keyword]) ? [] : [{ value: schema[keyword], at: `${at}/${keyword}` }]));
      if (sources.some((s) => s.value === false)) node[keyword] = false;
      else if (sources.some((s) => s.value !== true)) hole(sources.filter((s) => s.value !== true), (schema) => (node[keyword] = schema));
      else if (sources.length > 0) node[keyword] = true;
    }

    const positions: Source[][] = [];
    for (const { schema, at } of objects) {
      if (!Array.isArray(schema['prefixItems'])) continue;
      for (const [i, value] of schema['prefixItems'].entries()) (positions[i] ??= []).push({ value, at: `${at}/prefixItems/${i}` });
    }
    for (const [i, sources] of positions.entries()) hole(sources, (schema) => (node.prefixItems[i] = schema));

    for (const { schema, at } of objects) {
      for (const keyword of ['oneOf', 'anyOf'] as const) {
        const raw = schema[keyword];
        if (!Array.isArray(raw)) continue;
        const options: { label: string; schema: ReaderSchema }[] = [];
        node.choices.push({ keyword, options });
        for (const [i, value] of raw.entries()) {
          const option = { label: '', schema: undefined as unknown as ReaderSchema };
          options.push(option);
          hole([{ value, at: `${at}/${keyword}/${i}` }], (built) => {
            option.schema = built;
            option.label = labelOf(built);
          });
        }
      }
    }
    return node;
  }
}

/** Each constraint of the parts once, in {@link CONSTRAINT_ORDER}, each part's in the parts' order. */
function mergedConstraints(facts: readonly Facts[]): Constraint[] {
  if (facts.length === 1) return facts[0]!.constraints as Constraint[];
  const seen = new Set<string>();
  const all: Constraint[] = [];
  for (const f of facts) {
    for (const c of f.constraints) {
      const key = JSON.stringify(c);
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(c);
    }
  }
  return all.sort((a, b) => CONSTRAINT_ORDER.indexOf(a.keyword) - CONSTRAINT_ORDER.indexOf(b.keyword));
}

/** An alternative's label: the model it is, else its title, else its types (`object` for a schema of properties only, `any` for none). */
export function labelOf(schema: ReaderSchema): string {
  if (schema.kind === 'link') return schema.model;
  if (schema.kind === 'reference') return schema.ref;
  if (schema.model !== null) return schema.model;
  if (schema.title !== null) return schema.title;
  if (schema.types.length > 0) return schema.types.join(' | ');
  return schema.properties.length > 0 ? 'object' : 'any';
}

/**
 * The tree as one side of an exchange shows it: a request hides `readOnly` properties, a response
 * `writeOnly` ones (at any depth, in every alternative). Entries are shared, not copied, where
 * nothing below them is hidden.
 */
export function onSide(schema: ReaderSchema, side: Side): ReaderSchema {
  if (schema.kind !== 'schema') return schema;
  const hidden = (s: ReaderSchema) => s.kind === 'schema' && (side === 'request' ? s.readOnly : s.writeOnly);
  const properties = schema.properties.filter((p) => !hidden(p.schema)).map((p) => {
    const shown = onSide(p.schema, side);
    return shown === p.schema ? p : { ...p, schema: shown };
  });
  const sided = (s: boolean | ReaderSchema | null) => (typeof s === 'object' && s !== null ? onSide(s, side) : s);
  const additionalProperties = sided(schema.additionalProperties);
  const items = sided(schema.items);
  const prefixItems = schema.prefixItems.map((s) => onSide(s, side));
  const choices = schema.choices.map((c) => {
    const options = c.options.map((o) => {
      const shown = onSide(o.schema, side);
      return shown === o.schema ? o : { ...o, schema: shown };
    });
    return options.every((o, i) => o === c.options[i]) ? c : { ...c, options };
  });
  const same =
    properties.length === schema.properties.length &&
    properties.every((p, i) => p === schema.properties[i]) &&
    additionalProperties === schema.additionalProperties &&
    items === schema.items &&
    prefixItems.every((s, i) => s === schema.prefixItems[i]) &&
    choices.every((c, i) => c === schema.choices[i]);
  return same ? schema : { ...schema, properties, additionalProperties, items, prefixItems, choices };
}
