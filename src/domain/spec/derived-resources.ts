import { References } from './json-pointer.js';
import { ofKind } from './reference-kinds.js';
import { isJsonObject, specFormatOf, type JsonObject, type JsonValue, type SpecFormat } from './spec-document.js';

/** The operation methods of a path item, in the order the derived list uses within a path; `trace` is OpenAPI 3 only. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

/** The methods a path item of this format has operations under. */
export function operationMethods(openApi3: boolean): readonly OperationMethod[] {
  return openApi3 ? OPERATION_METHODS : OPERATION_METHODS.filter((m) => m !== 'trace');
}

/** One per path and method. `path` is the key of `paths` (in Swagger 2.0, without `basePath`). */
export interface Endpoint {
  /** Upper case; null only when the path item is a `$ref` that could not be followed (see `unresolved`). */
  readonly method: string | null;
  readonly path: string;
  readonly operationId: string | null;
  readonly summary: string | null;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly unresolved: boolean;
}

/** One per entry of `definitions` (2.0) or `components.schemas` (3.x), with the schema as written (internal `$ref`s kept). */
export interface DomainModel {
  readonly name: string;
  readonly schema: JsonValue;
  readonly unresolved: boolean;
}

/** Swagger 2.0: one per scheme of the document; scheme and host are null when the document leaves them out. */
export interface Swagger2Environment {
  readonly scheme: string | null;
  readonly host: string | null;
  readonly basePath: string;
  /** `scheme://host/basePath`, when scheme and host are known. */
  readonly url: string | null;
}

/** OpenAPI 3: one per entry of the top-level `servers`, or `{ url: "/" }` when there is none. */
export interface OpenApi3Environment {
  /** As written, `{variable}` templates and all. */
  readonly url: string;
  readonly description: string | null;
  /** The server's variables as written (`default`, `enum`, `description`). */
  readonly variables: JsonObject;
}

export type Environment = Swagger2Environment | OpenApi3Environment;

export interface OAuthScope {
  readonly name: string;
  readonly description: string;
}

/** Swagger 2.0: one per entry of `securityDefinitions`. */
export interface Swagger2AuthAdapter {
  readonly name: string;
  readonly type: string;
  readonly description: string | null;
  /** oauth2 only: implicit, password, application or accessCode. */
  readonly flow: string | null;
  readonly authorizationUrl: string | null;
  readonly tokenUrl: string | null;
  readonly scopes: readonly OAuthScope[];
  /** apiKey only: where the key goes (header or query) and the parameter's name. */
  readonly in: string | null;
  readonly parameterName: string | null;
}

/** An OAuth 2.0 flow of an OpenAPI 3 security scheme. */
export interface OAuthFlow {
  readonly authorizationUrl: string | null;
  readonly tokenUrl: string | null;
  readonly refreshUrl: string | null;
  readonly scopes: readonly OAuthScope[];
}

/** OpenAPI 3: one per entry of `components.securitySchemes`, each with its own type's fields (null for the others'). */
export interface OpenApi3AuthAdapter {
  readonly name: string;
  /** apiKey, http, oauth2, openIdConnect or mutualTLS; `unknown` for a scheme that could not be read. */
  readonly type: string;
  readonly description: string | null;
  /** http: the HTTP authentication scheme (`basic`, `bearer`, ...) and the bearer token's format. */
  readonly scheme: string | null;
  readonly bearerFormat: string | null;
  /** apiKey: header, query or cookie, and the parameter's name. */
  readonly in: string | null;
  readonly paramName: string | null;
  /** oauth2: its flows by name (implicit, password, clientCredentials, authorizationCode). */
  readonly flows: { readonly [flow: string]: OAuthFlow } | null;
  readonly openIdConnectUrl: string | null;
  /** The scheme is an external `$ref`, or an internal one that leads nowhere, in a circle or to something that is not a security scheme. */
  readonly unresolved: boolean;
}

export type AuthAdapter = Swagger2AuthAdapter | OpenApi3AuthAdapter;

export interface DerivedResources {
  readonly endpoints: readonly Endpoint[];
  readonly models: readonly DomainModel[];
  readonly environments: readonly Environment[];
  readonly authAdapters: readonly AuthAdapter[];
}

export interface DerivedCounts {
  readonly endpoints: number;
  readonly models: number;
  readonly environments: number;
  readonly authAdapters: number;
}

export function countsOf(derived: DerivedResources): DerivedCounts {
  return {
    endpoints: derived.endpoints.length,
    models: derived.models.length,
    environments: derived.environments.length,
    authAdapters: derived.authAdapters.length,
  };
}

function text(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function objectOr(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

function scopesOf(value: JsonValue | undefined): OAuthScope[] {
  return Object.entries(objectOr(value)).map(([name, description]) => ({ name, description: text(description) ?? '' }));
}

function endpoints(document: JsonObject, refs: References, format: SpecFormat): Endpoint[] {
  const result: Endpoint[] = [];
  for (const [path, raw] of Object.entries(objectOr(document['paths']))) {
    if (path.startsWith('x-')) continue;
    const item = refs.follow(raw, '', ofKind('pathItem', format));
    if (!isJsonObject(item.value)) {
      result.push({ method: null, path, operationId: null, summary: null, tags: [], deprecated: false, unresolved: true });
      continue;
    }
    for (const method of operationMethods(format !== 'swagger-2.0')) {
      const operation = item.value[method];
      if (!isJsonObject(operation)) continue;
      const tags = Array.isArray(operation['tags']) ? operation['tags'].filter((t): t is string => typeof t === 'string') : [];
      result.push({
        method: method.toUpperCase(),
        path,
        operationId: text(operation['operationId']),
        summary: text(operation['summary']),
        tags,
        deprecated: operation['deprecated'] === true,
        unresolved: false,
      });
    }
  }
  return result;
}

function models(refs: References, format: SpecFormat, schemas: JsonValue | undefined): DomainModel[] {
  return Object.entries(objectOr(schemas)).map(([name, schema]) => ({ name, schema, unresolved: refs.follow(schema, '', ofKind('schema', format)).ref !== null }));
}

function swagger2Environments(document: JsonObject): Swagger2Environment[] {
  const host = text(document['host']);
  const basePath = text(document['basePath']) ?? '/';
  const schemes = Array.isArray(document['schemes']) ? document['schemes'].filter((s): s is string => typeof s === 'string') : [];
  const unique = schemes.length > 0 ? [...new Set(schemes)] : [null];
  return unique.map((scheme) => ({
    scheme,
    host,
    basePath,
    url: scheme !== null && host !== null ? `${scheme}://${host}${basePath === '/' ? '' : basePath}` : null,
  }));
}

function openApi3Environments(document: JsonObject): OpenApi3Environment[] {
  const servers = Array.isArray(document['servers']) ? document['servers'] : [];
  if (servers.length === 0) return [{ url: '/', description: null, variables: {} }];
  return servers.map((raw) => {
    const server = objectOr(raw);
    return { url: text(server['url']) ?? '/', description: text(server['description']), variables: objectOr(server['variables']) };
  });
}

function swagger2AuthAdapters(document: JsonObject): Swagger2AuthAdapter[] {
  return Object.entries(objectOr(document['securityDefinitions'])).map(([name, raw]) => {
    const scheme = objectOr(raw);
    return {
      name,
      type: text(scheme['type']) ?? 'unknown',
      description: text(scheme['description']),
      flow: text(scheme['flow']),
      authorizationUrl: text(scheme['authorizationUrl']),
      tokenUrl: text(scheme['tokenUrl']),
      scopes: scopesOf(scheme['scopes']),
      in: text(scheme['in']),
      parameterName: text(scheme['name']),
    };
  });
}

function openApi3AuthAdapters(document: JsonObject, refs: References, format: SpecFormat): OpenApi3AuthAdapter[] {
  const components = objectOr(document['components']);
  return Object.entries(objectOr(components['securitySchemes'])).map(([name, raw]) => {
    const followed = refs.follow(raw, '', ofKind('securityScheme', format));
    const scheme = objectOr(followed.value);
    const type = text(scheme['type']) ?? 'unknown';
    const flows = type === 'oauth2' ? objectOr(scheme['flows']) : undefined;
    return {
      name,
      type,
      description: text(scheme['description']),
      scheme: type === 'http' ? text(scheme['scheme']) : null,
      bearerFormat: type === 'http' ? text(scheme['bearerFormat']) : null,
      in: type === 'apiKey' ? text(scheme['in']) : null,
      paramName: type === 'apiKey' ? text(scheme['name']) : null,
      flows:
        flows === undefined
          ? null
          : Object.fromEntries(
              Object.entries(flows)
                .filter(([flow]) => !flow.startsWith('x-'))
                .map(([flow, value]) => {
                  const f = objectOr(value);
                  return [flow, { authorizationUrl: text(f['authorizationUrl']), tokenUrl: text(f['tokenUrl']), refreshUrl: text(f['refreshUrl']), scopes: scopesOf(f['scopes']) }];
                }),
            ),
      openIdConnectUrl: type === 'openIdConnect' ? text(scheme['openIdConnectUrl']) : null,
      unresolved: followed.ref !== null,
    };
  });
}

/**
 * The read-only resources a validated document yields, in document order. Internal `$ref`s are
 * followed (cycles are harmless: nothing is expanded); external ones are never read, and mark the
 * resource `unresolved` as does one that leads to a thing of another kind (a path item to a
 * schema, a security scheme to `#/info/title`: see reference-kinds).
 */
export function deriveResources(document: JsonObject): DerivedResources {
  const format = specFormatOf(document) ?? 'openapi-3.1';
  const refs = new References(document);
  if (format === 'swagger-2.0') {
    return {
      endpoints: endpoints(document, refs, format),
      models: models(refs, format, document['definitions']),
      environments: swagger2Environments(document),
      authAdapters: swagger2AuthAdapters(document),
    };
  }
  return {
    endpoints: endpoints(document, refs, format),
    models: models(refs, format, objectOr(document['components'])['schemas']),
    environments: openApi3Environments(document),
    authAdapters: openApi3AuthAdapters(document, refs, format),
  };
}

/** The authentication adapters alone (see deriveResources). */
export function authAdaptersOf(document: JsonObject): readonly AuthAdapter[] {
  const format = specFormatOf(document) ?? 'openapi-3.1';
  return format === 'swagger-2.0' ? swagger2AuthAdapters(document) : openApi3AuthAdapters(document, new References(document), format);
}
