import type { AccountRepository } from '../../application/ports/account-repository.port.js';
import { Account, type NewAccount } from '../../domain/account/account.aggregate.js';
import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { ApiTokenRepository, TokenHolder } from '../../application/ports/api-token-repository.port.js';
import type { EventOutbox, OutboxBacklog, OutboxEvent } from '../../application/ports/event-outbox.port.js';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { ChangelogEntry, ReleaseChanges, ReleaseRepository } from '../../application/ports/release-repository.port.js';
import type { SpecRevisionRepository, SpecRevisionSummary } from '../../application/ports/spec-revision-repository.port.js';
import type { DerivedItem, DerivedKind, SpecRepository, SpecRevisionEntry, StoredChanges, StoredSpec } from '../../application/ports/spec-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Release, type ReleaseId } from '../../domain/release/release.aggregate.js';
import type { DeliveryRepository } from '../../application/ports/delivery-repository.port.js';
import type { WebhookRepository } from '../../application/ports/webhook-repository.port.js';
import type { EventName } from '../../domain/events/domain-event.js';
import { Delivery, type DeliveryId } from '../../domain/webhook/delivery.aggregate.js';
import { Webhook, type WebhookId } from '../../domain/webhook/webhook.aggregate.js';
import type { PageCursor, PageRepository } from '../../application/ports/page-repository.port.js';
import { Page as ApiPage, type PageId, type PageState } from '../../domain/page/page.aggregate.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import { Api, type ApiId } from '../../domain/api/api.aggregate.js';
import { eventPayload, type DomainEvent } from '../../domain/events/domain-event.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { User, type NewUser } from '../../domain/user/user.aggregate.js';
import type { ShareRepository, ShareView } from '../../application/ports/share-repository.port.js';
import { Share, type ShareId, type ShareState } from '../../domain/share/share.aggregate.js';
import type { EmailVerificationRepository } from '../../application/ports/email-verification-repository.port.js';
import type { EmailVerification } from '../../domain/user/email-verification.js';
import type { InMemoryState, StateSource } from './in-memory-state.js';

export class InMemoryAccountRepository implements AccountRepository {
  constructor(private readonly state: StateSource) {}

  async create(account: NewAccount): Promise<number> {
    const s = this.state();
    const id = s.nextAccountId++;
    s.accounts.set(id, { ...account, id, trialReminderDate: null });
    return id;
  }

  async exists(id: number): Promise<boolean> {
    return this.state().accounts.has(id);
  }

  async get(id: number): Promise<Account | undefined> {
    const state = this.state().accounts.get(id);
    return state && Account.rehydrate(state);
  }

  // Transactions take turns (the database's mutex): the read is the lock.
  getForUpdate(id: number): Promise<Account | undefined> {
    return this.get(id);
  }

  async save(account: Account): Promise<void> {
    const state = account.snapshot();
    const s = this.state();
    if (s.accounts.has(state.id)) s.accounts.set(state.id, state);
  }

  async trialsEnding(now: Date, by: Date, limit: number): Promise<number[]> {
    return [...this.state().accounts.values()]
      .filter((a) => a.plan === 'private' && a.trialEndDate !== null && a.trialEndDate > now && a.trialEndDate <= by && a.trialReminderDate === null)
      .sort((a, b) => a.trialEndDate!.getTime() - b.trialEndDate!.getTime())
      .slice(0, limit)
      .map((a) => a.id);
  }

  async claimTrialReminder(id: number, trialEndDate: Date, at: Date): Promise<boolean> {
    const s = this.state();
    const state = s.accounts.get(id);
    if (state === undefined || state.trialReminderDate !== null || state.trialEndDate?.getTime() !== trialEndDate.getTime()) return false;
    s.accounts.set(id, { ...state, trialReminderDate: at });
    return true;
  }

  async releaseTrialReminder(id: number): Promise<void> {
    const s = this.state();
    const state = s.accounts.get(id);
    if (state !== undefined) s.accounts.set(id, { ...state, trialReminderDate: null });
  }
}

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly state: StateSource) {}

  async add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>> {
    const s = this.state();
    if ([...s.users.values()].some((u) => u.email === user.email)) return err({ kind: 'DuplicateEmail' });
    const id = s.nextUserId++;
    const stored = { ...user, id };
    s.users.set(id, stored);
    return ok(User.rehydrate(stored));
  }

  async get(id: number): Promise<User | undefined> {
    const row = this.state().users.get(id);
    return row && User.rehydrate(row);
  }

  async getByEmail(email: string): Promise<User | undefined> {
    const row = [...this.state().users.values()].find((u) => u.email === email);
    return row && User.rehydrate(row);
  }

  async save(user: User): Promise<void> {
    const s = this.state();
    if (s.users.has(user.id)) s.users.set(user.id, user.snapshot());
  }

  async ownerOf(accountId: number): Promise<User | undefined> {
    const owner = [...this.state().users.values()].filter((u) => u.accountId === accountId).sort((a, b) => a.id - b.id)[0];
    return owner && User.rehydrate(owner);
  }

  async any(): Promise<boolean> {
    return this.state().users.size > 0;
  }
}

export class InMemoryApiTokenRepository implements ApiTokenRepository {
  constructor(private readonly state: StateSource) {}

  async add(apiToken: ApiToken): Promise<void> {
    this.state().tokens.set(apiToken.id, apiToken.snapshot());
  }

  async findByHash(tokenHash: string): Promise<ApiToken | undefined> {
    const row = [...this.state().tokens.values()].find((t) => t.tokenHash === tokenHash);
    return row && ApiToken.rehydrate(row);
  }

  async findHolders(tokenHashes: readonly string[]): Promise<TokenHolder[]> {
    const s = this.state();
    const wanted = new Set(tokenHashes);
    const holders: TokenHolder[] = [];
    for (const row of s.tokens.values()) {
      const user = wanted.has(row.tokenHash) ? s.users.get(row.userId) : undefined;
      if (user) holders.push({ token: ApiToken.rehydrate(row), user: { id: user.id, accountId: user.accountId, nickname: user.nickname } });
    }
    return holders;
  }

  async countInAccount(accountId: number): Promise<number> {
    const s = this.state();
    return [...s.tokens.values()].filter((t) => s.users.get(t.userId)?.accountId === accountId).length;
  }

  async listByUser(userId: number): Promise<ApiToken[]> {
    return [...this.state().tokens.values()]
      .filter((t) => t.userId === userId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((row) => ApiToken.rehydrate(row));
  }

  async recordUse(id: ApiTokenId, at: Date): Promise<void> {
    const s = this.state();
    const row = s.tokens.get(id);
    if (row) s.tokens.set(id, { ...row, lastUseDate: at });
  }

  async delete(userId: number, id: ApiTokenId): Promise<boolean> {
    const s = this.state();
    const row = s.tokens.get(id);
    if (!row || row.userId !== userId) return false;
    s.tokens.delete(id);
    return true;
  }
}

export class InMemoryApiRepository implements ApiRepository {
  constructor(private readonly state: StateSource) {}

  async get(accountId: number, id: ApiId): Promise<Api | undefined> {
    const row = this.state().apis.get(id);
    return row && row.accountId === accountId ? Api.rehydrate(row) : undefined;
  }

  async findByNickname(accountId: number, nickname: string): Promise<Api | undefined> {
    const row = [...this.state().apis.values()].find((a) => a.accountId === accountId && a.nickname === nickname);
    return row ? Api.rehydrate(row) : undefined;
  }

  /** In-memory transactions run one at a time, so a plain read already excludes other writers. */
  getForUpdate(accountId: number, id: ApiId): Promise<Api | undefined> {
    return this.get(accountId, id);
  }

  async list(accountId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const after = page.after;
    const rows = [...this.state().apis.values()]
      .filter((a) => a.accountId === accountId && (after === undefined || a.id > after))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const items = rows.slice(0, page.limit).map((row) => Api.rehydrate(row));
    return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
  }

  async listSharedWith(accountId: number, userId: number, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const shared = new Set([...this.state().shares.values()].filter((sh) => sh.userId === userId && sh.accountId === accountId).map((sh) => sh.apiId));
    const after = page.after;
    const rows = [...this.state().apis.values()]
      .filter((a) => a.accountId === accountId && shared.has(a.id) && (after === undefined || a.id > after))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const items = rows.slice(0, page.limit).map((row) => Api.rehydrate(row));
    return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
  }

  async save(api: Api): Promise<Result<void, ApiSaveError>> {
    const s = this.state();
    const row = api.snapshot();
    const stored = s.apis.get(row.id);
    if (api.storedRevision === undefined ? stored !== undefined : stored?.revision !== api.storedRevision) {
      return err({ kind: 'ConcurrentModification' });
    }
    const taken = [...s.apis.values()].some((a) => a.accountId === row.accountId && a.nickname === row.nickname && a.id !== row.id);
    if (taken) return err({ kind: 'DuplicateNickname' });
    s.apis.set(row.id, row);
    return ok();
  }

  async countInAccount(accountId: number): Promise<{ readonly all: number; readonly private: number }> {
    const mine = [...this.state().apis.values()].filter((a) => a.accountId === accountId);
    return { all: mine.length, private: mine.filter((a) => a.type === 'private').length };
  }

  /** Removes the API with its spec and releases, as the database's cascade does. */
  async delete(accountId: number, id: ApiId): Promise<void> {
    const s = this.state();
    if (s.apis.get(id)?.accountId !== accountId) return;
    s.apis.delete(id);
    s.specs.delete(id);
    for (const [pageId, page] of s.pages) if (page.apiId === id) s.pages.delete(pageId);
    for (const [shareId, share] of s.shares) if (share.apiId === id) s.shares.delete(shareId);
    for (const [releaseId, release] of s.releases) if (release.state.apiId === id) s.releases.delete(releaseId);
    for (const [key, revision] of s.revisions) if (revision.apiId === id) s.revisions.delete(key);
  }
}

export class InMemoryEventOutbox implements EventOutbox {
  constructor(
    private readonly state: StateSource,
    private readonly ids: IdGenerator,
  ) {}

  async append(events: readonly DomainEvent[]): Promise<void> {
    const s = this.state();
    for (const event of events) {
      const id = this.ids.next();
      s.outbox.push({ id, accountId: event.accountId, payload: eventPayload(id, event), dispatched: false });
    }
  }

  async pending(limit: number): Promise<OutboxEvent[]> {
    return this.state()
      .outbox.filter((e) => !e.dispatched)
      .slice(0, limit);
  }

  /** In-memory transactions run one at a time: nothing to skip. */
  claimPending(limit: number): Promise<OutboxEvent[]> {
    return this.pending(limit);
  }

  async markDispatched(ids: readonly string[]): Promise<void> {
    const s = this.state();
    const done = new Set(ids);
    s.outbox = s.outbox.map((e) => (done.has(e.id) ? { ...e, dispatched: true } : e));
  }

  async backlog(): Promise<OutboxBacklog> {
    const pending = this.state().outbox.filter((e) => !e.dispatched);
    return { pending: pending.length, oldestOccurredAt: pending[0] ? new Date(pending[0].payload.timestamp) : null };
  }
}

export class InMemorySpecRepository implements SpecRepository {
  constructor(private readonly state: StateSource) {}

  async save(apiId: ApiId, spec: StoredSpec, derived: DerivedResources, revision: SpecRevisionEntry): Promise<void> {
    const s = this.state();
    s.specs.set(apiId, { spec, derived });
    s.revisions.set(`${apiId} ${revision.revision}`, { ...revision, apiId, spec });
  }

  async get(apiId: ApiId): Promise<StoredSpec | undefined> {
    return this.state().specs.get(apiId)?.spec;
  }

  async listDerived<K extends DerivedKind>(apiId: ApiId, kind: K, page: PageRequest<number>): Promise<Page<DerivedItem<K>, number>> {
    const all = (this.state().specs.get(apiId)?.derived[kind] ?? []) as readonly DerivedItem<K>[];
    const start = page.after === undefined ? 0 : page.after + 1;
    const items = all.slice(start, start + page.limit);
    return { items, next: start + page.limit < all.length ? start + items.length - 1 : null };
  }
}

export class InMemoryReleaseRepository implements ReleaseRepository {
  constructor(private readonly state: StateSource) {}

  private find(apiId: ApiId, version: string) {
    return [...this.state().releases.values()].find((r) => r.state.apiId === apiId && r.state.version === version);
  }

  /** The API's release rows by release date (id order). */
  private rows(apiId: ApiId) {
    return [...this.state().releases.values()].filter((r) => r.state.apiId === apiId).sort((a, b) => (a.state.id < b.state.id ? -1 : 1));
  }

  async get(apiId: ApiId, version: string): Promise<Release | undefined> {
    const row = this.find(apiId, version);
    return row && Release.rehydrate(row.state);
  }

  getForUpdate(apiId: ApiId, version: string): Promise<Release | undefined> {
    return this.get(apiId, version);
  }

  async list(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<Release, ReleaseId>> {
    const after = page.after;
    const rows = this.rows(apiId).filter((r) => after === undefined || r.state.id > after);
    const items = rows.slice(0, page.limit).map((row) => Release.rehydrate(row.state));
    return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
  }

  async add(release: Release, snapshot: StoredSpec, revision: number, changes: ReleaseChanges): Promise<Result<void, { readonly kind: 'DuplicateVersion' }>> {
    const state = release.snapshot();
    if (this.find(state.apiId, state.version)) return err({ kind: 'DuplicateVersion' });
    this.state().releases.set(state.id, { state, snapshot, revision, changes });
    return ok();
  }

  async setChanges(apiId: ApiId, id: ReleaseId, changes: ReleaseChanges): Promise<void> {
    const s = this.state();
    const row = s.releases.get(id);
    if (row?.state.apiId === apiId) s.releases.set(id, { ...row, changes });
  }

  async latest(apiId: ApiId): Promise<Release | undefined> {
    const row = this.rows(apiId).at(-1);
    return row && Release.rehydrate(row.state);
  }

  async neighbours(apiId: ApiId, id: ReleaseId): Promise<{ readonly previous: Release | undefined; readonly next: Release | undefined }> {
    const rows = this.rows(apiId);
    const previous = rows.filter((r) => r.state.id < id).at(-1);
    const next = rows.find((r) => r.state.id > id);
    return { previous: previous && Release.rehydrate(previous.state), next: next && Release.rehydrate(next.state) };
  }

  async revisionOf(apiId: ApiId, version: string): Promise<number | null | undefined> {
    return this.find(apiId, version)?.revision;
  }

  async changelog(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<ChangelogEntry, ReleaseId>> {
    const after = page.after;
    const rows = this.rows(apiId)
      .reverse()
      .filter((r) => after === undefined || r.state.id < after);
    const kept = rows.slice(0, page.limit);
    return {
      items: kept.map((r) => ({ release: Release.rehydrate(r.state), revision: r.revision, changes: r.changes })),
      next: rows.length > page.limit ? (kept.at(-1)?.state.id ?? null) : null,
    };
  }

  async save(release: Release): Promise<void> {
    const s = this.state();
    const row = s.releases.get(release.id);
    if (row) s.releases.set(release.id, { ...row, state: release.snapshot() });
  }

  async delete(apiId: ApiId, id: ReleaseId): Promise<void> {
    const s = this.state();
    if (s.releases.get(id)?.state.apiId === apiId) s.releases.delete(id);
  }

  async snapshot(apiId: ApiId, version: string): Promise<StoredSpec | undefined> {
    return this.find(apiId, version)?.snapshot;
  }
}

type StoredRevision = SpecRevisionEntry & { readonly apiId: string; readonly spec: StoredSpec };

export class InMemorySpecRevisionRepository implements SpecRevisionRepository {
  constructor(private readonly state: StateSource) {}

  private all(apiId: ApiId): StoredRevision[] {
    return [...this.state().revisions.values()].filter((r) => r.apiId === apiId).sort((a, b) => b.revision - a.revision);
  }

  private summary(row: StoredRevision): SpecRevisionSummary {
    const owner = this.state().users.get(row.actor.id);
    return {
      revision: row.revision,
      creationDate: row.creationDate,
      user: { id: row.actor.id, nickname: owner?.nickname ?? row.actor.nickname },
      specFormat: row.specFormat,
      counts: row.changes?.counts ?? null,
      reason: row.reason,
    };
  }

  async list(apiId: ApiId, page: PageRequest<number>): Promise<Page<SpecRevisionSummary, number>> {
    const after = page.after;
    const rows = this.all(apiId).filter((r) => after === undefined || r.revision < after);
    const kept = rows.slice(0, page.limit);
    return { items: kept.map((r) => this.summary(r)), next: rows.length > page.limit ? (kept.at(-1)?.revision ?? null) : null };
  }

  async get(apiId: ApiId, revision: number): Promise<{ readonly summary: SpecRevisionSummary; readonly spec: StoredSpec } | undefined> {
    const row = this.state().revisions.get(`${apiId} ${revision}`);
    return row && { summary: this.summary(row), spec: row.spec };
  }

  async changes(apiId: ApiId, revision: number): Promise<StoredChanges | null | undefined> {
    return this.state().revisions.get(`${apiId} ${revision}`)?.changes;
  }

  async previous(apiId: ApiId, revision: number): Promise<number | undefined> {
    return this.all(apiId).find((r) => r.revision < revision)?.revision;
  }
}

function page<T extends { readonly id: string }>(rows: readonly T[], request: PageRequest<string>, newestFirst = false): { rows: T[]; next: string | null } {
  const after = request.after;
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1) * (newestFirst ? -1 : 1));
  const filtered = after === undefined ? sorted : sorted.filter((r) => (newestFirst ? r.id < after : r.id > after));
  const kept = filtered.slice(0, request.limit);
  return { rows: kept, next: filtered.length > request.limit ? (kept.at(-1)?.id ?? null) : null };
}

export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(private readonly state: StateSource) {}

  async get(accountId: number, id: WebhookId): Promise<Webhook | undefined> {
    const row = this.state().webhooks.get(id);
    return row && row.accountId === accountId ? Webhook.rehydrate(row) : undefined;
  }

  getForUpdate(accountId: number, id: WebhookId): Promise<Webhook | undefined> {
    return this.get(accountId, id);
  }

  async list(accountId: number, request: PageRequest<WebhookId>): Promise<Page<Webhook, WebhookId>> {
    const { rows, next } = page([...this.state().webhooks.values()].filter((w) => w.accountId === accountId), request);
    return { items: rows.map((row) => Webhook.rehydrate(row)), next };
  }

  async subscribers(accountId: number, event: EventName): Promise<Webhook[]> {
    return [...this.state().webhooks.values()]
      .filter((w) => w.accountId === accountId && w.active && w.events.includes(event))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((row) => Webhook.rehydrate(row));
  }

  async countInAccount(accountId: number): Promise<number> {
    return [...this.state().webhooks.values()].filter((w) => w.accountId === accountId).length;
  }

  async countActive(): Promise<number> {
    return [...this.state().webhooks.values()].filter((w) => w.active).length;
  }

  async save(webhook: Webhook): Promise<void> {
    this.state().webhooks.set(webhook.id, webhook.snapshot());
  }

  /** Removes the webhook and its delivery log, as the database's cascade does. */
  async delete(accountId: number, id: WebhookId): Promise<void> {
    const s = this.state();
    if (s.webhooks.get(id)?.accountId !== accountId) return;
    s.webhooks.delete(id);
    for (const [deliveryId, row] of s.deliveries) if (row.state.webhookId === id) s.deliveries.delete(deliveryId);
  }
}

export class InMemoryDeliveryRepository implements DeliveryRepository {
  constructor(private readonly state: StateSource) {}

  async add(delivery: Delivery, dispatchKey: string | null): Promise<boolean> {
    const s = this.state();
    const state = delivery.snapshot();
    if (dispatchKey !== null && [...s.deliveries.values()].some((d) => d.state.webhookId === state.webhookId && d.dispatchKey === dispatchKey)) return false;
    s.deliveries.set(state.id, { state, dispatchKey, leaseUntil: null });
    return true;
  }

  async addFanOut(deliveries: readonly Delivery[]): Promise<number> {
    let stored = 0;
    for (const delivery of deliveries) if (await this.add(delivery, delivery.eventId)) stored += 1;
    return stored;
  }

  async get(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    const row = this.state().deliveries.get(id);
    return row && row.state.webhookId === webhookId ? Delivery.rehydrate(row.state) : undefined;
  }

  getForUpdate(webhookId: WebhookId, id: DeliveryId): Promise<Delivery | undefined> {
    return this.get(webhookId, id);
  }

  async list(webhookId: WebhookId, request: PageRequest<DeliveryId>): Promise<Page<Delivery, DeliveryId>> {
    const mine = [...this.state().deliveries.values()].map((d) => d.state).filter((d) => d.webhookId === webhookId);
    const { rows, next } = page(mine, request, true);
    return { items: rows.map((row) => Delivery.rehydrate(row)), next };
  }

  async save(delivery: Delivery): Promise<void> {
    const s = this.state();
    const row = s.deliveries.get(delivery.id);
    if (row) s.deliveries.set(delivery.id, { ...row, state: delivery.snapshot(), leaseUntil: null });
  }

  async getManyForUpdate(ids: readonly DeliveryId[]): Promise<Delivery[]> {
    const s = this.state();
    return ids.flatMap((id) => {
      const row = s.deliveries.get(id);
      return row ? [Delivery.rehydrate(row.state)] : [];
    });
  }

  async saveAll(deliveries: readonly Delivery[]): Promise<void> {
    for (const delivery of deliveries) await this.save(delivery);
  }

  async release(ids: readonly DeliveryId[]): Promise<void> {
    const s = this.state();
    for (const id of ids) {
      const row = s.deliveries.get(id);
      if (row && row.state.state === 'pending') s.deliveries.set(id, { ...row, leaseUntil: null });
    }
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number, perWebhook = 1): Promise<Delivery[]> {
    const s = this.state();
    const due = this.dueUnleased(now, () => true);
    const taken = new Map<string, number>();
    const claimed = due
      .filter((d) => {
        const count = taken.get(d.state.webhookId) ?? 0;
        taken.set(d.state.webhookId, count + 1);
        return count < perWebhook;
      })
      .slice(0, limit);
    for (const d of claimed) s.deliveries.set(d.state.id, { ...d, leaseUntil });
    return claimed.map((d) => Delivery.rehydrate(d.state));
  }

  async claimNext(webhookId: WebhookId, now: Date, leaseUntil: Date, limit: number): Promise<Delivery[]> {
    const s = this.state();
    const claimed = this.dueUnleased(now, (id) => id === webhookId).slice(0, limit);
    for (const d of claimed) s.deliveries.set(d.state.id, { ...d, leaseUntil });
    return claimed.map((d) => Delivery.rehydrate(d.state));
  }

  /** The due pending deliveries of the webhooks `wanted` accepts that have nothing leased, in event order. */
  private dueUnleased(now: Date, wanted: (webhookId: WebhookId) => boolean) {
    const pending = [...this.state().deliveries.values()].filter((d) => d.state.state === 'pending' && wanted(d.state.webhookId));
    const busy = new Set(pending.filter((d) => d.leaseUntil !== null && d.leaseUntil > now).map((d) => d.state.webhookId));
    return pending
      .filter((d) => d.state.nextAttemptDate !== null && d.state.nextAttemptDate <= now && !busy.has(d.state.webhookId))
      .sort((a, b) => (a.state.eventId === b.state.eventId ? (a.state.id < b.state.id ? -1 : 1) : a.state.eventId < b.state.eventId ? -1 : 1));
  }
}

function pageOrder(a: PageState, b: PageState): number {
  return a.position !== b.position ? a.position - b.position : a.id < b.id ? -1 : 1;
}

export class InMemoryPageRepository implements PageRepository {
  constructor(private readonly state: StateSource) {}

  async get(apiId: ApiId, id: PageId): Promise<ApiPage | undefined> {
    const row = this.state().pages.get(id);
    return row && row.apiId === apiId ? ApiPage.rehydrate(row) : undefined;
  }

  async findBySlug(apiId: ApiId, slug: string): Promise<ApiPage | undefined> {
    const row = [...this.state().pages.values()].find((p) => p.apiId === apiId && p.slug === slug);
    return row ? ApiPage.rehydrate(row) : undefined;
  }

  async list(apiId: ApiId, request: PageRequest<PageCursor>): Promise<Page<ApiPage, PageCursor>> {
    const after = request.after;
    const rows = [...this.state().pages.values()]
      .filter((p) => p.apiId === apiId && (after === undefined || p.position > after.position || (p.position === after.position && p.id > after.id)))
      .sort(pageOrder);
    const kept = rows.slice(0, request.limit);
    const last = kept.at(-1);
    return { items: kept.map((row) => ApiPage.rehydrate(row)), next: rows.length > request.limit && last ? { position: last.position, id: last.id } : null };
  }

  async count(apiId: ApiId): Promise<number> {
    return [...this.state().pages.values()].filter((p) => p.apiId === apiId).length;
  }

  async nextPosition(apiId: ApiId): Promise<number> {
    const positions = [...this.state().pages.values()].filter((p) => p.apiId === apiId).map((p) => p.position);
    return positions.length === 0 ? 0 : Math.max(...positions) + 1;
  }

  async save(page: ApiPage): Promise<Result<void, { readonly kind: 'DuplicateSlug' }>> {
    const s = this.state();
    const row = page.snapshot();
    if ([...s.pages.values()].some((p) => p.apiId === row.apiId && p.slug === row.slug && p.id !== row.id)) return err({ kind: 'DuplicateSlug' });
    s.pages.set(row.id, row);
    return ok();
  }

  async delete(apiId: ApiId, id: PageId): Promise<void> {
    const s = this.state();
    if (s.pages.get(id)?.apiId === apiId) s.pages.delete(id);
  }
}

function shareView(s: InMemoryState, row: ShareState): ShareView {
  const user = s.users.get(row.userId);
  if (!user) throw new Error(`share ${row.id} has no grantee`);
  return { share: Share.rehydrate(row), grantee: { id: user.id, nickname: user.nickname, email: user.email } };
}

export class InMemoryShareRepository implements ShareRepository {
  constructor(private readonly state: StateSource) {}

  async get(apiId: ApiId, id: ShareId): Promise<ShareView | undefined> {
    const s = this.state();
    const row = s.shares.get(id);
    return row && row.apiId === apiId ? shareView(s, row) : undefined;
  }

  async list(apiId: ApiId, request: PageRequest<ShareId>): Promise<Page<ShareView, ShareId>> {
    const s = this.state();
    const { rows, next } = page([...s.shares.values()].filter((sh) => sh.apiId === apiId), request);
    return { items: rows.map((row) => shareView(s, row)), next };
  }

  async findForGrantee(accountId: number, apiId: ApiId, userId: number): Promise<Share | undefined> {
    const row = [...this.state().shares.values()].find((sh) => sh.apiId === apiId && sh.userId === userId && sh.accountId === accountId);
    return row ? Share.rehydrate(row) : undefined;
  }

  async anyInAccount(accountId: number, userId: number): Promise<boolean> {
    return [...this.state().shares.values()].some((sh) => sh.userId === userId && sh.accountId === accountId);
  }

  async save(share: Share): Promise<Result<void, { readonly kind: 'DuplicateShare' }>> {
    const s = this.state();
    const row = share.snapshot();
    if ([...s.shares.values()].some((sh) => sh.apiId === row.apiId && sh.userId === row.userId && sh.id !== row.id)) return err({ kind: 'DuplicateShare' });
    s.shares.set(row.id, row);
    return ok();
  }

  async delete(apiId: ApiId, id: ShareId): Promise<void> {
    const s = this.state();
    if (s.shares.get(id)?.apiId === apiId) s.shares.delete(id);
  }
}

export class InMemoryEmailVerificationRepository implements EmailVerificationRepository {
  constructor(private readonly state: StateSource) {}

  async save(verification: EmailVerification): Promise<void> {
    this.state().verifications.set(verification.userId, verification);
  }

  async findByHash(tokenHash: string): Promise<EmailVerification | undefined> {
    return [...this.state().verifications.values()].find((v) => v.tokenHash === tokenHash);
  }

  async delete(userId: number): Promise<void> {
    this.state().verifications.delete(userId);
  }
}
