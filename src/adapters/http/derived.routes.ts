import type { DerivedKind } from '../../application/ports/spec-repository.port.js';
import { principalOf } from './authenticate.js';
import { json, LIST_PARAMETERS, LIST_PROBLEMS } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';
import { listBody, positionPageRequest } from './pagination.js';
import { pathId, accountIdParam, unwrap, type RouteDefinition } from './routes.js';
import type { SpecUseCases } from './specs.routes.js';

/** The resources derived from the current spec, each a list read the same way. */
const DERIVED: readonly { segment: string; kind: DerivedKind; summary: string; operationId: string; list: string; what: string }[] = [
  {
    segment: 'endpoints',
    kind: 'endpoints',
    summary: 'Endpoints: one per path and method',
    operationId: 'listEndpoints',
    list: 'EndpointList',
    what: 'One endpoint per path and operation of the spec (OpenAPI 3 `trace` included; 3.1 `webhooks` are not endpoints).',
  },
  {
    segment: 'models',
    kind: 'models',
    summary: 'Domain models: one per definition (2.0) or components.schemas entry (3.x)',
    operationId: 'listModels',
    list: 'DomainModelList',
    what: 'One domain model per entry of `definitions` (Swagger 2.0) or `components.schemas` (OpenAPI 3).',
  },
  {
    segment: 'environments',
    kind: 'environments',
    summary: 'Environments: one per scheme (2.0) or server (3.x)',
    operationId: 'listEnvironments',
    list: 'EnvironmentList',
    what: 'One environment per scheme of a Swagger 2.0 spec; one per entry of the top-level `servers` of an OpenAPI 3 spec, or `{ "url": "/" }` when it has none.',
  },
  {
    segment: 'auth-adapters',
    kind: 'authAdapters',
    summary: 'Authentication adapters: one per security scheme',
    operationId: 'listAuthAdapters',
    list: 'AuthAdapterList',
    what: "One authentication adapter per entry of `securityDefinitions` (Swagger 2.0) or `components.securitySchemes` (OpenAPI 3), with its own type's fields.",
  },
];

/** The lists derived from an API's current spec, read a page at a time by position. */
export function derivedRoutes(useCases: Pick<SpecUseCases, 'listDerived'>): RouteDefinition[] {
return DERIVED.map(
    ({ segment, kind, summary, operationId, list, what }): RouteDefinition => ({
      method: 'GET',
      path: `/api/:accountId/:apiId/${segment}`,
      scope: 'api.readonly',
      summary,
      operationId,
      tag: 'Specs',
      description: `${what} Computed from the current spec when it is stored; an API without a spec has an empty list.`,
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of the list.', ref(list)) },
      problems: LIST_PROBLEMS,
      handler: async (ctx) => {
        const input = { accountId: accountIdParam(ctx), apiId: pathId(ctx, 'apiId'), kind, page: positionPageRequest(ctx) };
        const page = unwrap(await useCases.listDerived.execute(principalOf(ctx), input));
        ctx.body = listBody(page.items, page.next);
      },
    }),
  );
}
