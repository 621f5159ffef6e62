import type { Header, Response } from './openapi.types.js';
import { json, noBody, type StandaloneRoute } from './route-description.js';
import { problemResponses } from './problems.js';
import { ref, str } from './schemas.js';

export const OPENAPI_JSON_MEDIA_TYPE = 'application/openapi+json';
export const SWAGGER_YAML_MEDIA_TYPE = 'application/yaml';
/** The documents change only with a new version of the service: cached briefly, revalidated by ETag. */
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

const noStore: Readonly<Record<string, Header>> = { 'Cache-Control': { required: true, description: '`no-store`', schema: str({ const: 'no-store' }) } };
const documentHeaders: Readonly<Record<string, Header>> = {
  'Cache-Control': { required: true, description: `\`${DOCUMENT_CACHE_CONTROL}\``, schema: str({ const: DOCUMENT_CACHE_CONTROL }) },
  ETag: { required: true, description: 'Send it back as `If-None-Match`.', schema: str() },
};
const notModified: Response = noBody('`If-None-Match` names the current document.', { ETag: documentHeaders.ETag! });

/** The service's own endpoints: health and its description. */
export const SERVICE_ROUTES: readonly StandaloneRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: whether the database answers',
    operationId: 'health',
    tag: 'Service',
    security: [],
    responses: {
      200: json('The database answers.', ref('Health'), noStore),
      503: json('The database does not answer (`{"status":"unavailable"}`).', ref('Health'), noStore),
    },
  },
  {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This description, OpenAPI 3.1',
    operationId: 'openApiDescription',
    tag: 'Service',
    security: [],
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', headers: documentHeaders, content: { [OPENAPI_JSON_MEDIA_TYPE]: { schema: { type: 'object' } } } },
      304: notModified,
    },
  },
  {
    method: 'GET',
    path: '/swagger.yaml',
    summary: 'This description as Swagger 2.0, YAML (what the import takes)',
    operationId: 'swaggerDescription',
    tag: 'Service',
    description: 'Converted from the OpenAPI 3.1 document; what Swagger 2.0 cannot say is loosened (see docs/http-api.md).',
    security: [],
    responses: {
      200: { description: 'The Swagger 2.0 document.', headers: documentHeaders, content: { [SWAGGER_YAML_MEDIA_TYPE]: { schema: str() } } },
      304: notModified,
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: whether this instance should get traffic',
    operationId: 'readiness',
    tag: 'Service',
    description: 'Ready when the database answers and every migration is applied; `shutting_down` from the start of a stop, for `SHUTDOWN_DRAIN_MS`.',
    security: [],
    responses: {
      200: json('Ready (`{"status":"ready"}`).', ref('Readiness'), noStore),
      503: json('Not ready: `unavailable` (database away, migrations pending) or `shutting_down`.', ref('Readiness'), noStore),
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics',
    operationId: 'metrics',
    tag: 'Service',
    description: 'The Prometheus text exposition format, version 0.0.4. Open unless `METRICS_TOKEN` is set; then `Authorization: Bearer <METRICS_TOKEN>` (not an API token).',
    security: [],
    responses: {
      200: { description: 'The metrics.', headers: noStore, content: { 'text/plain': { schema: str() } } },
      ...problemResponses(['invalid_token']),
    },
  },
];
