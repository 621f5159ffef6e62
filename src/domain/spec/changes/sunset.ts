/**
 * `x-sunset` as a day. Written as a date (`2027-06-30`) or as an RFC 3339 date-time, taken as the
 * day it falls on in UTC; anything else (an HTTP date, a typo, `2027-02-30`) names no day, and a
 * removal can then not be judged to come after it.
 */
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** Whether a `YYYY-MM-DD` names a day: the day it falls on reads back as written, which 2027-02-30 (2 March) does not. */
function isDay(date: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const parsed = new Date(0);
  parsed.setUTCFullYear(year, month - 1, day);
  return parsed.toISOString().slice(0, 10) === date;
}

/** The UTC day (`YYYY-MM-DD`) of an `x-sunset` as written; null when it names none. */
export function sunsetDay(written: string): string | null {
  if (DATE.test(written)) return isDay(written) ? written : null;
  // The date of a date-time must be a day too: Date rolls 2027-02-30T00:00:00Z over into March.
  const dateTime = DATE_TIME.exec(written);
  if (dateTime === null || !isDay(dateTime[1]!)) return null;
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
