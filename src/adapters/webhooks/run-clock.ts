/**
 * A run's clock: the `now` it was handed over with (the worker's Clock, which tests move), running
 * on with the wall clock. Kept as an offset from `Date.now()`, which every thread of the process
 * shares, so a sender thread runs the same clock from the offset alone.
 */
export function offsetOf(now: Date): number {
  return now.getTime() - Date.now();
}

export function clockAt(offsetMs: number): () => Date {
  return () => new Date(Date.now() + offsetMs);
}

export function runClock(run: { readonly now: Date }): () => Date {
  return clockAt(offsetOf(run.now));
}
