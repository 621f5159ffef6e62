import { v7 } from 'uuid';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';

/**
 * UUIDv7: time-ordered, so a primary key in creation order doubles as the cursor of lists and the
 * order of the outbox. The `uuid` package keeps ids of one process monotonic within a millisecond.
 */
export class UuidV7IdGenerator implements IdGenerator {
  next(): string {
    return v7();
  }
}
