import { HEADERS, json, jsonBody, LIST_PARAMETERS, noBody, type RouteDescription, type RouteKey } from './route-description.js';
import { ref } from './schemas.js';

const webhookAnswer = (operationId: string, description: string): RouteDescription => ({
  operationId,
  tag: 'Webhooks',
  description,
  responses: { 200: json('The webhook.', ref('Webhook')) },
});

/** The Event-API: webhooks, their delivery log, ping and redelivery. */
export const EVENT_API_DESCRIPTIONS: Readonly<Record<RouteKey, RouteDescription>> = {
  'GET /webhooks/:accountId': {
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of webhooks, in creation order.', ref('WebhookList')) },
    problems: ['validation_failed'],
  },
  'POST /webhooks/:accountId': {
    operationId: 'createWebhook',
    tag: 'Webhooks',
    description: 'Inactive unless created with `"active": true`. A generated secret appears once, as `secret`, in this answer.',
    requestBody: jsonBody(ref('CreateWebhook')),
    responses: { 201: json('The webhook.', ref('CreatedWebhook'), HEADERS.location) },
    problems: ['plan_limit'],
  },
  'GET /webhooks/:accountId/:webhookId': {
    operationId: 'getWebhook',
    tag: 'Webhooks',
    responses: { 200: json('The webhook, with the outcome of its latest delivery attempt.', ref('Webhook')) },
  },
  'PATCH /webhooks/:accountId/:webhookId': {
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    description: 'Changes any of `targetUrl`, `events`, `secret`; they apply from the next attempt on, retries included.',
    requestBody: jsonBody(ref('UpdateWebhook')),
    responses: { 200: json('The webhook as it is now.', ref('Webhook')) },
  },
  'DELETE /webhooks/:accountId/:webhookId': {
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    description: 'Deletes the webhook with its delivery log.',
    responses: { 204: noBody('Deleted.') },
  },
  'POST /webhooks/:accountId/:webhookId/activate': webhookAnswer('activateWebhook', 'No body. Events recorded from now on are delivered; clears `deactivationReason`.'),
  'POST /webhooks/:accountId/:webhookId/deactivate': webhookAnswer('deactivateWebhook', 'No body. Nothing more is delivered; scheduled deliveries end `failed`.'),
  'POST /webhooks/:accountId/:webhookId/ping': {
    operationId: 'pingWebhook',
    tag: 'Webhooks',
    description: 'No body. Schedules a `ping` event for the webhook, active or not.',
    responses: { 202: json('The new delivery, pending.', ref('Delivery')) },
  },
  'GET /webhooks/:accountId/:webhookId/deliveries': {
    operationId: 'listDeliveries',
    tag: 'Webhooks',
    parameters: LIST_PARAMETERS,
    responses: { 200: json('A page of the delivery log, newest first.', ref('DeliveryList')) },
    problems: ['validation_failed'],
  },
  'POST /webhooks/:accountId/:webhookId/deliveries/:deliveryId/redeliver': {
    operationId: 'redeliver',
    tag: 'Webhooks',
    description: 'No body. Sends the delivery\'s event again (same event id, same body) as a new delivery to the current target.',
    responses: { 202: json('The new delivery, pending.', ref('Delivery')) },
    problems: ['webhook_inactive'],
  },
};
