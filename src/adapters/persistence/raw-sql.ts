import type { EntityManager, EntitySchema } from 'typeorm';
import type { IntegerKey } from '../../domain/shared/ids.js';
import type { Dialect } from './dialect.js';

/**
 * Plain SQL for the reads on every request's path (token holders, API pages, one API). TypeORM's
 * query builder spent more CPU building and hydrating these than the database spent answering them
 * (docs/performance.md); through `manager.query` they still run on the caller's transaction, if any.
 */

const tables = new WeakMap<EntitySchema, string>();

/** The quoted table name of `entity`, qualified by DATABASE_SCHEMA when one is set. */
export function tableOf(m: EntityManager, entity: EntitySchema): string {
  let name = tables.get(entity);
  if (name === undefined) {
    const metadata = m.connection.getMetadata(entity);
    const escape = (part: string): string => m.connection.driver.escape(part);
    name = metadata.schema ? `${escape(metadata.schema)}.${escape(metadata.tableName)}` : escape(metadata.tableName);
    tables.set(entity, name);
  }
  return name;
}

/** The dialect of the database `m` talks to. */
export function dialectOf(m: EntityManager): Dialect {
  return m.connection.driver.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

const numbered = new Map<string, string>();

/** `sql` written with `?` placeholders, as `dialect` wants them: `$1, $2, ...` for PostgreSQL. */
export function forDialect(dialect: Dialect, sql: string): string {
  if (dialect === 'sqlite') return sql;
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

/** `?, ?, ?` for `count` values. */
export function placeholderList(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** A timestamp column as either driver returns it: ISO text (SQLite), a Date or text (PostgreSQL). */
export function dateOf(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

export function nullableDateOf(value: Date | string | null): Date | null {
  return value === null ? null : dateOf(value);
}

/** An integer key as a driver gives it back (a number, or a string for some PostgreSQL types): what storage holds was parsed on its way in. */
export function storedKey<Id extends IntegerKey<string>>(value: number | string): Id {
  return Number(value) as Id;
}

/**
 * The rows an `UPDATE ... RETURNING` or `DELETE ... RETURNING` statement gave back: TypeORM answers
 * `[rows, count]` for those on PostgreSQL, the rows on SQLite.
 */
export async function updated<Row = { id: string }>(m: EntityManager, sql: string, parameters: readonly unknown[]): Promise<Row[]> {
  const result = await m.query<Row[] | [Row[], number]>(sql, [...parameters]);
  return dialectOf(m) === 'postgres' ? ((result as [Row[], number])[0] ?? []) : (result as Row[]);
}
