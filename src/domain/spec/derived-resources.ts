import { isJsonObject, type JsonObject, type JsonValue } from './spec-document.js';

/** The operation methods of Swagger 2.0, in the order the derived list uses within a path. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/** One per path and method. `path` is the key of `paths`, without `basePath`. */
export interface Endpoint {
  /** Upper case; null only when the path item is an external `$ref` that was not read. */
  readonly method: string | null;
  readonly path: string;
  readonly operationId: string | null;
  readonly summary: string | null;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly unresolved: boolean;
}

/** One per entry of `definitions`, with the schema as written (internal `$ref`s kept). */
export interface DomainModel {
  readonly name: string;
  readonly schema: JsonValue;
  readonly unresolved: boolean;
}

/** One per scheme of the document; scheme and host are null when the document leaves them out. */
export interface Environment {
  readonly scheme: string | null;
  readonly host: string | null;
  readonly basePath: string;
  /** `scheme://host/basePath`, when scheme and host are known. */
  readonly url: string | null;
}

/** One per entry of `securityDefinitions`. */
export interface AuthAdapter {
  readonly name: string;
  readonly type: string;
  readonly description: string | null;
  /** oauth2 only: implicit, password, application or accessCode. */
  readonly flow: string | null;
  readonly authorizationUrl: string | null;
  readonly tokenUrl: string | null;
  readonly scopes: readonly { readonly name: string; readonly description: string }[];
  /** apiKey only: where the key goes (header or query) and the parameter's name. */
  readonly in: string | null;
  readonly parameterName: string | null;
}

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

function isRef(value: JsonValue | undefined): value is { $ref: string } {
  return isJsonObject(value) && typeof value['$ref'] === 'string';
}

/** Resolves `#/...` JSON pointers within the document; external references are not followed. */
function resolveInternal(document: JsonObject, value: JsonValue | undefined): { value: JsonValue | undefined; unresolved: boolean } {
  const seen = new Set<string>();
  let current = value;
  while (isRef(current)) {
    const ref = current.$ref;
    if (!ref.startsWith('#') || seen.has(ref)) return { value: current, unresolved: true };
    seen.add(ref);
    current = pointer(document, ref.slice(1));
    if (current === undefined) return { value: undefined, unresolved: true };
  }
  return { value: current, unresolved: false };
}

function pointer(document: JsonObject, path: string): JsonValue | undefined {
  if (path === '') return document;
  let node: JsonValue | undefined = document;
  for (const raw of path.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}

function endpoints(document: JsonObject): Endpoint[] {
  const paths = isJsonObject(document['paths']) ? document['paths'] : {};
  const result: Endpoint[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    if (path.startsWith('x-')) continue;
    const item = resolveInternal(document, raw);
    if (item.unresolved || !isJsonObject(item.value)) {
      result.push({ method: null, path, operationId: null, summary: null, tags: [], deprecated: false, unresolved: true });
      continue;
    }
    for (const method of OPERATION_METHODS) {
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

function models(document: JsonObject): DomainModel[] {
  const definitions = isJsonObject(document['definitions']) ? document['definitions'] : {};
  return Object.entries(definitions).map(([name, schema]) => ({ name, schema, unresolved: resolveInternal(document, schema).unresolved }));
}

function environments(document: JsonObject): Environment[] {
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

function authAdapters(document: JsonObject): AuthAdapter[] {
  const definitions = isJsonObject(document['securityDefinitions']) ? document['securityDefinitions'] : {};
  return Object.entries(definitions).map(([name, raw]) => {
    const scheme = isJsonObject(raw) ? raw : {};
    const scopes = isJsonObject(scheme['scopes']) ? scheme['scopes'] : {};
    return {
      name,
      type: text(scheme['type']) ?? 'unknown',
      description: text(scheme['description']),
      flow: text(scheme['flow']),
      authorizationUrl: text(scheme['authorizationUrl']),
      tokenUrl: text(scheme['tokenUrl']),
      scopes: Object.entries(scopes).map(([scope, description]) => ({ name: scope, description: text(description) ?? '' })),
      in: text(scheme['in']),
      parameterName: text(scheme['name']),
    };
  });
}

/**
 * The read-only resources a document yields, in document order. Internal `$ref`s are followed
 * (cycles are harmless: nothing is expanded); external ones are never read and mark the resource
 * `unresolved`.
 */
export function deriveResources(document: JsonObject): DerivedResources {
  return {
    endpoints: endpoints(document),
    models: models(document),
    environments: environments(document),
    authAdapters: authAdapters(document),
  };
}
