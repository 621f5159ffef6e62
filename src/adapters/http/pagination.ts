import type { Context } from 'koa';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type PageRequest } from '../../application/shared/page.js';
import { throwProblem } from './middleware.js';
import { validationProblem } from './problem.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Opaque to clients: base64url of a small JSON document naming the last item seen. */
export function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ after }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const after = (decoded as { after?: unknown } | null)?.after;
    return typeof after === 'string' && UUID.test(after) ? after : undefined;
  } catch {
    return undefined;
  }
}

function single(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throwProblem(validationProblem([{ field: name, message: 'must be given once' }]));
  return value;
}

/** `?limit=` (1-200, default 50) and `?cursor=`; anything else about them is a 400. */
export function pageRequest(ctx: Context): PageRequest {
  const limitText = single(ctx, 'limit');
  const cursor = single(ctx, 'cursor');
  let limit = DEFAULT_PAGE_LIMIT;
  if (limitText !== undefined) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) {
      throwProblem(validationProblem([{ field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT}` }]));
    }
  }
  if (cursor === undefined || cursor === '') return { limit };
  const after = decodeCursor(cursor);
  if (after === undefined) throwProblem(validationProblem([{ field: 'cursor', message: 'is not a cursor this service issued' }]));
  return { limit, after };
}

export function listBody<T>(items: readonly T[], next: string | null): { items: readonly T[]; nextCursor: string | null } {
  return { items, nextCursor: next === null ? null : encodeCursor(next) };
}
