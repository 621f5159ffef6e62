import { token } from '../shared/token.js';

export interface IdGenerator {
  /** A new UUID; successive ids of one process sort in creation order (UUIDv7). */
  next(): string;
}
export const IdGenerator = token<IdGenerator>('IdGenerator');
