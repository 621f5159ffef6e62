import { createHash } from 'node:crypto';
import type { RateLimit, RateLimiter } from '../../../application/ports/rate-limiter.port.js';
import type { IncomingMessage } from 'node:http';
import { koaBody } from 'koa-body';
import type { Context, Middleware } from 'koa';
import type { ClientCredentials } from '../../../application/identity/token-endpoint.use-cases.js';
import type { OAuthError } from '../../../application/identity/oauth-error.js';
import type { Header, Parameter, Response } from '../openapi/openapi.types.js';
import { HEADERS, json } from '../openapi/route-description.js';
import { ref, str } from '../openapi/schemas.js';
import { REALM } from '../problem.js';

/**
 * What the identity routes share: reading OAuth parameters (each at most once), the form parser
 * whose failures answer in OAuth's shape, client credentials, OAuth's error answer, and the pieces
 * of their descriptions.
 */

export const FORM_LIMIT = '16kb';

/** Query or form parameters given once each; a repeated parameter is refused (RFC 6749 3.1, 3.2). */
export function singleParams(source: unknown): { params: Record<string, string>; repeated: string | undefined } {
  const params: Record<string, string> = {};
  let repeated: string | undefined;
  if (typeof source !== 'object' || source === null) return { params, repeated };
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value === 'string') params[name] = value;
    else if (Array.isArray(value)) repeated ??= name;
  }
  return { params, repeated };
}

export function bodyOf(ctx: Context): object {
  const body: unknown = ctx.request.body;
  return typeof body === 'object' && body !== null ? body : {};
}

/** The same for the request carried in a form's hidden field. */
export function searchParams(search: URLSearchParams): { params: Record<string, string>; repeated: string | undefined } {
  const params: Record<string, string> = {};
  let repeated: string | undefined;
  for (const [name, value] of search) {
    if (name in params) repeated ??= name;
    else params[name] = value;
  }
  return { params, repeated };
}

const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * A plain form (`application/x-www-form-urlencoded`, UTF-8, no `Content-Encoding`), the body of
 * nearly every OAuth request, read without koa-body: its content-type checks, raw-body, iconv and
 * qs cost a third of a tokeninfo request (docs/performance.md, 5). Names and values decoded as
 * koa-body's qs does for flat forms (`+` as a space, percent escapes, a bad escape left as it is);
 * a name given twice has a list of its values, which `singleParams` refuses as repeated.
 */
function isPlainForm(ctx: Context): boolean {
  const encoding = ctx.req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const type = ctx.req.headers['content-type'];
  if (type === undefined) return false;
  const [mime = '', ...parameters] = type.toLowerCase().split(';');
  if (mime.trim() !== FORM) return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=').map((part) => part.trim());
    return name !== 'charset' || value.replace(/^"|"$/g, '') === 'utf-8';
  });
}

function decodeFormPart(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

function parseForm(text: string): Record<string, string | string[]> {
  const params = Object.create(null) as Record<string, string | string[]>;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeFormPart(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodeFormPart(pair.slice(equals + 1));
    const before = params[name];
    params[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return params;
}

/**
 * The body's text; undefined past `limit` bytes (declared or received). A small body nearly always
 * comes in the same packet as its headers, and node:http has pushed it into the request a
 * microtask after the request began: when the bytes buffered are all those `Content-Length`
 * declares, they are taken at once, without the stream's listeners and the turns it takes to
 * emit `data` and `end` (about 10% of a bare server's CPU per request for a 1 KB form, 3-4 µs).
 * Otherwise (chunked, or the body still on its way) the stream's events.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const length = req.headers['content-length'];
  const declared = Number(length ?? 0);
  if (declared > limit) return undefined;
  if (length !== undefined && req.headers['transfer-encoding'] === undefined) {
    await Promise.resolve();
    if (req.readableLength === declared && !req.readableFlowing) return bufferedText(req);
  }
  return streamedBody(req, limit);
}

/** Everything `req` holds buffered, as UTF-8. */
function bufferedText(req: IncomingMessage): string {
  const chunks: Buffer[] = [];
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

function streamedBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        done();
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onAborted = (): void => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

function unreadableBody(ctx: Context, tooLarge: boolean): void {
  ctx.status = tooLarge ? 413 : 400;
  ctx.set('Cache-Control', 'no-store');
  // The rest of a body too large is never read: the connection ends with the answer, where it would
  // otherwise wait, paused, for the request timeout.
  if (tooLarge) ctx.set('Connection', 'close');
  ctx.body = { error: 'invalid_request', error_description: tooLarge ? `The body is larger than ${FORM_LIMIT}.` : 'The body could not be read: send application/x-www-form-urlencoded.' };
}

/** The body parser of the OAuth endpoints, whose failures (malformed, too large) answer in OAuth's error shape like everything else there. */
export function oauthForm(): Middleware {
  const parse = koaBody({ json: true, urlencoded: true, text: false, multipart: false, formLimit: FORM_LIMIT, jsonLimit: FORM_LIMIT });
  return async (ctx, next) => {
    if (isPlainForm(ctx)) {
      let text: string | undefined;
      try {
        text = await readBody(ctx.req, FORM_LIMIT_BYTES);
      } catch {
        unreadableBody(ctx, false);
        return;
      }
      if (text === undefined) {
        unreadableBody(ctx, true);
        return;
      }
      ctx.request.body = parseForm(text);
      await next();
      return;
    }
    // JSON, another charset, a compressed body: koa-body.
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (error) {
      unreadableBody(ctx, (error as { status?: number }).status === 413);
      return;
    }
    if (parsed) await next();
  };
}

/** OAuth's error answer (RFC 6749 5.2): 401 with the Basic challenge for `invalid_client`, 400 otherwise. */
export function oauthFailure(ctx: Context, error: OAuthError): void {
  ctx.status = error.error === 'invalid_client' ? 401 : 400;
  if (error.error === 'invalid_client') ctx.set('WWW-Authenticate', `Basic realm="${REALM}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.body = { error: error.error, error_description: error.description };
}

/** RFC 6749 2.3.1: HTTP Basic (form-encoded id and secret) or the body's client_id / client_secret, never both. */
export function clientCredentials(ctx: Context, params: Record<string, string>): ClientCredentials | 'both' {
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(ctx.get('Authorization'));
  if (basic) {
    if (params['client_secret'] !== undefined) return 'both';
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const unform = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    return colon < 0 ? { clientId: undefined, clientSecret: undefined, basic: true } : { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)), basic: true };
  }
  return { clientId: params['client_id'], clientSecret: params['client_secret'], basic: false };
}

/**
 * The parameters of an OAuth form (each at most once) and the client credentials it presents
 * (one way, not both); undefined once the request's error has been answered.
 */
export function clientForm(ctx: Context, source: unknown = bodyOf(ctx)): { readonly params: Record<string, string>; readonly presented: ClientCredentials } | undefined {
  const { params, repeated } = singleParams(source);
  if (repeated) {
    oauthFailure(ctx, { error: 'invalid_request', description: `${repeated} is given more than once.` });
    return undefined;
  }
  const presented = clientCredentials(ctx, params);
  if (presented === 'both') {
    oauthFailure(ctx, { error: 'invalid_request', description: 'Authenticate the client one way: HTTP Basic or the body, not both.' });
    return undefined;
  }
  return { params, presented };
}

/**
 * Counts one request against the token endpoint's rule under `key` and answers 429 `slow_down` once it is over:
 * true when the request was refused. Keys hold hashes of what the caller sent, never the text.
 */
export async function overLimit(ctx: Context, limits: { readonly limiter: RateLimiter; readonly tokenEndpoint: RateLimit }, key: string, description: string): Promise<boolean> {
  if (limits.tokenEndpoint.limit <= 0) return false;
  const decision = await limits.limiter.attempt(key, limits.tokenEndpoint, new Date());
  if (decision.allowed) return false;
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(decision.resetMs / 1000))));
  ctx.status = 429;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: 'slow_down', error_description: description };
  return true;
}

/** A short, fixed-length stand-in for an untrusted value in a rate-limit key. */
export function keyOf(value: string | undefined): string {
  return value === undefined ? '-' : createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

// ---- Pieces of the descriptions -------------------------------------------------------------

/** The challenge of a 401 `invalid_client`. */
export const BASIC_CHALLENGE: Readonly<Record<string, Header>> = { 'WWW-Authenticate': { required: true, description: '`Basic realm="specbase"`', schema: str() } };

export const FORM = 'application/x-www-form-urlencoded';

export const oauthError = (description: string, headers?: Readonly<Record<string, Header>>): Response => json(description, ref('OAuthError'), { ...HEADERS.noStore, ...headers });
/** Koa's redirect: the `Location`, and a one-line note of it as HTML or text (by `Accept`). */
export const redirectAnswer = (description: string): Response => ({
  description,
  headers: { Location: { required: true, description: 'The redirect URI with the answer in its query or fragment.', schema: str() }, ...HEADERS.noStore },
  content: { 'text/html': { schema: str() }, 'text/plain': { schema: str() } },
});
export const cached = (seconds: number): Readonly<Record<string, Header>> => ({
  'Cache-Control': { required: true, description: `\`public, max-age=${seconds}\``, schema: str({ const: `public, max-age=${seconds}` }) },
});

/** The body parser's failures, in OAuth's shape: 400 (unreadable) and 413 (over 16 KiB). */
export const UNREADABLE_BODY: Readonly<Record<string, Response>> = {
  400: oauthError('`invalid_request` (an unreadable body, a repeated parameter, a missing one) and the other RFC 6749 errors.'),
  413: oauthError('`invalid_request`: the body is over 16 KiB.'),
};

export const AUTHORIZATION_PARAMETERS: readonly Parameter[] = [
  { name: 'response_type', in: 'query', required: true, schema: str({ enum: ['code', 'token'] }), description: '`token`: the implicit flow.' },
  { name: 'client_id', in: 'query', required: true, schema: str() },
  { name: 'redirect_uri', in: 'query', required: true, schema: str(), description: 'One of the registered URIs, compared as an exact string.' },
  { name: 'scope', in: 'query', required: true, schema: str(), description: 'Space-separated: `openid`, `email`, `profile` or the `{scope_base}/auth/...` names.' },
  { name: 'state', in: 'query', schema: str({ maxLength: 2000 }), description: 'Returned unchanged with every answer.' },
  { name: 'code_challenge', in: 'query', schema: str({ pattern: '^[A-Za-z0-9_-]{43}$' }), description: 'PKCE (required for public clients).' },
  { name: 'code_challenge_method', in: 'query', schema: str({ enum: ['S256'] }) },
  { name: 'access_type', in: 'query', schema: str({ enum: ['online', 'offline'] }), description: '`offline`: a refresh token too (code flow).' },
  { name: 'prompt', in: 'query', schema: str(), description: 'Space-separated: `none`, `login`, `consent`, `select_account`.' },
  { name: 'nonce', in: 'query', schema: str({ maxLength: 2000 }), description: 'Copied into the ID token.' },
];

export const ACCESS_TOKEN_QUERY: Parameter = { name: 'access_token', in: 'query', description: 'The access token, instead of `Authorization: Bearer`.', schema: str() };
export const TOKENINFO_QUERY: readonly Parameter[] = [ACCESS_TOKEN_QUERY, { name: 'id_token', in: 'query', description: 'An ID token to describe.', schema: str() }];

export const UNAUTHENTICATED: Response = json("No valid access token: Google's error shape.", ref('GoogleError'), {
  'WWW-Authenticate': { required: true, description: '`Bearer realm="specbase", error="invalid_token"`', schema: str() },
  ...HEADERS.noStore,
});

export const ACCESS_TOKEN = [{ oauth2: [] }];
export const OPTIONAL_CLIENT = [{ oauthClient: [] }, {}];
