import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { ApiAccess } from '../../application/auth/api-access.js';
import type { AuthenticateToken } from '../../application/auth/authenticate-token.use-case.js';
import { apiRoutes, type ApiUseCases } from './apis.routes.js';
import { releaseRoutes, type ReleaseUseCases } from './releases.routes.js';
import { specRoutes, type SpecUseCases } from './specs.routes.js';
import { changeRoutes } from './changes.routes.js';
import { derivedRoutes } from './derived.routes.js';
import { webhookRoutes, type WebhookUseCases } from './webhooks.routes.js';
import { basicAuthentication, profileRoutes, tokenRouter, type ProfileUseCases, type TokenUseCases } from './user.routes.js';
import { identityRoutes, type IdentityUseCases } from './identity.routes.js';
import { emailVerificationRouter, type EmailVerificationUseCases } from './email-verification.routes.js';
import { pageRoutes, type PageUseCases } from './pages.routes.js';
import { shareRoutes, type ShareUseCases } from './shares.routes.js';
import { docsRouter, type DocsUseCases } from './docs/docs.routes.js';
import { signInRoutes } from './sign-in.routes.js';
import { bearerAuthentication, bearerToken, principalOf } from './authenticate.js';
import { sameSecret } from './session-cookies.js';
import { rateLimit } from './rate-limit.js';
import { routeByFirstSegment } from './dispatch.js';
import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import type { HttpLogger } from './http-logger.js';
import { requestContext, throwProblem } from './middleware.js';
import type { HttpMetrics } from './http-metrics.js';
import { invalidToken } from './problem.js';
import { mountRoutes, standaloneRouter, type RouteDefinition, type StandaloneRouteDefinition } from './routes.js';
import { JSON_MEDIA_TYPES } from './validation.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { openApiRouter } from './openapi/openapi.routes.js';

export interface HttpDependencies {
  readonly logger: HttpLogger;
  /** PUBLIC_URL: the server named by `/openapi.json` and `/swagger.yaml`. */
  readonly publicUrl: string;
  /** The service's version, as the description gives it. */
  readonly version: string;
  /** Largest JSON body accepted, in bytes. */
  readonly jsonMaxBytes: number;
  /** PUBLIC_URL is https: answers carry Strict-Transport-Security. */
  readonly hsts?: boolean;
  /** Behind a reverse proxy: the client address comes from `X-Forwarded-For`. */
  readonly trustProxy?: boolean;
  /** Largest import or spec update accepted, in bytes. */
  readonly importMaxBytes: number;
  /** Whether the database answers (for `/healthz`). */
  readonly health: () => Promise<boolean>;
  /** Whether the database answers and is migrated (for `/readyz`). */
  readonly ready: () => Promise<boolean>;
  /** The instance is shutting down: `/readyz` says so and answers close their connection. */
  readonly draining: () => boolean;
  /** Request durations, and the exposition `GET /metrics` serves. */
  readonly metrics: HttpMetrics;
  /** When set, `GET /metrics` wants `Authorization: Bearer <it>`; `null`: open to whoever reaches it. */
  readonly metricsToken: string | null;
  readonly authenticate: AuthenticateToken;
  /** Who may act on an account or one of its APIs: checked before a write's body is read. */
  readonly apiAccess: ApiAccess;
  /** The per-token limit of the Bearer routes, and the token endpoint's per client and address. */
  readonly rateLimits: {
    readonly limiter: RateLimiter;
    /** Counts the per-token API limit on every request (batched on PostgreSQL). */
    readonly apiLimiter: RateLimiter;
    readonly api: RateLimit;
    readonly tokenEndpoint: RateLimit;
  };
  readonly apis: ApiUseCases;
  readonly specs: SpecUseCases;
  readonly releases: ReleaseUseCases;
  readonly webhooks: WebhookUseCases;
  readonly profile: ProfileUseCases;
  readonly tokens: TokenUseCases;
  readonly pages: PageUseCases;
  readonly shares: ShareUseCases;
  readonly emailVerification: EmailVerificationUseCases;
  readonly identity: IdentityUseCases;
  /** The documentation pages under `/docs`. */
  readonly docs: DocsUseCases;
}

function jsonBodyParser(deps: Pick<HttpDependencies, 'jsonMaxBytes'>) {
  return koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: deps.jsonMaxBytes, jsonStrict: true, jsonTypes: JSON_MEDIA_TYPES });
}

/** Every route behind a Bearer token, as one table (docs and scope tests read it too). */
export function protectedRoutes(deps: HttpDependencies): RouteDefinition[] {
  return [...specRoutes(deps.specs, deps.importMaxBytes), ...changeRoutes(deps.specs), ...derivedRoutes(deps.specs), ...apiRoutes(deps.apis), ...releaseRoutes(deps.releases), ...webhookRoutes(deps.webhooks), ...profileRoutes(deps.profile), ...pageRoutes(deps.pages), ...shareRoutes(deps.shares)];
}

/**
 * The routes outside the Bearer table that declare their contract beside their handlers: the
 * identity service and the sign-in page. Nothing is read from `deps` until a request comes.
 */
export function standaloneRoutes(deps: HttpDependencies): StandaloneRouteDefinition[] {
  const identity = identityRoutes(deps.identity, deps.rateLimits);
  const signIn = signInRoutes(deps.identity);
  // The order of the description: the authorization pages, the sign-in page, then the rest.
  return [...identity.slice(0, 2), ...signIn, ...identity.slice(2)];
}

/** The Koa application: Core-API routes, `/healthz` (liveness), `/readyz` (readiness), `/metrics`, the description, problem+json errors, request ids and logs. */
export function createHttpApp(deps: HttpDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  app.proxy = deps.trustProxy ?? false;
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(async (ctx, next) => {
    // For every answer, JSON and errors included; the HTML pages set a CSP of their own.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    if (deps.hsts === true) ctx.set('Strict-Transport-Security', 'max-age=31536000');
    // A kept-alive client would go on sending here; closing after each answer sends it elsewhere.
    if (deps.draining()) ctx.set('Connection', 'close');
    await next();
  });

  const open = new Router();
  open.get('/healthz', async (ctx) => {
    const up = await deps.health();
    ctx.status = up ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: up ? 'ok' : 'unavailable' };
  });
  open.get('/readyz', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    let status: 'ready' | 'shutting_down' | 'unavailable' = 'ready';
    if (deps.draining()) status = 'shutting_down';
    else if (!(await deps.ready())) status = 'unavailable';
    ctx.status = status === 'ready' ? 200 : 503;
    ctx.body = { status };
  });
  open.get('/metrics', async (ctx) => {
    if (deps.metricsToken !== null && !sameSecret(bearerToken(ctx), deps.metricsToken)) {
      throwProblem(invalidToken('GET /metrics needs the metrics token as a Bearer token.'));
    }
    const { contentType, body } = await deps.metrics.exposition();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  });
  const table = protectedRoutes(deps);
  const standalone = standaloneRoutes(deps);
  const description = openApiRouter(buildOpenApiDocument({ routes: table, standalone, publicUrl: deps.publicUrl, scopeBase: deps.identity.settings.scopeBase, version: deps.version }));
  // Token management before the Bearer routes: /user/tokens takes HTTP Basic, never a Bearer token.
  const tokens = tokenRouter(deps.tokens, jsonBodyParser(deps));
  const identity = standaloneRouter(standalone);
  const docs = docsRouter({ docs: deps.docs, session: (cookie) => deps.identity.authorize.session(cookie), descriptionUrl: '/openapi.json', publicUrl: deps.publicUrl });
  const verification = emailVerificationRouter(deps.emailVerification, basicAuthentication(deps.tokens.authenticate), deps.jsonMaxBytes);
  const api = new Router();
  api.use(['/api', '/webhooks', '/user'], bearerAuthentication(deps.authenticate), rateLimit(deps.rateLimits.apiLimiter, deps.rateLimits.api, (ctx) => `api:token:${principalOf(ctx).tokenId ?? principalOf(ctx).userId}`));
  mountRoutes(api, table, deps.apiAccess, jsonBodyParser(deps));
  app.use(routeByFirstSegment([open, description, tokens, identity, docs, verification, api]));
  return app;
}
