import { isJsonObject, type JsonObject, type JsonValue } from './spec-document.js';

/**
 * The value an internal reference (`#/a/b~1c`, RFC 6901 with URI escapes) points at in `document`;
 * undefined for an external reference, a malformed one, or one that leads nowhere.
 */
export function pointer(document: JsonObject, ref: string): JsonValue | undefined {
  if (ref === '#') return document;
  if (!ref.startsWith('#/')) return undefined;
  let node: JsonValue | undefined = document;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(key) ? node[Number(key)] : undefined;
    else if (isJsonObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

export function refOf(value: JsonValue | undefined): string | null {
  return isJsonObject(value) && typeof value['$ref'] === 'string' ? value['$ref'] : null;
}

/**
 * Follows a chain of internal `$ref`s. `ref` is the reference that could not be followed (external,
 * leading nowhere, or in a cycle), with `value` undefined; null when the chain ended in a value.
 */
export function follow(document: JsonObject, value: JsonValue | undefined): { readonly value: JsonValue | undefined; readonly ref: string | null } {
  const seen = new Set<string>();
  let current = value;
  for (let ref = refOf(current); ref !== null; ref = refOf(current)) {
    if (seen.has(ref)) return { value: undefined, ref };
    seen.add(ref);
    current = pointer(document, ref);
    if (current === undefined) return { value: undefined, ref };
  }
  return { value: current, ref: null };
}

/** The last segment of a `#/<prefix>/<name>` reference, unescaped; null for any other reference. */
export function nameUnder(prefix: string, ref: string): string | null {
  if (!ref.startsWith(prefix) || ref.length === prefix.length) return null;
  const raw = ref.slice(prefix.length);
  if (raw.includes('/')) return null;
  try {
    return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return null;
  }
}
