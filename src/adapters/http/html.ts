import type { Context } from 'koa';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A serialized origin as a CSP source names it (CSP 3 host-source): `http(s)://`, a host of
 * letters, digits, `-` and `.`, an optional port; also a bracketed IPv6 address (a loopback
 * redirect URI may use `[::1]`; the grammar has none, but nothing in it ends a directive). The URL
 * parser lets much more through in a host (`https://a;b,c'd/` parses, its origin
 * `https://a;b,c'd`), which in the header would end the directive and start others.
 */
const CSP_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;
/** A URL scheme with its colon (RFC 3986 3.1), as a CSP scheme-source. */
const CSP_SCHEME = /^[a-z][a-z0-9+.-]*:$/;

/**
 * The origin (or, for a private-use scheme, the scheme) a CSP `form-action` must allow for a
 * redirect to `uri`; none when it is not a valid source (a browser would ignore it anyway), so a
 * registered redirect URI, the client's own text, never adds anything else to the header.
 */
export function formActionSources(uri: string): string[] {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return [];
  }
  const source = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return CSP_ORIGIN.test(source) || CSP_SCHEME.test(source) ? [source] : [];
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
