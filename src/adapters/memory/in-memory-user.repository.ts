import type { AccountId, UserId } from '../../domain/account/account.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { User, type NewUser } from '../../domain/user/user.aggregate.js';
import type { StateSource } from './in-memory-state.js';

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly state: StateSource) {}

  async add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>> {
    const s = this.state();
    if ([...s.users.values()].some((u) => u.email === user.email)) return err({ kind: 'DuplicateEmail' });
    const id = s.nextUserId++ as UserId;
    const stored = { ...user, id };
    s.users.set(id, stored);
    return ok(User.rehydrate(stored));
  }

  async get(id: UserId): Promise<User | undefined> {
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

  async ownerOf(accountId: AccountId): Promise<User | undefined> {
    const owner = [...this.state().users.values()].filter((u) => u.accountId === accountId).sort((a, b) => a.id - b.id)[0];
    return owner && User.rehydrate(owner);
  }

  async any(): Promise<boolean> {
    return this.state().users.size > 0;
  }
}
