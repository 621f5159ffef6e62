import type { UserId } from '../../domain/account/account.js';
import { In, type EntityManager } from 'typeorm';
import type { StoredSpec } from '../../application/ports/spec-repository.port.js';
import type { SpecRevisionRepository, SpecRevisionSummary } from '../../application/ports/spec-revision-repository.port.js';
import type { SpecRevisionEntry, StoredChanges } from '../../application/ports/spec-repository.port.js';
import type { Page, PageRequest } from '../../application/shared/page.js';
import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { SpecSyntax } from '../../domain/spec/spec-document.js';
import { forDialect, storedKey, tableOf } from './raw-sql.js';
import type { Dialect } from './dialect.js';
import type { ApiRevisionRow } from './rows.js';
import type { Schemas } from './schema.js';
import { chunked, packChunk, unpackChunk } from './spec-chunks.js';
import type { Run } from './typeorm-database.js';

/** Chunk rows per INSERT: 3 parameters each stays far below both databases' parameter limits. */
const INSERT_CHUNK = 500;

/** The summary columns, with the nickname of who stored it as it is now. */
interface SummaryRow {
  revision: number;
  creation_date: Date | string;
  user_id: UserId;
  nickname: string | null;
  spec_format: ApiRevisionRow['specFormat'];
  changes: string | null;
  reason: string | null;
}

function summaryOf(row: SummaryRow): SpecRevisionSummary {
  const changes = row.changes === null ? null : (JSON.parse(row.changes) as StoredChanges);
  return {
    revision: Number(row.revision),
    creationDate: row.creation_date instanceof Date ? row.creation_date : new Date(row.creation_date),
    user: { id: storedKey(row.user_id), nickname: row.nickname ?? '' },
    specFormat: row.spec_format,
    counts: changes?.counts ?? null,
    reason: row.reason,
  };
}

/**
 * The spec history (ADR 0023). The current spec is the `api_specs` row, and its revision row says
 * so with no chunk lists; when a new spec replaces it, its texts move into content-defined chunks,
 * deflated and kept once per API (`spec_chunks`, shared by every revision that has them), and its
 * row gets the keys. So an import stores the document once, and the history grows with what
 * changed.
 */
export class TypeOrmSpecRevisionRepository implements SpecRevisionRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
    private readonly dialect: Dialect,
  ) {}

  list(apiId: ApiId, page: PageRequest<number>): Promise<Page<SpecRevisionSummary, number>> {
    return this.run(async (m) => {
      const after = page.after === undefined ? '' : ' AND r.revision < ?';
      const sql = `${this.selectSummary(m)} WHERE r.api_id = ?${after} ORDER BY r.revision DESC LIMIT ?`;
      const rows = await m.query<SummaryRow[]>(forDialect(this.dialect, sql), [apiId, ...(page.after === undefined ? [] : [page.after]), page.limit + 1]);
      const items = rows.slice(0, page.limit).map(summaryOf);
      return { items, next: rows.length > page.limit ? (items.at(-1)?.revision ?? null) : null };
    });
  }

  get(apiId: ApiId, revision: number): Promise<{ readonly summary: SpecRevisionSummary; readonly spec: StoredSpec } | undefined> {
    return this.run(async (m) => {
      // The current spec's row is read in the same statement: a spec update committing meanwhile
      // (which archives this revision into chunks) cannot hand back the next revision's text.
      const rows = await m.query<
        (SummaryRow & { syntax: 'yaml' | 'json'; source_chunks: string | null; document_chunks: string | null; current_syntax: 'yaml' | 'json' | null; current_source: string | null; current_document: string | null })[]
      >(
        forDialect(
          this.dialect,
          `${this.selectSummary(m, ', r.syntax, r.source_chunks, r.document_chunks, s.format AS current_syntax, s.source AS current_source, s.document AS current_document', `LEFT JOIN ${tableOf(m, this.s.specs)} s ON s.api_id = r.api_id AND r.source_chunks IS NULL`)} WHERE r.api_id = ? AND r.revision = ?`,
        ),
        [apiId, revision],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      if (row.source_chunks === null || row.document_chunks === null) {
        if (row.current_syntax === null || row.current_source === null || row.current_document === null) return undefined;
        return { summary: summaryOf(row), spec: { syntax: row.current_syntax, source: row.current_source, documentJson: row.current_document } };
      }
      const sourceKeys = JSON.parse(row.source_chunks) as string[];
      const documentKeys = JSON.parse(row.document_chunks) as string[];
      const chunks = await chunksOf(m, this.s, apiId, [...new Set([...sourceKeys, ...documentKeys])]);
      // The retention cleanup may have deleted the revision, and its chunks, since it was read.
      if ([...sourceKeys, ...documentKeys].some((key) => !chunks.has(key)) && !(await this.exists(m, apiId, revision))) return undefined;
      const text = (keys: readonly string[]) =>
        keys
          .map((key) => {
            const chunk = chunks.get(key);
            // Chunks are never deleted while a revision lists them: a missing one is a broken store, not an empty text.
            if (chunk === undefined) throw new Error(`spec history of API ${apiId}: revision ${revision} lists chunk ${key}, which is missing`);
            return chunk;
          })
          .join('');
      return { summary: summaryOf(row), spec: { syntax: row.syntax, source: text(sourceKeys), documentJson: text(documentKeys) } };
    });
  }

  changes(apiId: ApiId, revision: number, from: number): Promise<StoredChanges | null | undefined> {
    return this.run(async (m) => {
      const rows = await m.query<{ changes: string | null; changes_from: number | string | null }[]>(
        forDialect(this.dialect, `SELECT changes, changes_from FROM ${tableOf(m, this.s.revisions)} WHERE api_id = ? AND revision = ?`),
        [apiId, revision],
      );
      const row = rows[0];
      if (row === undefined) return undefined;
      return row.changes === null || Number(row.changes_from) !== from ? null : (JSON.parse(row.changes) as StoredChanges);
    });
  }

  private async exists(m: EntityManager, apiId: ApiId, revision: number): Promise<boolean> {
    const rows = await m.query<unknown[]>(forDialect(this.dialect, `SELECT 1 FROM ${tableOf(m, this.s.revisions)} WHERE api_id = ? AND revision = ?`), [apiId, revision]);
    return rows.length > 0;
  }

  previous(apiId: ApiId, revision: number): Promise<number | undefined> {
    return this.run(async (m) => {
      const row = await m
        .createQueryBuilder(this.s.revisions, 'r')
        .select(['r.revision'])
        .where('r.api_id = :apiId AND r.revision < :revision', { apiId, revision })
        .orderBy('r.revision', 'DESC')
        .limit(1)
        .getOne();
      return row ? Number(row.revision) : undefined;
    });
  }

  private selectSummary(m: EntityManager, more = '', join = ''): string {
    return (
      `SELECT r.revision, r.creation_date, r.user_id, u.nickname, r.spec_format, r.changes, r.reason${more} ` +
      `FROM ${tableOf(m, this.s.revisions)} r LEFT JOIN ${tableOf(m, this.s.users)} u ON u.id = r.user_id ${join}`
    );
  }
}

/** Which of `keys` the API's chunk store has. */
async function knownKeys(m: EntityManager, s: Schemas, apiId: ApiId, keys: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    const rows = await m.getRepository(s.chunks).find({ where: { apiId, key: In(keys.slice(i, i + INSERT_CHUNK)) }, select: { key: true } });
    for (const row of rows) known.add(row.key);
  }
  return known;
}

async function chunksOf(m: EntityManager, s: Schemas, apiId: ApiId, keys: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    const rows = await m.getRepository(s.chunks).find({ where: { apiId, key: In(keys.slice(i, i + INSERT_CHUNK)) } });
    for (const row of rows) found.set(row.key, unpackChunk(row.data));
  }
  return found;
}

/**
 * Moves the API's current spec into the history (its texts into chunks, the keys onto its revision
 * row) and adds the row of the revision that becomes current. Called by the spec repository in
 * the transaction that replaces the `api_specs` row, before it does.
 */
export async function addRevision(m: EntityManager, s: Schemas, dialect: Dialect, apiId: ApiId, revision: SpecRevisionEntry, syntax: SpecSyntax): Promise<void> {
  const revisions = tableOf(m, s.revisions);
  const current = await m.query<{ revision: number }[]>(forDialect(dialect, `SELECT revision FROM ${revisions} WHERE api_id = ? AND source_chunks IS NULL`), [apiId]);
  const spec = current.length > 0 ? await m.getRepository(s.specs).findOneBy({ apiId }) : null;
  if (spec) {
    const source = chunked(spec.source);
    // A compact JSON upload is its own canonical JSON: chunked once.
    const document = spec.document === spec.source ? source : chunked(spec.document);
    const chunks = new Map([...source.chunks, ...document.chunks]);
    const known = await knownKeys(m, s, apiId, [...chunks.keys()]);
    const rows = [...chunks].filter(([key]) => !known.has(key)).map(([key, data]) => ({ apiId, key, data: packChunk(data) }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await m.createQueryBuilder().insert().into(s.chunks).values(rows.slice(i, i + INSERT_CHUNK)).orIgnore().execute();
    }
    for (const row of current) {
      await m.query(forDialect(dialect, `UPDATE ${revisions} SET source_chunks = ?, document_chunks = ? WHERE api_id = ? AND revision = ?`), [
        JSON.stringify(source.keys),
        JSON.stringify(document.keys),
        apiId,
        row.revision,
      ]);
    }
  }
  await m.getRepository(s.revisions).insert({
    apiId,
    revision: revision.revision,
    creationDate: revision.creationDate,
    userId: revision.actor.id,
    specFormat: revision.specFormat,
    syntax,
    sourceChunks: null,
    documentChunks: null,
    changes: revision.changes === null ? null : JSON.stringify(revision.changes),
    changesFrom: current[0]?.revision ?? null,
    reason: revision.reason,
  });
}
