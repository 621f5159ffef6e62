import type { SpecRevisionRepository, SpecRevisionSummary } from '../../application/ports/spec-revision-repository.port.js';
import type { SpecRevisionEntry, StoredChanges, StoredSpec } from '../../application/ports/spec-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { StateSource } from './in-memory-state.js';

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

  async changes(apiId: ApiId, revision: number, from: number): Promise<StoredChanges | null | undefined> {
    const entry = this.state().revisions.get(`${apiId} ${revision}`);
    return entry && (entry.changesFrom === from ? entry.changes : null);
  }

  async previous(apiId: ApiId, revision: number): Promise<number | undefined> {
    return this.all(apiId).find((r) => r.revision < revision)?.revision;
  }
}
