import { Table, TableColumn, TableForeignKey, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * Spec history, change classification and the breaking-change policy (issue 11):
 * - `api_revisions`: every spec an API has had, by the API revision at which it was stored, as the
 *   keys of its content-defined chunks (source and canonical JSON; none for the current spec, which
 *   is the api_specs row), who stored it, its format, the changes against the spec before it and
 *   the reason breaking ones were let through;
 * - `spec_chunks`: the chunks, once per API and content, deflated (ADR 0023);
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
        columns: [uuid('api_id', true), text('key', false, true), { name: 'data', type: String(t.binary) }],
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
          text('source_chunks', true),
          text('document_chunks', true),
          text('changes', true),
          text('reason', true),
        ],
        foreignKeys: [cascadeToApi()],
      }),
    );

    // Each API's current spec becomes its first revision; it stays in api_specs (no chunk lists) until replaced.
    const schema = (q.connection.options as { schema?: string }).schema;
    const table = (name: string) => (schema ? `${q.connection.driver.escape(schema)}.${q.connection.driver.escape(name)}` : q.connection.driver.escape(name));
    await q.query(
      `INSERT INTO ${table('api_revisions')} (api_id, revision, creation_date, user_id, spec_format, syntax, source_chunks, document_chunks, changes, reason) ` +
        `SELECT s.api_id, a.revision, s.update_date, a.user_id, COALESCE(a.spec_format, 'swagger-2.0'), s.format, NULL, NULL, NULL, NULL ` +
        `FROM ${table('api_specs')} s JOIN ${table('apis')} a ON a.id = s.api_id`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_revisions');
    await q.dropTable('spec_chunks');
    await q.dropColumn('api_releases', 'changes');
    await q.dropColumn('api_releases', 'revision');
    await q.dropColumn('apis', 'breaking_change_policy');
  }
}
