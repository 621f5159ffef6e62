import type { EntityManager } from 'typeorm';
import type { ChangelogEntry, ReleaseChanges, ReleaseRepository } from '../../application/ports/release-repository.port.js';
import type { DerivedItem, DerivedKind, SpecRepository, SpecRevisionEntry, StoredSpec } from '../../application/ports/spec-repository.port.js';
import { addRevision } from './typeorm-spec-revision.repository.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import { Release, type ReleaseId } from '../../domain/release/release.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import type { Dialect } from './dialect.js';
import type { ApiReleaseRow } from './rows.js';
import type { Schemas } from './schema.js';
import { isStorableText, isUniqueViolation, type Run } from './typeorm-database.js';
import { storedKey } from './raw-sql.js';

const DERIVED_KINDS: readonly DerivedKind[] = ['endpoints', 'models', 'environments', 'authAdapters'];
/** Rows per INSERT: 4 parameters each stays far below both databases' parameter limits. */
const INSERT_CHUNK = 1000;

export class TypeOrmSpecRepository implements SpecRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  save(apiId: ApiId, spec: StoredSpec, derived: DerivedResources, revision: SpecRevisionEntry): Promise<void> {
    return this.run(async (m) => {
      // The spec being replaced moves into the history before its row is overwritten.
      await addRevision(m, this.s, this.dialect, apiId, revision, spec.syntax);
      await m.getRepository(this.s.specs).upsert(
        { apiId, format: spec.syntax, source: spec.source, document: spec.documentJson, updateDate: new Date() },
        ['apiId'],
      );
      await m.getRepository(this.s.derived).delete({ apiId });
      const rows = DERIVED_KINDS.flatMap((kind) => derived[kind].map((item, position) => ({ apiId, kind, position, data: JSON.stringify(item) })));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await m.getRepository(this.s.derived).insert(rows.slice(i, i + INSERT_CHUNK));
      }
    });
  }

  get(apiId: ApiId): Promise<StoredSpec | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.specs).findOneBy({ apiId });
      return row ? { syntax: row.format, source: row.source, documentJson: row.document } : undefined;
    });
  }

  listDerived<K extends DerivedKind>(apiId: ApiId, kind: K, page: PageRequest<number>): Promise<Page<DerivedItem<K>, number>> {
    return this.run(async (m) => {
      const query = m
        .createQueryBuilder(this.s.derived, 'd')
        .select(['d.position', 'd.data'])
        .where('d.api_id = :apiId AND d.kind = :kind', { apiId, kind });
      if (page.after !== undefined) query.andWhere('d.position > :after', { after: page.after });
      const rows = await query.orderBy('d.position', 'ASC').limit(page.limit + 1).getMany();
      const kept = rows.slice(0, page.limit);
      return {
        items: kept.map((row) => JSON.parse(row.data) as DerivedItem<K>),
        next: rows.length > page.limit ? Number(kept.at(-1)?.position) : null,
      };
    });
  }
}

/** The release columns without the (possibly large) snapshot. */
const STATE_COLUMNS = ['r.id', 'r.apiId', 'r.accountId', 'r.version', 'r.status', 'r.releaseDate'];

function releaseFromRow(row: ApiReleaseRow): Release {
  return Release.rehydrate({
    id: row.id,
    apiId: row.apiId,
    accountId: storedKey(row.accountId),
    version: row.version,
    status: row.status,
    releaseDate: row.releaseDate,
  });
}

export class TypeOrmReleaseRepository implements ReleaseRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  get(apiId: ApiId, version: string): Promise<Release | undefined> {
    return this.find(apiId, version, false);
  }

  getForUpdate(apiId: ApiId, version: string): Promise<Release | undefined> {
    return this.find(apiId, version, this.dialect === 'postgres');
  }

  private find(apiId: ApiId, version: string, lock: boolean): Promise<Release | undefined> {
    if (!isStorableText(version)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const query = this.states(m).where('r.api_id = :apiId AND r.version = :version', { apiId, version });
      if (lock) query.setLock('pessimistic_write');
      const row = await query.getOne();
      return row ? releaseFromRow(row) : undefined;
    });
  }

  list(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<Release, ReleaseId>> {
    return this.run(async (m) => {
      const query = this.states(m).where('r.api_id = :apiId', { apiId });
      if (page.after !== undefined) query.andWhere('r.id > :after', { after: page.after });
      const rows = await query.orderBy('r.id', 'ASC').limit(page.limit + 1).getMany();
      const items = rows.slice(0, page.limit).map(releaseFromRow);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
    });
  }

  add(release: Release, snapshot: StoredSpec, revision: number, changes: ReleaseChanges): Promise<Result<void, { readonly kind: 'DuplicateVersion' }>> {
    return this.run(async (m) => {
      const state = release.snapshot();
      try {
        await m
          .getRepository(this.s.releases)
          .insert({ ...state, format: snapshot.syntax, source: snapshot.source, document: snapshot.documentJson, revision, changes: JSON.stringify(changes) });
        return ok();
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateVersion' as const });
        throw error;
      }
    });
  }

  save(release: Release): Promise<void> {
    return this.run(async (m) => {
      const { id, status } = release.snapshot();
      await m.getRepository(this.s.releases).update({ id }, { status });
    });
  }

  setChanges(apiId: ApiId, id: ReleaseId, changes: ReleaseChanges): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.releases).update({ id, apiId }, { changes: JSON.stringify(changes) });
    });
  }

  latest(apiId: ApiId): Promise<Release | undefined> {
    return this.run(async (m) => {
      const row = await this.states(m).where('r.api_id = :apiId', { apiId }).orderBy('r.id', 'DESC').limit(1).getOne();
      return row ? releaseFromRow(row) : undefined;
    });
  }

  neighbours(apiId: ApiId, id: ReleaseId): Promise<{ readonly previous: Release | undefined; readonly next: Release | undefined }> {
    return this.run(async (m) => {
      const previous = await this.states(m).where('r.api_id = :apiId AND r.id < :id', { apiId, id }).orderBy('r.id', 'DESC').limit(1).getOne();
      const next = await this.states(m).where('r.api_id = :apiId AND r.id > :id', { apiId, id }).orderBy('r.id', 'ASC').limit(1).getOne();
      return { previous: previous ? releaseFromRow(previous) : undefined, next: next ? releaseFromRow(next) : undefined };
    });
  }

  revisionOf(apiId: ApiId, version: string): Promise<number | null | undefined> {
    if (!isStorableText(version)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.releases).findOne({ where: { apiId, version }, select: { revision: true } });
      return row ? (row.revision === null ? null : Number(row.revision)) : undefined;
    });
  }

  changelog(apiId: ApiId, page: PageRequest<ReleaseId>): Promise<Page<ChangelogEntry, ReleaseId>> {
    return this.run(async (m) => {
      const query = m
        .createQueryBuilder(this.s.releases, 'r')
        .select([...STATE_COLUMNS, 'r.revision', 'r.changes'])
        .where('r.api_id = :apiId', { apiId });
      if (page.after !== undefined) query.andWhere('r.id < :after', { after: page.after });
      const rows = await query.orderBy('r.id', 'DESC').limit(page.limit + 1).getMany();
      const kept = rows.slice(0, page.limit);
      return {
        items: kept.map((row) => ({
          release: releaseFromRow(row),
          revision: row.revision === null ? null : Number(row.revision),
          changes: row.changes === null ? null : (JSON.parse(row.changes) as ReleaseChanges),
        })),
        next: rows.length > page.limit ? (kept.at(-1)?.id ?? null) : null,
      };
    });
  }

  delete(apiId: ApiId, id: ReleaseId): Promise<void> {
    return this.run(async (m) => {
      await m.getRepository(this.s.releases).delete({ id, apiId });
    });
  }

  snapshot(apiId: ApiId, version: string): Promise<StoredSpec | undefined> {
    if (!isStorableText(version)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.releases).findOne({ where: { apiId, version }, select: { format: true, source: true, document: true } });
      return row ? { syntax: row.format, source: row.source, documentJson: row.document } : undefined;
    });
  }

  private states(m: EntityManager) {
    return m.createQueryBuilder(this.s.releases, 'r').select(STATE_COLUMNS);
  }
}
