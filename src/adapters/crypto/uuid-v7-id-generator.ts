import { v7 } from 'uuid';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { Uuid } from '../../domain/shared/ids.js';

/**
 * UUIDv7: time-ordered, so a primary key in creation order doubles as the cursor of lists and the
 * order of the outbox. The `uuid` package keeps ids of one process monotonic within a millisecond.
 */
export class UuidV7IdGenerator implements IdGenerator {
  next<Id extends Uuid<string>>(): Id {
    return v7() as Id;
  }
}
