import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { stringify as stringifyYaml } from 'yaml';
import { bearerToken } from './authenticate.js';
import { throwProblem } from './middleware.js';
import type { HttpMetrics } from './http-metrics.js';
import type { Header, OpenApiDocument, Response } from './openapi/openapi.types.js';
import { problemResponses } from './openapi/problems.js';
import { HEADERS, json, noBody } from './openapi/route-description.js';
import { ref, str } from './openapi/schemas.js';
import { toSwagger2 } from './openapi/swagger2.js';
import { invalidToken } from './problem.js';
import type { StandaloneRouteDefinition } from './routes.js';
import { sameSecret } from './session-cookies.js';

export const OPENAPI_JSON_MEDIA_TYPE = 'application/openapi+json';
export const SWAGGER_YAML_MEDIA_TYPE = 'application/yaml';
/** The documents change only with a new version of the service: cached briefly, revalidated by ETag. */
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

const documentHeaders: Readonly<Record<string, Header>> = {
  'Cache-Control': { required: true, description: `\`${DOCUMENT_CACHE_CONTROL}\``, schema: str({ const: DOCUMENT_CACHE_CONTROL }) },
  ETag: { required: true, description: 'Send it back as `If-None-Match`.', schema: str() },
};
const notModified: Response = noBody('`If-None-Match` names the current document.', { ETag: documentHeaders.ETag! });

interface Rendered {
  readonly text: string;
  readonly etag: string;
}

/** Rendered on first request, then kept: the document only changes with the process. */
function once(render: () => string): () => Rendered {
  let rendered: Rendered | undefined;
  return () => {
    if (rendered === undefined) {
      const text = render();
      rendered = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"` };
    }
    return rendered;
  };
}

function serve(ctx: Context, document: Rendered, mediaType: string): void {
  ctx.set('Cache-Control', DOCUMENT_CACHE_CONTROL);
  ctx.set('ETag', document.etag);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = mediaType;
  ctx.body = document.text;
}

export interface ServiceDependencies {
  /** Whether the database answers (for `/healthz`). */
  readonly health: () => Promise<boolean>;
  /** Whether the database answers and is migrated (for `/readyz`). */
  readonly ready: () => Promise<boolean>;
  /** The instance is shutting down: `/readyz` says so. */
  readonly draining: () => boolean;
  readonly metrics: HttpMetrics;
  /** When set, `GET /metrics` wants `Authorization: Bearer <it>`; `null`: open to whoever reaches it. */
  readonly metricsToken: string | null;
}

/**
 * The service's own endpoints: liveness, readiness, metrics, and its description as OpenAPI 3.1
 * (`/openapi.json`) and Swagger 2.0 (`/swagger.yaml`, which the service's own import takes). The
 * description holds nothing secret: no credentials. `document` is asked for on the first request
 * (it describes these routes too).
 */
export function serviceRoutes(deps: ServiceDependencies, document: () => OpenApiDocument): StandaloneRouteDefinition[] {
  const openApi = once(() => JSON.stringify(document()));
  // Shared schema objects would become YAML anchors and aliases: written out in full instead.
  const swagger = once(() => stringifyYaml(toSwagger2(document()), { aliasDuplicateObjects: false, lineWidth: 0 }));
  return [
    {
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: whether the database answers',
      operationId: 'health',
      tag: 'Service',
      security: [],
      responses: {
        200: json('The database answers.', ref('Health'), HEADERS.noStore),
        503: json('The database does not answer (`{"status":"unavailable"}`).', ref('Health'), HEADERS.noStore),
      },
      handler: async (ctx) => {
        const up = await deps.health();
        ctx.status = up ? 200 : 503;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: up ? 'ok' : 'unavailable' };
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
      handler: (ctx) => serve(ctx, openApi(), OPENAPI_JSON_MEDIA_TYPE),
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
      handler: (ctx) => serve(ctx, swagger(), `${SWAGGER_YAML_MEDIA_TYPE}; charset=utf-8`),
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
        200: json('Ready (`{"status":"ready"}`).', ref('Readiness'), HEADERS.noStore),
        503: json('Not ready: `unavailable` (database away, migrations pending) or `shutting_down`.', ref('Readiness'), HEADERS.noStore),
      },
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        let status: 'ready' | 'shutting_down' | 'unavailable' = 'ready';
        if (deps.draining()) status = 'shutting_down';
        else if (!(await deps.ready())) status = 'unavailable';
        ctx.status = status === 'ready' ? 200 : 503;
        ctx.body = { status };
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
        200: { description: 'The metrics.', headers: HEADERS.noStore, content: { 'text/plain': { schema: str() } } },
        ...problemResponses(['invalid_token']),
      },
      handler: async (ctx) => {
        if (deps.metricsToken !== null && !sameSecret(bearerToken(ctx), deps.metricsToken)) {
          throwProblem(invalidToken('GET /metrics needs the metrics token as a Bearer token.'));
        }
        const { contentType, body } = await deps.metrics.exposition();
        ctx.set('Cache-Control', 'no-store');
        ctx.type = contentType;
        ctx.body = body;
      },
    },
  ];
}
