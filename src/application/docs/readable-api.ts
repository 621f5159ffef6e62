import type { AccountId, UserId } from '../../domain/account/account.js';
import { checkNickname, type Api } from '../../domain/api/api.aggregate.js';
import type { ReleaseId } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { ApiAccess } from '../auth/api-access.js';
import type { ApiRepository } from '../ports/api-repository.port.js';
import type { PageRepository } from '../ports/page-repository.port.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import type { UserRepository } from '../ports/user-repository.port.js';
import { MAX_PAGE_LIMIT } from '../shared/page.js';
import { GUIDES_LISTED, type DocsFrame, type DocsRefusal, type DocsRelease } from './docs-views.js';

/** An account's API named by nickname in a docs URL, for a viewer who is signed in (their user id) or not. */
export interface DocsTarget {
  readonly viewer: UserId | undefined;
  readonly accountId: AccountId;
  readonly nickname: string;
}

const NOT_FOUND: DocsRefusal = { kind: 'NotFound' };

/**
 * The access rule of the documentation pages, shared by their queries. A public API is readable by
 * anyone. A private one only by a signed-in person whose account owns it or who holds a share of it
 * (`ApiAccess.mayRead`). Shares are read on every call, never cached.
 */
export class ReadableApis {
  constructor(
    private readonly apis: ApiRepository,
    private readonly users: UserRepository,
    private readonly access: ApiAccess,
    private readonly releases: ReleaseRepository,
    private readonly pages: PageRepository,
  ) {}

  async find(target: DocsTarget): Promise<Result<Api, DocsRefusal>> {
    // Names no API can have are refused before anything is read: the answer depends on nothing stored.
    if (!checkNickname(target.nickname).ok) return err(NOT_FOUND);
    const api = await this.apis.findByNickname(target.accountId, target.nickname);
    if (api?.snapshot().type === 'public') return ok(api);
    const viewer = target.viewer === undefined ? undefined : await this.users.get(target.viewer);
    if (!viewer) return err({ kind: 'SignInRequired' });
    if (!api) return err(NOT_FOUND);
    return (await this.access.mayRead({ userId: viewer.id, accountId: viewer.accountId }, { accountId: api.accountId, apiId: api.id })) ? ok(api) : err(NOT_FOUND);
  }

  /** The versions (every release, by release date) and the first `GUIDES_LISTED` guides, by position. */
  async frame(api: Api): Promise<DocsFrame> {
    const releases: DocsRelease[] = [];
    let after: ReleaseId | undefined;
    do {
      const page = await this.releases.list(api.id, { limit: MAX_PAGE_LIMIT, after });
      for (const release of page.items) {
        const record = release.toRecord();
        releases.push({ version: record.version, status: record.status, releaseDate: record.releaseDate });
      }
      after = page.next ?? undefined;
    } while (after !== undefined);
    const guides = await this.pages.list(api.id, { limit: GUIDES_LISTED });
    const s = api.snapshot();
    return {
      api: { accountId: s.accountId, nickname: s.nickname, name: s.name, description: s.description, type: s.type, version: s.version },
      releases,
      guides: guides.items.map((page) => {
        const p = page.snapshot();
        return { slug: p.slug, title: p.title };
      }),
    };
  }
}
