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

/** `key` as one segment of a JSON pointer (RFC 6901). */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON pointer an internal reference names (`#/a/b%20c` -> `/a/b c`); the reference itself if it cannot be decoded. */
function pointerOfRef(ref: string): string {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}

/**
 * Follows a chain of internal `$ref`s from `value`, found at the JSON pointer `at`. `ref` is the
 * reference that could not be followed (external, leading nowhere, in a cycle, or to a value that
 * `accepts` refuses: a thing of another kind than the reference stands for), with `value`
 * undefined and `at` where that reference stands; null when the chain ended in a value, which `at`
 * then locates. `accepts` judges only what a reference leads to, never a value written in place.
 */
export function follow(
  document: JsonObject,
  value: JsonValue | undefined,
  at = '',
  accepts?: (target: JsonValue) => boolean,
): { readonly value: JsonValue | undefined; readonly ref: string | null; readonly at: string } {
  const seen = new Set<string>();
  let current = value;
  let where = at;
  let last: { readonly ref: string; readonly at: string } | null = null;
  for (let ref = refOf(current); ref !== null; ref = refOf(current)) {
    if (seen.has(ref)) return { value: undefined, ref, at: where };
    seen.add(ref);
    current = pointer(document, ref);
    if (current === undefined) return { value: undefined, ref, at: where };
    last = { ref, at: where };
    where = pointerOfRef(ref);
  }
  if (last !== null && accepts !== undefined && current !== undefined && !accepts(current)) return { value: undefined, ref: last.ref, at: last.at };
  return { value: current, ref: null, at: where };
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
