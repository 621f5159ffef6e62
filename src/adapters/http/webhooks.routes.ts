import type { Context } from 'koa';
import type { DeliveryRecord } from '../../domain/webhook/delivery.aggregate.js';
import type { GetDelivery, ListDeliveries, PingWebhook, Redeliver } from '../../application/webhooks/deliveries.use-cases.js';
import type {
  CreateWebhook,
  DeleteWebhook,
  GetWebhook,
  ListWebhooks,
  SetWebhookActive,
  UpdateWebhook,
} from '../../application/webhooks/webhook-management.use-cases.js';
import { principalOf } from './authenticate.js';
import { listBody, pageRequest } from './pagination.js';
import { pathId, accountIdParam, unwrap, jsonInput, type RouteDefinition } from './routes.js';
import { HEADERS, json, jsonBody, LIST_PARAMETERS, noBody } from './openapi/route-description.js';
import { ref } from './openapi/schemas.js';

/** Types are checked here; URL, event names and secret rules by the domain. */
interface CreateWebhookBody {
  targetUrl: unknown;
  events: unknown[];
  secret?: unknown;
  active?: boolean;
}

interface UpdateWebhookBody {
  targetUrl?: unknown;
  events?: unknown[];
  secret?: unknown;
}

export interface WebhookUseCases {
  readonly create: CreateWebhook;
  readonly list: ListWebhooks;
  readonly get: GetWebhook;
  readonly update: UpdateWebhook;
  readonly delete: DeleteWebhook;
  readonly setActive: SetWebhookActive;
  readonly ping: PingWebhook;
  readonly deliveries: ListDeliveries;
  readonly delivery: GetDelivery;
  readonly redeliver: Redeliver;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), id: pathId(ctx, 'webhookId') };
}

function accepted(ctx: Context, delivery: DeliveryRecord): void {
  ctx.status = 202;
  ctx.body = delivery;
}

export function webhookRoutes(useCases: WebhookUseCases): RouteDefinition[] {
  const activation = (segment: string, active: boolean): RouteDefinition => ({
    method: 'POST',
    path: `/webhooks/:accountId/:webhookId/${segment}`,
    scope: 'webhook',
    summary: active ? 'Activate: deliveries start' : 'Deactivate: deliveries stop',
    operationId: active ? 'activateWebhook' : 'deactivateWebhook',
    tag: 'Webhooks',
    description: active
      ? 'No body. Events recorded from now on are delivered; clears `deactivationReason`.'
      : 'No body. Nothing more is delivered; scheduled deliveries end `failed`.',
    responses: { 200: json('The webhook.', ref('Webhook')) },
    handler: async (ctx) => {
      ctx.body = unwrap(await useCases.setActive.execute(principalOf(ctx), { ...target(ctx), active }));
    },
  });
  return [
    {
      method: 'GET',
      path: '/webhooks/:accountId',
      scope: 'webhook.readonly',
      summary: 'List the webhooks of an account',
      operationId: 'listWebhooks',
      tag: 'Webhooks',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of webhooks, in creation order.', ref('WebhookList')) },
      problems: ['validation_failed'],
      handler: async (ctx) => {
        const page = unwrap(await useCases.list.execute(principalOf(ctx), accountIdParam(ctx), pageRequest(ctx)));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/webhooks/:accountId',
      scope: 'webhook',
      summary: 'Create a webhook (inactive unless "active": true); a generated secret is shown once',
      operationId: 'createWebhook',
      tag: 'Webhooks',
      description: 'Inactive unless created with `"active": true`. A generated secret appears once, as `secret`, in this answer.',
      requestBody: jsonBody(ref('CreateWebhook')),
      responses: { 201: json('The webhook.', ref('CreatedWebhook'), HEADERS.location) },
      problems: ['plan_limit'],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const body = jsonInput<CreateWebhookBody>(ctx);
        const created = unwrap(await useCases.create.execute(principalOf(ctx), { accountId, ...body }));
        ctx.status = 201;
        ctx.set('Location', `/webhooks/${accountId}/${created.webhook.id}`);
        ctx.body = created.secret === null ? created.webhook : { ...created.webhook, secret: created.secret };
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:accountId/:webhookId',
      scope: 'webhook.readonly',
      summary: 'One webhook, with the response of its last delivery',
      operationId: 'getWebhook',
      tag: 'Webhooks',
      responses: { 200: json('The webhook, with the outcome of its latest delivery attempt.', ref('Webhook')) },
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        ctx.body = unwrap(await useCases.get.execute(principalOf(ctx), accountId, id));
      },
    },
    {
      method: 'PATCH',
      path: '/webhooks/:accountId/:webhookId',
      scope: 'webhook',
      summary: 'Change target URL, events or secret',
      operationId: 'updateWebhook',
      tag: 'Webhooks',
      description: 'Changes any of `targetUrl`, `events`, `secret`; they apply from the next attempt on, retries included.',
      requestBody: jsonBody(ref('UpdateWebhook')),
      responses: { 200: json('The webhook as it is now.', ref('Webhook')) },
      handler: async (ctx) => {
        const changes = jsonInput<UpdateWebhookBody>(ctx);
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), ...changes }));
      },
    },
    {
      method: 'DELETE',
      path: '/webhooks/:accountId/:webhookId',
      scope: 'webhook',
      summary: 'Delete a webhook and its delivery log',
      operationId: 'deleteWebhook',
      tag: 'Webhooks',
      description: 'Deletes the webhook with its delivery log.',
      responses: { 204: noBody('Deleted.') },
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        unwrap(await useCases.delete.execute(principalOf(ctx), accountId, id));
        ctx.status = 204;
      },
    },
    activation('activate', true),
    activation('deactivate', false),
    {
      method: 'POST',
      path: '/webhooks/:accountId/:webhookId/ping',
      scope: 'webhook',
      summary: 'Send a ping event at once (202, the delivery to follow in the log)',
      operationId: 'pingWebhook',
      tag: 'Webhooks',
      description: 'No body. Schedules a `ping` event for the webhook, active or not.',
      responses: { 202: json('The new delivery, pending.', ref('Delivery')) },
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        accepted(ctx, unwrap(await useCases.ping.execute(principalOf(ctx), { accountId, webhookId: id })));
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:accountId/:webhookId/deliveries',
      scope: 'webhook.readonly',
      summary: 'The delivery log, newest first, with every attempt',
      operationId: 'listDeliveries',
      tag: 'Webhooks',
      parameters: LIST_PARAMETERS,
      responses: { 200: json('A page of the delivery log, newest first.', ref('DeliveryList')) },
      problems: ['validation_failed'],
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        const page = unwrap(await useCases.deliveries.execute(principalOf(ctx), { accountId, webhookId: id, page: pageRequest(ctx) }));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'GET',
      path: '/webhooks/:accountId/:webhookId/deliveries/:deliveryId',
      scope: 'webhook.readonly',
      summary: 'One delivery of the log, with every attempt',
      operationId: 'getDelivery',
      tag: 'Webhooks',
      description: 'The delivery as the log shows it: its state, its next attempt and each attempt made (status, response or error, duration).',
      responses: { 200: json('The delivery.', ref('Delivery')) },
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        ctx.body = unwrap(await useCases.delivery.execute(principalOf(ctx), { accountId, webhookId: id, deliveryId: pathId(ctx, 'deliveryId') }));
      },
    },
    {
      method: 'POST',
      path: '/webhooks/:accountId/:webhookId/deliveries/:deliveryId/redeliver',
      scope: 'webhook',
      summary: 'Send a delivered event again, same event id, as a new delivery',
      operationId: 'redeliver',
      tag: 'Webhooks',
      description: 'No body. Sends the delivery\'s event again (same event id, same body) as a new delivery to the current target.',
      responses: { 202: json('The new delivery, pending.', ref('Delivery')) },
      problems: ['webhook_inactive'],
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        accepted(ctx, unwrap(await useCases.redeliver.execute(principalOf(ctx), { accountId, webhookId: id, deliveryId: pathId(ctx, 'deliveryId') })));
      },
    },
  ];
}
