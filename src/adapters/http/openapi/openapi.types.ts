/**
 * The part of OpenAPI 3.1 (and of its JSON Schema 2020-12 dialect) this service's description
 * uses. Narrower than the specification on purpose: a keyword that is not here cannot slip into the
 * description without the Swagger 2.0 conversion being taught about it first.
 */

export type SchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';
export type JsonPrimitive = string | number | boolean | null;

/** The validation keywords OpenAPI 3.1 and Swagger 2.0 share, written the same in both. */
export interface SchemaConstraints {
  readonly description?: string;
  readonly format?: string;
  readonly enum?: readonly JsonPrimitive[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

export interface JsonSchema extends SchemaConstraints {
  readonly $ref?: string;
  readonly type?: SchemaType | readonly SchemaType[];
  readonly const?: JsonPrimitive;
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly allOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly examples?: readonly unknown[];
  /** A binary part of a multipart body (OpenAPI 3.1's replacement for `format: binary`). */
  readonly contentMediaType?: string;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface Header {
  readonly description?: string;
  /** Always sent with this response (the test suite checks it). */
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface MediaType {
  readonly schema?: JsonSchema;
}

export interface RequestBody {
  readonly description?: string;
  readonly required?: boolean;
  /** Media types in order of preference: the Swagger 2.0 conversion keeps the first it can express. */
  readonly content: Readonly<Record<string, MediaType>>;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header>>;
  /** Absent: the response has no body. */
  readonly content?: Readonly<Record<string, MediaType>>;
}

/** Keyed by status code (`"200"`, `"404"`). */
export type Responses = Readonly<Record<string, Response>>;

/** Scheme name to scopes (OAuth 2.0) or roles (3.1 allows them for other schemes: the API token's scope). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: Responses;
  /** `[]`: no credentials. `[{}]` among others: credentials optional. */
  readonly security: readonly SecurityRequirement[];
}

export type PathItem = Partial<Record<HttpMethod, Operation>>;

export type SecurityScheme =
  | { readonly type: 'http'; readonly scheme: 'bearer' | 'basic'; readonly bearerFormat?: string; readonly description: string }
  | {
      readonly type: 'oauth2';
      readonly description: string;
      readonly flows: {
        readonly authorizationCode: { readonly authorizationUrl: string; readonly tokenUrl: string; readonly refreshUrl: string; readonly scopes: Readonly<Record<string, string>> };
        readonly implicit: { readonly authorizationUrl: string; readonly scopes: Readonly<Record<string, string>> };
      };
    };

export interface Tag {
  readonly name: string;
  readonly description: string;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
    readonly license: { readonly name: string; readonly identifier: string };
  };
  readonly servers: readonly { readonly url: string }[];
  readonly tags: readonly Tag[];
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  };
}
