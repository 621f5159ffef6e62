import { IsArray, IsBoolean, IsDefined, IsOptional } from 'class-validator';
import type { Context, Middleware } from 'koa';
import type { DeliveryRecord } from '../../domain/webhook/delivery.aggregate.js';
import type { ListDeliveries, PingWebhook, Redeliver } from '../../application/webhooks/deliveries.use-cases.js';
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
import { accountIdParam, param, unwrap, type RouteDefinition } from './routes.js';
import { jsonObjectBody, validated } from './validation.js';

/** Types are checked here; URL, event names and secret rules by the domain. */
class CreateWebhookBody {
  @IsDefined() targetUrl!: unknown;
  @IsDefined() @IsArray() events!: unknown[];
  @IsOptional() secret?: unknown;
  @IsOptional() @IsBoolean() active?: boolean;
}

class UpdateWebhookBody {
  @IsOptional() targetUrl?: unknown;
  @IsOptional() @IsArray() events?: unknown[];
  @IsOptional() secret?: unknown;
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
  readonly redeliver: Redeliver;
}

function target(ctx: Context) {
  return { accountId: accountIdParam(ctx), id: param(ctx, 'webhookId') };
}

function accepted(ctx: Context, delivery: DeliveryRecord): void {
  ctx.status = 202;
  ctx.body = delivery;
}

export function webhookRoutes(useCases: WebhookUseCases, jsonBody: Middleware): RouteDefinition[] {
  const activation = (segment: string, active: boolean): RouteDefinition => ({
    method: 'POST',
    path: `/webhooks/:accountId/:webhookId/${segment}`,
    scope: 'webhook',
    summary: active ? 'Activate: deliveries start' : 'Deactivate: deliveries stop',
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
      middleware: [jsonBody],
      handler: async (ctx) => {
        const accountId = accountIdParam(ctx);
        const body = validated(CreateWebhookBody, jsonObjectBody(ctx));
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
      middleware: [jsonBody],
      handler: async (ctx) => {
        const changes = validated(UpdateWebhookBody, jsonObjectBody(ctx));
        ctx.body = unwrap(await useCases.update.execute(principalOf(ctx), { ...target(ctx), ...changes }));
      },
    },
    {
      method: 'DELETE',
      path: '/webhooks/:accountId/:webhookId',
      scope: 'webhook',
      summary: 'Delete a webhook and its delivery log',
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
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        const page = unwrap(await useCases.deliveries.execute(principalOf(ctx), { accountId, webhookId: id, page: pageRequest(ctx) }));
        ctx.body = listBody(page.items, page.next);
      },
    },
    {
      method: 'POST',
      path: '/webhooks/:accountId/:webhookId/deliveries/:deliveryId/redeliver',
      scope: 'webhook',
      summary: 'Send a delivered event again, same event id, as a new delivery',
      handler: async (ctx) => {
        const { accountId, id } = target(ctx);
        accepted(ctx, unwrap(await useCases.redeliver.execute(principalOf(ctx), { accountId, webhookId: id, deliveryId: param(ctx, 'deliveryId') })));
      },
    },
  ];
}
