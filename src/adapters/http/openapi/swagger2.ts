import type { Header, JsonPrimitive, JsonSchema, OpenApiDocument, Operation, Parameter, RequestBody, Response, SchemaConstraints, SecurityRequirement, SecurityScheme } from './openapi.types.js';

/**
 * Swagger 2.0, as far as the conversion produces it. Swagger 2.0 has no `null` type, `oneOf`,
 * `const`, `examples`, binary strings outside forms, per-response media types, Bearer or more than
 * one OAuth 2.0 flow per scheme: `toSwagger2` loosens each of them as its comments say.
 */
export type Swagger2Type = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

export interface Swagger2Schema extends SchemaConstraints {
  readonly $ref?: string;
  readonly type?: Swagger2Type;
  readonly items?: Swagger2Schema;
  readonly properties?: Readonly<Record<string, Swagger2Schema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | Swagger2Schema;
  readonly allOf?: readonly Swagger2Schema[];
  readonly readOnly?: boolean;
  readonly example?: unknown;
  readonly 'x-nullable'?: boolean;
}

/** A query, header, path or form parameter: a primitive (or a file in a form), described inline. */
export type Swagger2SimpleParameter = {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'formData';
  readonly required?: boolean;
  readonly description?: string;
  readonly type: Swagger2Type | 'file';
} & Pick<Swagger2Schema, 'format' | 'enum' | 'pattern' | 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'items' | 'minItems' | 'maxItems' | 'uniqueItems'>;

export interface Swagger2BodyParameter {
  readonly name: 'body';
  readonly in: 'body';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: Swagger2Schema;
}

export type Swagger2Parameter = Swagger2SimpleParameter | Swagger2BodyParameter;

export interface Swagger2Header {
  readonly type: Swagger2Type;
  readonly description?: string;
  readonly format?: string;
  readonly enum?: readonly JsonPrimitive[];
  readonly pattern?: string;
  readonly minimum?: number;
}

export interface Swagger2Response {
  readonly description: string;
  readonly schema?: Swagger2Schema;
  readonly headers?: Readonly<Record<string, Swagger2Header>>;
}

export interface Swagger2Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly consumes?: readonly string[];
  readonly produces?: readonly string[];
  readonly parameters?: readonly Swagger2Parameter[];
  readonly responses: Readonly<Record<string, Swagger2Response>>;
  readonly security: readonly SecurityRequirement[];
}

export type Swagger2SecurityScheme =
  | { readonly type: 'basic'; readonly description: string }
  | { readonly type: 'apiKey'; readonly in: 'header'; readonly name: string; readonly description: string }
  | { readonly type: 'oauth2'; readonly flow: 'accessCode'; readonly authorizationUrl: string; readonly tokenUrl: string; readonly scopes: Readonly<Record<string, string>>; readonly description: string }
  | { readonly type: 'oauth2'; readonly flow: 'implicit'; readonly authorizationUrl: string; readonly scopes: Readonly<Record<string, string>>; readonly description: string };

export interface Swagger2Document {
  readonly swagger: '2.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string; readonly license: { readonly name: string } };
  readonly host: string;
  readonly basePath: string;
  readonly schemes: readonly string[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Swagger2Operation>>>>;
  readonly definitions: Readonly<Record<string, Swagger2Schema>>;
  readonly securityDefinitions: Readonly<Record<string, Swagger2SecurityScheme>>;
}

const COMPONENT_PREFIX = '#/components/schemas/';
const FORM_MEDIA_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

function typeOfValue(value: JsonPrimitive): Swagger2Type | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return undefined;
}

function mapValues<T, U>(record: Readonly<Record<string, T>>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}

/**
 * One JSON Schema 2020-12 schema as a Swagger 2.0 schema:
 * - `type: [T, 'null']` becomes `type: T` with `x-nullable: true`, and `null` leaves an `enum`;
 * - `oneOf: [X, {type: 'null'}]` becomes X with `x-nullable` (a reference: `allOf: [X]`);
 *   any other `oneOf` becomes the type its alternatives share, or no constraint at all;
 * - `const: v` becomes `enum: [v]` with the type of v;
 * - `examples` becomes `example` (the first); `writeOnly` and `contentMediaType` are dropped
 *   (a binary string outside a form is a plain string);
 * - references point at `definitions`, and nothing stands beside a `$ref` (2.0 ignores it).
 */
export function toSwagger2Schema(schema: JsonSchema): Swagger2Schema {
  if (schema.$ref !== undefined) return { $ref: schema.$ref.replace(COMPONENT_PREFIX, '#/definitions/') };
  if (schema.oneOf !== undefined) {
    const others = schema.oneOf.filter((s) => s.type !== 'null');
    const nullable = others.length < schema.oneOf.length;
    const description = schema.description === undefined ? {} : { description: schema.description };
    if (others.length === 1) {
      const only = toSwagger2Schema(others[0]!);
      const base = only.$ref !== undefined ? { allOf: [only] } : only;
      return { ...base, ...description, ...(nullable ? { 'x-nullable': true } : {}) };
    }
    const types = new Set(others.map((s) => s.type));
    const shared = types.size === 1 && typeof others[0]!.type === 'string' ? toSwagger2Schema({ type: others[0]!.type }) : {};
    return { ...shared, ...description, ...(nullable ? { 'x-nullable': true } : {}) };
  }
  let type: Swagger2Type | undefined;
  let nullable = false;
  if (typeof schema.type === 'string') {
    if (schema.type === 'null') nullable = true;
    else type = schema.type;
  } else if (schema.type !== undefined) {
    const concrete = schema.type.filter((t) => t !== 'null');
    nullable = concrete.length < schema.type.length;
    if (concrete.length === 1) type = concrete[0];
  }
  let values = schema.enum;
  if (schema.const !== undefined) {
    values = [schema.const];
    type ??= typeOfValue(schema.const);
  }
  if (values?.includes(null)) {
    nullable = true;
    values = values.filter((v) => v !== null);
  }
  return {
    ...(type === undefined ? {} : { type }),
    ...(schema.description === undefined ? {} : { description: schema.description }),
    ...(schema.format === undefined ? {} : { format: schema.format }),
    ...(values === undefined ? {} : { enum: values }),
    ...(schema.pattern === undefined ? {} : { pattern: schema.pattern }),
    ...(schema.minLength === undefined ? {} : { minLength: schema.minLength }),
    ...(schema.maxLength === undefined ? {} : { maxLength: schema.maxLength }),
    ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
    ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
    ...(schema.minItems === undefined ? {} : { minItems: schema.minItems }),
    ...(schema.maxItems === undefined ? {} : { maxItems: schema.maxItems }),
    ...(schema.uniqueItems === undefined ? {} : { uniqueItems: schema.uniqueItems }),
    ...(schema.items === undefined ? {} : { items: toSwagger2Schema(schema.items) }),
    ...(schema.properties === undefined ? {} : { properties: mapValues(schema.properties, toSwagger2Schema) }),
    ...(schema.required === undefined ? {} : { required: schema.required }),
    ...(schema.additionalProperties === undefined
      ? {}
      : { additionalProperties: typeof schema.additionalProperties === 'boolean' ? schema.additionalProperties : toSwagger2Schema(schema.additionalProperties) }),
    ...(schema.allOf === undefined ? {} : { allOf: schema.allOf.map(toSwagger2Schema) }),
    ...(schema.readOnly === undefined ? {} : { readOnly: schema.readOnly }),
    ...(schema.examples?.[0] === undefined ? {} : { example: schema.examples[0] }),
    ...(nullable ? { 'x-nullable': true } : {}),
  };
}

/** The inline keywords of a non-body parameter; anything not primitive travels as a string. */
function simpleParameter(name: string, where: Swagger2SimpleParameter['in'], schema: JsonSchema, required: boolean, description: string | undefined): Swagger2SimpleParameter {
  const converted = toSwagger2Schema(schema);
  const file = where === 'formData' && schema.contentMediaType !== undefined;
  const primitive = converted.type !== undefined && converted.type !== 'object' && converted.$ref === undefined && converted.allOf === undefined;
  const text = description ?? converted.description;
  const { format, enum: values, pattern, minLength, maxLength, minimum, maximum, items, minItems, maxItems, uniqueItems } = converted;
  const constraints = { format, enum: values, pattern, minLength, maxLength, minimum, maximum, items, minItems, maxItems, uniqueItems };
  return {
    name,
    in: where,
    ...(required ? { required } : {}),
    ...(text === undefined ? {} : { description: text }),
    type: file ? 'file' : primitive ? converted.type : 'string',
    ...(primitive && !file ? (Object.fromEntries(Object.entries(constraints).filter(([, v]) => v !== undefined)) as Partial<Swagger2SimpleParameter>) : {}),
  };
}

function resolve(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const target = document.components.schemas[schema.$ref.replace(COMPONENT_PREFIX, '')];
  if (!target) throw new Error(`Unresolvable ${schema.$ref}`);
  return resolve(document, target);
}

/**
 * A request body as parameters. Swagger 2.0 has one body per operation: the first media type it
 * can express is kept (a form as `formData` parameters, anything else as the `body` parameter)
 * and the others are named in the description.
 */
function requestParameters(document: OpenApiDocument, body: RequestBody): { parameters: Swagger2Parameter[]; consumes: string[]; dropped: string[] } {
  const [first, ...rest] = Object.keys(body.content);
  const media = body.content[first!]!;
  const schema = media.schema ?? {};
  if (FORM_MEDIA_TYPES.includes(first!)) {
    const form = resolve(document, schema);
    const required = new Set(form.required ?? []);
    const parameters = Object.entries(form.properties ?? {}).map(([name, property]) => {
      const target = resolve(document, property);
      const nested = property.$ref !== undefined || target.type === 'object';
      const description = nested ? `${property.description ?? ''} JSON.`.trim() : property.description;
      return simpleParameter(name, 'formData', property, required.has(name), description);
    });
    return { parameters, consumes: [first!], dropped: rest };
  }
  const parameter: Swagger2BodyParameter = { name: 'body', in: 'body', required: body.required === true, schema: toSwagger2Schema(schema) };
  return { parameters: [parameter], consumes: [first!], dropped: rest };
}

/** Of a response's media types, the schema of the first JSON one (else a string), and every type for `produces`. */
function response(r: Response): { converted: Swagger2Response; mediaTypes: string[] } {
  const mediaTypes = Object.keys(r.content ?? {});
  const jsonType = mediaTypes.find((m) => /[/+]json$/.test(m));
  const schema = r.content === undefined ? undefined : jsonType !== undefined ? toSwagger2Schema(r.content[jsonType]!.schema ?? {}) : { type: 'string' as const };
  const headers = r.headers === undefined ? undefined : mapValues(r.headers, header);
  return {
    converted: { description: r.description, ...(schema === undefined ? {} : { schema }), ...(headers === undefined ? {} : { headers }) },
    mediaTypes,
  };
}

/** A header: its type and constraints inline; 2.0 cannot say it is always sent. */
function header(h: Header): Swagger2Header {
  const converted = toSwagger2Schema(h.schema);
  return {
    type: converted.type ?? 'string',
    ...(h.description === undefined ? {} : { description: h.description }),
    ...(converted.format === undefined ? {} : { format: converted.format }),
    ...(converted.enum === undefined ? {} : { enum: converted.enum }),
    ...(converted.pattern === undefined ? {} : { pattern: converted.pattern }),
    ...(converted.minimum === undefined ? {} : { minimum: converted.minimum }),
  };
}

/** 2.0 has no Bearer scheme and one flow per OAuth 2.0 scheme: `oauth2` becomes two alternatives. */
const OAUTH2_SCHEMES = ['oauth2AccessCode', 'oauth2Implicit'] as const;

/** Scopes are for OAuth 2.0 schemes only in 2.0: an API token's scope stays in the operation's description. */
function security(requirements: readonly SecurityRequirement[]): SecurityRequirement[] {
  return requirements.flatMap((requirement) => {
    const names = Object.keys(requirement);
    if (names.length === 0) return [{}];
    if (names.includes('oauth2')) return OAUTH2_SCHEMES.map((scheme) => ({ [scheme]: requirement['oauth2']! }));
    return [Object.fromEntries(names.map((name) => [name, []]))];
  });
}

function securityDefinitions(schemes: Readonly<Record<string, SecurityScheme>>): Record<string, Swagger2SecurityScheme> {
  const definitions: Record<string, Swagger2SecurityScheme> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.type === 'oauth2') {
      const { authorizationCode, implicit } = scheme.flows;
      definitions[OAUTH2_SCHEMES[0]] = { type: 'oauth2', flow: 'accessCode', authorizationUrl: authorizationCode.authorizationUrl, tokenUrl: authorizationCode.tokenUrl, scopes: authorizationCode.scopes, description: scheme.description };
      definitions[OAUTH2_SCHEMES[1]] = { type: 'oauth2', flow: 'implicit', authorizationUrl: implicit.authorizationUrl, scopes: implicit.scopes, description: scheme.description };
    } else if (scheme.scheme === 'basic') {
      definitions[name] = { type: 'basic', description: scheme.description };
    } else {
      definitions[name] = { type: 'apiKey', in: 'header', name: 'Authorization', description: `${scheme.description} Send \`Authorization: Bearer <token>\`.` };
    }
  }
  return definitions;
}

function operation(document: OpenApiDocument, op: Operation): Swagger2Operation {
  const parameters: Swagger2Parameter[] = (op.parameters ?? []).map((p: Parameter) => simpleParameter(p.name, p.in, p.schema, p.required === true, p.description));
  let consumes: string[] | undefined;
  let description = op.description;
  if (op.requestBody) {
    const body = requestParameters(document, op.requestBody);
    parameters.push(...body.parameters);
    consumes = body.consumes;
    if (body.dropped.length > 0) description = `${description ?? ''} Also takes ${body.dropped.join(', ')} (which Swagger 2.0 cannot describe beside ${body.consumes[0]}).`.trim();
  }
  const produces = new Set<string>();
  const responses: Record<string, Swagger2Response> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const { converted, mediaTypes } = response(r);
    responses[status] = converted;
    for (const m of mediaTypes) produces.add(m);
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(description === undefined ? {} : { description }),
    tags: op.tags,
    ...(consumes === undefined ? {} : { consumes }),
    ...(produces.size > 0 ? { produces: [...produces] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    security: security(op.security),
  };
}

/** The same description as Swagger 2.0: what the service's own import takes. */
export function toSwagger2(document: OpenApiDocument): Swagger2Document {
  const server = new URL(document.servers[0]!.url);
  const basePath = server.pathname.replace(/\/+$/, '') || '/';
  return {
    swagger: '2.0',
    info: { title: document.info.title, version: document.info.version, description: document.info.description, license: { name: document.info.license.name } },
    host: server.host,
    basePath,
    schemes: [server.protocol.replace(/:$/, '')],
    tags: document.tags,
    paths: mapValues(document.paths, (item) => mapValues(item as Readonly<Record<string, Operation>>, (op) => operation(document, op))),
    definitions: mapValues(document.components.schemas, toSwagger2Schema),
    securityDefinitions: securityDefinitions(document.components.securitySchemes),
  };
}
