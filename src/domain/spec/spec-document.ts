/**
 * A Swagger 2.0 document as plain JSON data, and the facts the service takes from it. Parsing and
 * validation happen in an adapter; everything here is pure.
 */
export type SpecFormat = 'yaml' | 'json';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** What the API record takes from `info`. */
export interface SpecSummary {
  readonly title: string;
  readonly description: string | null;
  readonly version: string | null;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** `info.title`, `info.description`, `info.version`; a validated document always has title and version. */
export function summarizeSpec(document: JsonObject): SpecSummary {
  const info = isJsonObject(document['info']) ? document['info'] : {};
  return { title: text(info['title']) ?? '', description: text(info['description']), version: text(info['version']) };
}
