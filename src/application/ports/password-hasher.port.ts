import { token } from '../shared/token.js';

export interface PasswordHasher {
  /** A self-describing hash (algorithm, parameters, salt) of `password`. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `hash`, compared in constant time; false for a malformed hash. */
  verify(password: string, hash: string): Promise<boolean>;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');
