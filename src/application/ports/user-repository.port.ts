import type { AccountId, UserId } from '../../domain/account/account.js';
import type { NewUser, User } from '../../domain/user/user.aggregate.js';
import type { Result } from '../../domain/shared/result.js';
import { token } from '../shared/token.js';

export interface UserRepository {
  /** Stores a new user and returns it with its id. `DuplicateEmail` when the e-mail is taken. */
  add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>>;
  /** undefined when absent. */
  get(id: UserId): Promise<User | undefined>;
  /** By normalised (lower-case) e-mail; undefined when absent. */
  getByEmail(email: string): Promise<User | undefined>;
  /** The account's first user (the one it was opened for); undefined when it has none. */
  ownerOf(accountId: AccountId): Promise<User | undefined>;
  /** Updates an existing user's mutable fields. */
  save(user: User): Promise<void>;
  /** Whether any user exists: the bootstrap runs only on an empty database. */
  any(): Promise<boolean>;
}
export const UserRepository = token<UserRepository>('UserRepository');
