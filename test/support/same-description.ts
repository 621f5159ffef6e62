import type { JsonObject } from '../../src/domain/spec/spec-document.js';

/**
 * Rewritings of an OpenAPI 3 document that describe the same API: keys in another order, a model
 * written in place of its references, an alternative or a `$defs` member moved into a named
 * schema. The classifier's property tests compare a document with them; the codec's test checks
 * that what they make is still valid. Each returns a new document and leaves its input as it is.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function schemasOf(document: Json): Json {
  return (document['components'] as Json)['schemas'] as Json;
}

/** The same value with every object's keys in another order (a permutation drawn from `seed`). */
export function shuffled(value: unknown, seed: number): unknown {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const entries = Object.entries(v as Json).map(([k, inner]) => [k, walk(inner)] as const);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return Object.fromEntries(entries);
  };
  return walk(value);
}

/**
 * Every reference to `#/components/schemas/<model>`, and to the model's `$anchor`, replaced by the
 * model itself, without its anchor (an anchor names one schema of a document); the model stays
 * listed. The models must not refer to `model` in a cycle, and its references must have no
 * siblings. An alternative of a choice with a discriminator stays a reference: the discriminator
 * tells the alternatives apart by the models they name (by their names when no mapping says
 * otherwise), which a schema written in place has not.
 */
export function inlined(document: JsonObject, model: string): JsonObject {
  const target = schemasOf(document)[model];
  const anchor = isObject(target) && typeof target['$anchor'] === 'string' ? `#${target['$anchor']}` : null;
  const copy = (): unknown => {
    if (!isObject(target)) return structuredClone(target);
    const rest = structuredClone(target);
    delete rest['$anchor'];
    return walk(rest);
  };
  const refers = (v: Json) => v['$ref'] === `#/components/schemas/${model}` || (anchor !== null && v['$ref'] === anchor);
  const walk = (v: unknown, alternativeOfDiscriminated = false): unknown => {
    if (Array.isArray(v)) return v.map((inner) => walk(inner));
    if (!isObject(v)) return v;
    if (refers(v) && !alternativeOfDiscriminated) {
      if (Object.keys(v).length > 1) throw new Error(`inlined: a $ref with siblings: ${JSON.stringify(v)}`);
      return copy();
    }
    const discriminated = v['discriminator'] !== undefined;
    return Object.fromEntries(
      Object.entries(v).map(([k, inner]) => [k, discriminated && (k === 'oneOf' || k === 'anyOf') && Array.isArray(inner) ? inner.map((alternative) => walk(alternative, true)) : walk(inner)]),
    );
  };
  return walk(document) as JsonObject;
}

/** Where a value stands in a document: the keys and indexes from its root. */
export type Path = readonly (string | number)[];

function at(document: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], document);
}

/** Every alternative of a `oneOf` or `anyOf` written in place (not a `$ref`), in document order. */
export function inlineAlternatives(document: JsonObject): Path[] {
  const found: Path[] = [];
  const walk = (v: unknown, path: Path): void => {
    if (Array.isArray(v)) return v.forEach((inner, i) => walk(inner, [...path, i]));
    if (!isObject(v)) return;
    for (const [k, inner] of Object.entries(v)) {
      if ((k === 'oneOf' || k === 'anyOf') && Array.isArray(inner)) {
        inner.forEach((alternative, i) => {
          if (!isObject(alternative) || alternative['$ref'] === undefined) found.push([...path, k, i]);
        });
      }
      walk(inner, [...path, k]);
    }
  };
  walk(document, []);
  return found;
}

/** The alternative at `path` moved into `components.schemas[name]`, and a reference to it in its place. */
export function alternativeMoved(document: JsonObject, path: Path, name: string): JsonObject {
  const result = structuredClone(document);
  const list = at(result, path.slice(0, -1)) as unknown[];
  const index = path.at(-1) as number;
  schemasOf(result)[name] = list[index];
  list[index] = { $ref: `#/components/schemas/${name}` };
  return result;
}

/** Every member of a model's `$defs` that the document refers to: `[model, name]`. */
export function referredDefinitions(document: JsonObject): (readonly [string, string])[] {
  const text = JSON.stringify(document);
  return Object.entries(schemasOf(document))
    .flatMap(([model, schema]) => (isObject(schema) && isObject(schema['$defs']) ? Object.keys(schema['$defs']).map((name) => [model, name] as const) : []))
    .filter(([model, name]) => text.includes(JSON.stringify(`#/components/schemas/${model}/$defs/${name}`)));
}

/** The `$defs` member `name` of `model` moved to `components.schemas[to]`, its references (none with siblings) following it. */
export function definitionMoved(document: JsonObject, model: string, name: string, to: string): JsonObject {
  const result = structuredClone(document);
  const schemas = schemasOf(result);
  const defs = (schemas[model] as Json)['$defs'] as Json;
  schemas[to] = defs[name];
  delete defs[name];
  if (Object.keys(defs).length === 0) delete (schemas[model] as Json)['$defs'];
  const from = `#/components/schemas/${model}/$defs/${name}`;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    if (v['$ref'] === from) return { $ref: `#/components/schemas/${to}` };
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
  };
  return walk(result) as JsonObject;
}

/** The document with one more named schema. */
export function withModel(document: JsonObject, name: string, schema: unknown): JsonObject {
  const result = structuredClone(document);
  schemasOf(result)[name] = structuredClone(schema);
  return result;
}
