import { EVENT_NAMES } from '../../../domain/events/domain-event.js';
import type { JsonSchema } from './openapi.types.js';
import { ref, str, int, bool, array, nullable, object, closed, listOf, uuid, timestamp } from './schemas.js';

const EVENT = str({ enum: EVENT_NAMES });

const WEBHOOK_PROPERTIES: Record<string, JsonSchema> = {
  id: uuid('UUIDv7'),
  targetUrl: str({ description: 'Where deliveries are POSTed, exactly as given.' }),
  events: array(EVENT),
  active: bool('Whether events are delivered to it.'),
  secretSet: { const: true, description: 'Always true: the secret is never read back.' },
  creationDate: timestamp('When it was created.'),
  lastResponse: nullable(
    object(
      {
        status: nullable(int({ description: 'The HTTP status, `null` without a response.' })),
        body: str({ description: 'The first 1 KiB of the response body, or the error when there was no response.' }),
        durationMs: int({ minimum: 0 }),
        date: timestamp('When the attempt started.'),
      },
      undefined,
      { description: 'The latest delivery attempt, `null` before the first.' },
    ),
  ),
  deactivationReason: nullable(str({ description: 'Why Specbase deactivated it; `null` while active or after a deactivation by its owner.' })),
};

/** The Event-API: webhooks, their deliveries and attempts. */
export const WEBHOOKS_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Webhook: object(WEBHOOK_PROPERTIES),
  CreatedWebhook: object({ ...WEBHOOK_PROPERTIES, secret: str({ pattern: '^[0-9a-f]{64}$', description: 'Only when Specbase generated the secret: shown this once.' }) }, Object.keys(WEBHOOK_PROPERTIES)),
  WebhookList: listOf('Webhook', 'Webhooks in creation order.'),
  CreateWebhook: closed(
    {
      targetUrl: str({ maxLength: 2048, description: 'An absolute http or https URL without credentials; by default its host must be public.' }),
      events: array(EVENT, { minItems: 1 }),
      secret: str({ minLength: 16, maxLength: 256, description: 'The HMAC key of both signatures; omitted: one is generated and returned once.' }),
      active: bool('Default false: created inactive.'),
    },
    ['targetUrl', 'events'],
  ),
  UpdateWebhook: closed({
    targetUrl: str({ maxLength: 2048 }),
    events: array(EVENT, { minItems: 1 }),
    secret: str({ minLength: 16, maxLength: 256 }),
  }),
  Delivery: object({
    id: uuid('UUIDv7'),
    eventId: uuid("The event's id: the payload's `id` and the `webhook-id` header."),
    event: str({ description: 'The event name, `ping` included.' }),
    state: str({ enum: ['pending', 'succeeded', 'failed'] }),
    attempts: array(ref('DeliveryAttempt'), { description: 'Oldest first.' }),
    nextAttemptDate: nullable(str({ format: 'date-time', description: 'When the next attempt is due while `pending`.' })),
  }),
  DeliveryAttempt: object({
    date: timestamp('When the attempt started.'),
    status: nullable(int()),
    durationMs: int({ minimum: 0 }),
    error: nullable(str({ description: 'Why there was no response.' })),
    responseBody: str({ description: 'The first 1 KiB of the response body, `""` when none.' }),
  }),
  DeliveryList: listOf('Delivery', 'Deliveries, newest first.'),
};
