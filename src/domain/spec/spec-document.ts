/**
 * A spec (Swagger 2.0, OpenAPI 3.0 or 3.1) as plain JSON data, and the facts the service takes
 * from it. Parsing and validation happen in an adapter; everything here is pure.
 */

/** How a spec's text is written: the export's `?format=`. */
export type SpecSyntax = 'yaml' | 'json';

/** The description language and its version: the API record's `specFormat`. */
export const SPEC_FORMATS = ['swagger-2.0', 'openapi-3.0', 'openapi-3.1'] as const;
export type SpecFormat = (typeof SPEC_FORMATS)[number];

/** The versions accepted, as an error message names them. */
export const ACCEPTED_VERSIONS = 'Swagger 2.0 (swagger: "2.0"), OpenAPI 3.0 (openapi: "3.0.0" to "3.0.4") or OpenAPI 3.1 (openapi: "3.1.x")';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** What the API record takes from a document: its format and `info`. */
export interface SpecSummary {
  /** null only for a document of no accepted format, which validation refuses. */
  readonly format: SpecFormat | null;
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

const OPENAPI_30 = /^3\.0\.[0-4]$/;
const OPENAPI_31 = /^3\.1\.(0|[1-9][0-9]*)$/;

/**
 * The format a document declares (`swagger: "2.0"`, `openapi: "3.0.0"`-`"3.0.4"`, `openapi: "3.1.x"`),
 * or undefined for anything else: Swagger 1.x, another OpenAPI version, a version given as a number.
 */
export function specFormatOf(document: JsonObject): SpecFormat | undefined {
  if (document['swagger'] === '2.0' && document['openapi'] === undefined) return 'swagger-2.0';
  const version = document['openapi'];
  if (typeof version !== 'string' || document['swagger'] !== undefined) return undefined;
  if (OPENAPI_30.test(version)) return 'openapi-3.0';
  if (OPENAPI_31.test(version)) return 'openapi-3.1';
  return undefined;
}

/** The format, `info.title`, `info.description`, `info.version`; a validated document always has title and version. */
export function summarizeSpec(document: JsonObject): SpecSummary {
  const info = isJsonObject(document['info']) ? document['info'] : {};
  return { format: specFormatOf(document) ?? null, title: text(info['title']) ?? '', description: text(info['description']), version: text(info['version']) };
}
