import type { Random } from '../../application/ports/random.port.js';

/** Jitter needs no cryptographic strength. */
export class MathRandom implements Random {
  next(): number {
    return Math.random();
  }
}
