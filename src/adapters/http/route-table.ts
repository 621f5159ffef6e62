import type { Context, Middleware, Next } from 'koa';

/** A route as @koa/router's layers describe one: its pattern and methods (GET comes with HEAD). */
export interface ServedLayer {
  readonly path: string;
  readonly methods: readonly string[];
}

/** One route of a table: its method, its pattern in @koa/router syntax, and its steps composed into one. */
export interface TableRoute {
  readonly method: string;
  /** Literal segments and `:name` segments, e.g. `/api/:accountId/:apiId/releases`. */
  readonly path: string;
  readonly serve: Middleware;
}

/** The methods @koa/router implements; another is a 501. */
const IMPLEMENTED = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

/** A segment: a literal (lower case) or a parameter's name. */
type Segment = { readonly literal: string } | { readonly param: string };

/** Every route of one pattern; pushed onto `ctx.matched` as @koa/router's layers are, so its allowed methods and the logged route read it alike. */
class Pattern implements ServedLayer {
  readonly methods: string[] = [];
  readonly serves = new Map<string, Middleware>();
  readonly segments: readonly Segment[];

  constructor(readonly path: string) {
    this.segments = path
      .slice(1)
      .split('/')
      .map((segment) => (segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment.toLowerCase() }));
  }

  add(route: TableRoute): void {
    if (this.serves.has(route.method)) return; // as @koa/router: the first route registered for a method serves it
    this.serves.set(route.method, route.serve);
    if (route.method === 'GET') this.methods.push('HEAD');
    this.methods.push(route.method);
  }

  /** The path's parameters when `parts` (the path's segments) match; undefined otherwise. */
  match(parts: readonly string[]): Record<string, string> | undefined {
    const { segments } = this;
    for (let i = 0; i < segments.length; i += 1) {
      const segment = segments[i]!;
      if ('literal' in segment) {
        const part = parts[i]!;
        if (part !== segment.literal && part.toLowerCase() !== segment.literal) return undefined;
      } else if (parts[i] === '') return undefined;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i += 1) {
      const segment = segments[i]!;
      if ('param' in segment) params[segment.param] = decoded(parts[i]!);
    }
    return params;
  }
}

function decoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The path's segments after the leading slash, one trailing slash ignored (as @koa/router's non-strict patterns). */
function segmentsOf(path: string): string[] {
  const parts = path.split('/');
  parts.shift();
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

interface RoutedContext {
  matched?: ServedLayer[];
  params?: Record<string, string>;
}

/**
 * A router for a fixed table of plain patterns (literal and `:name` segments), answering as
 * @koa/router does (the first route registered for the path and method serves it, case-insensitive
 * literals, one trailing slash allowed, parameters URI-decoded; HEAD by GET; then, when nothing
 * answered, OPTIONS 200, 405 or 501 with `Allow`), at a fraction of its cost: the patterns are
 * grouped by segment count, so a request compares a few literals instead of running every
 * layer's regular expression, and each route's steps are composed once, not per request
 * (docs/performance.md, 1). The Bearer routes and the routes outside them are tables; the docs
 * pages' router stays on @koa/router.
 */
export class RouteTable {
  private readonly bySize = new Map<number, Pattern[]>();
  /** One entry per route registered, for the tests and docs that walk what the app serves. */
  readonly stack: readonly ServedLayer[];

  constructor(routes: readonly TableRoute[]) {
    const patterns = new Map<string, Pattern>();
    for (const route of routes) {
      let pattern = patterns.get(route.path);
      if (pattern === undefined) {
        pattern = new Pattern(route.path);
        patterns.set(route.path, pattern);
        const size = pattern.segments.length;
        this.bySize.set(size, [...(this.bySize.get(size) ?? []), pattern]);
      }
      pattern.add(route);
    }
    this.stack = routes.map((route) => ({ path: route.path, methods: route.method === 'GET' ? ['HEAD', 'GET'] : [route.method] }));
  }

  /** The table as one middleware: a matched route serves; otherwise the rest of the chain, then OPTIONS, 405 or 501 as @koa/router's `allowedMethods()`. */
  middleware(): Middleware {
    return (ctx: Context, next: Next): Promise<unknown> => {
      const routed = ctx as Context & RoutedContext;
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      const parts = segmentsOf(ctx.path);
      let matched: Pattern[] | undefined;
      for (const pattern of this.bySize.get(parts.length) ?? []) {
        const params = pattern.match(parts);
        if (params === undefined) continue;
        (matched ??= []).push(pattern);
        const serve = pattern.serves.get(method);
        if (serve !== undefined) {
          routed.matched = [...(routed.matched ?? []), ...matched];
          routed.params = params;
          return serve(ctx, next) as Promise<unknown>;
        }
      }
      const all = [...(routed.matched ?? []), ...(matched ?? [])];
      routed.matched = all;
      return next().then(() => allowedMethods(ctx, all));
    };
  }
}

/** @koa/router's `allowedMethods()` for a request nothing answered, over every layer any router matched. */
function allowedMethods(ctx: Context, matched: readonly ServedLayer[]): void {
  if (ctx.status !== 404) return;
  const allowed = [...new Set(matched.flatMap((layer) => layer.methods))];
  const method = ctx.method.toUpperCase();
  if (!IMPLEMENTED.has(method)) {
    ctx.status = 501;
    ctx.set('Allow', allowed.join(', '));
  } else if (method === 'OPTIONS' && allowed.length > 0) {
    ctx.status = 200;
    ctx.body = '';
    ctx.set('Allow', allowed.join(', '));
  } else if (allowed.length > 0 && !allowed.includes(method)) {
    ctx.status = 405;
    ctx.set('Allow', allowed.join(', '));
  }
}
