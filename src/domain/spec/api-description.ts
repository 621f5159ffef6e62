import { authAdaptersOf, operationMethods, type AuthAdapter } from './derived-resources.js';
import { escapePointer, nameUnder, References } from './json-pointer.js';
import { ofKind } from './reference-kinds.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue, type SpecFormat } from './spec-document.js';

/**
 * What a document describes, whatever its format: Swagger 2.0 and OpenAPI 3.x normalised to one
 * model of operations with parameters (and how each is written on the wire), request bodies and
 * responses (by media type), callbacks, security, servers and models; 3.1's webhooks beside them.
 * A 2.0 `body` parameter becomes the request body and its `formData` parameters an object body,
 * each under the operation's `consumes`; a 2.0 response schema is content under `produces`; a
 * non-body parameter's `type`, `items`, `enum`... become its schema.
 * Schemas are kept as written, `$ref`s and all: `modelName` says which of them name a model, and
 * every part carries the JSON pointer of where the document says it (after internal `$ref`s).
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
  /** `definitions` (2.0) or `components.schemas` (3.x), in document order, with the pointer of each. */
  readonly models: readonly { readonly name: string; readonly schema: JsonValue; readonly pointer: string }[];
  readonly securitySchemes: readonly AuthAdapter[];
  /** Where the security schemes are: `/securityDefinitions` (2.0) or `/components/securitySchemes` (3.x). */
  readonly securitySchemesPointer: string;
  /** The model a `$ref` names (`#/definitions/X` in 2.0, `#/components/schemas/X` in 3.x), if the document has it. */
  modelName(ref: string): string | null;
}

export interface ServerDescription {
  /** As written: in 3.x with its `{variable}` templates; in 2.0 `scheme://host/basePath`, or `host/basePath` without schemes. */
  readonly url: string;
  readonly description: string | null;
  /** JSON pointer to the server (3.x), or to what the 2.0 URL is made of (`/host`). */
  readonly pointer: string;
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
  /** `x-sunset`: when a deprecated operation goes away (a date, as written). */
  readonly sunset: string | null;
  readonly tags: readonly string[];
  /** Path-level ones first, unless the operation redefines them (same name and place). */
  readonly parameters: readonly ParameterDescription[];
  readonly requestBody: RequestBodyDescription | null;
  readonly responses: readonly ResponseDescription[];
  /** Alternatives (any one suffices), each a set of schemes used together; the document's when the operation sets none. Empty: no security. */
  readonly security: readonly SecurityRequirement[];
  /** Where `security` comes from: the operation's own, the document's, or the operation when neither says any. */
  readonly securityPointer: string;
  /** 3.x `callbacks`: the requests the API sends while or after it handles the operation (not read below a webhook's or a callback's own). */
  readonly callbacks: readonly CallbackOperation[];
}

/** A request the API sends for a callback of an operation: `path` is the runtime expression of its URL, as written. */
export interface CallbackOperation extends OperationDescription {
  /** The callback's key under the operation's `callbacks`. */
  readonly callback: string;
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
  /** How its value is written on the wire; null for a 3.x parameter described by `content` (its media type says), or one that could not be read. */
  readonly serialization: Serialization | null;
  /** JSON pointer to the parameter; its schema is at `schemaPointer`. */
  readonly pointer: string;
  readonly schemaPointer: string;
  /** An external `$ref`, or an internal one leading nowhere, in a circle or to something that is not a parameter. */
  readonly ref: string | null;
}

/**
 * A parameter's 3.x `style`, `explode` and `allowReserved`, their defaults filled in (`form` in
 * query and cookie, `simple` in path and header; `explode` only with `form`). A 2.0 array's
 * `collectionFormat` reads as its 3.x equivalent: `csv` is the place's style unexploded, `multi`
 * form exploded, `ssv` spaceDelimited, `pipes` pipeDelimited, and `tsv`, which 3.x cannot say,
 * tabDelimited.
 */
export interface Serialization {
  readonly style: string;
  readonly explode: boolean;
  readonly allowReserved: boolean;
}

export interface MediaContent {
  readonly mediaType: string;
  readonly schema: JsonValue | undefined;
  /** JSON pointer to the schema; for a 2.0 `formData` body, which no document has in one place, only a name for it (see `form`). */
  readonly pointer: string;
  /** JSON pointer to the media type: its entry of `content`, or of the `consumes` or `produces` that 2.0 takes it from (the body or response itself when it is the default). */
  readonly at: string;
  /** A 2.0 `formData` body: where its parameters are listed, and the pointer of each field's parameter by the field's name. */
  readonly form?: FormFields;
}

export interface FormFields {
  readonly pointer: string;
  readonly fields: ReadonlyMap<string, string>;
}

export interface RequestBodyDescription {
  readonly description: string | null;
  readonly required: boolean;
  readonly content: readonly MediaContent[];
  readonly pointer: string;
  readonly ref: string | null;
}

export interface HeaderDescription {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonValue | undefined;
  readonly pointer: string;
  readonly schemaPointer: string;
}

export interface ResponseDescription {
  /** `200`, `4XX`, `default`... */
  readonly status: string;
  readonly description: string | null;
  readonly content: readonly MediaContent[];
  readonly headers: readonly HeaderDescription[];
  readonly pointer: string;
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
  'x-extensible-enum',
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

function securityOf(value: JsonValue | undefined): SecurityRequirement[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).map((requirement) => Object.entries(requirement).map(([scheme, scopes]) => ({ scheme, scopes: strings(scopes) })));
}

/** A 2.0 non-body parameter's (or `items`' or header's) type as a JSON Schema; `file` is a binary string. */
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

/** An operation as the readers see it: the raw object, where it is, and its parameters read so far. */
interface RawOperation {
  readonly value: JsonObject;
  readonly pointer: string;
  /** Parameters (path-level and own, internal `$ref`s followed), each with its pointer. */
  readonly parameters: readonly { readonly value: JsonObject; readonly pointer: string }[];
}

interface Reader {
  readonly format: SpecFormat;
  parameter(raw: JsonObject, pointer: string): ParameterDescription;
  requestBody(operation: RawOperation): RequestBodyDescription | null;
  response(status: string, raw: JsonValue, pointer: string, operation: RawOperation): ResponseDescription;
  /** Parameters that stay parameters (2.0 body and formData ones become the request body). */
  isParameter(raw: JsonObject): boolean;
  readonly modelPrefix: string;
  readonly models: JsonObject;
  readonly modelsPointer: string;
  readonly servers: ServerDescription[];
}

/** The 3.x place's default style; 2.0's `collectionFormat` of an array as the 3.x style and explode that write the same. */
function serializationOf(place: string | null, style: JsonValue | undefined, explode: JsonValue | undefined, allowReserved: JsonValue | undefined): Serialization {
  const written = text(style) ?? (place === 'query' || place === 'cookie' ? 'form' : 'simple');
  return { style: written, explode: typeof explode === 'boolean' ? explode : written === 'form', allowReserved: allowReserved === true };
}

const COLLECTION_STYLES: Record<string, string> = { ssv: 'spaceDelimited', pipes: 'pipeDelimited', tsv: 'tabDelimited' };

function swagger2Serialization(raw: JsonObject): Serialization {
  const place = text(raw['in']);
  const format = raw['type'] === 'array' ? (text(raw['collectionFormat']) ?? 'csv') : null;
  if (format === 'multi') return serializationOf(place, 'form', true, false);
  const style = format === null ? undefined : COLLECTION_STYLES[format];
  return serializationOf(place, style, format === null ? undefined : false, false);
}

function swagger2Reader(document: JsonObject, refs: References): Reader {
  /** The media types of `consumes` or `produces`, the operation's or else the document's, each with its pointer; `fallback` at `at` when neither lists any. */
  const mediaTypes = (operation: RawOperation, key: 'consumes' | 'produces', fallback: string[], at: string) => {
    const [list, listAt] = Array.isArray(operation.value[key]) ? [operation.value[key], `${operation.pointer}/${key}`] : [document[key], `/${key}`];
    const own = (Array.isArray(list) ? list : []).flatMap((mediaType, i) => (typeof mediaType === 'string' ? [{ mediaType, at: `${listAt}/${i}` }] : []));
    return own.length > 0 ? own : fallback.map((mediaType) => ({ mediaType, at }));
  };
  return {
    format: 'swagger-2.0',
    modelPrefix: '#/definitions/',
    models: objectOr(document['definitions']),
    modelsPointer: '/definitions',
    servers: swagger2Servers(document),
    isParameter: (raw) => raw['in'] !== 'body' && raw['in'] !== 'formData',
    parameter: (raw, pointer) => ({
      name: text(raw['name']) ?? '',
      in: text(raw['in']),
      required: raw['required'] === true,
      deprecated: false,
      description: text(raw['description']),
      schema: swagger2Schema(raw),
      serialization: swagger2Serialization(raw),
      pointer,
      schemaPointer: pointer,
      ref: null,
    }),
    requestBody: (operation) => {
      const body = operation.parameters.find((p) => p.value['in'] === 'body');
      if (body) {
        return {
          description: text(body.value['description']),
          required: body.value['required'] === true,
          content: mediaTypes(operation, 'consumes', ['application/json'], body.pointer).map(({ mediaType, at }) => ({ mediaType, schema: body.value['schema'], pointer: `${body.pointer}/schema`, at })),
          pointer: body.pointer,
          ref: null,
        };
      }
      const fields = operation.parameters.filter((p) => p.value['in'] === 'formData');
      if (fields.length === 0) return null;
      const properties: JsonObject = {};
      for (const { value: field } of fields) {
        const schema = swagger2Schema(field);
        if (text(field['description']) !== null) schema['description'] = field['description']!;
        properties[text(field['name']) ?? ''] = schema;
      }
      const required = fields.filter((f) => f.value['required'] === true).map((f) => text(f.value['name']) ?? '');
      const schema: JsonObject = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
      // The list the first field is in (the operation's or the path item's), or that field where a `$ref` led.
      const first = fields[0]!.pointer;
      const form = { pointer: /\/parameters\/\d+$/.test(first) ? first.replace(/\/\d+$/, '') : first, fields: new Map(fields.map((f) => [text(f.value['name']) ?? '', f.pointer])) };
      const forms = mediaTypes(operation, 'consumes', [], form.pointer).filter((t) => /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/.test(t.mediaType));
      const fallback = fields.some((f) => f.value['type'] === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded';
      // No document has this schema in one place: its pointer only names it, the fields' are in `form`.
      const pointer = `${operation.pointer}/parameters`;
      const content = (forms.length > 0 ? forms : [{ mediaType: fallback, at: form.pointer }]).map(({ mediaType, at }) => ({ mediaType, schema, pointer, at, form }));
      return { description: null, required: required.length > 0, content, pointer: form.pointer, ref: null };
    },
    response: (status, raw, at, operation) => {
      const { value, ref, at: pointer } = refs.follow(raw, at, ofKind('response', 'swagger-2.0'));
      if (ref !== null) return { status, description: null, content: [], headers: [], pointer, ref };
      const response = objectOr(value);
      const schema = response['schema'];
      const content = schema === undefined ? [] : mediaTypes(operation, 'produces', ['application/json'], pointer).map(({ mediaType, at: typeAt }) => ({ mediaType, schema, pointer: `${pointer}/schema`, at: typeAt }));
      const headers = Object.entries(objectOr(response['headers'])).map(([name, header]) => {
        const at = `${pointer}/headers/${escapePointer(name)}`;
        // Swagger 2.0 cannot say whether a response header is always sent; its type is the header's own.
        return { name, required: false, schema: swagger2Schema(objectOr(header)), pointer: at, schemaPointer: at };
      });
      return { status, description: text(response['description']), content, headers, pointer, ref: null };
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
  return schemes.length > 0 ? schemes.map((scheme) => ({ url: `${scheme}://${rest}`, description: null, pointer: '/host' })) : [{ url: rest, description: null, pointer: '/host' }];
}

function contentOf(value: JsonValue | undefined, at: string): MediaContent[] {
  return Object.entries(objectOr(value)).map(([mediaType, media]) => {
    const typeAt = `${at}/${escapePointer(mediaType)}`;
    return { mediaType, schema: objectOr(media)['schema'], pointer: `${typeAt}/schema`, at: typeAt };
  });
}

function openApi3Reader(document: JsonObject, format: SpecFormat, refs: References): Reader {
  const servers = (Array.isArray(document['servers']) ? document['servers'] : []).map((raw, i) => {
    const server = objectOr(raw);
    return { url: text(server['url']) ?? '/', description: text(server['description']), pointer: `/servers/${i}` };
  });
  return {
    format,
    modelPrefix: '#/components/schemas/',
    models: objectOr(objectOr(document['components'])['schemas']),
    modelsPointer: '/components/schemas',
    servers,
    isParameter: () => true,
    parameter: (raw, pointer) => {
      // A parameter has a schema, or content with exactly one media type.
      const content = raw['schema'] === undefined ? contentOf(raw['content'], `${pointer}/content`)[0] : undefined;
      return {
        name: text(raw['name']) ?? '',
        in: text(raw['in']),
        required: raw['required'] === true,
        deprecated: raw['deprecated'] === true,
        description: text(raw['description']),
        schema: raw['schema'] ?? content?.schema,
        serialization: raw['schema'] === undefined && raw['content'] !== undefined ? null : serializationOf(text(raw['in']), raw['style'], raw['explode'], raw['allowReserved']),
        pointer,
        schemaPointer: content?.pointer ?? `${pointer}/schema`,
        ref: null,
      };
    },
    requestBody: (operation) => {
      if (operation.value['requestBody'] === undefined) return null;
      const { value, ref, at } = refs.follow(operation.value['requestBody'], `${operation.pointer}/requestBody`, ofKind('requestBody', format));
      if (ref !== null) return { description: null, required: false, content: [], pointer: at, ref };
      const body = objectOr(value);
      return { description: text(body['description']), required: body['required'] === true, content: contentOf(body['content'], `${at}/content`), pointer: at, ref: null };
    },
    response: (status, raw, at) => {
      const { value, ref, at: pointer } = refs.follow(raw, at, ofKind('response', format));
      if (ref !== null) return { status, description: null, content: [], headers: [], pointer, ref };
      const response = objectOr(value);
      const headers = Object.entries(objectOr(response['headers'])).map(([name, rawHeader]) => {
        const header = refs.follow(rawHeader, `${pointer}/headers/${escapePointer(name)}`, ofKind('header', format));
        const h = objectOr(header.value);
        const content = h['schema'] === undefined ? contentOf(h['content'], `${header.at}/content`)[0] : undefined;
        return { name, required: h['required'] === true, schema: h['schema'] ?? content?.schema, pointer: header.at, schemaPointer: content?.pointer ?? `${header.at}/schema` };
      });
      return { status, description: text(response['description']), content: contentOf(response['content'], `${pointer}/content`), headers, pointer, ref: null };
    },
  };
}

/**
 * Path-level parameters apply to every operation; an operation's own one with the same name and
 * place replaces it. A reference that cannot be followed, or leads to something that is not a
 * parameter, is unread.
 */
function parametersOf(
  refs: References,
  format: SpecFormat,
  pathLevel: { readonly value: JsonValue | undefined; readonly pointer: string },
  own: { readonly value: JsonValue | undefined; readonly pointer: string },
): { readonly read: { value: JsonObject; pointer: string }[]; readonly unread: { ref: string; pointer: string }[] } {
  const unread: { ref: string; pointer: string }[] = [];
  const collect = (list: { readonly value: JsonValue | undefined; readonly pointer: string }) => {
    const result: { value: JsonObject; pointer: string }[] = [];
    for (const [i, raw] of (Array.isArray(list.value) ? list.value : []).entries()) {
      const { value, ref, at } = refs.follow(raw, `${list.pointer}/${i}`, ofKind('parameter', format));
      if (ref !== null) unread.push({ ref, pointer: at });
      else if (isJsonObject(value)) result.push({ value, pointer: at });
    }
    return result;
  };
  const key = (p: JsonObject) => `${text(p['in']) ?? ''}\u0000${text(p['name']) ?? ''}`;
  const mine = collect(own);
  const overridden = new Set(mine.map((p) => key(p.value)));
  return { read: [...collect(pathLevel).filter((p) => !overridden.has(key(p.value))), ...mine], unread };
}

/** The operations of the path items under `key` (`paths`, or 3.1's `webhooks`), in document order. */
function operations(document: JsonObject, refs: References, reader: Reader, key: 'paths' | 'webhooks'): OperationDescription[] {
  return Object.entries(objectOr(document[key]))
    .filter(([path]) => !path.startsWith('x-'))
    .flatMap(([path, raw]) => pathItemOperations(document, refs, reader, path, raw, `/${key}/${escapePointer(path)}`, key === 'paths'));
}

/** A callback is an object of path items by runtime expression; one behind a `$ref` is read when it is one. */
const isCallback = (value: JsonValue) => isJsonObject(value) && Object.entries(value).every(([key, item]) => key.startsWith('x-') || isJsonObject(item));

/** The operations of one path item; with their callbacks' operations when `withCallbacks` (those of a callback or webhook are not read). */
function pathItemOperations(document: JsonObject, refs: References, reader: Reader, path: string, raw: JsonValue | undefined, at: string, withCallbacks: boolean): OperationDescription[] {
  const result: OperationDescription[] = [];
  const documentSecurity = securityOf(document['security']);
  const followed = refs.follow(raw, at, ofKind('pathItem', reader.format));
  const item = objectOr(followed.value);
  for (const method of operationMethods(reader.format !== 'swagger-2.0')) {
    const operation = item[method];
    if (!isJsonObject(operation)) continue;
    const pointer = `${followed.at}/${method}`;
    const { read, unread } = parametersOf(refs, reader.format, { value: item['parameters'], pointer: `${followed.at}/parameters` }, { value: operation['parameters'], pointer: `${pointer}/parameters` });
    const rawOperation: RawOperation = { value: operation, pointer, parameters: read };
    const parameters = [
      ...read.filter((p) => reader.isParameter(p.value)).map((p) => reader.parameter(p.value, p.pointer)),
      ...unread.map(({ ref, pointer: refAt }) => ({ name: ref, in: null, required: false, deprecated: false, description: null, schema: undefined, serialization: null, pointer: refAt, schemaPointer: refAt, ref })),
    ];
    const callbacks: CallbackOperation[] = [];
    if (withCallbacks && reader.format !== 'swagger-2.0') {
      for (const [name, rawCallback] of Object.entries(objectOr(operation['callbacks']))) {
        if (name.startsWith('x-')) continue;
        const callback = refs.follow(rawCallback, `${pointer}/callbacks/${escapePointer(name)}`, isCallback);
        for (const [expression, callbackItem] of Object.entries(objectOr(callback.value))) {
          if (expression.startsWith('x-')) continue;
          const sent = pathItemOperations(document, refs, reader, expression, callbackItem, `${callback.at}/${escapePointer(expression)}`, false);
          callbacks.push(...sent.map((op) => ({ ...op, callback: name })));
        }
      }
    }
    result.push({
      method: method.toUpperCase(),
      path,
      pointer,
      operationId: text(operation['operationId']),
      summary: text(operation['summary']),
      description: text(operation['description']),
      deprecated: operation['deprecated'] === true,
      sunset: text(operation['x-sunset']),
      tags: strings(operation['tags']),
      parameters,
      requestBody: reader.requestBody(rawOperation),
      responses: Object.entries(objectOr(operation['responses']))
        .filter(([status]) => !status.startsWith('x-'))
        .map(([status, response]) => reader.response(status, response, `${pointer}/responses/${escapePointer(status)}`, rawOperation)),
      security: Array.isArray(operation['security']) ? securityOf(operation['security']) : documentSecurity,
      securityPointer: Array.isArray(operation['security']) ? `${pointer}/security` : Array.isArray(document['security']) ? '/security' : pointer,
      callbacks,
    });
  }
  return result;
}

/** The description of a validated document (of any accepted format); a document of another format reads as OpenAPI 3. */
export function describeApi(document: JsonObject): ApiDescription {
  const format = specFormatOf(document);
  // One for the whole document: a chain of references is walked once, however many places use it.
  const refs = new References(document);
  const reader = format === 'swagger-2.0' ? swagger2Reader(document, refs) : openApi3Reader(document, format ?? 'openapi-3.1', refs);
  const models = Object.entries(reader.models).map(([name, schema]) => ({ name, schema, pointer: `${reader.modelsPointer}/${escapePointer(name)}` }));
  const modelNames = new Set(models.map((m) => m.name));
  const tags = (Array.isArray(document['tags']) ? document['tags'] : []).filter(isJsonObject).flatMap((tag) => {
    const name = text(tag['name']);
    return name === null ? [] : [{ name, description: text(tag['description']) }];
  });
  return {
    format: reader.format,
    servers: reader.servers,
    tags,
    operations: operations(document, refs, reader, 'paths'),
    webhooks: reader.format === 'openapi-3.1' ? operations(document, refs, reader, 'webhooks') : [],
    models,
    securitySchemes: authAdaptersOf(document),
    securitySchemesPointer: reader.format === 'swagger-2.0' ? '/securityDefinitions' : '/components/securitySchemes',
    modelName: (ref) => {
      const name = nameUnder(reader.modelPrefix, ref);
      return name !== null && modelNames.has(name) ? name : null;
    },
  };
}
