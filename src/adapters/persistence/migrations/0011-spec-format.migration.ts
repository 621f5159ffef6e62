import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The API record's `specFormat` (swagger-2.0, openapi-3.0, openapi-3.1; null without a spec),
 * kept on the apis row so that the API list and get read it without the spec. Every spec stored
 * before this migration was Swagger 2.0, the only format accepted until then.
 */
export class SpecFormat1763880000000 implements MigrationInterface {
  readonly name = 'SpecFormat1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('apis', new TableColumn({ name: 'spec_format', type: 'text', isNullable: true }));
    const schema = (q.connection.options as { schema?: string }).schema;
    const table = (name: string) => (schema ? `${q.connection.driver.escape(schema)}.${q.connection.driver.escape(name)}` : q.connection.driver.escape(name));
    await q.query(`UPDATE ${table('apis')} SET spec_format = 'swagger-2.0' WHERE id IN (SELECT api_id FROM ${table('api_specs')})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('apis', 'spec_format');
  }
}
