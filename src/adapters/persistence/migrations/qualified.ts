import type { QueryRunner } from 'typeorm';

/** Table `name` as plain SQL of a migration names it: in DATABASE_SCHEMA if one is set, quoted. */
export function qualified(q: QueryRunner, name: string): string {
  const schema = (q.connection.options as { schema?: string }).schema;
  const escape = (part: string): string => q.connection.driver.escape(part);
  return schema ? `${escape(schema)}.${escape(name)}` : escape(name);
}
