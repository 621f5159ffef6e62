import type { EventOutbox, OutboxBacklog, OutboxEvent } from '../../application/ports/event-outbox.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import { eventPayload, type DomainEvent } from '../../domain/events/domain-event.js';
import type { StateSource } from './in-memory-state.js';

export class InMemoryEventOutbox implements EventOutbox {
  constructor(
    private readonly state: StateSource,
    private readonly ids: IdGenerator,
  ) {}

  async append(events: readonly DomainEvent[]): Promise<void> {
    const s = this.state();
    for (const event of events) {
      const id = this.ids.next();
      s.outbox.push({ id, accountId: event.accountId, payload: eventPayload(id, event), dispatchedAt: null });
    }
  }

  async pending(limit: number): Promise<OutboxEvent[]> {
    return this.state()
      .outbox.filter((e) => e.dispatchedAt === null)
      .slice(0, limit)
      .map(({ dispatchedAt, ...event }) => ({ ...event, dispatched: dispatchedAt !== null }));
  }

  /** In-memory transactions run one at a time: nothing to skip. */
  claimPending(limit: number): Promise<OutboxEvent[]> {
    return this.pending(limit);
  }

  async markDispatched(ids: readonly string[], at: Date): Promise<void> {
    const s = this.state();
    const done = new Set(ids);
    s.outbox = s.outbox.map((e) => (done.has(e.id) ? { ...e, dispatchedAt: at } : e));
  }

  async backlog(): Promise<OutboxBacklog> {
    const pending = this.state().outbox.filter((e) => e.dispatchedAt === null);
    return { pending: pending.length, oldestOccurredAt: pending[0] ? new Date(pending[0].payload.timestamp) : null };
  }
}
