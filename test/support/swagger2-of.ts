/**
 * A small OpenAPI 3.0 document written as Swagger 2.0, for tests that want the same description in
 * both formats: servers, parameters (schemas flattened into the parameter), request bodies (a body
 * parameter under `consumes`, or `formData` parameters), responses (schema under `produces`,
 * headers), security schemes (apiKey, http basic, oauth2 with its first flow), models, `nullable`
 * as `x-nullable`, an array parameter's style as its `collectionFormat`. Throws `Unexpressible` for
 * what Swagger 2.0 cannot say (cookie parameters, oneOf/anyOf, type lists, http bearer, mutualTLS,
 * openIdConnect, object parameters, required or deprecated response headers, deprecated parameters,
 * label, matrix and deepObject styles, allowReserved, several flows), so a test can skip that form.
 */
type Json = Record<string, unknown>;

export class Unexpressible extends Error {}

const FLOW_NAMES: Record<string, string> = { implicit: 'implicit', password: 'password', clientCredentials: 'application', authorizationCode: 'accessCode' };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function refs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(refs) as T;
  if (typeof value !== 'object' || value === null) return value;
  const result: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) {
    if (key === '$ref' && typeof inner === 'string') result[key] = inner.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'nullable') result['x-nullable'] = inner;
    else if (key === 'oneOf' || key === 'anyOf') throw new Unexpressible(key);
    else if (key === 'type' && Array.isArray(inner)) throw new Unexpressible('a type list');
    else if (key === 'deprecated') continue;
    else result[key] = refs(inner);
  }
  return result as T;
}

/** A parameter's or header's schema, flattened into it (2.0 has no objects there). */
function flat(schema: Json | undefined): Json {
  if (schema === undefined) return { type: 'string' };
  if (schema['$ref'] !== undefined || schema['type'] === 'object' || schema['properties'] !== undefined) throw new Unexpressible('an object parameter');
  return refs(schema);
}

function parameter(p: Json): Json {
  if (p['in'] === 'cookie') throw new Unexpressible('a cookie parameter');
  if (p['deprecated'] === true) throw new Unexpressible('a deprecated parameter');
  if (p['allowReserved'] === true) throw new Unexpressible('allowReserved');
  const { schema, style, explode, ...rest } = p;
  delete rest['allowReserved'];
  const format = collectionFormat(String(p['in']), schema as Json | undefined, style, explode);
  return { ...rest, ...flat(schema as Json | undefined), ...(format === undefined ? {} : { collectionFormat: format }) };
}

/**
 * The `collectionFormat` that writes an array parameter as its 3.0 `style` and `explode` do (3.0's
 * default in a query, form exploded, is 2.0's `multi`, not its default `csv`); none for other
 * values, which any style of their place writes the same, except a path's label and matrix.
 */
function collectionFormat(place: string, schema: Json | undefined, style: unknown, explode: unknown): string | undefined {
  const written = typeof style === 'string' ? style : place === 'query' ? 'form' : 'simple';
  const exploded = typeof explode === 'boolean' ? explode : written === 'form';
  if (schema?.['type'] !== 'array') {
    if (written === 'label' || written === 'matrix') throw new Unexpressible(`the ${written} style`);
    return undefined;
  }
  if (written === 'simple' && place !== 'query') return 'csv';
  if (place !== 'query') throw new Unexpressible(`the ${written} style in a ${place} parameter`);
  if (exploded && ['form', 'spaceDelimited', 'pipeDelimited'].includes(written)) return 'multi';
  const format = { form: 'csv', spaceDelimited: 'ssv', pipeDelimited: 'pipes' }[written];
  if (format === undefined) throw new Unexpressible(`the ${written} style`);
  return format;
}

export function swagger2Of(document: Json): Json {
  if (typeof document['openapi'] !== 'string' || !String(document['openapi']).startsWith('3.0')) throw new Error('swagger2Of takes OpenAPI 3.0');
  const result: Json = { swagger: '2.0', info: document['info'] };
  const servers = (document['servers'] as Json[] | undefined) ?? [];
  if (servers.length > 0) {
    const urls = servers.map((s) => new URL(String(s['url'])));
    if (new Set(urls.map((u) => `${u.host}${u.pathname}`)).size > 1) throw new Unexpressible('servers on several hosts');
    result['host'] = urls[0]!.host;
    result['basePath'] = urls[0]!.pathname;
    result['schemes'] = [...new Set(urls.map((u) => u.protocol.replace(':', '')))];
  }
  if (document['security'] !== undefined) result['security'] = document['security'];
  const paths: Json = {};
  for (const [path, rawItem] of Object.entries((document['paths'] ?? {}) as Json)) {
    const item = rawItem as Json;
    const out: Json = {};
    if (item['parameters'] !== undefined) out['parameters'] = (item['parameters'] as Json[]).map(parameter);
    for (const method of Object.keys(item)) {
      if (method === 'trace') throw new Unexpressible('trace');
      if (!METHODS.includes(method)) continue;
      const op = item[method] as Json;
      const converted: Json = {};
      for (const [key, value] of Object.entries(op)) {
        if (key === 'parameters') converted['parameters'] = [...(value as Json[]).map(parameter), ...((converted['parameters'] as Json[] | undefined) ?? [])];
        else if (key === 'requestBody') {
          const body = value as Json;
          const content = Object.entries((body['content'] ?? {}) as Record<string, Json>);
          const form = content.filter(([type]) => type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded');
          converted['consumes'] = content.map(([type]) => type);
          if (form.length > 0) {
            if (form.length !== content.length) throw new Unexpressible('a form beside another media type');
            const schema = form[0]![1]['schema'] as Json;
            const required = (schema['required'] as string[] | undefined) ?? [];
            converted['parameters'] = [
              ...((converted['parameters'] as Json[] | undefined) ?? []),
              ...Object.entries((schema['properties'] ?? {}) as Record<string, Json>).map(([name, s]) => ({
                name,
                in: 'formData',
                ...(required.includes(name) ? { required: true } : {}),
                ...(s['format'] === 'binary' ? { type: 'file' } : flat(s)),
              })),
            ];
          } else {
            const schemas = new Set(content.map(([, media]) => JSON.stringify(media['schema'])));
            if (schemas.size > 1) throw new Unexpressible('several body schemas');
            converted['parameters'] = [
              ...((converted['parameters'] as Json[] | undefined) ?? []),
              { name: 'body', in: 'body', ...(body['required'] === true ? { required: true } : {}), schema: refs(content[0]?.[1]['schema'] ?? {}) },
            ];
          }
        } else if (key === 'responses') {
          const responses: Json = {};
          const produces = new Set<string>();
          for (const [status, raw] of Object.entries(value as Record<string, Json>)) {
            const response: Json = { description: raw['description'] };
            const content = Object.entries((raw['content'] ?? {}) as Record<string, Json>);
            if (new Set(content.map(([, media]) => JSON.stringify(media['schema']))).size > 1) throw new Unexpressible('several response schemas');
            for (const [type] of content) produces.add(type);
            if (content.length > 0) response['schema'] = refs(content[0]![1]['schema']);
            if (raw['headers'] !== undefined) {
              response['headers'] = Object.fromEntries(
                Object.entries(raw['headers'] as Record<string, Json>).map(([name, header]) => {
                  if (header['required'] === true || header['deprecated'] === true) throw new Unexpressible('a required response header');
                  return [name, flat(header['schema'] as Json | undefined)];
                }),
              );
            }
            responses[status] = response;
          }
          converted['responses'] = responses;
          // Swagger 2.0 names one list of media types for every response of an operation.
          if (produces.size > 0) converted['produces'] = [...produces];
        } else if (key === 'callbacks' || key === 'servers') {
          throw new Unexpressible(key);
        } else converted[key] = value;
      }
      out[method] = converted;
    }
    paths[path] = out;
  }
  result['paths'] = paths;
  const components = (document['components'] ?? {}) as Json;
  if (components['schemas'] !== undefined) result['definitions'] = refs(components['schemas']);
  if (components['securitySchemes'] !== undefined) {
    result['securityDefinitions'] = Object.fromEntries(
      Object.entries(components['securitySchemes'] as Record<string, Json>).map(([name, scheme]) => {
        if (scheme['type'] === 'apiKey') return [name, scheme];
        if (scheme['type'] === 'http' && scheme['scheme'] === 'basic') return [name, { type: 'basic' }];
        if (scheme['type'] === 'oauth2') {
          const flows = Object.entries(scheme['flows'] as Record<string, Json>);
          if (flows.length !== 1) throw new Unexpressible('several flows');
          const [flow, f] = flows[0]!;
          return [name, { type: 'oauth2', flow: FLOW_NAMES[flow], ...(f['authorizationUrl'] ? { authorizationUrl: f['authorizationUrl'] } : {}), ...(f['tokenUrl'] ? { tokenUrl: f['tokenUrl'] } : {}), scopes: f['scopes'] }];
        }
        throw new Unexpressible(`a ${String(scheme['type'])} scheme`);
      }),
    );
  }
  return result;
}
