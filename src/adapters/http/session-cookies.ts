import type { Context } from 'koa';
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The identity service's login session (a 256-bit secret, stored hashed) and the forms' CSRF value. */
export const SESSION_COOKIE = 'sb_session';
export const CSRF_COOKIE = 'sb_csrf';
export const SESSION_MAX_AGE_S = 7 * 24 * 3600;
const CSRF_MAX_AGE_S = 3600;

export function readCookie(ctx: Context, name: string): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** `Secure` when the service is reached over https (its `PUBLIC_URL`). */
export function cookieHeader(name: string, value: string, maxAgeS: number, secure: boolean): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure ? '; Secure' : ''}`;
}

/** The CSRF value a form carries: the browser's valid `sb_csrf` cookie, or a new one set now (a double-submit cookie). */
export function csrfToken(ctx: Context, secure: boolean): string {
  const existing = readCookie(ctx, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const created = randomBytes(32).toString('base64url');
  ctx.append('Set-Cookie', cookieHeader(CSRF_COOKIE, created, CSRF_MAX_AGE_S, secure));
  return created;
}
