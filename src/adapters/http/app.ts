import Koa, { type Context, type Next } from 'koa';
import { RouteTable } from './route-table.js';
import { koaBody } from 'koa-body';
import type { ApiAccess } from '../../application/auth/api-access.js';
import type { AuthenticateToken } from '../../application/auth/authenticate-token.use-case.js';
import { apiRoutes, type ApiUseCases } from './apis.routes.js';
import { releaseRoutes, type ReleaseUseCases } from './releases.routes.js';
import { specRoutes, type SpecUseCases } from './specs.routes.js';
import { changeRoutes } from './changes.routes.js';
import { derivedRoutes } from './derived.routes.js';
import { webhookRoutes, type WebhookUseCases } from './webhooks.routes.js';
import { basicAuthentication, profileRoutes, tokenRoutes, type ProfileUseCases, type TokenUseCases } from './user.routes.js';
import { identityRoutes, type IdentityUseCases } from './identity.routes.js';
import { emailVerificationRoutes, type EmailVerificationUseCases } from './email-verification.routes.js';
import { pageRoutes, type PageUseCases } from './pages.routes.js';
import { shareRoutes, type ShareUseCases } from './shares.routes.js';
import { docsRouter, type DocsUseCases } from './docs/docs.routes.js';
import { apiLimitKey, bearerAuthentication, principalOf } from './authenticate.js';
import { rateLimit } from './rate-limit.js';
import { routeByFirstSegment } from './dispatch.js';
import type { RateLimit, RateLimiter } from '../../application/ports/rate-limiter.port.js';
import type { HttpLogger } from './http-logger.js';
import { failFastWhileDatabaseAway, requestContext } from './middleware.js';
import type { HttpMetrics } from './http-metrics.js';
import { guardedRoutes, standaloneRouter, type RouteDefinition, type StandaloneRouteDefinition } from './routes.js';
import { JSON_MEDIA_TYPES } from './validation.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import type { OpenApiDocument } from './openapi/openapi.types.js';
import { serviceRoutes } from './service.routes.js';
import { answerRemembered, rememberAnswers, type RememberedAnswers } from './remembered-answers.js';
import type { RequestListener } from 'node:http';

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
  /** The database stopped answering (the monitor says so): requests that need it get 503 at once. */
  readonly databaseAway?: () => boolean;
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
  /** Remembers the hot reads' answers (ADR 0029): `createRequestListener` answers them again before Koa. */
  readonly answers?: RememberedAnswers;
}

function jsonBodyParser(deps: Pick<HttpDependencies, 'jsonMaxBytes'>) {
  return koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: deps.jsonMaxBytes, jsonStrict: true, jsonTypes: JSON_MEDIA_TYPES });
}

/** Every route behind a Bearer token, as one table (docs and scope tests read it too). */
export function protectedRoutes(deps: HttpDependencies): RouteDefinition[] {
  return [...specRoutes(deps.specs, deps.importMaxBytes), ...changeRoutes(deps.specs), ...derivedRoutes(deps.specs), ...apiRoutes(deps.apis), ...releaseRoutes(deps.releases), ...webhookRoutes(deps.webhooks), ...profileRoutes(deps.profile), ...pageRoutes(deps.pages), ...shareRoutes(deps.shares)];
}

/**
 * The routes outside the Bearer table, each declaring its contract beside its handler: token
 * management and e-mail verification (HTTP Basic), the identity service, the sign-in page, and the
 * service's own (health, readiness, metrics, the description). Nothing is read from `deps` until a
 * request comes, so the description can be built without them.
 */
export function standaloneRoutes(deps: HttpDependencies, document: () => OpenApiDocument = describedLater): StandaloneRouteDefinition[] {
  return [
    ...tokenRoutes(deps.tokens),
    ...emailVerificationRoutes(deps.emailVerification, basicAuthentication(deps.tokens), deps.jsonMaxBytes),
    ...identityRoutes(deps.identity, deps.rateLimits),
    ...serviceRoutes(deps, document),
  ];
}

function describedLater(): OpenApiDocument {
  throw new Error('The description is served by the app createHttpApp builds');
}

/** For every answer, JSON and errors included (the HTML pages set a CSP of their own), as name, value, name, value. */
function answerHeaders(deps: Pick<HttpDependencies, 'hsts'>): string[] {
  return [
    'X-Content-Type-Options', 'nosniff',
    'X-Frame-Options', 'DENY',
    'Referrer-Policy', 'no-referrer',
    'Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'",
    ...(deps.hsts === true ? ['Strict-Transport-Security', 'max-age=31536000'] : []),
  ];
}

/**
 * The server's request listener: a GET whose answer `deps.answers` remembers is answered at once
 * (`answerRemembered`, ADR 0029), everything else by the Koa application. Without `answers`, the
 * application's own `callback()`.
 */
export function createRequestListener(deps: HttpDependencies): RequestListener {
  const koa = createHttpApp(deps).callback();
  const { answers } = deps;
  if (answers === undefined) return (req, res) => void koa(req, res);
  const remembered = answerRemembered({
    answers,
    authenticate: deps.authenticate,
    limiter: deps.rateLimits.apiLimiter,
    limit: deps.rateLimits.api,
    headers: answerHeaders(deps),
    draining: deps.draining,
    ...(deps.databaseAway === undefined ? {} : { databaseAway: deps.databaseAway }),
    logger: deps.logger,
    metrics: deps.metrics,
  });
  return (req, res) => {
    let answered: boolean;
    try {
      answered = remembered(req, res);
    } catch (error) {
      // A bug of the remembered way: Koa's way answers, unless the answer began; one begun and not
      // finished cannot be completed, so the connection goes.
      deps.logger.error({ err: error, method: req.method }, 'remembered answer failed');
      if (res.headersSent && !res.writableEnded) res.destroy();
      answered = res.headersSent;
    }
    if (!answered) void koa(req, res);
  };
}

/** The Koa application: Core-API routes, `/healthz` (liveness), `/readyz` (readiness), `/metrics`, the description, problem+json errors, request ids and logs. */
export function createHttpApp(deps: HttpDependencies): Koa {
  const app = new Koa();
  app.silent = true;
  app.proxy = deps.trustProxy ?? false;
  const headers = answerHeaders(deps);
  const { databaseAway } = deps;
  app.use(
    requestContext(deps.logger, deps.metrics, (ctx) => {
      for (let i = 0; i < headers.length; i += 2) ctx.res.setHeader(headers[i]!, headers[i + 1]!);
      // A kept-alive client would go on sending here; closing after each answer sends it elsewhere.
      if (deps.draining()) ctx.set('Connection', 'close');
      if (databaseAway !== undefined) failFastWhileDatabaseAway(ctx, databaseAway);
    }),
  );
  if (deps.answers !== undefined) app.use(rememberAnswers(deps.answers));

  const table = protectedRoutes(deps);
  // The description describes the routes that serve it: built when a request first asks for it, not at start-up.
  let document: OpenApiDocument | undefined;
  const standalone = standaloneRoutes(deps, () => (document ??= buildOpenApiDocument({ routes: table, standalone, publicUrl: deps.publicUrl, scopeBase: deps.identity.settings.scopeBase, version: deps.version })));
  // Before the Bearer routes: /user/tokens and /user/email/* take HTTP Basic or nothing, never a Bearer token.
  const outside = standaloneRouter(standalone, jsonBodyParser(deps));
  const docs = docsRouter({ docs: deps.docs, session: (cookie) => deps.identity.authorize.session(cookie), descriptionUrl: '/openapi.json', publicUrl: deps.publicUrl });
  const authenticated = bearerAuthentication(deps.authenticate);
  const limited = rateLimit(deps.rateLimits.apiLimiter, deps.rateLimits.api, (ctx) => apiLimitKey(principalOf(ctx)));
  // The token, then its limit, as one step of each route's chain rather than two.
  const bearer = (ctx: Context, next: Next): Promise<unknown> => authenticated(ctx, (): Promise<unknown> => limited(ctx, next) as Promise<unknown>) as Promise<unknown>;
  const api = new RouteTable(guardedRoutes(table, bearer, deps.apiAccess, jsonBodyParser(deps)));
  app.use(routeByFirstSegment([outside, docs, api]));
  return app;
}
