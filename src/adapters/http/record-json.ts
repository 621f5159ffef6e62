import type { Context } from 'koa';
import { encodeCursor } from './pagination.js';

/**
 * JSON texts of records the domain hands out deeply frozen and the same object for as long as
 * the row is unchanged (an API's record is remembered per state, and the read cache hands out the
 * same state until the database changes): serialised once, not on every answer. A page of 20
 * APIs is 6.8 KB of JSON, which cost a cached list about 10 µs a request (docs/performance.md, 1).
 */
const texts = new WeakMap<object, string>();

/** The JSON text of `record`, which must be deeply frozen (checked at its top only). */
export function recordJson(record: object): string {
  if (!Object.isFrozen(record)) return JSON.stringify(record);
  let text = texts.get(record);
  if (text === undefined) {
    text = JSON.stringify(record);
    texts.set(record, text);
  }
  return text;
}

/** Answers with a JSON text as Koa answers an object: the same `Content-Type`, the same bytes. */
export function sendJsonText(ctx: Context, text: string): void {
  ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
  ctx.body = text;
}

/** A page's text, the records it was made of and its cursor: kept under its first record. */
interface PageText {
  readonly items: readonly object[];
  readonly next: string | number | null;
  readonly text: string;
}

const pages = new WeakMap<object, PageText>();

/**
 * The text of `listBody(items, next)`: `{"items":[...],"nextCursor":...}`. A page of frozen records
 * with a plain cursor is kept, under its first record, and given again for the very same records
 * and cursor (a page read again before the database changed): joining 20 texts made 6.8 KB of
 * garbage a request (docs/performance.md, 1).
 */
export function listJson(items: readonly object[], next: string | number | object | null): string {
  const first = items[0];
  const keepable = first !== undefined && (next === null || typeof next !== 'object') && items.every((item) => Object.isFrozen(item));
  if (keepable) {
    const kept = pages.get(first);
    if (kept !== undefined && kept.next === next && sameItems(kept.items, items)) return kept.text;
  }
  const text = `{"items":[${items.map(recordJson).join(',')}],"nextCursor":${next === null ? 'null' : JSON.stringify(encodeCursor(next))}}`;
  if (keepable) pages.set(first, { items: [...items], next, text });
  return text;
}

function sameItems(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
