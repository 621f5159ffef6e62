/**
 * Each Date formatted once: the read caches hand out the same states (and Dates) again and again,
 * and toISOString was the single largest cost of serialising a cached list. Dates are never
 * changed in place in this code base (states are replaced, not mutated), which this relies on.
 */
const formatted = new WeakMap<Date, string>();

/** The wire format for every time: ISO 8601, UTC, with an explicit `+00:00` offset. */
export function formatTimestamp(date: Date): string {
  let text = formatted.get(date);
  if (text === undefined) {
    // toISOString always ends in `Z`; slicing it off is several times cheaper than a RegExp replace.
    text = `${date.toISOString().slice(0, -1)}+00:00`;
    formatted.set(date, text);
  }
  return text;
}

/** The UTC calendar day of `date`, `YYYY-MM-DD`. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
