import type { Context } from 'koa';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageRequest } from '../../application/shared/page.js';
import { throwProblem } from './middleware.js';
import { validationProblem } from './problem.js';
import { parseUuid, type Uuid } from '../../domain/shared/ids.js';

/** Opaque to clients: base64url of a small JSON document naming the last item seen. */
export function encodeCursor(after: string | number | object): string {
  return Buffer.from(JSON.stringify({ after }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): unknown {
  try {
    return (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown } | null)?.after;
  } catch {
    return undefined;
  }
}

/** Query strings this long or shorter are kept parsed (a client's own, not arbitrary input's). */
const KEPT_QUERY_LENGTH = 256;
/** At most this many kept; all are forgotten when it is reached. */
const KEPT_QUERIES = 256;
const parsedQueries = new Map<string, ReadonlyMap<string, readonly string[]>>();

/**
 * A query string's parameters, decoded as Koa's `ctx.query` decodes them (URLSearchParams), each
 * with every value given. Short ones are kept: a list read again with the same query (a client
 * polling, paging) is not parsed again; `ctx.query` parsed it on every request (1.3 µs of a list's
 * answer, docs/performance.md, 1).
 */
function parsedQuery(querystring: string): ReadonlyMap<string, readonly string[]> {
  const kept = parsedQueries.get(querystring);
  if (kept !== undefined) return kept;
  const parsed = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(querystring)) {
    const values = parsed.get(name);
    if (values === undefined) parsed.set(name, [value]);
    else values.push(value);
  }
  if (querystring.length <= KEPT_QUERY_LENGTH) {
    if (parsedQueries.size >= KEPT_QUERIES) parsedQueries.clear();
    parsedQueries.set(querystring, parsed);
  }
  return parsed;
}

/** A query parameter given at most once. */
export function queryParam(ctx: Context, name: string): string | undefined {
  const { querystring } = ctx;
  const values = querystring === '' ? undefined : parsedQuery(querystring).get(name);
  if (values !== undefined && values.length > 1) throwProblem(validationProblem([{ field: name, message: 'must be given once' }]));
  return values?.[0];
}

/** `?limit=` and `?cursor=` for a list keyed by `K`, which `isKey` recognises in a decoded cursor. */
export function page<K>(ctx: Context, isKey: (after: unknown) => after is K): PageRequest<K> {
  const limitText = queryParam(ctx, 'limit');
  const cursor = queryParam(ctx, 'cursor');
  let limit = DEFAULT_PAGE_LIMIT;
  if (limitText !== undefined) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
      throwProblem(validationProblem([{ field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT}` }]));
    }
  }
  if (cursor === undefined || cursor === '') return { limit };
  const after = decodeCursor(cursor);
  if (!isKey(after)) throwProblem(validationProblem([{ field: 'cursor', message: 'is not a cursor this service issued' }]));
  return { limit, after };
}

/** `?limit=` (1-200, default 50) and `?cursor=` for lists keyed by id; anything else about them is a 400. */
export function pageRequest<Id extends Uuid<string>>(ctx: Context): PageRequest<Id> {
  return page(ctx, (after): after is Id => typeof after === 'string' && parseUuid(after) !== undefined);
}

/** The same for lists in document order, keyed by position. */
export function positionPageRequest(ctx: Context): PageRequest<number> {
  // Positions are stored in 32-bit integer columns: a larger one is no cursor of ours.
  return page(ctx, (after): after is number => typeof after === 'number' && Number.isSafeInteger(after) && after >= 0 && after <= 2_147_483_647);
}

export function listBody<T>(items: readonly T[], next: string | number | object | null): { items: readonly T[]; nextCursor: string | null } {
  return { items, nextCursor: next === null ? null : encodeCursor(next) };
}
