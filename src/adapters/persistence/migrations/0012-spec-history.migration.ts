import { Table, TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';
import { chunked } from '../spec-chunks.js';

/**
 * Spec history, change classification and the breaking-change policy (issue 11):
 * - `api_revisions`: every spec an API has had, by the API revision at which it was stored, as the
 *   keys of its content-defined chunks (source and canonical JSON), who stored it, its format, the
 *   changes against the spec before it and the reason breaking ones were let through;
 * - `spec_chunks`: the chunks, once per API and content (ADR 0023);
 * - `api_releases.revision` and `.changes`: the revision a release froze and what it changed since
 *   the release before it;
 * - `apis.breaking_change_policy`.
 * Every API that has a spec gets its current spec as its first revision, stored by its owner.
 */
export class SpecHistory1763890000000 implements MigrationInterface {
  readonly name = 'SpecHistory1763890000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: String(t.uuid), ...(t.uuidLength ? { length: String(t.uuidLength) } : {}), isPrimary });
    const timestamp = (name: string): TableColumnOptions => ({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}) });
    const text = (name: string, isNullable = false, isPrimary = false): TableColumnOptions => ({ name, type: 'text', isNullable, isPrimary });
    const cascadeToApi = () => new TableForeignKey({ columnNames: ['api_id'], referencedTableName: 'apis', referencedColumnNames: ['id'], onDelete: 'CASCADE' });

    await q.addColumn('apis', new TableColumn({ name: 'breaking_change_policy', type: 'text', isNullable: false, default: "'allow'" }));
    await q.addColumn('api_releases', new TableColumn({ name: 'revision', type: 'integer', isNullable: true }));
    await q.addColumn('api_releases', new TableColumn({ name: 'changes', type: 'text', isNullable: true }));
    await q.createTable(
      new Table({
        name: 'spec_chunks',
        columns: [uuid('api_id', true), text('key', false, true), text('data')],
        foreignKeys: [cascadeToApi()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_revisions',
        columns: [
          uuid('api_id', true),
          { name: 'revision', type: 'integer', isPrimary: true },
          timestamp('creation_date'),
          { name: 'user_id', type: 'integer' },
          text('spec_format'),
          text('syntax'),
          text('source_chunks'),
          text('document_chunks'),
          text('changes', true),
          text('reason', true),
        ],
        foreignKeys: [cascadeToApi()],
      }),
    );

    const schema = (q.connection.options as { schema?: string }).schema;
    const table = (name: string) => (schema ? `${q.connection.driver.escape(schema)}.${q.connection.driver.escape(name)}` : q.connection.driver.escape(name));
    const postgres = q.connection.options.type === 'postgres';
    const p = (n: number) => (postgres ? `$${n}` : '?');
    const rows = (await q.query(
      `SELECT s.api_id, s.format, s.source, s.document, s.update_date, a.revision, a.user_id, a.spec_format FROM ${table('api_specs')} s JOIN ${table('apis')} a ON a.id = s.api_id`,
    )) as { api_id: string; format: string; source: string; document: string; update_date: string | Date; revision: number; user_id: number; spec_format: string | null }[];
    for (const row of rows) {
      const source = chunked(row.source);
      const document = chunked(row.document);
      for (const [key, data] of new Map([...source.chunks, ...document.chunks])) {
        await q.query(`INSERT INTO ${table('spec_chunks')} (api_id, key, data) VALUES (${p(1)}, ${p(2)}, ${p(3)}) ON CONFLICT DO NOTHING`, [row.api_id, key, data]);
      }
      await q.query(
        `INSERT INTO ${table('api_revisions')} (api_id, revision, creation_date, user_id, spec_format, syntax, source_chunks, document_chunks, changes, reason) ` +
          `VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, NULL, NULL)`,
        [row.api_id, Number(row.revision), row.update_date, row.user_id, row.spec_format ?? 'swagger-2.0', row.format, JSON.stringify(source.keys), JSON.stringify(document.keys)],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_revisions');
    await q.dropTable('spec_chunks');
    await q.dropColumn('api_releases', 'changes');
    await q.dropColumn('api_releases', 'revision');
    await q.dropColumn('apis', 'breaking_change_policy');
  }
}
