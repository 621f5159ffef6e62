import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { GrantRepository } from '../../application/ports/identity-repositories.port.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { AccountId, UserId } from '../../domain/account/account.js';
import { Api, type ApiId, type ApiState } from '../../domain/api/api.aggregate.js';
import type { Grant, GrantId } from '../../domain/identity/grant.js';
import type { Result } from '../../domain/shared/result.js';
import { User, type NewUser, type UserState } from '../../domain/user/user.aggregate.js';
import type { ReadCache } from './read-cache.js';

/**
 * The read cache as decorators of the repository ports: the reads on the hot paths (an API and a
 * page of APIs; the user and the grant behind every tokeninfo and userinfo) remembered until the
 * database changes (ReadCache), everything else passed through. The states remembered are
 * immutable and every call gets an aggregate or a copy of its own. Only for repositories outside
 * transactions: a transaction must read what it is about to change.
 */

/** What a cached read remembered: the value, or `null` for nothing found. */
async function cachedRead<T>(cache: ReadCache, key: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const hit = cache.get<T | null>(key);
  if (hit !== undefined) return hit ?? undefined;
  return cache.remember(key, read);
}

export class CachedApiRepository implements ApiRepository {
  constructor(
    private readonly inner: ApiRepository,
    private readonly cache: ReadCache,
  ) {}

  async get(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    const state = await cachedRead<ApiState>(this.cache, `api:${accountId}:${id}`, async () => (await this.inner.get(accountId, id))?.snapshot());
    return state && Api.rehydrate(state);
  }

  async list(accountId: AccountId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const key = `apis:${accountId}:${page.after ?? ''}:${page.limit}`;
    const states = await cachedRead<Page<ApiState, ApiId>>(this.cache, key, async () => {
      const found = await this.inner.list(accountId, page);
      return { items: found.items.map((api) => api.snapshot()), next: found.next };
    });
    return { items: states!.items.map((state) => Api.rehydrate(state)), next: states!.next };
  }

  getForUpdate(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    return this.inner.getForUpdate(accountId, id);
  }

  findByNickname(accountId: AccountId, nickname: string): Promise<Api | undefined> {
    return this.inner.findByNickname(accountId, nickname);
  }

  listSharedWith(accountId: AccountId, userId: UserId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    return this.inner.listSharedWith(accountId, userId, page);
  }

  save(api: Api): Promise<Result<void, ApiSaveError>> {
    return this.inner.save(api);
  }

  countInAccount(accountId: AccountId): Promise<{ readonly all: number; readonly private: number }> {
    return this.inner.countInAccount(accountId);
  }

  delete(accountId: AccountId, id: ApiId): Promise<void> {
    return this.inner.delete(accountId, id);
  }
}

export class CachedUserRepository implements UserRepository {
  constructor(
    private readonly inner: UserRepository,
    private readonly cache: ReadCache,
  ) {}

  async get(id: UserId): Promise<User | undefined> {
    const state = await cachedRead<UserState>(this.cache, `user:${id}`, async () => (await this.inner.get(id))?.snapshot());
    return state && User.rehydrate(state);
  }

  add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>> {
    return this.inner.add(user);
  }

  getByEmail(email: string): Promise<User | undefined> {
    return this.inner.getByEmail(email);
  }

  ownerOf(accountId: AccountId): Promise<User | undefined> {
    return this.inner.ownerOf(accountId);
  }

  save(user: User): Promise<void> {
    return this.inner.save(user);
  }

  any(): Promise<boolean> {
    return this.inner.any();
  }
}

export class CachedGrantRepository implements GrantRepository {
  constructor(
    private readonly inner: GrantRepository,
    private readonly cache: ReadCache,
  ) {}

  async get(id: GrantId): Promise<Grant | undefined> {
    const grant = await cachedRead<Grant>(this.cache, `grant:${id}`, () => this.inner.get(id));
    // The remembered grant is never handed out: callers may change theirs.
    return grant && { ...grant, creationDate: new Date(grant.creationDate), revocationDate: grant.revocationDate === null ? null : new Date(grant.revocationDate) };
  }

  add(grant: Grant): Promise<void> {
    return this.inner.add(grant);
  }

  revoke(id: GrantId, now: Date): Promise<void> {
    return this.inner.revoke(id, now);
  }

  revokeAllOfUser(userId: UserId, now: Date): Promise<void> {
    return this.inner.revokeAllOfUser(userId, now);
  }
}
