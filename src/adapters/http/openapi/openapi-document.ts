import { scopeClaims, type Claim } from '../../../domain/identity/oauth-scope.js';
import type { RouteDefinition } from '../routes.js';
import type { Header, HttpMethod, OpenApiDocument, Operation, Parameter, PathItem, Response, Responses, SecurityRequirement, SecurityScheme, Tag } from './openapi.types.js';
import { problemResponses, type ProblemCode } from './problems.js';
import { HEADERS, JSON_BODY_PROBLEMS, jsonOnlySchema, PATH_PARAMETERS, type RouteDescription, type StandaloneRoute, type TagName } from './route-description.js';
import { COMPONENT_SCHEMAS } from './components.js';

export interface DescriptionSource {
  /** The Bearer route table the router is built from, each route with its contract. */
  readonly routes: readonly RouteDefinition[];
  /** The other routes that declare their contract beside their handlers (token management, e-mail verification, the identity service, the sign-in page). */
  readonly standalone: readonly StandaloneRoute[];
  /** PUBLIC_URL: the server, and the base of the OAuth 2.0 endpoints. */
  readonly publicUrl: string;
  /** SCOPE_BASE of the identity service's scope names. */
  readonly scopeBase: string;
  /** The service's version (package.json). */
  readonly version: string;
}


const TAGS: readonly (Tag & { readonly name: TagName })[] = [
  { name: 'APIs', description: 'The APIs of an account (Core-API).' },
  { name: 'Specs', description: 'Import and spec updates (Swagger 2.0, OpenAPI 3.0 and 3.1), export and the resources derived from a spec.' },
  { name: 'Changes', description: 'The spec history, what changed between two specs (breaking, warning, info) and the changelog of releases.' },
  { name: 'Releases', description: 'Frozen versions of a spec and their life cycle: released, deprecated, endOfLife.' },
  { name: 'Pages', description: 'Markdown pages and guides of an API.' },
  { name: 'Shares', description: "An API's access for users of other accounts." },
  { name: 'Webhooks', description: 'The Event-API: signed event deliveries and their log.' },
  { name: 'User', description: "The caller's profile and password (User-API)." },
  { name: 'API tokens', description: 'Scoped API tokens, managed with the e-mail address and password.' },
  { name: 'E-mail verification', description: 'Proving the e-mail address with a one-time link.' },
  { name: 'Identity', description: "OAuth 2.0, OpenID Connect and Google's oauth2 v2 API." },
  { name: 'Service', description: 'Health and this description.' },
];

/** Every route behind an API token can answer these. */
const BEARER_PROBLEMS: readonly ProblemCode[] = ['invalid_token', 'insufficient_scope', 'rate_limited', 'internal_error'];

const CLAIM_TEXT: Readonly<Record<Claim, string>> = {
  openid: 'Who the user is: an ID token from the token endpoint',
  email: 'The e-mail address and whether it is verified',
  profile: 'Name, given and family name, picture and locale',
};

export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParameters(path: string): Parameter[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => {
    const known = PATH_PARAMETERS[name!];
    if (!known) throw new Error(`No schema for the path parameter ${name} of ${path}: add it to PATH_PARAMETERS`);
    return { name: name!, in: 'path', required: true, ...known };
  });
}

/** Headers of one response for two sets: each kept, required only where both require it. */
function mergedHeaders(a: Readonly<Record<string, Header>> = {}, b: Readonly<Record<string, Header>> = {}): Record<string, Header> {
  const merged: Record<string, Header> = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const header = (a[name] ?? b[name])!;
    merged[name] = { ...header, required: a[name]?.required === true && b[name]?.required === true };
  }
  return merged;
}

/** The route's own answers plus its problem+json ones; a status in both gets both media types. */
function responsesOf(own: Readonly<Record<string, Response>>, problems: Iterable<ProblemCode>): Responses {
  const all: Record<string, Response> = { ...own };
  for (const [status, problem] of Object.entries(problemResponses(problems))) {
    const existing = all[status];
    if (existing === undefined) {
      all[status] = problem;
      continue;
    }
    const headers = mergedHeaders(existing.headers, problem.headers);
    all[status] = {
      description: `${existing.description} Or a problem: ${problem.description}`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { ...existing.content, ...problem.content },
    };
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}

function operation(path: string, summary: string, description: string | undefined, security: readonly SecurityRequirement[], d: RouteDescription, problems: readonly ProblemCode[]): Operation {
  const parameters = [...pathParameters(path), ...(d.parameters ?? [])];
  return {
    operationId: d.operationId,
    summary,
    ...(description ? { description } : {}),
    tags: [d.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(d.requestBody ? { requestBody: d.requestBody } : {}),
    responses: responsesOf(d.responses, [...problems, ...(d.problems ?? []), 'internal_error']),
    security,
  };
}

/** A route of the table: its scope is its security requirement, and every answer it counts carries the rate-limit headers. */
function tableOperation(route: RouteDefinition): Operation {
  const d: RouteDescription = route;
  const problems: ProblemCode[] = route.scope === null ? [] : [...BEARER_PROBLEMS];
  if (route.path.includes(':accountId')) problems.push('not_found');
  if (jsonOnlySchema(d.requestBody) !== undefined) problems.push(...JSON_BODY_PROBLEMS);
  const text = [
    route.scope === null ? undefined : `Scope \`${route.scope}\`.`,
    route.ownerOnly === undefined ? undefined : `Only the API's own account may: a grantee of a share, whatever its role, gets 403 \`forbidden\` with \`action\` \`${route.ownerOnly}\`.`,
    d.description,
  ].filter((t) => t !== undefined);
  const withRateLimit: RouteDescription = {
    ...d,
    responses: Object.fromEntries(Object.entries(d.responses).map(([status, r]) => [status, { ...r, headers: { ...r.headers, ...HEADERS.rateLimit } }])),
  };
  const security = route.scope === null ? [] : [{ apiToken: [route.scope] }];
  return operation(route.path, route.summary, text.join(' ') || undefined, security, withRateLimit, problems);
}

function securitySchemes(publicUrl: string, scopeBase: string): Record<string, SecurityScheme> {
  const scopes = Object.fromEntries([...scopeClaims(scopeBase)].map(([name, claim]) => [name, CLAIM_TEXT[claim]]));
  const authorizationUrl = `${publicUrl}/o/oauth2/auth`;
  const tokenUrl = `${publicUrl}/o/oauth2/token`;
  return {
    apiToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sbt_ and 43 base64url characters',
      description: 'An API token from `POST /user/tokens`. Each operation names the scope it needs; `X.readonly` permits GET and HEAD, `X` every method of its area.',
    },
    password: { type: 'http', scheme: 'basic', description: "The account's e-mail address and password: API tokens are managed with them, never with a token." },
    oauthClient: { type: 'http', scheme: 'basic', description: 'An OAuth client: its id and secret, each form-urlencoded.' },
    initialAccessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'sbit_ and 43 base64url characters', description: "An operator's initial access token (`specbase client registration-token`), for one registration when `CLIENT_REGISTRATION=token`." },
    registrationAccessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'sbrat_ and 43 base64url characters', description: "A registered client's registration access token, given at registration (RFC 7592)." },
    oauth2: {
      type: 'oauth2',
      description: 'Access tokens of the identity service (RS256 JWTs). They open the identity endpoints, not /api, /webhooks or /user.',
      flows: { authorizationCode: { authorizationUrl, tokenUrl, refreshUrl: tokenUrl, scopes }, implicit: { authorizationUrl, scopes } },
    },
  };
}

/** The OpenAPI 3.1 description of every route the service serves, from the routes' own declarations. */
export function buildOpenApiDocument(source: DescriptionSource): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const add = (method: string, path: string, op: Operation) => {
    const key = openApiPath(path);
    const item = (paths[key] ??= {}) as Record<HttpMethod, Operation>;
    const lower = method.toLowerCase() as HttpMethod;
    if (item[lower]) throw new Error(`${method} ${path} is described twice`);
    item[lower] = op;
  };
  for (const route of source.routes) add(route.method, route.path, tableOperation(route));
  for (const route of source.standalone) add(route.method, route.path, operation(route.path, route.summary, route.description, route.security, route, []));

  const dangling = [...new Set(JSON.stringify({ paths, COMPONENT_SCHEMAS }).match(/"#\/components\/schemas\/[^"]*"/g) ?? [])]
    .map((ref) => ref.slice('"#/components/schemas/'.length, -1))
    .filter((name) => COMPONENT_SCHEMAS[name] === undefined);
  if (dangling.length > 0) throw new Error(`References to schemas no feature defines: ${dangling.join(', ')}`);

  const operationIds = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
  const repeated = operationIds.find((id, i) => operationIds.indexOf(id) !== i);
  if (repeated !== undefined) throw new Error(`operationId ${repeated} is used twice`);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Specbase',
      version: source.version,
      description:
        'API documentation service and identity provider. Errors are `application/problem+json` (RFC 9457) with a stable `code`, except at the identity endpoints, which answer in OAuth\'s and Google\'s shapes. ' +
        'Every answer may also be 404 `not_found` (unknown path), 405 `method_not_allowed` (with `Allow`) or 501 `not_implemented` (unknown method), and every GET answers HEAD. ' +
        'Reference: docs/http-api.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: source.publicUrl }],
    tags: TAGS,
    paths,
    components: { schemas: COMPONENT_SCHEMAS, securitySchemes: securitySchemes(source.publicUrl, source.scopeBase) },
  };
}
