import type { Method } from '../routes.js';
import type { Header, JsonSchema, Parameter, RequestBody, Response, SecurityRequirement } from './openapi.types.js';
import type { ProblemCode } from './problems.js';
import { int, str } from './schemas.js';

export type TagName = 'APIs' | 'Specs' | 'Changes' | 'Releases' | 'Pages' | 'Shares' | 'Webhooks' | 'User' | 'API tokens' | 'E-mail verification' | 'Identity' | 'Service';

/**
 * What the route table does not say about a route: its body, parameters and answers. Path
 * parameters come from the path; method, path, scope and summary from the route table.
 */
export interface RouteDescription {
  readonly operationId: string;
  readonly tag: TagName;
  readonly description?: string;
  /** Query and header parameters. */
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: RequestBody;
  /** The answers that are not problem+json (success, HTML pages, OAuth's error shape...). */
  readonly responses: Readonly<Record<string, Response>>;
  /** The problem+json codes of this route beyond those every route of its kind has. */
  readonly problems?: readonly ProblemCode[];
}

/**
 * A route outside the Bearer route table (HTTP Basic, the identity service, the service's own
 * endpoints): method, path, summary and credentials are written here, and the completeness test
 * holds them to what the router serves.
 */
export interface StandaloneRoute extends RouteDescription {
  readonly method: Method;
  /** @koa/router syntax, as the router registers it. */
  readonly path: string;
  readonly summary: string;
  /** `[]`: no credentials. */
  readonly security: readonly SecurityRequirement[];
}

export const JSON_MEDIA_TYPE = 'application/json';

/** A body read by the shared JSON parser and checked against its schema can answer these. */
export const JSON_BODY_PROBLEMS = ['validation_failed', 'invalid_json', 'invalid_request', 'payload_too_large', 'unsupported_media_type'] as const;

/** HTTP Basic with the account's e-mail and password: how API tokens and e-mail verification are reached. */
export const PASSWORD: readonly SecurityRequirement[] = [{ password: [] }];
export const PASSWORD_PROBLEMS = ['invalid_credentials', 'rate_limited'] as const;

/** The schema of a body that is JSON and nothing else, which the shared parser reads and validation checks; undefined for any other body. */
export function jsonOnlySchema(body: RequestBody | undefined): JsonSchema | undefined {
  const content = body?.content ?? {};
  return Object.keys(content).length === 1 ? content[JSON_MEDIA_TYPE]?.schema : undefined;
}

export function json(description: string, schema: JsonSchema, headers?: Readonly<Record<string, Header>>): Response {
  return { description, ...(headers ? { headers } : {}), content: { [JSON_MEDIA_TYPE]: { schema } } };
}

export function noBody(description: string, headers?: Readonly<Record<string, Header>>): Response {
  return { description, ...(headers ? { headers } : {}) };
}

export function htmlPage(description: string, headers?: Readonly<Record<string, Header>>): Response {
  return { description, ...(headers ? { headers } : {}), content: { 'text/html': { schema: str() } } };
}

export function jsonBody(schema: JsonSchema, description?: string): RequestBody {
  return { required: true, ...(description ? { description } : {}), content: { [JSON_MEDIA_TYPE]: { schema } } };
}

export const HEADERS = {
  etag: { ETag: { required: true, description: 'The revision, `"<revision>"`: send it back as `If-Match`.', schema: str({ pattern: '^"[1-9][0-9]*"$' }) } },
  location: { Location: { required: true, description: 'The path of the new resource.', schema: str() } },
  noStore: { 'Cache-Control': { required: true, description: '`no-store`', schema: str({ const: 'no-store' }) } },
  retryAfter: { 'Retry-After': { required: true, description: 'Seconds.', schema: int({ minimum: 1 }) } },
  rateLimit: {
    'RateLimit-Limit': { description: "Requests per window of the token's rate limit.", schema: int({ minimum: 1 }) },
    'RateLimit-Remaining': { description: 'Requests left in this window.', schema: int({ minimum: 0 }) },
    'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: int({ minimum: 0 }) },
  },
} as const satisfies Record<string, Readonly<Record<string, Header>>>;

export const LIST_PARAMETERS: readonly Parameter[] = [
  { name: 'limit', in: 'query', description: 'Items per page, 1-200 (default 50).', schema: int({ minimum: 1, maximum: 200 }) },
  { name: 'cursor', in: 'query', description: 'A `nextCursor` of the same list, unchanged; empty: the first page.', schema: str() },
];

/** What a list route answers besides the list: a malformed `limit` or `cursor`. */
export const LIST_PROBLEMS = ['validation_failed'] as const;

export const IF_MATCH: Parameter = {
  name: 'If-Match',
  in: 'header',
  description: '`*` or one strong tag `"<revision>"`: update only that revision (412 otherwise). Absent: whatever is current.',
  schema: str({ pattern: '^(\\*|"[1-9][0-9]*")$' }),
};

/** The schema of each path parameter, by the name routes give it. */
export const PATH_PARAMETERS: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>> = {
  accountId: { description: "The account's integer id (anything else: 404).", schema: int({ minimum: 1, maximum: 2_147_483_647 }) },
  apiId: { description: "The API's UUID.", schema: str({ format: 'uuid' }) },
  version: { description: 'A release label.', schema: str({ pattern: '^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$' }) },
  revision: { description: 'An API revision at which a spec was stored (anything else: 404).', schema: int({ minimum: 1 }) },
  pageId: { description: "The page's UUID.", schema: str({ format: 'uuid' }) },
  shareId: { description: "The share's UUID.", schema: str({ format: 'uuid' }) },
  webhookId: { description: "The webhook's UUID.", schema: str({ format: 'uuid' }) },
  deliveryId: { description: "The delivery's UUID.", schema: str({ format: 'uuid' }) },
  tokenId: { description: "The API token's UUID.", schema: str({ format: 'uuid' }) },
  clientId: { description: 'An OAuth client id (`...apps.specbase`).', schema: str({ maxLength: 2000 }) },
};
