import type { AccountId, UserId } from '../../domain/account/account.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ShareRepository, ShareView } from '../../application/ports/share-repository.port.js';
import { Share, type ShareId, type ShareState } from '../../domain/share/share.aggregate.js';
import type { InMemoryState, StateSource } from './in-memory-state.js';
import { page } from './in-memory-paging.js';

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

  async findForGrantee(accountId: AccountId, apiId: ApiId, userId: UserId): Promise<Share | undefined> {
    const row = [...this.state().shares.values()].find((sh) => sh.apiId === apiId && sh.userId === userId && sh.accountId === accountId);
    return row ? Share.rehydrate(row) : undefined;
  }

  async anyInAccount(accountId: AccountId, userId: UserId): Promise<boolean> {
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
