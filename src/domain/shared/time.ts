/** The wire format for every time: ISO 8601, UTC, with an explicit `+00:00` offset. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}
