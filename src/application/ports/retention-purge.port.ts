import { token } from '../shared/token.js';

/** The moments before which each kind of finished row goes (see `retentionCutoffs`). */
export interface RetentionCutoffs {
  /**
   * Deliveries that ended (`succeeded` or `failed`) and were created before this; pending ones stay.
   * Also the events' payloads stored for deliveries (where a store keeps them apart) that no
   * delivery left needs.
   */
  readonly deliveriesCreatedBefore: Date;
  /** Outbox events dispatched before this (their deliveries have long been made). */
  readonly eventsDispatchedBefore: Date;
  /** Rate-limit counters whose window ended before this. */
  readonly rateLimitWindowsEndedBefore: Date;
  /**
   * Spec revisions stored before this, unless current or made into a release, with the chunks no
   * revision left uses; null: the spec history is kept whole (the default).
   */
  readonly specRevisionsCreatedBefore: Date | null;
}

/** Rows of the tables that grow with use and that the retention cleanup keeps bounded. */
export interface RetainedRowCounts {
  readonly deliveries: number;
  /** Event payloads stored apart from their deliveries (0 where a store keeps them in each delivery). */
  readonly webhookPayloads: number;
  readonly outboxEvents: number;
  readonly rateLimitCounters: number;
  readonly specRevisions: number;
  readonly specChunks: number;
}

/** The scheduled retention cleanup (outside any transaction: each batch is its own). */
export interface RetentionPurge {
  /**
   * Deletes what finished before the cutoffs, `batchSize` rows per statement until none is left
   * or `budgetMs` of wall time have passed (each table gets one batch at least), so no statement
   * holds a lock for long and no run holds up the worker's loop for long: a backlog (the first run
   * on a database of years) goes over several runs. Several instances may run it at once (they
   * share the work). Returns how many rows went from each table.
   */
  purge(cutoffs: RetentionCutoffs, batchSize: number, budgetMs: number): Promise<RetainedRowCounts>;
  /** How many rows each table holds (the soak's figures, and the tests of the bound). */
  counts(): Promise<RetainedRowCounts>;
}
export const RetentionPurge = token<RetentionPurge>('RetentionPurge');
