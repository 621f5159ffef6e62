import type { Context } from 'koa';
import { escapeHtml } from '../html.js';
import { signInUrl } from '../sign-in.routes.js';
import type { DocsAssets } from './static-assets.js';

/**
 * The rendered API pages: no script at all, styles only from our own file, images from here or any
 * https: address (a guide may show diagrams kept elsewhere; `no-referrer` keeps the page's address
 * from those hosts), nothing else loaded, no forms, never framed.
 */
export const DOCS_PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The Swagger UI page. Scripts only from our own files (the package's bundle and our initializer,
 * no inline script). No `'unsafe-inline'` for styles either, though Swagger UI styles elements as
 * it renders: React sets them through the CSSOM (`element.style`), which CSP does not govern, and
 * the package needs no `<style>` element or `style` attribute of its own (the browser suite opens
 * operations, tries one out and unfolds a schema with a clean console; a refused style would show
 * there). `img-src data:`: the package's CSS draws its icons as data: SVGs. `connect-src 'self'`:
 * the description and "Try it out" requests go to this origin only.
 */
export const SWAGGER_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface DocsPage {
  readonly status: number;
  readonly title: string;
  readonly body: string;
  /** `private`: a private API's page, never stored by a cache. */
  readonly visibility: 'public' | 'private';
}

export function shell(assets: DocsAssets, title: string, body: string, options: { readonly head?: string; readonly bodyClass?: string; readonly signedIn?: boolean } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="${assets.url('docs.css')}">${options.head ?? ''}
</head><body${options.bodyClass ? ` class="${options.bodyClass}"` : ''}><header class="sb-top"><a href="/docs">Specbase</a>${options.signedIn === true ? '<a class="sb-sign-out" href="/o/oauth2/logout">Sign out</a>' : ''}</header>
${body}</body></html>`;
}

/** `signedIn`: the page offers sign-out (a link to `end_session_endpoint`), and is then the viewer's own. */
export function sendDocsPage(ctx: Context, assets: DocsAssets, page: DocsPage, signedIn = false): void {
  ctx.status = page.status;
  ctx.type = 'text/html; charset=utf-8';
  // Public pages may be kept, but are asked for again each time: an API made private must stop showing at once.
  ctx.set('Cache-Control', page.visibility === 'private' ? 'no-store' : signedIn ? 'private, no-cache' : 'no-cache');
  ctx.set('Content-Security-Policy', DOCS_PAGE_CSP);
  ctx.body = shell(assets, page.title, page.body, { bodyClass: 'sb-page', signedIn });
}

/**
 * The one answer for documentation that does not exist and for documentation the viewer may not
 * see: the same bytes either way, so that a private API's existence does not show.
 */
export function sendNotFoundPage(ctx: Context, assets: DocsAssets): void {
  sendDocsPage(ctx, assets, {
    status: 404,
    title: 'Not found · Specbase',
    visibility: 'private',
    body: `<main class="sb-main"><h1>Not found</h1><p>There is no documentation at this address, or you may not see it.</p>
<p>Looking for an API of another account of yours? <a href="${escapeHtml(signInUrl(ctx.url))}">Sign in</a> with it.</p></main>`,
  });
}

/** `/docs`: the service's own OpenAPI description in Swagger UI. */
export function sendSwaggerPage(ctx: Context, assets: DocsAssets, descriptionUrl: string): void {
  ctx.status = 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Content-Security-Policy', SWAGGER_PAGE_CSP);
  ctx.body = shell(
    assets,
    'Specbase HTTP API reference',
    `<main><noscript><p class="sb-top">This reference needs JavaScript. The description it shows is at <a href="${escapeHtml(descriptionUrl)}">${escapeHtml(descriptionUrl)}</a>.</p></noscript>
<div id="swagger-ui" data-url="${escapeHtml(descriptionUrl)}"></div></main>
<script src="${assets.url('swagger-ui-bundle.js')}"></script><script src="${assets.url('swagger-initializer.js')}"></script>`,
    { head: `<link rel="stylesheet" href="${assets.url('swagger-ui.css')}">` },
  );
}
