import { describeApi, type MediaContent, type OperationDescription, type SecurityRequirement } from './api-description.js';
import type { AuthAdapter } from './derived-resources.js';
import { pointer, refOf } from './json-pointer.js';
import { isOfKind } from './reference-kinds.js';
import { isJsonObject, type JsonObject, type JsonValue, type SpecFormat } from './spec-document.js';

/**
 * What a reader of an API's documentation needs from its document (Swagger 2.0 or OpenAPI 3.x,
 * through describeApi): operations grouped by tag with their parameters, request bodies and
 * responses by media type, and security; the servers, security schemes and models. Schemas are
 * summarised for a reader: a model is named, never inlined, so `$ref` cycles are harmless.
 */
export interface ApiReference {
  readonly format: SpecFormat;
  readonly servers: readonly { readonly url: string; readonly description: string | null }[];
  readonly groups: readonly OperationGroup[];
  /** OpenAPI 3.1 `webhooks`: what the API sends to its subscribers, `path` the webhook's name. */
  readonly webhooks: readonly OperationDoc[];
  readonly models: readonly ModelDoc[];
  readonly securitySchemes: readonly AuthAdapter[];
}

export interface OperationGroup {
  /** The operation's first tag; operations without a tag are in the group named `null`. */
  readonly tag: string | null;
  /** Markdown, from the document's `tags` list. */
  readonly description: string | null;
  readonly operations: readonly OperationDoc[];
}

export interface OperationDoc {
  /** Upper case. */
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly summary: string | null;
  /** Markdown. */
  readonly description: string | null;
  readonly deprecated: boolean;
  readonly parameters: readonly ParameterDoc[];
  readonly requestBody: RequestBodyDoc | null;
  readonly responses: readonly ResponseDoc[];
  /** Alternatives, each a set of schemes used together; empty when the operation needs none. */
  readonly security: readonly SecurityRequirement[];
}

export interface ParameterDoc {
  readonly name: string;
  /** path, query, header, cookie; `null` for a parameter that could not be read (an external `$ref`). */
  readonly in: string | null;
  readonly required: boolean;
  readonly deprecated: boolean;
  readonly description: string | null;
  readonly type: TypeRef;
}

/** Media types sharing one schema, and the schema's properties when it is an object written in place. */
export interface ContentDoc {
  readonly mediaTypes: readonly string[];
  readonly type: TypeRef;
  readonly properties: readonly PropertyDoc[];
}

export interface RequestBodyDoc {
  readonly description: string | null;
  readonly required: boolean;
  readonly contents: readonly ContentDoc[];
}

export interface ResponseDoc {
  /** `200`, `404`, `default`... */
  readonly status: string;
  readonly description: string | null;
  /** Empty when the response has no body. */
  readonly contents: readonly ContentDoc[];
}

export interface ModelDoc {
  readonly name: string;
  readonly description: string | null;
  /** What the model is when it is not a plain object: an array, a string enum, another model... */
  readonly type: TypeRef;
  /** Models it is composed of (`allOf` members that name one). */
  readonly extends: readonly TypeRef[];
  readonly properties: readonly PropertyDoc[];
}

export interface PropertyDoc {
  readonly name: string;
  readonly required: boolean;
  readonly description: string | null;
  readonly type: TypeRef;
}

/** A schema, summarised for a reader: a named model, a container of something, a choice, or a primitive. */
export type TypeRef =
  | { readonly kind: 'model'; readonly name: string }
  | { readonly kind: 'array'; readonly items: TypeRef }
  | { readonly kind: 'map'; readonly values: TypeRef }
  | { readonly kind: 'primitive'; readonly type: string; readonly format: string | null; readonly enum: readonly string[] }
  /** One of several (`oneOf`, `anyOf`, a 3.1 type list, a nullable type: `null` is a primitive). */
  | { readonly kind: 'union'; readonly options: readonly TypeRef[] }
  /** A `$ref` that is not a model of this document and cannot be followed: another file, a URL, a pointer leading nowhere or to something that is not a schema, a cycle. */
  | { readonly kind: 'reference'; readonly ref: string }
  | { readonly kind: 'any' };

const ANY: TypeRef = { kind: 'any' };
const NULL: TypeRef = { kind: 'primitive', type: 'null', format: null, enum: [] };
const OBJECT: TypeRef = { kind: 'primitive', type: 'object', format: null, enum: [] };

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOr(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

/**
 * What a document can make a reader expand, per document: references that name no model followed,
 * and the types they yield, at most this many (a fan of such references, each to a schema with a
 * fan of its own, would otherwise yield a page per path through them).
 */
const FOLLOW_BUDGET = 10_000;

/**
 * References that name no model are followed no deeper than this many types one inside another:
 * a chain of them (each an array of the next, or a reference to the next) would otherwise nest
 * one call per link, beyond what the stack holds (12,000 links did: a 500 for the page). A type
 * written in place nests no deeper than the document (128 levels).
 */
const FOLLOW_DEPTH = 32;

/**
 * How schemas are read in one document: which `$ref`s name models, and the state of the walk
 * (shared by the whole document): the references being followed (a cycle stops), how deep in
 * types it is, and what is left of the budget.
 */
interface Schemas {
  readonly document: JsonObject;
  readonly format: SpecFormat;
  modelName(ref: string): string | null;
  readonly walk: { readonly following: Set<string>; depth: number; left: number };
}

function union(options: TypeRef[]): TypeRef {
  if (options.length === 0) return ANY;
  return options.length === 1 ? options[0]! : { kind: 'union', options };
}

const primitive = (type: string, schema: JsonObject): TypeRef => {
  const values = Array.isArray(schema['enum']) ? schema['enum'] : schema['const'] !== undefined ? [schema['const']] : [];
  return { kind: 'primitive', type, format: text(schema['format']), enum: values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) };
};

/** What an array holds: its `items`; of a 3.1 tuple, any of its positions' types (`prefixItems`) and of the `items` after them. */
function itemsOf(schema: JsonObject, schemas: Schemas): TypeRef {
  const positions = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : [];
  if (positions.length === 0) return typeOf(schema['items'], schemas);
  const rest = isJsonObject(schema['items']) ? [schema['items']] : [];
  return union([...positions, ...rest].map((item) => typeOf(item, schemas)));
}

/** One `type` of a schema (2.0, 3.0 and each entry of a 3.1 type list). */
function typeNamed(type: string, schema: JsonObject, schemas: Schemas): TypeRef {
  if (type === 'array') return { kind: 'array', items: itemsOf(schema, schemas) };
  if (type === 'object' && isJsonObject(schema['additionalProperties']) && !isJsonObject(schema['properties'])) {
    return { kind: 'map', values: typeOf(schema['additionalProperties'], schemas) };
  }
  return primitive(type, schema);
}

/**
 * What a `$ref` stands for: the model it names, or the type of what it leads to through references
 * that name no model, followed one after the other; the reference itself when it cannot be
 * followed (in a circle, past the budget or depth, or to something that is not a schema).
 */
function referenced(first: string, schemas: Schemas): TypeRef {
  const { walk } = schemas;
  const followed: string[] = [];
  try {
    let ref = first;
    for (;;) {
      const name = schemas.modelName(ref);
      if (name !== null) return { kind: 'model', name };
      if (walk.following.has(ref) || walk.left <= 0 || walk.depth >= FOLLOW_DEPTH) return { kind: 'reference', ref };
      const target = pointer(schemas.document, ref);
      if (target === undefined) return { kind: 'reference', ref };
      const next = refOf(target);
      // Only where the chain ends is there a thing of some kind: a reference on the way is none.
      if (next === null && !isOfKind('schema', schemas.format, target)) return { kind: 'reference', ref };
      walk.left--;
      walk.following.add(ref);
      followed.push(ref);
      if (next === null) return typeOf(target, schemas);
      ref = next;
    }
  } finally {
    for (const ref of followed) walk.following.delete(ref);
  }
}

/** A schema as a reader sees it: 2.0 and 3.0 (`nullable`, `x-nullable`), and 3.1's JSON Schema (type lists, `const`, boolean schemas). */
function typeOf(schema: JsonValue | undefined, schemas: Schemas): TypeRef {
  const { walk } = schemas;
  // Inside a followed reference every type is charged: what is expanded is what the budget bounds.
  if (walk.following.size > 0) walk.left--;
  walk.depth++;
  try {
    return typeHere(schema, schemas);
  } finally {
    walk.depth--;
  }
}

function typeHere(schema: JsonValue | undefined, schemas: Schemas): TypeRef {
  if (!isJsonObject(schema)) return ANY;
  const ref = text(schema['$ref']);
  if (ref !== null) return referenced(ref, schemas);
  const type = schema['type'];
  const nullable = schema['nullable'] === true || schema['x-nullable'] === true;
  let result: TypeRef;
  if (Array.isArray(type)) {
    result = union(type.filter((t): t is string => typeof t === 'string').map((t) => (t === 'null' ? NULL : typeNamed(t, schema, schemas))));
  } else if (typeof type === 'string') {
    result = typeNamed(type, schema, schemas);
  } else {
    const choices = Array.isArray(schema['oneOf']) ? schema['oneOf'] : Array.isArray(schema['anyOf']) ? schema['anyOf'] : undefined;
    const allOf = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
    if (choices !== undefined && choices.length > 0) result = union(choices.map((c) => typeOf(c, schemas)));
    else if (allOf.length === 1) result = typeOf(allOf[0], schemas);
    else if (isJsonObject(schema['additionalProperties']) && !isJsonObject(schema['properties'])) result = { kind: 'map', values: typeOf(schema['additionalProperties'], schemas) };
    else if (schema['const'] !== undefined) result = primitive(schema['const'] === null ? 'null' : Array.isArray(schema['const']) ? 'array' : typeof schema['const'], schema);
    else result = isJsonObject(schema['properties']) || allOf.length > 0 ? OBJECT : ANY;
  }
  return nullable && !(result.kind === 'union' && result.options.includes(NULL)) ? union([result, NULL]) : result;
}

/** The properties of a schema written in place (its own and its inline `allOf` members'), required ones marked. */
function propertiesOf(schema: JsonObject, schemas: Schemas): PropertyDoc[] {
  const parts = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
  const inline = [schema, ...parts.filter((p) => isJsonObject(p) && p['$ref'] === undefined)].map(objectOr);
  const required = new Set(inline.flatMap((s) => (Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [])));
  return inline.flatMap((s) =>
    Object.entries(objectOr(s['properties'])).map(([property, value]) => ({
      name: property,
      required: required.has(property),
      description: text(objectOr(value)['description']),
      type: typeOf(value, schemas),
    })),
  );
}

/** Whether two media types carry the same schema: the same one (2.0 repeats one under every `consumes`/`produces`), or the same `$ref`. */
function sameSchema(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  const ref = refOf(a);
  return ref !== null && ref === refOf(b);
}

/** Media types with the same schema side by side. */
function contents(content: readonly MediaContent[], schemas: Schemas): ContentDoc[] {
  const result: { schema: JsonValue | undefined; doc: ContentDoc & { mediaTypes: string[] } }[] = [];
  for (const { mediaType, schema } of content) {
    const same = result.find((r) => sameSchema(r.schema, schema));
    if (same) {
      same.doc.mediaTypes.push(mediaType);
      continue;
    }
    const inPlace = isJsonObject(schema) && schema['$ref'] === undefined;
    result.push({ schema, doc: { mediaTypes: [mediaType], type: schema === undefined ? ANY : typeOf(schema, schemas), properties: inPlace ? propertiesOf(schema, schemas) : [] } });
  }
  return result.map((r) => r.doc);
}

function model(name: string, raw: JsonValue, schemas: Schemas): ModelDoc {
  const schema = objectOr(raw);
  const parts = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
  return {
    name,
    description: text(schema['description']),
    type: parts.length > 0 ? OBJECT : typeOf(schema, schemas),
    extends: parts.filter((p) => isJsonObject(p) && p['$ref'] !== undefined).map((p) => typeOf(p, schemas)),
    properties: propertiesOf(schema, schemas),
  };
}

/** Groups in the order of the document's `tags` list, then of first appearance; untagged operations last. */
function groups(described: ReadonlyMap<string, string | null>, all: readonly { readonly tag: string | null; readonly op: OperationDoc }[]): OperationGroup[] {
  const order = [...described.keys()];
  for (const { tag } of all) if (tag !== null && !order.includes(tag)) order.push(tag);
  const byTag = new Map<string | null, OperationDoc[]>();
  for (const { tag, op } of all) {
    const list = byTag.get(tag);
    if (list) list.push(op);
    else byTag.set(tag, [op]);
  }
  const named = order.filter((tag) => byTag.has(tag)).map((tag) => ({ tag, description: described.get(tag) ?? null, operations: byTag.get(tag)! }));
  const untagged = byTag.get(null);
  return untagged ? [...named, { tag: null, description: null, operations: untagged }] : named;
}

export function describeReference(document: JsonObject): ApiReference {
  const api = describeApi(document);
  const schemas: Schemas = { document, format: api.format, modelName: (ref) => api.modelName(ref), walk: { following: new Set(), depth: 0, left: FOLLOW_BUDGET } };
  const described = new Map<string, string | null>();
  for (const tag of api.tags) if (!described.has(tag.name)) described.set(tag.name, tag.description);
  const operation = (op: OperationDescription): OperationDoc => ({
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    deprecated: op.deprecated,
    parameters: op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      deprecated: p.deprecated,
      description: p.description,
      type: p.ref !== null ? { kind: 'reference' as const, ref: p.ref } : typeOf(p.schema, schemas),
    })),
    requestBody:
      op.requestBody &&
      (op.requestBody.ref !== null
        ? { description: null, required: false, contents: [{ mediaTypes: [], type: { kind: 'reference' as const, ref: op.requestBody.ref }, properties: [] }] }
        : { description: op.requestBody.description, required: op.requestBody.required, contents: contents(op.requestBody.content, schemas) }),
    responses: op.responses.map((r) => ({
      status: r.status,
      description: r.description,
      contents: r.ref !== null ? [{ mediaTypes: [], type: { kind: 'reference' as const, ref: r.ref }, properties: [] }] : contents(r.content, schemas),
    })),
    security: op.security,
  });
  const operations = api.operations.map((op) => ({ tag: op.tags[0] ?? null, op: operation(op) }));
  return {
    format: api.format,
    servers: api.servers.map(({ url, description }) => ({ url, description })),
    groups: groups(described, operations),
    webhooks: api.webhooks.map(operation),
    models: api.models.map((m) => model(m.name, m.schema, schemas)),
    securitySchemes: api.securitySchemes,
  };
}
