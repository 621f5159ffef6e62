import type { AccountId, UserId } from '../account/account.js';
import { formatTimestamp } from '../shared/time.js';

export const EVENT_NAMES = [
  'api.created',
  'api.updated',
  'api.deleted',
  'release.released',
  'release.deprecated',
  'release.endOfLife',
  'release.deleted',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export type ResourceType = 'Api' | 'Release';

/** The user who caused an event, as the payload shows it. */
export interface Actor {
  readonly id: UserId;
  readonly nickname: string;
}

/**
 * Something that happened to an aggregate. The unit of work stores it in the outbox in the same
 * transaction as the change; the event id is assigned there.
 */
export interface DomainEvent {
  readonly name: EventName;
  readonly occurredAt: Date;
  readonly accountId: AccountId;
  readonly actor: Actor;
  readonly resourceType: ResourceType;
  /** The affected resource as the payload carries it: plain JSON data. */
  readonly resource: Readonly<Record<string, unknown>>;
}

/** The webhook payload of the contract: `{ id, name, timestamp, user, resourceType, resource }`. */
export interface EventPayload {
  readonly id: string;
  readonly name: EventName;
  readonly timestamp: string;
  readonly user: Actor;
  readonly resourceType: ResourceType;
  readonly resource: Readonly<Record<string, unknown>>;
}

export function eventPayload(eventId: string, event: DomainEvent): EventPayload {
  return {
    id: eventId,
    name: event.name,
    timestamp: formatTimestamp(event.occurredAt),
    user: { id: event.actor.id, nickname: event.actor.nickname },
    resourceType: event.resourceType,
    resource: event.resource,
  };
}
