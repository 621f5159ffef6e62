/**
 * An OpenAPI 3.0 document written as OpenAPI 3.1, for tests that want one description in both:
 * `nullable: true` beside a type becomes a type list with "null", 3.0's boolean
 * `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` become 3.1's numbers.
 */
type Json = Record<string, unknown>;

function schemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schemas);
  if (typeof value !== 'object' || value === null) return value;
  const result: Json = {};
  const source = value as Json;
  for (const [key, inner] of Object.entries(source)) {
    if (key === 'nullable' && inner === true && typeof source['type'] === 'string') continue;
    if (key === 'nullable' && typeof inner === 'boolean') continue;
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof inner === 'boolean') continue;
    if ((key === 'minimum' && source['exclusiveMinimum'] === true) || (key === 'maximum' && source['exclusiveMaximum'] === true)) {
      result[key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] = inner;
      continue;
    }
    if (key === 'type' && typeof inner === 'string' && source['nullable'] === true) {
      result[key] = [inner, 'null'];
      continue;
    }
    result[key] = schemas(inner);
  }
  return result;
}

export function openApi31Of(document: Json): Json {
  return { ...(schemas(document) as Json), openapi: '3.1.0' };
}
