import type { DeliveryRepository } from '../../application/ports/delivery-repository.port.js';
import type { WebhookRepository } from '../../application/ports/webhook-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { EventName } from '../../domain/events/domain-event.js';
import { Delivery, type DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import { Webhook, type WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Dialect } from './dialect.js';
import type { DeliveryRow, Schemas, WebhookRow } from './schema.js';
import { isUuid, type Run } from './typeorm-database.js';

function webhookFromRow(row: WebhookRow): Webhook {
  return Webhook.rehydrate({
    id: row.id,
    accountId: Number(row.accountId),
    targetUrl: row.targetUrl,
    events: row.events as EventName[],
    secret: row.secret,
    active: Boolean(row.active),
    creationDate: row.creationDate,
    updateDate: row.updateDate,
    lastResponse: row.lastResponse && { ...row.lastResponse, date: new Date(row.lastResponse.date) },
    failingSince: row.failingSince,
    deactivationReason: row.deactivationReason,
  });
}

function webhookToRow(webhook: Webhook): WebhookRow {
  const s = webhook.snapshot();
  return { ...s, events: [...s.events], lastResponse: s.lastResponse && { ...s.lastResponse, date: s.lastResponse.date.toISOString() } };
}

export class TypeOrmWebhookRepository implements WebhookRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  get(accountId: number, id: WebhookId): Promise<Webhook | undefined> {
    return this.find(accountId, id, false);
  }

  getForUpdate(accountId: number, id: WebhookId): Promise<Webhook | undefined> {
    return this.find(accountId, id, this.dialect === 'postgres');
  }

  private find(accountId: number, id: WebhookId, lock: boolean): Promise<Webhook | undefined> {
    if (!isUuid(id)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.webhooks, 'w').where('w.id = :id AND w.account_id = :accountId', { id, accountId });
      if (lock) query.setLock('pessimistic_write');
      const row = await query.getOne();
      return row ? webhookFromRow(row) : undefined;
    });
  }

  countActive(): Promise<number> {
    return this.run((m) => m.getRepository(this.s.webhooks).count({ where: { active: true } }));
  }

  list(accountId: number, page: PageRequest<WebhookId>): Promise<Page<Webhook, WebhookId>> {
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.webhooks, 'w').where('w.account_id = :accountId', { accountId });
      if (page.after !== undefined) query.andWhere('w.id > :after', { after: page.after });
      const rows = await query.orderBy('w.id', 'ASC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(webhookFromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  subscribers(accountId: number, event: EventName): Promise<Webhook[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.webhooks).find({ where: { accountId, active: true }, order: { id: 'ASC' } });
      return rows.map(webhookFromRow).filter((w) => w.subscribesTo(event));
    });
  }

  save(webhook: Webhook): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.webhooks).upsert(webhookToRow(webhook), ['id']);
    });
  }

  delete(accountId: number, id: WebhookId): Promise<void> {
    if (!isUuid(id)) return Promise.resolve();
    return this.run(async (m) => {
      await m.getRepository(this.s.webhooks).delete({ id, accountId });
    });
  }
}

function deliveryFromRow(row: DeliveryRow): Delivery {
  return Delivery.rehydrate({
    id: row.id,
    webhookId: row.webhookId,
    accountId: Number(row.accountId),
    eventId: row.eventId,
    event: row.event,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts.map((a) => ({ ...a, date: new Date(a.date) })),
    nextAttemptDate: row.nextAttemptDate,
    creationDate: row.creationDate,
  });
}

function deliveryColumns(delivery: Delivery): Omit<DeliveryRow, 'dispatchKey' | 'leaseUntil'> {
  const s = delivery.snapshot();
  return { ...s, attempts: s.attempts.map((a) => ({ ...a, date: a.date.toISOString() })) };
}

export class TypeOrmDeliveryRepository implements DeliveryRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
    private readonly work: { value: boolean } = { value: false },
  ) {}

  add(delivery: Delivery, dispatchKey: string | null): Promise<boolean> {
    this.work.value = true;
    return this.run(async (m) => {
      const row = { ...deliveryColumns(delivery), dispatchKey, leaseUntil: null };
      if (dispatchKey === null) {
        await m.getRepository(this.s.deliveries).insert(row);
        return true;
      }
      // ON CONFLICT DO NOTHING (a unique violation would abort a PostgreSQL transaction); the id
      // is new, so the row exists afterwards exactly when this insert made it.
      await m.createQueryBuilder().insert().into(this.s.deliveries).values(row).orIgnore().execute();
      return m.getRepository(this.s.deliveries).existsBy({ id: row.id });
    });
  }

  get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    return this.find(webhookId, id, false);
  }

  getForUpdate(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    return this.find(webhookId, id, this.dialect === 'postgres');
  }

  private find(webhookId: WebhookId, id: DeliveryId, lock: boolean): Promise<Delivery | undefined> {
    if (!isUuid(webhookId) || !isUuid(id)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.deliveries, 'd').where('d.id = :id AND d.webhook_id = :webhookId', { id, webhookId });
      if (lock) query.setLock('pessimistic_write');
      const row = await query.getOne();
      return row ? deliveryFromRow(row) : undefined;
    });
  }

  list(webhookId: WebhookId, page: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>> {
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.deliveries, 'd').where('d.webhook_id = :webhookId', { webhookId });
      if (page.after !== undefined) query.andWhere('d.id < :after', { after: page.after });
      const rows = await query.orderBy('d.id', 'DESC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(deliveryFromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  save(delivery: Delivery): Promise<void> {
    return this.run(async (m) => {
      const { id, ...columns } = deliveryColumns(delivery);
      await m.getRepository(this.s.deliveries).update({ id }, { ...columns, leaseUntil: null });
    });
  }

  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]> {
    return this.run(async (m) => {
      const at = now.toISOString();
      const query = m
        .createQueryBuilder(this.s.deliveries, 'd')
        .where("d.state = 'pending' AND d.next_attempt_date <= :at AND (d.lease_until IS NULL OR d.lease_until <= :at)", { at })
        .andWhere((qb) => {
          const earlier = qb
            .subQuery()
            .select('1')
            .from(this.s.deliveries, 'e')
            .where("e.webhook_id = d.webhook_id AND e.state = 'pending' AND e.next_attempt_date <= :at")
            .andWhere('(e.event_id < d.event_id OR (e.event_id = d.event_id AND e.id < d.id))')
            .getQuery();
          return `NOT EXISTS ${earlier}`;
        })
        .orderBy('d.event_id', 'ASC')
        .addOrderBy('d.id', 'ASC')
        .limit(limit);
      if (this.dialect === 'postgres') query.setLock('pessimistic_write', undefined, ['d']).setOnLocked('skip_locked');
      const rows = await query.getMany();
      if (rows.length > 0) {
        await m
          .createQueryBuilder()
          .update(this.s.deliveries)
          .set({ leaseUntil })
          .whereInIds(rows.map((r) => r.id))
          .execute();
      }
      return rows.map(deliveryFromRow);
    });
  }
}

