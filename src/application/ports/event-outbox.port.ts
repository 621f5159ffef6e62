import type { AccountId } from '../../domain/account/account.js';
import type { DomainEvent, EventPayload } from '../../domain/events/domain-event.js';
import { token } from '../shared/token.js';

/** An event as the outbox holds it, with the id every delivery of it carries. */
export interface OutboxEvent {
  readonly id: string;
  readonly accountId: AccountId;
  readonly payload: EventPayload;
  readonly dispatched: boolean;
}

/** The events waiting to be dispatched, for monitoring. */
export interface OutboxBacklog {
  readonly pending: number;
  /** When the oldest of them occurred; `null` when none waits. */
  readonly oldestOccurredAt: Date | null;
}

export interface EventOutbox {
  /** Stores the events, each under a new id, in the caller's transaction. */
  append(events: readonly DomainEvent[]): Promise<void>;
  /** Events not yet dispatched, oldest first. */
  pending(limit: number): Promise<OutboxEvent[]>;
  /**
   * Like `pending`, locking the rows so that concurrent dispatchers take different events (rows
   * another transaction holds are skipped). Inside `UnitOfWork.run` only.
   */
  claimPending(limit: number): Promise<OutboxEvent[]>;
  /** Marks events dispatched (their deliveries are recorded in the same transaction). */
  markDispatched(ids: readonly string[], at: Date): Promise<void>;
  /** How many events of every account are not yet dispatched, and the oldest one's time. */
  backlog(): Promise<OutboxBacklog>;
}
export const EventOutbox = token<EventOutbox>('EventOutbox');
