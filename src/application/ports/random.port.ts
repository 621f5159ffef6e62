import { token } from '../shared/token.js';

export interface Random {
  /** A number in [0, 1). */
  next(): number;
}
export const Random = token<Random>('Random');
