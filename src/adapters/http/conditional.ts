import type { Context } from 'koa';
import { throwProblem } from './middleware.js';
import { validationProblem } from './problem.js';

const ENTITY_TAG = /^"([1-9][0-9]{0,15})"$/;

/**
 * `If-Match`: `*` (any revision) or one strong entity tag `"<revision>"`. Weak tags never match
 * (RFC 9110 13.1.1 uses strong comparison), so they are refused as malformed.
 */
export function expectedRevision(ctx: Context): number | undefined {
  const header = ctx.get('If-Match').trim();
  if (header === '' || header === '*') return undefined;
  const match = ENTITY_TAG.exec(header);
  if (!match) throwProblem(validationProblem([{ field: 'If-Match', message: 'must be "*" or one entity tag such as "3"' }]));
  return Number(match[1]);
}
