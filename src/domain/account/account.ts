import type { IntegerKey } from '../shared/ids.js';

/** Accounts and users have positive integer ids, assigned by storage and parsed where they enter (shared/ids.ts). */
export type AccountId = IntegerKey<'Account'>;
export type UserId = IntegerKey<'User'>;
