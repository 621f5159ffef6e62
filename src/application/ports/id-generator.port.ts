import type { Uuid } from '../../domain/shared/ids.js';
import { token } from '../shared/token.js';

export interface IdGenerator {
  /** A new UUID, typed as the id it becomes; successive ids of one process sort in creation order (UUIDv7). */
  next<Id extends Uuid<string>>(): Id;
}
export const IdGenerator = token<IdGenerator>('IdGenerator');
