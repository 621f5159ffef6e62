import type { AccountId, UserId } from '../../src/domain/account/account.js';
import type { Uuid } from '../../src/domain/shared/ids.js';

/**
 * Ids for tests, as storage would hand them back: the production code parses ids where they enter
 * (ids.ts); a test that builds an aggregate or calls a repository by hand is that entry.
 */
export const accountId = (value: number): AccountId => value as AccountId;
export const userId = (value: number): UserId => value as UserId;
/** A UUID-typed id from any text (fakes may use short names like `'api-1'`). */
export const uuid = <Id extends Uuid<string>>(text: string): Id => text as Id;
