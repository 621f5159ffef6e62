import type { ChangelogEntry, ReleaseChanges, ReleaseRepository } from '../../application/ports/release-repository.port.js';
import type { DerivedItem, DerivedKind, SpecRepository, SpecRevisionEntry, StoredSpec } from '../../application/ports/spec-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import { Release, type ReleaseId } from '../../domain/release/release.aggregate.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { StateSource } from './in-memory-state.js';

export class InMemorySpecRepository implements SpecRepository {
  constructor(private readonly state: StateSource) {}

  async save(apiId: ApiId, spec: StoredSpec, derived: DerivedResources, revision: SpecRevisionEntry): Promise<void> {
    const s = this.state();
    s.specs.set(apiId, { spec, derived });
    // The spec it replaces: the API's newest revision so far.
    const before = Math.max(0, ...[...s.revisions.values()].filter((r) => r.apiId === apiId).map((r) => r.revision));
    s.revisions.set(`${apiId} ${revision.revision}`, { ...revision, apiId, spec, changesFrom: before === 0 ? null : before });
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
