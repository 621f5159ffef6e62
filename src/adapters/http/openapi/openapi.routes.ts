import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import { stringify as stringifyYaml } from 'yaml';
import type { OpenApiDocument } from './openapi.types.js';
import { DOCUMENT_CACHE_CONTROL, OPENAPI_JSON_MEDIA_TYPE, SWAGGER_YAML_MEDIA_TYPE } from './service.descriptions.js';
import { toSwagger2 } from './swagger2.js';

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

/**
 * `GET /openapi.json` (OpenAPI 3.1) and `GET /swagger.yaml` (the same converted to Swagger 2.0,
 * which the service's own import takes). No credentials: the description holds nothing secret.
 */
export function openApiRouter(document: OpenApiDocument): Router {
  const json = once(() => JSON.stringify(document));
  // Shared schema objects would become YAML anchors and aliases: written out in full instead.
  const yaml = once(() => stringifyYaml(toSwagger2(document), { aliasDuplicateObjects: false, lineWidth: 0 }));
  const router = new Router();
  router.get('/openapi.json', (ctx) => serve(ctx, json(), OPENAPI_JSON_MEDIA_TYPE));
  router.get('/swagger.yaml', (ctx) => serve(ctx, yaml(), `${SWAGGER_YAML_MEDIA_TYPE}; charset=utf-8`));
  return router;
}
