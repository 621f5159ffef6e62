import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/** The current spec of each API, its derived resources, and releases with their frozen specs. */
export class SpecsAndReleases1763790000000 implements MigrationInterface {
  readonly name = 'SpecsAndReleases1763790000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const uuid = (name: string, isPrimary = false): TableColumnOptions => ({
      name,
      type: String(t.uuid),
      ...(t.uuidLength ? { length: String(t.uuidLength) } : {}),
      isPrimary,
    });
    const timestamp = (name: string): TableColumnOptions => ({
      name,
      type: String(t.timestamp),
      ...(t.timestampLength ? { length: String(t.timestampLength) } : {}),
    });
    const text = (name: string, isPrimary = false): TableColumnOptions => ({ name, type: 'text', isPrimary });
    const cascadeToApi = () =>
      new TableForeignKey({ columnNames: ['api_id'], referencedTableName: 'apis', referencedColumnNames: ['id'], onDelete: 'CASCADE' });

    await q.createTable(
      new Table({
        name: 'api_specs',
        columns: [uuid('api_id', true), text('format'), text('source'), text('document'), timestamp('update_date')],
        foreignKeys: [cascadeToApi()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_derived',
        columns: [uuid('api_id', true), text('kind', true), { name: 'position', type: 'integer', isPrimary: true }, text('data')],
        foreignKeys: [cascadeToApi()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_releases',
        columns: [
          uuid('id', true),
          uuid('api_id'),
          { name: 'account_id', type: 'integer' },
          text('version'),
          text('status'),
          timestamp('release_date'),
          text('format'),
          text('source'),
          text('document'),
        ],
        indices: [
          new TableIndex({ name: 'api_releases_api_version_key', columnNames: ['api_id', 'version'], isUnique: true }),
          new TableIndex({ name: 'api_releases_api_id_idx', columnNames: ['api_id', 'id'] }),
        ],
        foreignKeys: [cascadeToApi()],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['api_releases', 'api_derived', 'api_specs']) await q.dropTable(table);
  }
}
