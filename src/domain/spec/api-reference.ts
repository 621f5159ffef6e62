import { OPERATION_METHODS } from './derived-resources.js';
import { isJsonObject, type JsonObject, type JsonValue } from './spec-document.js';

/**
 * What a reader of an API's documentation needs from its Swagger 2.0 document: operations grouped
 * by tag with their parameters and responses, and the models. Pure and defensive: the document was
 * validated on import, yet nothing here trusts a field's type, follows an external `$ref`, or
 * expands a model into another (a model is named, never inlined, so `$ref` cycles are harmless).
 */
export interface ApiReference {
  readonly baseUrls: readonly string[];
  readonly groups: readonly OperationGroup[];
  readonly models: readonly ModelDoc[];
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
  readonly responses: readonly ResponseDoc[];
}

export interface ParameterDoc {
  readonly name: string;
  /** path, query, header, body or formData; `null` for a parameter that could not be read (an external `$ref`). */
  readonly in: string | null;
  readonly required: boolean;
  readonly description: string | null;
  readonly type: TypeRef;
}

export interface ResponseDoc {
  /** `200`, `404`, `default`... */
  readonly status: string;
  readonly description: string | null;
  /** null when the response has no body. */
  readonly type: TypeRef | null;
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

/** A schema, summarised for a reader: a named model, a container of something, or a primitive. */
export type TypeRef =
  | { readonly kind: 'model'; readonly name: string }
  | { readonly kind: 'array'; readonly items: TypeRef }
  | { readonly kind: 'map'; readonly values: TypeRef }
  | { readonly kind: 'primitive'; readonly type: string; readonly format: string | null; readonly enum: readonly string[] }
  /** A `$ref` that is not a model of this document: another file, a URL, or a pointer inside something. */
  | { readonly kind: 'reference'; readonly ref: string }
  | { readonly kind: 'any' };

const ANY: TypeRef = { kind: 'any' };
const DEFINITION = /^#\/definitions\/([^/]+)$/;

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOr(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

/** JSON pointer (RFC 6901) into the document; undefined when it leads nowhere. */
function pointer(document: JsonObject, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: JsonValue | undefined = document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

/** Follows a chain of internal `$ref`s (parameters, responses); a cycle or an external one stays a reference. */
function follow(document: JsonObject, value: JsonValue | undefined): { value: JsonObject; ref: string | null } {
  const seen = new Set<string>();
  let current = value;
  while (isJsonObject(current) && typeof current['$ref'] === 'string') {
    const ref = current['$ref'];
    const target = seen.has(ref) ? undefined : pointer(document, ref);
    if (!isJsonObject(target)) return { value: {}, ref };
    seen.add(ref);
    current = target;
  }
  return { value: objectOr(current), ref: null };
}

function definitionName(ref: string): string | null {
  const match = DEFINITION.exec(ref);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return null;
  }
}

/** A schema or a non-body parameter's type (`type`, `format`, `items`, `enum`), as a reader sees it. */
function typeOf(schema: JsonValue | undefined, definitions: ReadonlySet<string>): TypeRef {
  if (!isJsonObject(schema)) return ANY;
  const ref = text(schema['$ref']);
  if (ref !== null) {
    const name = definitionName(ref);
    return name !== null && definitions.has(name) ? { kind: 'model', name } : { kind: 'reference', ref };
  }
  const type = text(schema['type']);
  if (type === 'array') return { kind: 'array', items: typeOf(schema['items'], definitions) };
  if ((type === 'object' || type === null) && isJsonObject(schema['additionalProperties'])) {
    return { kind: 'map', values: typeOf(schema['additionalProperties'], definitions) };
  }
  if (type === null) {
    const allOf = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
    const only = allOf.length === 1 ? typeOf(allOf[0], definitions) : undefined;
    if (only) return only;
    return isJsonObject(schema['properties']) ? { kind: 'primitive', type: 'object', format: null, enum: [] } : ANY;
  }
  const values = Array.isArray(schema['enum']) ? schema['enum'].map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : [];
  return { kind: 'primitive', type, format: text(schema['format']), enum: values };
}

function parameter(document: JsonObject, raw: JsonValue, definitions: ReadonlySet<string>): ParameterDoc {
  const { value, ref } = follow(document, raw);
  if (ref !== null) return { name: ref, in: null, required: false, description: null, type: { kind: 'reference', ref } };
  const location = text(value['in']);
  return {
    name: text(value['name']) ?? '',
    in: location,
    required: value['required'] === true,
    description: text(value['description']),
    type: location === 'body' ? typeOf(value['schema'], definitions) : typeOf(value, definitions),
  };
}

/** Path-level parameters apply to every operation; an operation's own one with the same name and place replaces it. */
function parameters(document: JsonObject, pathLevel: JsonValue | undefined, own: JsonValue | undefined, definitions: ReadonlySet<string>): ParameterDoc[] {
  const list = (value: JsonValue | undefined) => (Array.isArray(value) ? value.map((p) => parameter(document, p, definitions)) : []);
  const mine = list(own);
  const key = (p: ParameterDoc) => `${p.in ?? ''}\u0000${p.name}`;
  const overridden = new Set(mine.map(key));
  return [...list(pathLevel).filter((p) => !overridden.has(key(p))), ...mine];
}

function responses(document: JsonObject, raw: JsonValue | undefined, definitions: ReadonlySet<string>): ResponseDoc[] {
  return Object.entries(objectOr(raw))
    .filter(([status]) => !status.startsWith('x-'))
    .map(([status, response]) => {
      const { value, ref } = follow(document, response);
      if (ref !== null) return { status, description: null, type: { kind: 'reference', ref } };
      return { status, description: text(value['description']), type: value['schema'] === undefined ? null : typeOf(value['schema'], definitions) };
    });
}

function operations(document: JsonObject, definitions: ReadonlySet<string>): (OperationDoc & { readonly tag: string | null })[] {
  const result: (OperationDoc & { readonly tag: string | null })[] = [];
  for (const [path, raw] of Object.entries(objectOr(document['paths']))) {
    if (path.startsWith('x-')) continue;
    const { value: item } = follow(document, raw);
    for (const method of OPERATION_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const tags = Array.isArray(operation['tags']) ? operation['tags'].filter((t): t is string => typeof t === 'string') : [];
      result.push({
        tag: tags[0] ?? null,
        method: method.toUpperCase(),
        path,
        operationId: text(operation['operationId']),
        summary: text(operation['summary']),
        description: text(operation['description']),
        deprecated: operation['deprecated'] === true,
        parameters: parameters(document, item['parameters'], operation['parameters'], definitions),
        responses: responses(document, operation['responses'], definitions),
      });
    }
  }
  return result;
}

/** Groups in the order of the document's `tags` list, then of first appearance; untagged operations last. */
function groups(document: JsonObject, all: readonly (OperationDoc & { readonly tag: string | null })[]): OperationGroup[] {
  const described = new Map<string, string | null>();
  for (const tag of Array.isArray(document['tags']) ? document['tags'] : []) {
    const name = isJsonObject(tag) ? text(tag['name']) : null;
    if (name !== null && !described.has(name)) described.set(name, text(objectOr(tag)['description']));
  }
  const order = [...described.keys()];
  for (const op of all) if (op.tag !== null && !order.includes(op.tag)) order.push(op.tag);
  const byTag = new Map<string | null, OperationDoc[]>();
  for (const { tag, ...op } of all) {
    const list = byTag.get(tag);
    if (list) list.push(op);
    else byTag.set(tag, [op]);
  }
  const named = order.filter((tag) => byTag.has(tag)).map((tag) => ({ tag, description: described.get(tag) ?? null, operations: byTag.get(tag)! }));
  const untagged = byTag.get(null);
  return untagged ? [...named, { tag: null, description: null, operations: untagged }] : named;
}

function model(name: string, raw: JsonValue, definitions: ReadonlySet<string>): ModelDoc {
  const schema = objectOr(raw);
  const parts = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
  const inline = [schema, ...parts.filter((p) => isJsonObject(p) && p['$ref'] === undefined)].map(objectOr);
  const required = new Set(inline.flatMap((s) => (Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [])));
  const properties = inline.flatMap((s) =>
    Object.entries(objectOr(s['properties'])).map(([property, value]) => ({
      name: property,
      required: required.has(property),
      description: text(objectOr(value)['description']),
      type: typeOf(value, definitions),
    })),
  );
  return {
    name,
    description: text(schema['description']),
    type: parts.length > 0 ? { kind: 'primitive', type: 'object', format: null, enum: [] } : typeOf(schema, definitions),
    extends: parts.filter((p) => isJsonObject(p) && p['$ref'] !== undefined).map((p) => typeOf(p, definitions)),
    properties,
  };
}

function baseUrls(document: JsonObject): string[] {
  const host = text(document['host']);
  if (host === null) return [];
  const basePath = text(document['basePath']) ?? '';
  const schemes = Array.isArray(document['schemes']) ? document['schemes'].filter((s): s is string => typeof s === 'string') : [];
  const rest = `${host}${basePath === '/' ? '' : basePath}`;
  // Without `schemes` the document's own scheme applies, which a stored document no longer has.
  return schemes.length > 0 ? [...new Set(schemes)].map((scheme) => `${scheme}://${rest}`) : [rest];
}

export function describeReference(document: JsonObject): ApiReference {
  const definitions = objectOr(document['definitions']);
  const names = new Set(Object.keys(definitions));
  return {
    baseUrls: baseUrls(document),
    groups: groups(document, operations(document, names)),
    models: Object.entries(definitions).map(([name, schema]) => model(name, schema, names)),
  };
}
