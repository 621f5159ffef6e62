import { token } from '../shared/token.js';

export interface Clock {
  now(): Date;
}
export const Clock = token<Clock>('Clock');
