import { expect } from 'chai';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { undoThrough } from './migration-steps.js';
import { Lz4Documents1764400000000 } from '../../src/adapters/persistence/migrations/0023-lz4-documents.migration.js';
import { forEachDatabase } from '../support/databases.js';

/** Migration 0023: on PostgreSQL the document columns are compressed with LZ4; down gives them the default again. */
forEachDatabase('the document columns\' compression (migration 0023)', (target) => {
  it('is LZ4 for the specs\' and releases\' source and document on a PostgreSQL server that has it, the default again after down; on SQLite the migration is only recorded', async () => {
    const { config, dispose } = await target.create();
    const db = new TypeOrmDatabase(config);
    try {
      await db.open();
      expect(await db.migrate()).to.include('Lz4Documents1764400000000');
      if (db.dialect !== 'postgres') return;
      const lz4 = (await db.read((m) => m.query<unknown[]>("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"))).length > 0;
      const compression = async (): Promise<Record<string, string>> => {
        const rows = await db.read((m) =>
          m.query<{ col: string; c: string }[]>(
            `SELECT c.relname || '.' || a.attname AS col, a.attcompression AS c FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = $1 AND c.relname IN ('api_specs', 'api_releases', 'spec_chunks') AND a.attname IN ('source', 'document', 'data') ORDER BY 1`,
            [db.schemaName],
          ),
        );
        return Object.fromEntries(rows.map((row) => [row.col, row.c]));
      };
      const l = lz4 ? 'l' : '';
      expect(await compression()).to.deep.equal({ 'api_releases.document': l, 'api_releases.source': l, 'api_specs.document': l, 'api_specs.source': l, 'spec_chunks.data': '' });
      await undoThrough(db, Lz4Documents1764400000000);
      expect(Object.values(await compression())).to.deep.equal(['', '', '', '', '']);
    } finally {
      await db.close();
      await dispose();
    }
  });
});
