import type { AccountId, UserId } from '../../domain/account/account.js';
import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Api, type ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { StateSource } from './in-memory-state.js';
import { page } from './in-memory-paging.js';

export class InMemoryApiRepository implements ApiRepository {
  constructor(private readonly state: StateSource) {}

  async get(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    const row = this.state().apis.get(id);
    return row && row.accountId === accountId ? Api.rehydrate(row) : undefined;
  }

  async findByNickname(accountId: AccountId, nickname: string): Promise<Api | undefined> {
    const row = [...this.state().apis.values()].find((a) => a.accountId === accountId && a.nickname === nickname);
    return row ? Api.rehydrate(row) : undefined;
  }

  /** In-memory transactions run one at a time, so a plain read already excludes other writers. */
  getForUpdate(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    return this.get(accountId, id);
  }

  async list(accountId: AccountId, request: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const { rows, next } = page([...this.state().apis.values()].filter((a) => a.accountId === accountId), request);
    return { items: rows.map((row) => Api.rehydrate(row)), next };
  }

  async listSharedWith(accountId: AccountId, userId: UserId, request: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const shared = new Set([...this.state().shares.values()].filter((sh) => sh.userId === userId && sh.accountId === accountId).map((sh) => sh.apiId));
    const { rows, next } = page([...this.state().apis.values()].filter((a) => a.accountId === accountId && shared.has(a.id)), request);
    return { items: rows.map((row) => Api.rehydrate(row)), next };
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

  async countInAccount(accountId: AccountId): Promise<{ readonly all: number; readonly private: number }> {
    const mine = [...this.state().apis.values()].filter((a) => a.accountId === accountId);
    return { all: mine.length, private: mine.filter((a) => a.type === 'private').length };
  }

  /** Removes the API with its spec and releases, as the database's cascade does. */
  async delete(accountId: AccountId, id: ApiId): Promise<void> {
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
