import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createHash } from 'node:crypto';
import type { JsonSchema, OpenApiDocument, Operation, Response as DescribedResponse } from '../../src/adapters/http/openapi/openapi.types.js';

/**
 * Checks answers of the real server against the description it serves at `/openapi.json`:
 * the status must be described for the operation, the media type must be one the response lists,
 * a JSON body must match its schema (objects validated closed: a field the description does not
 * list fails), and headers the description marks required must be there. Answers to paths or
 * methods the description does not have must be the router's own 404, 405 or 501 problems.
 */
export class OpenApiResponseValidator {
  private readonly matchers: { readonly template: string; readonly pattern: RegExp; readonly literals: number }[];

  private constructor(
    private readonly document: OpenApiDocument,
    private readonly schemas: CompiledSchemas,
  ) {
    this.matchers = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}/?$`),
      literals: template.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length,
    }));
  }

  static async load(baseUrl: string): Promise<OpenApiResponseValidator> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
    const document = (await response.json()) as OpenApiDocument;
    return new OpenApiResponseValidator(document, compiledSchemasFor(document));
  }

  /** Throws, naming every mismatch, when `response` is not what the description says `method url` answers. */
  async check(method: string, url: string, response: Response): Promise<void> {
    const body = method.toUpperCase() === 'HEAD' ? '' : await response.clone().text();
    // The URL fetch asked for, dot segments resolved as the server saw them.
    this.checkAnswer(method, response.url === '' ? url : response.url, { status: response.status, headers: response.headers, body });
  }

  /**
   * The same for an answer read some other way (node:http, a raw socket). `url` as sent: its path
   * is taken as it is (`/api/1/.` stays so), as the router matches it.
   */
  checkAnswer(method: string, url: string, response: Answer): void {
    const upper = method.toUpperCase();
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0]!;
    const asked = `${upper} ${path} answered ${response.status}`;
    const body = response.body;
    const found = this.operationOf(upper === 'HEAD' ? 'GET' : upper, path);
    if (found.kind !== 'described') return this.checkRouting(asked, found.kind, upper, response, body);
    const { template, operation } = found;
    const where = `${upper === 'HEAD' ? 'GET' : upper} ${template} (${operation.operationId})`;
    const described = operation.responses[String(response.status)];
    if (!described) {
      fail(`${asked}, a status /openapi.json does not describe for ${where}; it describes ${Object.keys(operation.responses).join(', ')}. Body: ${excerpt(body)}`);
    }
    const problems = [...this.headerProblems(described, response), ...this.bodyProblems(described, operation, response, body, upper === 'HEAD')];
    if (problems.length > 0) fail(`${asked}, which does not match /openapi.json for ${where}:\n  - ${problems.join('\n  - ')}\n  Body: ${excerpt(body)}`);
  }

  private operationOf(method: string, path: string): { kind: 'described'; template: string; operation: Operation } | { kind: 'unknown path' | 'unknown method' } {
    const matching = this.matchers.filter((m) => m.pattern.test(path)).sort((a, b) => b.literals - a.literals);
    if (matching.length === 0) return { kind: 'unknown path' };
    const lower = method.toLowerCase() as keyof OpenApiDocument['paths'][string];
    for (const { template } of matching) {
      const operation = this.document.paths[template]?.[lower];
      if (operation) return { kind: 'described', template, operation };
    }
    return { kind: 'unknown method' };
  }

  /** What the router answers where the description has no operation. */
  private checkRouting(asked: string, kind: 'unknown path' | 'unknown method', method: string, response: Answer, body: string): void {
    if (method === 'OPTIONS' && kind === 'unknown method' && response.status === 200 && response.headers.has('allow')) return;
    const allowed = kind === 'unknown path' ? { 404: 'not_found' } : { 405: 'method_not_allowed', 501: 'not_implemented' };
    const code = (allowed as Record<number, string>)[response.status];
    const problem = parseJson(body) as { code?: unknown } | undefined;
    const mediaType = essence(response.headers.get('content-type'));
    if (code === undefined || (method !== 'HEAD' && (mediaType !== 'application/problem+json' || problem?.code !== code))) {
      fail(`${asked}, but /openapi.json has no operation for it (${kind}): only the router's ${Object.entries(allowed).map(([s, c]) => `${s} ${c}`).join(' or ')} problem may answer. Body: ${excerpt(body)}`);
    }
    if (response.status === 405 && !response.headers.has('allow')) fail(`${asked} without an Allow header`);
  }

  private headerProblems(described: DescribedResponse, response: Answer): string[] {
    return Object.entries(described.headers ?? {})
      .filter(([name, header]) => header.required === true && !response.headers.has(name))
      .map(([name]) => `the header ${name} is missing, which the description says is always sent`);
  }

  private bodyProblems(described: DescribedResponse, operation: Operation, response: Answer, body: string, head: boolean): string[] {
    const content = described.content;
    const mediaType = essence(response.headers.get('content-type'));
    if (content === undefined) {
      return body === '' ? [] : [`a body (${mediaType ?? 'no Content-Type'}) where the description has none`];
    }
    const listed = Object.keys(content);
    if (mediaType === undefined || !listed.includes(mediaType)) return [`Content-Type ${response.headers.get('content-type') ?? '(none)'}, not one of ${listed.join(', ')}`];
    if (head || !/[/+]json$/.test(mediaType)) return [];
    const value = parseJson(body);
    if (value === undefined) return [`the body is not JSON although the Content-Type is ${mediaType}`];
    const validate = this.schemas.compile(`${operation.operationId} ${response.status} ${mediaType}`, content[mediaType]!.schema ?? {});
    return validate(value) ? [] : (validate.errors ?? []).map(describeError);
  }
}

/** An HTTP answer as the check needs it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text; empty for none. */
  readonly body: string;
}

/** The component schemas as one ajv schema; each response schema is compiled once, closed, against it. */
export interface CompiledSchemas {
  compile(key: string, schema: JsonSchema): ValidateFunction;
}

const COMPONENTS_ID = 'specbase:components';
const compiledByComponents = new Map<string, CompiledSchemas>();

/** Every test server serves the same schemas: compiled once per process. */
export function compiledSchemasFor(document: OpenApiDocument): CompiledSchemas {
  const key = createHash('sha256').update(JSON.stringify(document.components.schemas)).digest('hex');
  const cached = compiledByComponents.get(key);
  if (cached) return cached;
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const definitions = Object.fromEntries(Object.entries(document.components.schemas).map(([name, schema]) => [name, closedSchema(schema)]));
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: definitions });
  const compiled = new Map<string, ValidateFunction>();
  const schemas: CompiledSchemas = {
    compile(name, schema) {
      let validate = compiled.get(name);
      if (!validate) {
        validate = ajv.compile(closedSchema(schema) as object);
        compiled.set(name, validate);
      }
      return validate;
    },
  };
  compiledByComponents.set(key, schemas);
  return schemas;
}

/**
 * The schema with references into the components and every object closed: a property the
 * description does not list is an error (`unevaluatedProperties`, so `allOf` still composes;
 * members of an `allOf` are left open for their parent to close).
 */
function closedSchema(schema: JsonSchema, inAllOf = false): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...schema };
  if (schema.$ref !== undefined) copy['$ref'] = schema.$ref.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`);
  if (schema.properties) copy['properties'] = Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, closedSchema(s)]));
  if (schema.items) copy['items'] = closedSchema(schema.items);
  if (schema.oneOf) copy['oneOf'] = schema.oneOf.map((s) => closedSchema(s));
  if (schema.allOf) copy['allOf'] = schema.allOf.map((s) => closedSchema(s, true));
  if (typeof schema.additionalProperties === 'object') copy['additionalProperties'] = closedSchema(schema.additionalProperties);
  const describesObject = schema.properties !== undefined || schema.allOf !== undefined;
  if (describesObject && !inAllOf && schema.additionalProperties === undefined) copy['unevaluatedProperties'] = false;
  return copy;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath === '' ? 'the body' : error.instancePath;
  const extra = (error.params as { unevaluatedProperty?: string; additionalProperty?: string; allowedValues?: unknown }) ?? {};
  const detail = extra.unevaluatedProperty ?? extra.additionalProperty ?? (extra.allowedValues === undefined ? undefined : JSON.stringify(extra.allowedValues));
  return `${at} ${error.message ?? 'is invalid'}${detail === undefined ? '' : `: ${detail}`}`;
}

function essence(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function excerpt(body: string): string {
  return body === '' ? '(empty)' : body.length > 600 ? `${body.slice(0, 600)}...` : body;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fail(message: string): never {
  throw new Error(`OpenAPI: ${message}`);
}
