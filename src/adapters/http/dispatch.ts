import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import compose from 'koa-compose';
import type { RouteTable } from './route-table.js';

/** A @koa/router (with its `allowedMethods`) or a route table (which answers those itself). */
export type Routes = Router | RouteTable;

function middlewareOf(routes: Routes): Middleware[] {
  return routes instanceof Router ? [routes.routes() as Middleware, routes.allowedMethods() as Middleware] : [routes.middleware()];
}

/** The first segment of a route path (`/api/:accountId` -> `api`), or undefined when it is not a literal. */
function literalFirstSegment(path: string): string | undefined {
  const segment = path.split('/')[1] ?? '';
  return /^[A-Za-z0-9._~-]*$/.test(segment) ? segment : undefined;
}

/**
 * Mounts `routers` (each @koa/router with its `allowedMethods`) in the given order, but runs for a request
 * only those with a route or router middleware under the request path's first segment. Every
 * @koa/router matches the path against each of its layers; with a dozen routers mounted one after
 * another, a request to `/api/...` paid for the identity, docs and sign-in routers' regular
 * expressions too. A router with a non-literal first segment runs for every path. The routers stay
 * reachable as `.routers`, for tests that walk what the app serves.
 */
export function routeByFirstSegment(routers: readonly Routes[]): Middleware & { readonly routers: readonly Routes[] } {
  const everywhere = new Set<Routes>();
  const bySegment = new Map<string, Routes[]>();
  for (const router of routers) {
    for (const layer of router.stack) {
      const segment = typeof layer.path === 'string' ? literalFirstSegment(layer.path) : undefined;
      if (segment === undefined) everywhere.add(router);
      else bySegment.set(segment, [...(bySegment.get(segment) ?? []), router]);
    }
  }
  const chain = (chosen: ReadonlySet<Routes>): Middleware => {
    const steps = routers.filter((r) => chosen.has(r) || everywhere.has(r)).flatMap(middlewareOf);
    return steps.length === 1 ? steps[0]! : compose(steps);
  };
  const chains = new Map<string, Middleware>([...bySegment].map(([segment, matching]) => [segment, chain(new Set(matching))]));
  const fallback = chain(new Set());
  const dispatch = (ctx: Context, next: Next): Promise<unknown> => {
    const path = ctx.path;
    const end = path.indexOf('/', 1);
    const segment = end === -1 ? path.slice(1) : path.slice(1, end);
    return (chains.get(segment) ?? fallback)(ctx, next) as Promise<unknown>;
  };
  return Object.assign(dispatch, { routers });
}
