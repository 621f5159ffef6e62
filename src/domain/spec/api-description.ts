import { authAdaptersOf, operationMethods, type AuthAdapter } from './derived-resources.js';
import { follow, nameUnder } from './json-pointer.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue, type SpecFormat } from './spec-document.js';

/**
 * What a document describes, whatever its format: Swagger 2.0 and OpenAPI 3.x normalised to one
 * model of operations with parameters, request bodies and responses (by media type), security,
 * servers and models. A 2.0 `body` parameter becomes the request body and its `formData`
 * parameters an object body, each under the operation's `consumes`; a 2.0 response schema is
 * content under `produces`; a non-body parameter's `type`, `items`, `enum`... become its schema.
 * Schemas are kept as written, `$ref`s and all: `modelName` says which of them name a model.
 * Pure and defensive: nothing here trusts a field's type or follows an external `$ref`.
 */
export interface ApiDescription {
  readonly format: SpecFormat;
  readonly servers: readonly ServerDescription[];
  /** From the document's `tags` list, with their Markdown descriptions. */
  readonly tags: readonly { readonly name: string; readonly description: string | null }[];
  readonly operations: readonly OperationDescription[];
  /** OpenAPI 3.1 `webhooks`: requests the API sends, each named by its key (in `path`). */
  readonly webhooks: readonly OperationDescription[];
  /** `definitions` (2.0) or `components.schemas` (3.x), in document order. */
  readonly models: readonly { readonly name: string; readonly schema: JsonValue }[];
  readonly securitySchemes: readonly AuthAdapter[];
  /** The model a `$ref` names (`#/definitions/X` in 2.0, `#/components/schemas/X` in 3.x), if the document has it. */
  modelName(ref: string): string | null;
}

export interface ServerDescription {
  /** As written: in 3.x with its `{variable}` templates; in 2.0 `scheme://host/basePath`, or `host/basePath` without schemes. */
  readonly url: string;
  readonly description: string | null;
}

export interface OperationDescription {
  /** Upper case. */
  readonly method: string;
  /** The key of `paths` as written. */
  readonly path: string;
  /** JSON pointer to the operation in the document. */
  readonly pointer: string;
  readonly operationId: string | null;
  readonly summary: string | null;
  /** Markdown. */
  readonly description: string | null;
  readonly deprecated: boolean;
  readonly tags: readonly string[];
  /** Path-level ones first, unless the operation redefines them (same name and place). */
  readonly parameters: readonly ParameterDescription[];
  readonly requestBody: RequestBodyDescription | null;
  readonly responses: readonly ResponseDescription[];
  /** Alternatives (any one suffices), each a set of schemes used together; the document's when the operation sets none. Empty: no security. */
  readonly security: readonly SecurityRequirement[];
}

export type SecurityRequirement = readonly { readonly scheme: string; readonly scopes: readonly string[] }[];

export interface ParameterDescription {
  readonly name: string;
  /** path, query, header, cookie (3.x); null for a parameter that could not be read (`ref` says why). */
  readonly in: string | null;
  readonly required: boolean;
  readonly deprecated: boolean;
  readonly description: string | null;
  readonly schema: JsonValue | undefined;
  /** An external `$ref`, or an internal one leading nowhere or in a circle. */
  readonly ref: string | null;
}

export interface MediaContent {
  readonly mediaType: string;
  readonly schema: JsonValue | undefined;
}

export interface RequestBodyDescription {
  readonly description: string | null;
  readonly required: boolean;
  readonly content: readonly MediaContent[];
  readonly ref: string | null;
}

export interface ResponseDescription {
  /** `200`, `4XX`, `default`... */
  readonly status: string;
  readonly description: string | null;
  readonly content: readonly MediaContent[];
  readonly ref: string | null;
}

/** Keywords a 2.0 non-body parameter or `items` shares with JSON Schema. */
const PARAMETER_SCHEMA_KEYWORDS = [
  'type',
  'format',
  'enum',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'x-nullable',
] as const;

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOr(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function securityOf(value: JsonValue | undefined): SecurityRequirement[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).map((requirement) => Object.entries(requirement).map(([scheme, scopes]) => ({ scheme, scopes: strings(scopes) })));
}

/** A 2.0 non-body parameter's (or `items`') type as a JSON Schema; `file` is a binary string. */
function swagger2Schema(value: JsonObject): JsonObject {
  const schema: JsonObject = {};
  for (const keyword of PARAMETER_SCHEMA_KEYWORDS) if (value[keyword] !== undefined) schema[keyword] = value[keyword];
  if (schema['type'] === 'file') {
    schema['type'] = 'string';
    schema['format'] = 'binary';
  }
  if (isJsonObject(value['items'])) schema['items'] = swagger2Schema(value['items']);
  return schema;
}

interface Reader {
  readonly format: SpecFormat;
  parameter(raw: JsonObject): ParameterDescription;
  requestBody(operation: JsonObject, parameters: readonly JsonObject[]): RequestBodyDescription | null;
  response(status: string, raw: JsonValue, operation: JsonObject): ResponseDescription;
  /** Parameters that stay parameters (2.0 body and formData ones become the request body). */
  isParameter(raw: JsonObject): boolean;
  readonly modelPrefix: string;
  readonly models: JsonObject;
  readonly servers: ServerDescription[];
}

function swagger2Reader(document: JsonObject): Reader {
  const mediaTypes = (operation: JsonObject, key: 'consumes' | 'produces', fallback: string[]) => {
    const own = Array.isArray(operation[key]) ? strings(operation[key]) : strings(document[key]);
    return own.length > 0 ? own : fallback;
  };
  return {
    format: 'swagger-2.0',
    modelPrefix: '#/definitions/',
    models: objectOr(document['definitions']),
    servers: swagger2Servers(document),
    isParameter: (raw) => raw['in'] !== 'body' && raw['in'] !== 'formData',
    parameter: (raw) => ({
      name: text(raw['name']) ?? '',
      in: text(raw['in']),
      required: raw['required'] === true,
      deprecated: false,
      description: text(raw['description']),
      schema: swagger2Schema(raw),
      ref: null,
    }),
    requestBody: (operation, parameters) => {
      const body = parameters.find((p) => p['in'] === 'body');
      if (body) {
        return {
          description: text(body['description']),
          required: body['required'] === true,
          content: mediaTypes(operation, 'consumes', ['application/json']).map((mediaType) => ({ mediaType, schema: body['schema'] })),
          ref: null,
        };
      }
      const fields = parameters.filter((p) => p['in'] === 'formData');
      if (fields.length === 0) return null;
      const properties: JsonObject = {};
      for (const field of fields) {
        const schema = swagger2Schema(field);
        if (text(field['description']) !== null) schema['description'] = field['description']!;
        properties[text(field['name']) ?? ''] = schema;
      }
      const required = fields.filter((f) => f['required'] === true).map((f) => text(f['name']) ?? '');
      const schema: JsonObject = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
      const forms = mediaTypes(operation, 'consumes', []).filter((t) => /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/.test(t));
      const fallback = fields.some((f) => f['type'] === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
      return { description: null, required: required.length > 0, content: (forms.length > 0 ? forms : [fallback]).map((mediaType) => ({ mediaType, schema })), ref: null };
    },
    response: (status, raw, operation) => {
      const { value, ref } = follow(document, raw);
      if (ref !== null) return { status, description: null, content: [], ref };
      const response = objectOr(value);
      const schema = response['schema'];
      const content = schema === undefined ? [] : mediaTypes(operation, 'produces', ['application/json']).map((mediaType) => ({ mediaType, schema }));
      return { status, description: text(response['description']), content, ref: null };
    },
  };
}

function swagger2Servers(document: JsonObject): ServerDescription[] {
  const host = text(document['host']);
  if (host === null) return [];
  const basePath = text(document['basePath']) ?? '';
  const rest = `${host}${basePath === '/' ? '' : basePath}`;
  const schemes = [...new Set(strings(document['schemes']))];
  // Without `schemes` the scheme the document was served with applies, which a stored document no longer has.
  return schemes.length > 0 ? schemes.map((scheme) => ({ url: `${scheme}://${rest}`, description: null })) : [{ url: rest, description: null }];
}

function contentOf(value: JsonValue | undefined): MediaContent[] {
  return Object.entries(objectOr(value)).map(([mediaType, media]) => ({ mediaType, schema: objectOr(media)['schema'] }));
}

function openApi3Reader(document: JsonObject, format: SpecFormat): Reader {
  const servers = (Array.isArray(document['servers']) ? document['servers'] : []).map((raw) => {
    const server = objectOr(raw);
    return { url: text(server['url']) ?? '/', description: text(server['description']) };
  });
  return {
    format,
    modelPrefix: '#/components/schemas/',
    models: objectOr(objectOr(document['components'])['schemas']),
    servers,
    isParameter: () => true,
    parameter: (raw) => ({
      name: text(raw['name']) ?? '',
      in: text(raw['in']),
      required: raw['required'] === true,
      deprecated: raw['deprecated'] === true,
      description: text(raw['description']),
      // A parameter has a schema, or content with exactly one media type.
      schema: raw['schema'] ?? contentOf(raw['content'])[0]?.schema,
      ref: null,
    }),
    requestBody: (operation) => {
      if (operation['requestBody'] === undefined) return null;
      const { value, ref } = follow(document, operation['requestBody']);
      if (ref !== null) return { description: null, required: false, content: [], ref };
      const body = objectOr(value);
      return { description: text(body['description']), required: body['required'] === true, content: contentOf(body['content']), ref: null };
    },
    response: (status, raw) => {
      const { value, ref } = follow(document, raw);
      if (ref !== null) return { status, description: null, content: [], ref };
      const response = objectOr(value);
      return { status, description: text(response['description']), content: contentOf(response['content']), ref: null };
    },
  };
}

/** Path-level parameters apply to every operation; an operation's own one with the same name and place replaces it. */
function parametersOf(document: JsonObject, pathLevel: JsonValue | undefined, own: JsonValue | undefined): { readonly read: JsonObject[]; readonly unread: string[] } {
  const read: JsonObject[] = [];
  const unread: string[] = [];
  const collect = (value: JsonValue | undefined) => {
    const list: JsonObject[] = [];
    for (const raw of Array.isArray(value) ? value : []) {
      const { value: parameter, ref } = follow(document, raw);
      if (ref !== null) unread.push(ref);
      else if (isJsonObject(parameter)) list.push(parameter);
    }
    return list;
  };
  const key = (p: JsonObject) => `${text(p['in']) ?? ''}\u0000${text(p['name']) ?? ''}`;
  const mine = collect(own);
  const overridden = new Set(mine.map(key));
  read.push(...collect(pathLevel).filter((p) => !overridden.has(key(p))), ...mine);
  return { read, unread };
}

/** The operations of the path items under `key` (`paths`, or 3.1's `webhooks`), in document order. */
function operations(document: JsonObject, reader: Reader, key: 'paths' | 'webhooks'): OperationDescription[] {
  const result: OperationDescription[] = [];
  const documentSecurity = securityOf(document['security']);
  for (const [path, raw] of Object.entries(objectOr(document[key]))) {
    if (path.startsWith('x-')) continue;
    const item = objectOr(follow(document, raw).value);
    for (const method of operationMethods(reader.format !== 'swagger-2.0')) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      const { read, unread } = parametersOf(document, item['parameters'], operation['parameters']);
      const parameters = [
        ...read.filter((p) => reader.isParameter(p)).map((p) => reader.parameter(p)),
        ...unread.map((ref) => ({ name: ref, in: null, required: false, deprecated: false, description: null, schema: undefined, ref })),
      ];
      result.push({
        method: method.toUpperCase(),
        path,
        pointer: `/${key}/${escapePointer(path)}/${method}`,
        operationId: text(operation['operationId']),
        summary: text(operation['summary']),
        description: text(operation['description']),
        deprecated: operation['deprecated'] === true,
        tags: strings(operation['tags']),
        parameters,
        requestBody: reader.requestBody(operation, read),
        responses: Object.entries(objectOr(operation['responses']))
          .filter(([status]) => !status.startsWith('x-'))
          .map(([status, response]) => reader.response(status, response, operation)),
        security: Array.isArray(operation['security']) ? securityOf(operation['security']) : documentSecurity,
      });
    }
  }
  return result;
}

/** The description of a validated document (of any accepted format); a document of another format reads as OpenAPI 3. */
export function describeApi(document: JsonObject): ApiDescription {
  const format = specFormatOf(document);
  const reader = format === 'swagger-2.0' ? swagger2Reader(document) : openApi3Reader(document, format ?? 'openapi-3.1');
  const models = Object.entries(reader.models).map(([name, schema]) => ({ name, schema }));
  const modelNames = new Set(models.map((m) => m.name));
  const tags = (Array.isArray(document['tags']) ? document['tags'] : []).filter(isJsonObject).flatMap((tag) => {
    const name = text(tag['name']);
    return name === null ? [] : [{ name, description: text(tag['description']) }];
  });
  return {
    format: reader.format,
    servers: reader.servers,
    tags,
    operations: operations(document, reader, 'paths'),
    webhooks: reader.format === 'openapi-3.1' ? operations(document, reader, 'webhooks') : [],
    models,
    securitySchemes: authAdaptersOf(document),
    modelName: (ref) => {
      const name = nameUnder(reader.modelPrefix, ref);
      return name !== null && modelNames.has(name) ? name : null;
    },
  };
}
