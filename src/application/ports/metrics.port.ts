import { token } from '../shared/token.js';

/**
 * How the recording of a delivery ended: `success` (a 2xx answer), `failure` (no answer, or not
 * 2xx, and another attempt is scheduled), `gave_up` (that failed attempt was its last: the
 * delivery is `failed`), or `abandoned` (not sent: its webhook was deleted or deactivated meanwhile).
 */
export type DeliveryOutcomeKind = 'success' | 'failure' | 'gave_up' | 'abandoned';

/**
 * What the application reports for monitoring. Counting only: an implementation must not throw
 * nor block, since it is called on the delivery path.
 */
export interface Metrics {
  /** One delivery attempt (or abandonment) was recorded, i.e. its transaction committed. */
  deliveryRecorded(outcome: DeliveryOutcomeKind): void;
  /**
   * A run was recorded after another claim took `count` of its deliveries (its lease had run out):
   * their outcomes were refused, the deliveries left to the claim that holds them.
   */
  staleRunWrites(count: number): void;
  /** An API token was authenticated from the token cache (`cache`) or with a database read (`database`). */
  tokenAuthenticated(source: 'cache' | 'database'): void;
}
export const Metrics = token<Metrics>('Metrics');

/** Counts nothing: the default of whoever builds the use cases without a metrics adapter. */
export const NO_METRICS: Metrics = { deliveryRecorded: () => undefined, staleRunWrites: () => undefined, tokenAuthenticated: () => undefined };
