import type { Context } from 'koa';
import { validateSync, type ValidationError } from 'class-validator';
import type { FieldError } from '../../domain/shared/field-error.js';
import { throwProblem } from './middleware.js';
import { validationProblem } from './problem.js';

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
    throwProblem({
      status: 415,
      code: 'unsupported_media_type',
      title: 'Unsupported Media Type',
      detail: 'Send the request body as application/json.',
    });
  }
  // The parser reads every body as UTF-8 whatever the charset says: refuse one that says otherwise.
  const charset = ctx.request.charset;
  if (charset !== '' && !/^utf-?8$/i.test(charset)) {
    throwProblem({
      status: 415,
      code: 'unsupported_media_type',
      title: 'Unsupported Media Type',
      detail: 'Send the JSON body in UTF-8: charset=utf-8, or no charset.',
    });
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

function fieldErrors(errors: readonly ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix + e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message: message.replace(`${e.property} `, '') }));
    return [...own, ...fieldErrors(e.children ?? [], `${field}.`)];
  });
}

/**
 * Checks the shape of a JSON object against a class-validator DTO: required fields, types, and no
 * field the DTO does not declare. Business rules stay in the domain. Throws a 400 naming each field.
 */
export function validated<T extends object>(Dto: new () => T, body: Record<string, unknown>): T {
  // class-validator looks fields up in a plain object, so one named like a member of
  // Object.prototype (hasOwnProperty, isPrototypeOf, constructor...) would pass its whitelist.
  const inherited = Object.keys(body).filter((key) => key in Object.prototype);
  if (inherited.length > 0) throwProblem(validationProblem(inherited.map((field) => ({ field, message: 'property should not exist' }))));
  const instance = new Dto();
  // defineProperty, not assignment: a JSON key "__proto__" must stay a plain field.
  for (const [key, value] of Object.entries(body)) {
    Object.defineProperty(instance, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throwProblem(validationProblem(fieldErrors(errors)));
  return instance;
}
