import type { Context } from 'koa';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The origin (or, for a private-use scheme, the scheme) a CSP `form-action` must allow for a redirect to `uri`. */
export function formActionSource(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/**
 * A page of our own, all of it in the response: no scripts, no resources from elsewhere, no
 * framing, no referrer (addresses here carry one-time values). `formActions` lists where a form's
 * submission may end up: Chromium applies `form-action` to the redirect that follows a POST too.
 */
export function sendHtml(ctx: Context, status: number, title: string, body: string, formActions: readonly string[] = []): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formActions.map((a) => ` ${a}`).join('')}; frame-ancestors 'none'; base-uri 'none'`);
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Specbase</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1f2328}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #d0d7de;border-radius:6px}
button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
button.secondary{background:#f6f8fa;color:#1f2328;border-color:#d0d7de}
.error{color:#d1242f}
ul{padding-left:1.25rem}
</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
