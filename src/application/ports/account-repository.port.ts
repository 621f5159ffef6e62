import type { AccountId } from '../../domain/account/account.js';
import { token } from '../shared/token.js';

export interface AccountRepository {
  /** Stores a new account and returns its id (positive, never reused). */
  create(now: Date): Promise<AccountId>;
  /** Whether the account exists. */
  exists(id: AccountId): Promise<boolean>;
}
export const AccountRepository = token<AccountRepository>('AccountRepository');
