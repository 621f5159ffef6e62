import { BREAKING_CHANGE_POLICIES } from '../../../domain/spec/changes/policy.js';
import { OWNER_ONLY_ACTIONS, OWNER_ONLY_FIELDS, SHARE_ROLES } from '../../../domain/share/share.aggregate.js';
import type { JsonSchema, SchemaType } from './openapi.types.js';

/**
 * How the JSON Schemas of the bodies the service reads and writes are written: the helpers, the
 * field schemas several features share, and the schemas every feature uses. Each feature's own
 * schemas are in `<feature>.schemas.ts`; `components.ts` gathers them as `components.schemas`.
 * Response records list every field they carry and require all of them (the service always sends
 * every field, `null` included); they do not forbid further fields, so adding one is not a
 * breaking change for clients (the test suite validates them closed). Request bodies are closed:
 * the service refuses fields it does not know.
 */

/** A reference to a component schema by name (checked when the description is built). */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export function str(extra: JsonSchema = {}): JsonSchema {
  return { type: 'string', ...extra };
}

export function int(extra: JsonSchema = {}): JsonSchema {
  return { type: 'integer', ...extra };
}

export function bool(description?: string): JsonSchema {
  return { type: 'boolean', ...(description === undefined ? {} : { description }) };
}

export function array(items: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { type: 'array', items, ...extra };
}

/** `null` allowed too: a type list for a plain schema, `oneOf` with `null` for a reference. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (schema.$ref !== undefined) return { oneOf: [schema, { type: 'null' }] };
  if (typeof schema.type !== 'string') throw new Error('nullable() takes a schema of one type');
  const type: SchemaType[] = [schema.type, 'null'];
  return { ...schema, type, ...(schema.enum ? { enum: [...schema.enum, null] } : {}) };
}

/** An object; `required` defaults to every property (what responses carry). */
export function object(properties: Readonly<Record<string, JsonSchema>>, required: readonly string[] = Object.keys(properties), extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...extra };
}

/** A request body: the service refuses any field it does not list. */
export function closed(properties: Readonly<Record<string, JsonSchema>>, required: readonly string[] = []): JsonSchema {
  return object(properties, required, { additionalProperties: false });
}

export function listOf(item: string, description: string): JsonSchema {
  return object(
    {
      items: array(ref(item)),
      nextCursor: nullable(str({ description: 'Pass as `cursor` for the next page; `null` on the last page.' })),
    },
    undefined,
    { description },
  );
}

export const uuid = (description: string): JsonSchema => str({ format: 'uuid', description });
export const timestamp = (description: string): JsonSchema => str({ format: 'date-time', description, examples: ['2026-11-22T03:01:52.915+00:00'] });
export const positiveId = (description: string): JsonSchema => int({ minimum: 1, description });

export const NICKNAME = { pattern: '^[a-z0-9_.-]{1,64}$', description: '1-64 of a-z, 0-9, "-", "_", "."; not only dots' };
export const API_TYPE = str({ enum: ['private', 'public'], description: 'Default `private`.' });
export const BREAKING_POLICY = str({ enum: [...BREAKING_CHANGE_POLICIES], description: 'What `PUT .../spec` does with breaking changes against the current spec: `allow` them (default), accept them only with a release of a new major version (`requireMajor`), or `refuse` them; `?allowBreaking=<reason>` overrides it.' });
export const REMOVAL_AFTER_SUNSET = bool(
  'Default `false`. When `true`, an operation removed after its sunset (deprecated, with an `x-sunset` day that has come: the change item carries `afterSunset: true`) passes `breakingChangePolicy` whatever it is; it is still reported as a breaking change, and any other breaking change still meets the policy.',
);
export const VERSION_LABEL = str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$', description: 'A release label: 1-64 of A-Z, a-z, 0-9, ".", "_", "+", "-", starting with a letter or digit.' });
export const BINARY = str({ contentMediaType: 'application/octet-stream' });




/** What every feature shares: the problem document, its field errors, the actor of a record. */
export const SHARED_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Problem: object(
    {
      type: str({ pattern: '^urn:specbase:problem:[a-z_]+$', description: '`urn:specbase:problem:<code>`' }),
      title: str({ description: 'The status phrase, e.g. `Not Found`.' }),
      status: int({ minimum: 400, maximum: 599 }),
      detail: str({ description: 'What went wrong, for people. Never an internal message.' }),
      code: str({ pattern: '^[a-z_]+$', description: 'Stable snake_case code: what programs branch on.' }),
      errors: array(ref('FieldError'), { minItems: 1, description: 'With `validation_failed`, `invalid_spec` and `weak_password`: one entry per broken rule.' }),
      line: nullable(int({ minimum: 1, description: 'With `unparseable_spec`: where the spec failed to parse (1-based).' })),
      column: nullable(int({ minimum: 1 })),
      counts: { ...ref('ChangeCounts'), description: 'With `breaking_change`: the counts of every change the spec makes.' },
      items: array(ref('Change'), { description: 'With `breaking_change`: the changes the spec makes, every level (`counts` tallies them).' }),
      truncated: { type: 'boolean', enum: [true], description: 'With `breaking_change`: present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`).' },
      plan: str({ enum: ['free', 'private'], description: "With `plan_limit`: the account's plan now." }),
      quota: str({
        enum: ['apis', 'webhooks', 'apiTokens', 'pagesPerApi', 'importBytes', 'privateApis'],
        description: 'With `plan_limit`: the limit reached. `privateApis`: the plan has no private APIs (`limit` 0).',
      }),
      limit: int({ minimum: 0, description: "With `plan_limit`: the plan's ceiling." }),
      current: int({ minimum: 0, description: 'With `plan_limit`: what the account has now (for `importBytes`, the size of the document sent).' }),
      role: str({ enum: [...SHARE_ROLES], description: "With `forbidden`: the caller's role on the API, through which share they reached it." }),
      field: str({ enum: [...OWNER_ONLY_FIELDS], description: 'With `forbidden`: a field of the request only the API owner’s account may change (the first, when there are several; `detail` names them all).' }),
      action: str({ enum: [...OWNER_ONLY_ACTIONS], description: 'With `forbidden`: the operation only the API owner’s account may make (as the operation ids name them).' }),
    },
    ['type', 'title', 'status', 'detail', 'code'],
    { description: 'An RFC 9457 problem document with the stable `code`.' },
  ),
  FieldError: object({ field: str({ description: 'The field, part, parameter or header as the client named it (a dotted path in a spec).' }), message: str() }),
  Actor: object({ id: positiveId('The user id.'), nickname: str() }),
};
