import type { Context } from 'koa';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldError } from '../../domain/shared/field-error.js';
import { throwProblem } from './middleware.js';
import { problemOf, validationProblem } from './problem.js';
import type { JsonSchema } from './openapi/openapi.types.js';
import { COMPONENT_SCHEMAS } from './openapi/components.js';

/** The media types parsed as JSON: koa-body is configured with the same list. */
export const JSON_MEDIA_TYPES = ['application/json', '+json'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The request's JSON body. 415 when a body comes with another media type or a charset other than
 * UTF-8; 400 when there is none or it is not a JSON object. koa-body has parsed JSON bodies by the
 * time this runs.
 */
export function jsonObjectBody(ctx: Context): Record<string, unknown> {
  const empty = ctx.request.length === 0 || (ctx.request.length === undefined && ctx.get('Transfer-Encoding') === '');
  if (empty) throwProblem(validationProblem([{ field: 'body', message: 'is required: a JSON object' }]));
  if (ctx.request.is(JSON_MEDIA_TYPES) === false) {
    throwProblem(problemOf('unsupported_media_type', 'Send the request body as application/json.'));
  }
  // The parser reads every body as UTF-8 whatever the charset says: refuse one that says otherwise.
  const charset = ctx.request.charset;
  if (charset !== '' && !/^utf-?8$/i.test(charset)) {
    throwProblem(problemOf('unsupported_media_type', 'Send the JSON body in UTF-8: charset=utf-8, or no charset.'));
  }
  const body: unknown = ctx.request.body;
  if (!isPlainObject(body)) throwProblem(validationProblem([{ field: 'body', message: 'must be a JSON object' }]));
  const nul = fieldWithNul(body);
  if (nul !== undefined) throwProblem(validationProblem([{ field: nul, message: 'must not contain the character U+0000' }]));
  return body;
}

/**
 * The first field (a dotted path) whose name or text holds U+0000, which PostgreSQL cannot store in
 * text: refused for every JSON body, on SQLite too, so both databases take the same input. Walked
 * without recursion: a body may nest as deep as its size allows.
 */
function fieldWithNul(body: Record<string, unknown>): string | undefined {
  const pending: [string, unknown][] = Object.entries(body);
  while (pending.length > 0) {
    const [path, value] = pending.pop()!;
    if (path.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) return path.split('\u0000').join('\\u0000');
    if (typeof value === 'object' && value !== null) for (const [key, child] of Object.entries(value)) pending.push([`${path}.${key}`, child]);
  }
  return undefined;
}

const COMPONENTS_ID = 'specbase:components';

/**
 * Keywords that state a rule of the domain (lengths, patterns, enums, bounds, formats): the
 * documents show them, the domain enforces them with the codes and wording the contract gives
 * (`weak_password` is 422, an unknown event names `events`). Validation at the edge keeps the
 * rest: types, required fields, and no field the schema does not list.
 */
const DOMAIN_RULE_KEYWORDS = new Set([
  'minLength', 'maxLength', 'pattern', 'format', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
]);

/** Annotations ajv's strict mode would otherwise have to be told about. */
const ANNOTATIONS = new Set(['description', 'examples', 'contentMediaType', 'title', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * The shape of a schema: its domain rules and annotations dropped, and `$ref`s into
 * `#/components/schemas/` pointing at the component schemas kept under `$defs` of one schema of
 * their own, so any route's schema can refer to them.
 */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value !== 'object' || value === null) return value;
  const shape: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (DOMAIN_RULE_KEYWORDS.has(key) || ANNOTATIONS.has(key)) continue;
    if (key === '$ref' && typeof child === 'string') shape[key] = child.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`);
    else if (key === 'properties' || key === '$defs') shape[key] = Object.fromEntries(Object.entries(child as object).map(([name, s]) => [name, shapeOf(s)]));
    else shape[key] = shapeOf(child);
  }
  return shape;
}

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();
const compiledByText = new Map<string, ValidateFunction>();

/** The validator of a request schema's shape, compiled the first time a request needs it (start-up compiles nothing). */
function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    // Apps built again (tests build hundreds) reuse what an equal schema compiled to.
    const text = JSON.stringify(schema);
    validate = compiledByText.get(text);
    if (validate === undefined) {
      ajv ??= new Ajv2020({ strict: true, allErrors: true }).addSchema({ $id: COMPONENTS_ID, $defs: shapeOf(COMPONENT_SCHEMAS) });
      validate = ajv.compile(shapeOf(schema) as object);
      compiledByText.set(text, validate);
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** `/a/0/b` as `a.0.b`; the body itself is `body`. */
function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  if (child !== undefined) path.push(child);
  return path.length === 0 ? 'body' : path.join('.');
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'property should not exist';
  return error.message ?? 'is not valid';
}

/**
 * Checks a JSON object against the shape of the route's request schema (the one its OpenAPI
 * description shows): required fields, types, and no field the schema does not list. The rules
 * the schema also documents are the domain's to enforce. Throws a 400 naming each field.
 */
export function validated<T>(schema: JsonSchema, body: Record<string, unknown>): T {
  const validate = validatorOf(schema);
  if (!validate(body)) {
    const seen = new Set<string>();
    const errors: FieldError[] = [];
    for (const error of validate.errors ?? []) {
      const fieldError = { field: fieldOf(error), message: messageOf(error) };
      const key = `${fieldError.field}\u0000${fieldError.message}`;
      if (!seen.has(key)) errors.push(fieldError);
      seen.add(key);
    }
    throwProblem(validationProblem(errors));
  }
  return body as T;
}
