/**
 * `x-sunset` as a day. Written as a date (`2027-06-30`) or as an RFC 3339 date-time, taken as the
 * day it falls on in UTC; anything else (an HTTP date, a typo, `2027-02-30`) names no day, and a
 * removal can then not be judged to come after it.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** The UTC day (`YYYY-MM-DD`) of an `x-sunset` as written; null when it names none. */
export function sunsetDay(written: string): string | null {
  const date = DATE.exec(written);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const parsed = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2027-02-30 over into March: such a day does not exist.
    return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day ? written : null;
  }
  if (!DATE_TIME.test(written)) return null;
  const instant = new Date(written);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString().slice(0, 10);
}

/**
 * Whether an operation removed on `today` (`YYYY-MM-DD`) was removed after its sunset: it was
 * deprecated and its `x-sunset` day is `today` or before. The sunset day itself counts: the
 * operation was announced to be gone by then.
 */
export function removedAfterSunset(operation: { readonly deprecated: boolean; readonly sunset: string | null }, today: string): boolean {
  if (!operation.deprecated || operation.sunset === null) return false;
  const day = sunsetDay(operation.sunset);
  return day !== null && day <= today;
}
