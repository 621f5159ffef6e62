import type { AccountId } from '../../domain/account/account.js';
import type { EntityManager } from 'typeorm';
import type { DeliveryRepository, Lease } from '../../application/ports/delivery-repository.port.js';
import type { WebhookRepository } from '../../application/ports/webhook-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { EventName } from '../../domain/events/domain-event.js';
import { Delivery, type DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import { Webhook, type WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { Dialect } from './dialect.js';
import type { DeliveryRow, WebhookRow } from './rows.js';
import type { Schemas } from './schema.js';
import { dateOf, forDialect, nullableDateOf, placeholderList, storedKey, tableOf, updated } from './raw-sql.js';
import type { SecretBox } from './secret-box.js';
import type { Run } from './typeorm-database.js';

/** The secret's column sealed by the operator key (secret-box.ts): never stored in clear. */
export const webhookSecretContext = (id: string): string => `webhooks.secret:${id}`;

function webhookFromRow(row: WebhookRow, secrets: SecretBox): Webhook {
  return Webhook.rehydrate({
    id: row.id,
    accountId: storedKey(row.accountId),
    targetUrl: row.targetUrl,
    events: row.events as EventName[],
    secret: secrets.open(row.secret, webhookSecretContext(row.id)),
    active: Boolean(row.active),
    creationDate: row.creationDate,
    updateDate: row.updateDate,
    lastResponse: row.lastResponse && { ...row.lastResponse, date: new Date(row.lastResponse.date) },
    failingSince: row.failingSince,
    deactivationReason: row.deactivationReason,
  });
}

function webhookToRow(webhook: Webhook, secrets: SecretBox): WebhookRow {
  const s = webhook.snapshot();
  return { ...s, secret: secrets.seal(s.secret, webhookSecretContext(s.id)), events: [...s.events], lastResponse: s.lastResponse && { ...s.lastResponse, date: s.lastResponse.date.toISOString() } };
}

export class TypeOrmWebhookRepository implements WebhookRepository {
  private readonly fromRow = (row: WebhookRow): Webhook => webhookFromRow(row, this.secrets);

  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
    private readonly secrets: SecretBox,
  ) {}

  get(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined> {
    return this.find(accountId, id, false);
  }

  getForUpdate(accountId: AccountId, id: WebhookId): Promise<Webhook | undefined> {
    return this.find(accountId, id, this.dialect === 'postgres');
  }

  private find(accountId: AccountId, id: WebhookId, lock: boolean): Promise<Webhook | undefined> {
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.webhooks, 'w').where('w.id = :id AND w.account_id = :accountId', { id, accountId });
      // FOR NO KEY UPDATE: exclusive among the webhook's writers and claimers as FOR UPDATE is, but
      // without holding up the foreign-key checks of deliveries inserted for it meanwhile (a fan-out
      // waited on every lane's recording).
      if (lock) query.setLock('for_no_key_update');
      const row = await query.getOne();
      return row ? this.fromRow(row) : undefined;
    });
  }

  countActive(): Promise<number> {
    return this.run((m) => m.getRepository(this.s.webhooks).count({ where: { active: true } }));
  }

  countInAccount(accountId: AccountId): Promise<number> {
    return this.run((m) => m.getRepository(this.s.webhooks).count({ where: { accountId } }));
  }

  list(accountId: AccountId, page: PageRequest<WebhookId>): Promise<Page<Webhook, WebhookId>> {
    return this.run(async (m) => {
      const query = m.createQueryBuilder(this.s.webhooks, 'w').where('w.account_id = :accountId', { accountId });
      if (page.after !== undefined) query.andWhere('w.id > :after', { after: page.after });
      const rows = await query.orderBy('w.id', 'ASC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(this.fromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  subscribers(accountId: AccountId, event: EventName): Promise<Webhook[]> {
    return this.run(async (m) => {
      const rows = await m.getRepository(this.s.webhooks).find({ where: { accountId, active: true }, order: { id: 'ASC' } });
      // Only the subscribers' secrets are opened.
      return rows.filter((row) => (row.events as EventName[]).includes(event)).map(this.fromRow);
    });
  }

  save(webhook: Webhook): Promise<void> {
    return this.run(async (m) => {
      // An upsert that leaves the key alone (`upsert` sets `id` too, which makes PostgreSQL lock the
      // row as for a key change and so wait for, and hold up, the foreign-key checks of deliveries).
      const columns = m.connection.getMetadata(this.s.webhooks).columns.filter((column) => !column.isPrimary).map((column) => column.databaseName);
      await m.createQueryBuilder().insert().into(this.s.webhooks).values(webhookToRow(webhook, this.secrets)).orUpdate(columns, ['id']).execute();
    });
  }

  delete(accountId: AccountId, id: WebhookId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.webhooks).delete({ id, accountId });
    });
  }
}

/** What a delivery is made of: its row but for the dispatch key, and its event's payload. */
type DeliveryFields = Omit<DeliveryRow, 'dispatchKey'> & { payload: string };

function deliveryFromRow(row: DeliveryFields): Delivery {
  return Delivery.rehydrate({
    id: row.id,
    webhookId: row.webhookId,
    accountId: storedKey(row.accountId),
    eventId: row.eventId,
    event: row.event,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts.map((a) => ({ ...a, date: new Date(a.date) })),
    nextAttemptDate: row.nextAttemptDate,
    creationDate: row.creationDate,
  });
}

function deliveryColumns(delivery: Delivery): DeliveryFields {
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
    return this.insert([delivery], dispatchKey === null ? null : [dispatchKey]).then((stored) => stored === 1);
  }

  addFanOut(deliveries: readonly Delivery[]): Promise<number> {
    return this.insert(deliveries, deliveries.map((delivery) => delivery.eventId));
  }

  /**
   * Stores each event's payload once (migration 0024), then the deliveries, keyed by `keys` (one a
   * delivery) or by none. A payload already stored (a redelivery, a repeated fan-out) keeps its
   * text and takes the new delivery's date: the retention cleanup deletes a payload only once it
   * is old and no delivery names it, and on PostgreSQL the update makes a cleanup that is deleting
   * it meanwhile wait for this transaction, find the row changed and leave it.
   */
  private insert(deliveries: readonly Delivery[], keys: readonly string[] | null): Promise<number> {
    if (deliveries.length === 0) return Promise.resolve(0);
    this.work.value = true;
    return this.run(async (m) => {
      const rows = deliveries.map(deliveryColumns);
      const payloads = new Map<string, unknown[]>();
      for (const c of rows) if (!payloads.has(c.eventId)) payloads.set(c.eventId, [c.eventId, c.payload, c.creationDate.toISOString()]);
      const p = tableOf(m, this.s.payloads);
      for (const chunk of rowSources(this.dialect, PAYLOAD_TYPES, [...payloads.values()])) {
        const sql = `INSERT INTO ${p} (event_id, payload, creation_date) ${chunk.source} ON CONFLICT (event_id) DO UPDATE SET creation_date = excluded.creation_date`;
        await m.query(forDialect(this.dialect, sql), chunk.values);
      }
      const table = tableOf(m, this.s.deliveries);
      const values = rows.map((c, n) => [c.id, c.webhookId, c.accountId, c.eventId, c.event, keys?.[n] ?? null, c.state, JSON.stringify(c.attempts), c.nextAttemptDate?.toISOString() ?? null, c.creationDate.toISOString()]);
      let stored = 0;
      for (const chunk of rowSources(this.dialect, DELIVERY_TYPES, values)) {
        // ON CONFLICT DO NOTHING: a repeated fan-out inserts nothing (and aborts no PostgreSQL transaction).
        const sql = `INSERT INTO ${table} (id, webhook_id, account_id, event_id, event, dispatch_key, state, attempts, next_attempt_date, creation_date) ${chunk.source} ON CONFLICT DO NOTHING RETURNING id`;
        stored += (await m.query<{ id: string }[]>(forDialect(this.dialect, sql), chunk.values)).length;
      }
      return stored;
    });
  }

  get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    return this.run(async (m) => {
      const sql = `SELECT ${DELIVERY_COLUMNS} FROM ${this.joined(m)} WHERE e.webhook_id = ? AND e.id = ?`;
      const rows = await m.query<RawDelivery[]>(forDialect(this.dialect, sql), [webhookId, id]);
      return rows[0] && deliveryFromRaw(rows[0]);
    });
  }

  list(webhookId: WebhookId, page: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>> {
    return this.run(async (m) => {
      const after = page.after === undefined ? '' : ' AND e.id < ?';
      const sql = `SELECT ${DELIVERY_COLUMNS} FROM ${this.joined(m)} WHERE e.webhook_id = ?${after} ORDER BY e.id DESC LIMIT ?`;
      const rows = await m.query<RawDelivery[]>(forDialect(this.dialect, sql), [webhookId, ...(page.after === undefined ? [] : [page.after]), page.limit + 1]);
      const items = rows.slice(0, page.limit).map(deliveryFromRaw);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  /** The deliveries `e` with their event's payload `p`, for a FROM clause. */
  private joined(m: EntityManager): string {
    return `${tableOf(m, this.s.deliveries)} e JOIN ${tableOf(m, this.s.payloads)} p ON p.event_id = e.event_id`;
  }

  save(delivery: Delivery): Promise<void> {
    return this.run(async (m) => {
      const { id, webhookId, state, attempts, nextAttemptDate } = deliveryColumns(delivery);
      await m.getRepository(this.s.deliveries).update({ webhookId, id }, { state, attempts, nextAttemptDate });
    });
  }

  holds(webhookId: WebhookId, leaseToken: string): Promise<boolean> {
    return this.run(async (m) => {
      const sql = `SELECT 1 AS held FROM ${tableOf(m, this.s.webhooks)} WHERE id = ? AND lease_token = ?`;
      return (await m.query<unknown[]>(forDialect(this.dialect, sql), [webhookId, leaseToken])).length > 0;
    });
  }

  saveAll(webhookId: WebhookId, all: readonly Delivery[], leaseToken: string): Promise<number> {
    // Only the webhook's: one claim's token holds every webhook it leased. Checked on the
    // deliveries given (a run's, as its claim read them); in SQL the fence is the token.
    const deliveries = all.filter((delivery) => delivery.webhookId === webhookId);
    if (deliveries.length === 0) return Promise.resolve(0);
    return this.run(async (m) => {
      const table = tableOf(m, this.s.deliveries);
      const held = heldBy(tableOf(m, this.s.webhooks));
      const values = deliveries.map((delivery) => {
        const c = deliveryColumns(delivery);
        return [c.id, c.state, JSON.stringify(c.attempts), c.nextAttemptDate?.toISOString() ?? null];
      });
      let written = 0;
      for (const chunk of rowSources(this.dialect, OUTCOME_TYPES, values)) {
        // One statement for the chunk: the new values joined to the rows by their key (UPDATE ...
        // FROM), written only while the webhook holds the run's lease.
        const sql =
          `WITH v(id, state, attempts, next) AS (${chunk.source}) UPDATE ${table} AS t SET state = v.state, attempts = v.attempts, next_attempt_date = v.next ` +
          `FROM v WHERE t.webhook_id = ? AND t.id = v.id AND ${held} RETURNING ${this.dialect === 'postgres' ? 't.id' : 'id'}`;
        written += (await updated(m, forDialect(this.dialect, sql), [...chunk.values, webhookId, webhookId, leaseToken])).length;
      }
      return written;
    });
  }

  release(webhookId: WebhookId, leaseToken: string): Promise<boolean> {
    return this.run(async (m) => {
      const sql = `UPDATE ${tableOf(m, this.s.webhooks)} SET lease_until = NULL, lease_token = NULL WHERE id = ? AND lease_token = ? RETURNING id`;
      return (await updated(m, forDialect(this.dialect, sql), [webhookId, leaseToken])).length > 0;
    });
  }

  /**
   * Three steps, in plain SQL: the webhooks not leased with a due delivery, oldest due event first
   * (each probe walks the webhook's pending queue index, so a long history costs nothing); on
   * PostgreSQL, those webhook rows locked with SKIP LOCKED and their lease checked again, so
   * concurrent claimers take disjoint webhooks and one sees a lease another committed meanwhile;
   * then each webhook's first `perWebhook` due deliveries, and the webhooks that have some leased.
   */
  claimDue(now: Date, lease: Lease, limit: number, perWebhook = 1): Promise<Delivery[]> {
    return this.run(async (m) => {
      const at = now.toISOString();
      const d = tableOf(m, this.s.deliveries);
      const w = tableOf(m, this.s.webhooks);
      const candidates = await m.query<{ id: string }[]>(
        forDialect(
          this.dialect,
          `SELECT q.id FROM (SELECT w.id AS id, (SELECT e.event_id FROM ${d} e WHERE e.webhook_id = w.id AND e.state = 'pending' AND e.next_attempt_date <= ? ORDER BY e.event_id, e.id LIMIT 1) AS first ` +
            `FROM ${w} w WHERE ${FREE}) q WHERE q.first IS NOT NULL ORDER BY q.first, q.id LIMIT ?`,
        ),
        [at, at, limit],
      );
      let webhookIds = candidates.map((r) => r.id);
      if (webhookIds.length === 0) return [];
      if (this.dialect === 'postgres') {
        // The lease checked again on the row as it is once locked (a claim that committed since this
        // statement's snapshot leased it), not as the candidates' snapshot saw it.
        const locked = await m.query<{ id: string }[]>(forDialect(this.dialect, `SELECT w.id FROM ${w} w WHERE w.id IN (${placeholderList(webhookIds.length)}) AND ${FREE} FOR NO KEY UPDATE SKIP LOCKED`), [...webhookIds, at]);
        const mine = new Set(locked.map((r) => r.id));
        webhookIds = webhookIds.filter((id) => mine.has(id));
        if (webhookIds.length === 0) return [];
      }
      const rows: RawDelivery[] = [];
      for (let i = 0; i < webhookIds.length; i += UNION_CHUNK) {
        rows.push(...(await this.due(m, webhookIds.slice(i, i + UNION_CHUNK), at, perWebhook)));
      }
      const claimed = rows.sort(byEvent).slice(0, limit);
      await this.lease(m, [...new Set(claimed.map((row) => row.webhookId))], lease);
      return claimed.map(deliveryFromRaw);
    });
  }

  claimNext(webhookId: WebhookId, now: Date, lease: Lease, limit: number): Promise<Delivery[]> {
    return this.run(async (m) => {
      const at = now.toISOString();
      const free = await m.query<{ id: string }[]>(forDialect(this.dialect, `SELECT w.id FROM ${tableOf(m, this.s.webhooks)} w WHERE w.id = ? AND ${FREE}`), [webhookId, at]);
      if (free.length === 0) return [];
      // Sorted here: the outer SELECT of the UNION keeps no order of its own.
      const claimed = (await this.due(m, [webhookId], at, limit)).sort(byEvent);
      if (claimed.length > 0) await this.lease(m, [webhookId], lease);
      return claimed.map(deliveryFromRaw);
    });
  }

  /** Each of `webhookIds`' first `perWebhook` due pending deliveries by event; one statement. */
  private due(m: EntityManager, webhookIds: readonly string[], at: string, perWebhook: number): Promise<RawDelivery[]> {
    const from = this.joined(m);
    const one = (n: number) =>
      `SELECT * FROM (SELECT ${DELIVERY_COLUMNS} FROM ${from} WHERE e.webhook_id = ? AND e.state = 'pending' AND e.next_attempt_date <= ? ` +
      `ORDER BY e.event_id, e.id LIMIT ?) q${n}`;
    const sql = webhookIds.map((_, n) => one(n)).join(' UNION ALL ');
    return m.query<RawDelivery[]>(forDialect(this.dialect, sql), webhookIds.flatMap((id) => [id, at, perWebhook]));
  }

  private async lease(m: EntityManager, webhookIds: readonly string[], lease: Lease): Promise<void> {
    if (webhookIds.length === 0) return;
    const sql = `UPDATE ${tableOf(m, this.s.webhooks)} SET lease_until = ?, lease_token = ? WHERE id IN (${placeholderList(webhookIds.length)})`;
    await m.query(forDialect(this.dialect, sql), [lease.until.toISOString(), lease.token, ...webhookIds]);
  }
}

/** PostgreSQL's types of the columns `rowSources` is given: a delivery's, a payload's, an outcome's. */
const DELIVERY_TYPES = ['uuid', 'uuid', 'integer', 'uuid', 'text', 'uuid', 'text', 'text', 'timestamptz', 'timestamptz'] as const;
const PAYLOAD_TYPES = ['uuid', 'text', 'timestamptz'] as const;
const OUTCOME_TYPES = ['uuid', 'text', 'text', 'timestamptz'] as const;

/**
 * Rows a statement at most: on SQLite, where each value is a parameter, far below its limit
 * (32,766) for the widest rows (10 values), and a longest run in one (DELIVERIES_PER_RUN,
 * src/main/modules/webhooks.module.ts: 512); on PostgreSQL a fan-out batch of 100 events to 50
 * webhooks in one.
 */
const SQLITE_ROWS = 512;
const POSTGRES_ROWS = 5_000;

/**
 * `rows` (values in the order of `types`) as the rows of an INSERT or a CTE, in chunks. PostgreSQL:
 * one array a column, `SELECT * FROM unnest(?::uuid[], ?::text[], ...)`, so a statement has as many
 * parameters as columns and the same text whatever its rows: against multi-row `VALUES`, a
 * fan-out's insert costs PostgreSQL and the main thread about a third less (a parameter a value,
 * each parsed and typed on its own; docs/performance.md, section 4). SQLite: `VALUES (?, ...), ...`.
 */
function rowSources(dialect: Dialect, types: readonly string[], rows: readonly (readonly unknown[])[]): { source: string; values: unknown[] }[] {
  const chunks: { source: string; values: unknown[] }[] = [];
  const size = dialect === 'postgres' ? POSTGRES_ROWS : SQLITE_ROWS;
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    if (dialect === 'postgres') {
      chunks.push({ source: `SELECT * FROM unnest(${types.map((type) => `?::${type}[]`).join(', ')})`, values: types.map((_, column) => chunk.map((row) => row[column])) });
    } else {
      const tuple = `(${placeholderList(types.length)})`;
      chunks.push({ source: `VALUES ${chunk.map(() => tuple).join(', ')}`, values: chunk.flat() });
    }
  }
  return chunks;
}

/** Webhooks per UNION ALL of claim queries (SQLite allows 500 compound terms). */
const UNION_CHUNK = 50;

const DELIVERY_COLUMNS =
  'e.id AS id, e.webhook_id AS "webhookId", e.account_id AS "accountId", e.event_id AS "eventId", e.event AS event, p.payload AS payload, ' +
  'e.state AS state, e.attempts AS attempts, e.next_attempt_date AS "nextAttemptDate", e.creation_date AS "creationDate"';

interface RawDelivery {
  id: DeliveryId;
  webhookId: WebhookId;
  accountId: AccountId | string;
  eventId: string;
  event: string;
  payload: string;
  state: DeliveryRow['state'];
  attempts: string;
  nextAttemptDate: Date | string | null;
  creationDate: Date | string;
}

/** A delivery from plain SQL: its attempts as JSON text, and its dates as the driver returns them. */
function deliveryFromRaw(row: RawDelivery): Delivery {
  return deliveryFromRow({
    ...row,
    accountId: storedKey(row.accountId),
    attempts: JSON.parse(row.attempts) as DeliveryRow['attempts'],
    nextAttemptDate: nullableDateOf(row.nextAttemptDate),
    creationDate: dateOf(row.creationDate),
  });
}

/** The webhook `w` is not leased at the next parameter: never, its lease ended, or ran out. */
const FREE = '(w.lease_until IS NULL OR w.lease_until <= ?)';

/**
 * The webhook named by the next parameter is leased under the one after (by token only: a lease
 * that ran out untaken still holds, as the run's writes are still the only ones). An uncorrelated
 * scalar subquery: one lookup a statement, not one a row.
 */
const heldBy = (webhooks: string): string => `(SELECT h.lease_token FROM ${webhooks} h WHERE h.id = ?) = ?`;

/** Event order: by event id, then delivery id (both UUIDv7). */
const byEvent = (a: RawDelivery, b: RawDelivery): number => (a.eventId === b.eventId ? compare(a.id, b.id) : compare(a.eventId, b.eventId));

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
