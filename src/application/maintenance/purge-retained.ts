import type { Clock } from '../ports/clock.port.js';
import type { RetainedRowCounts, RetentionCutoffs, RetentionPurge } from '../ports/retention-purge.port.js';

/** Rows per delete statement of the cleanup. */
export const RETENTION_BATCH = 1_000;
/** How long one run may go on deleting (what is left waits for the next run): the worker's loop waits on it. */
export const RETENTION_RUN_MS = 10_000;

/**
 * How long finished rows are kept (docs/operations.md, "Retention"): the delivery log a webhook's
 * owner reads, the outbox events already dispatched, the rate limiter's spent windows, and the
 * spec history (`null`: forever).
 */
export interface RetentionSettings {
  readonly deliveriesMs: number;
  readonly dispatchedEventsMs: number;
  readonly rateLimitCountersMs: number;
  readonly specHistoryMs: number | null;
}

/** The defaults: a month of delivery log, a week of dispatched events, an hour of spent counters, the spec history kept. */
export const DEFAULT_RETENTION: RetentionSettings = {
  deliveriesMs: 30 * 24 * 3600_000,
  dispatchedEventsMs: 7 * 24 * 3600_000,
  rateLimitCountersMs: 3600_000,
  specHistoryMs: null,
};

export function retentionCutoffs(now: Date, settings: RetentionSettings): RetentionCutoffs {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    deliveriesCreatedBefore: before(settings.deliveriesMs),
    eventsDispatchedBefore: before(settings.dispatchedEventsMs),
    rateLimitWindowsEndedBefore: before(settings.rateLimitCountersMs),
    specRevisionsCreatedBefore: settings.specHistoryMs === null ? null : before(settings.specHistoryMs),
  };
}

/** The retention cleanup, a chore of the worker: what `RetentionSettings` no longer keeps goes, in batches. */
export class PurgeRetained {
  constructor(
    private readonly store: RetentionPurge,
    private readonly clock: Clock,
    private readonly settings: RetentionSettings,
  ) {}

  execute(): Promise<RetainedRowCounts> {
    return this.store.purge(retentionCutoffs(this.clock.now(), this.settings), RETENTION_BATCH, RETENTION_RUN_MS);
  }
}
