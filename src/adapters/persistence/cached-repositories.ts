import type { ApiRepository, ApiSaveError } from '../../application/ports/api-repository.port.js';
import type { GrantRepository, OAuthClientRepository } from '../../application/ports/identity-repositories.port.js';
import { OAuthClient, type OAuthClientId, type OAuthClientState } from '../../domain/identity/oauth-client.js';
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

/**
 * A read through the cache: a hit answers from memory without calling anything else (the hot
 * path: one map lookup and a version compare), a miss reads `read()` and remembers it
 * (`undefined`, not found, is remembered too).
 */
function cachedRead<T, R>(cache: ReadCache, key: string, hit: (value: T) => R, read: () => Promise<T | undefined>): Promise<R | undefined> {
  const remembered = cache.get<T | null>(key);
  if (remembered !== undefined) return Promise.resolve(remembered === null ? undefined : hit(remembered));
  return cache.remember(key, read).then((value) => (value === undefined ? undefined : hit(value)));
}

const rehydrateApi = (state: ApiState): Api => Api.rehydrate(state);
const rehydrateApis = (states: Page<ApiState, ApiId>): Page<Api, ApiId> => ({ items: states.items.map(rehydrateApi), next: states.next });
const rehydrateUser = (state: UserState): User => User.rehydrate(state);
const rehydrateClient = (state: OAuthClientState): OAuthClient => OAuthClient.rehydrate(state);
/** The remembered grant is never handed out: callers may change theirs. */
const copyGrant = (grant: Grant): Grant => ({ ...grant, creationDate: new Date(grant.creationDate), revocationDate: grant.revocationDate === null ? null : new Date(grant.revocationDate) });

export class CachedApiRepository implements ApiRepository {
  constructor(
    private readonly inner: ApiRepository,
    private readonly cache: ReadCache,
  ) {}

  get(accountId: AccountId, id: ApiId): Promise<Api | undefined> {
    return cachedRead(this.cache, `api:${accountId}:${id}`, rehydrateApi, () => this.inner.get(accountId, id).then((api) => api?.snapshot()));
  }

  list(accountId: AccountId, page: PageRequest<ApiId>): Promise<Page<Api, ApiId>> {
    const read = () => this.inner.list(accountId, page).then((found) => ({ items: found.items.map((api) => api.snapshot()), next: found.next }));
    // A page is always found: never undefined.
    return cachedRead(this.cache, `apis:${accountId}:${page.after ?? ''}:${page.limit}`, rehydrateApis, read) as Promise<Page<Api, ApiId>>;
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

  get(id: UserId): Promise<User | undefined> {
    return cachedRead(this.cache, `user:${id}`, rehydrateUser, () => this.inner.get(id).then((user) => user?.snapshot()));
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

/** Clients as the token endpoint, introspection and the authorization page read them (`oauth_clients` notifies its changes: migration 0019). */
export class CachedOAuthClientRepository implements OAuthClientRepository {
  constructor(
    private readonly inner: OAuthClientRepository,
    private readonly cache: ReadCache,
  ) {}

  get(id: OAuthClientId): Promise<OAuthClient | undefined> {
    // A client's state is never changed in place (its commands make a new one): safe to share.
    return cachedRead(this.cache, `client:${id}`, rehydrateClient, () => this.inner.get(id).then((client) => client?.snapshot()));
  }

  list(): Promise<OAuthClient[]> {
    return this.inner.list();
  }

  add(client: OAuthClient): Promise<void> {
    return this.inner.add(client);
  }

  save(client: OAuthClient): Promise<void> {
    return this.inner.save(client);
  }

  delete(id: OAuthClientId): Promise<boolean> {
    return this.inner.delete(id);
  }
}

export class CachedGrantRepository implements GrantRepository {
  constructor(
    private readonly inner: GrantRepository,
    private readonly cache: ReadCache,
  ) {}

  get(id: GrantId): Promise<Grant | undefined> {
    return cachedRead(this.cache, `grant:${id}`, copyGrant, () => this.inner.get(id));
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

  revokeAllOfClient(clientId: string, now: Date, userId?: UserId): Promise<void> {
    return this.inner.revokeAllOfClient(clientId, now, userId);
  }
}
