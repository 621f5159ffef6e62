import type { Header, JsonSchema, Response, Responses } from './openapi.types.js';
import { ref } from './schemas.js';

/** Every `code` a problem+json answer can carry, with its status: the error table of docs/http-api.md. */
export const PROBLEM_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_request: 400,
  invalid_multipart: 400,
  unparseable_spec: 400,
  invalid_token: 401,
  invalid_credentials: 401,
  insufficient_scope: 403,
  wrong_password: 403,
  email_not_verified: 403,
  forbidden: 403,
  plan_limit: 403,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_nickname: 409,
  duplicate_version: 409,
  invalid_transition: 409,
  no_spec: 409,
  webhook_inactive: 409,
  duplicate_slug: 409,
  duplicate_share: 409,
  email_already_verified: 409,
  duplicate_email: 409,
  breaking_change: 409,
  revision_conflict: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_spec: 422,
  weak_password: 422,
  unknown_user: 422,
  own_account: 422,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  database_unavailable: 503,
} as const satisfies Record<string, number>;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found (also any resource of an account the caller may not see)',
  405: 'Method not allowed on this path',
  409: 'Conflict with the current state',
  412: '`If-Match` names a revision that is not current',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Well-formed but refused',
  429: 'Rate limited',
  500: 'Unexpected error (logged; nothing internal is sent)',
  501: 'Method not known',
  503: 'The database does not answer: try again after `Retry-After` seconds (nothing was changed, or the change was not confirmed)',
};

/** Headers that come with a problem of this code. */
const PROBLEM_HEADERS: Partial<Record<ProblemCode, Readonly<Record<string, Header>>>> = {
  invalid_token: { 'WWW-Authenticate': { required: true, description: '`Bearer realm="specbase", error="invalid_token"`', schema: { type: 'string' } } },
  insufficient_scope: { 'WWW-Authenticate': { required: true, description: '`Bearer realm="specbase", error="insufficient_scope", scope="<needed>"`', schema: { type: 'string' } } },
  invalid_credentials: { 'WWW-Authenticate': { required: true, description: '`Basic realm="specbase", charset="UTF-8"`', schema: { type: 'string' } } },
  rate_limited: { 'Retry-After': { required: true, description: 'Seconds until the window ends.', schema: { type: 'integer', minimum: 1 } } },
};

/**
 * One response per status for `codes`: problem+json whose `code` is one of them. A header is
 * marked required only when every code of the status sends it.
 */
export function problemResponses(codes: Iterable<ProblemCode>): Responses {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) {
    const status = PROBLEM_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema: JsonSchema = {
      type: 'object',
      allOf: [ref('Problem'), { type: 'object', properties: { status: { const: status }, code: { enum: list } } }],
    };
    const headers: Record<string, Header> = {};
    for (const code of list) {
      for (const [name, header] of Object.entries(PROBLEM_HEADERS[code] ?? {})) {
        const everyCode = list.every((c) => PROBLEM_HEADERS[c]?.[name] !== undefined);
        headers[name] = everyCode ? header : { ...header, required: false };
      }
    }
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { [PROBLEM_MEDIA_TYPE]: { schema } },
    };
  }
  return responses;
}
