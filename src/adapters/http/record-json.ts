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
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = text;
}

/** The text of `listBody(items, next)`: `{"items":[...],"nextCursor":...}`. */
export function listJson(items: readonly object[], next: string | number | object | null): string {
  return `{"items":[${items.map(recordJson).join(',')}],"nextCursor":${next === null ? 'null' : JSON.stringify(encodeCursor(next))}}`;
}
