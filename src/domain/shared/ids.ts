/**
 * Ids are parsed once, where they enter (a path, a token, a form, a command line), into branded
 * types: past that point a value typed `ApiId` is a UUID and an `AccountId` an integer PostgreSQL's
 * `integer` column can hold, so no repository checks a key again. A text that is not one is not
 * an id of anything: the edge answers "not found" for it.
 */
declare const brand: unique symbol;

/** A value proven to be `Kind`'s id; made only by the parsers below (or by storage, which holds proven ids). */
export type Branded<T, Kind extends string> = T & { readonly [brand]: Kind };

/** A UUID (any version) naming an entity of `Kind`. */
export type Uuid<Kind extends string> = Branded<string, Kind>;

/** A positive integer key of `Kind`, within PostgreSQL's 32-bit `integer`. */
export type IntegerKey<Kind extends string> = Branded<number, Kind>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INTEGER_MAX = 2_147_483_647;

/** The text as a UUID id, or undefined when it cannot be one. */
export function parseUuid<Id extends Uuid<string>>(text: string): Id | undefined {
  return UUID.test(text) ? (text as Id) : undefined;
}

/** The number as an integer key, or undefined when no row can have it. */
export function parseIntegerKey<Id extends IntegerKey<string>>(value: number): Id | undefined {
  return Number.isSafeInteger(value) && value > 0 && value <= INTEGER_MAX ? (value as Id) : undefined;
}

const DECIMAL_KEY = /^[1-9][0-9]{0,9}$/;

/** The decimal text of a path or command line as an integer key, or undefined when no row can have it. */
export function parseIntegerKeyText<Id extends IntegerKey<string>>(text: string): Id | undefined {
  return DECIMAL_KEY.test(text) ? parseIntegerKey<Id>(Number(text)) : undefined;
}
