import type { ColumnType, ValueTransformer } from 'typeorm';

export type Dialect = 'sqlite' | 'postgres';

/** Column types that differ between the two databases; everything else is shared. */
export interface DialectTypes {
  readonly uuid: ColumnType;
  readonly timestamp: ColumnType;
  readonly uuidLength: number | undefined;
  readonly timestampLength: number | undefined;
  /** Bytes. */
  readonly binary: ColumnType;
}

export function dialectTypes(dialect: Dialect): DialectTypes {
  return dialect === 'postgres'
    ? { uuid: 'uuid', timestamp: 'timestamptz', uuidLength: undefined, timestampLength: undefined, binary: 'bytea' }
    : // SQLite has no time type: ISO 8601 UTC text in one fixed format sorts and compares correctly.
      { uuid: 'varchar', timestamp: 'varchar', uuidLength: 36, timestampLength: 30, binary: 'blob' };
}

/** Dates cross the boundary as ISO strings both ways, so neither driver's time zone handling matters. */
export const timestampTransformer: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? value.toISOString() : value),
  from: (value: Date | string | null) => (value === null || value === undefined ? null : new Date(value)),
};

export const jsonTransformer: ValueTransformer = {
  to: (value: unknown) => (value === undefined || value === null ? value : JSON.stringify(value)),
  from: (value: string | null) => (value === null ? null : (JSON.parse(value) as unknown)),
};
