import type { PageRequest } from '../../application/shared/page.js';

/** One page of rows ordered by id (UUIDv7: creation order), after the cursor's id. */
export function page<Id extends string, T extends { readonly id: Id }>(rows: readonly T[], request: PageRequest<Id>, newestFirst = false): { rows: T[]; next: Id | null } {
  const after = request.after;
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1) * (newestFirst ? -1 : 1));
  const filtered = after === undefined ? sorted : sorted.filter((r) => (newestFirst ? r.id < after : r.id > after));
  const kept = filtered.slice(0, request.limit);
  return { rows: kept, next: filtered.length > request.limit ? (kept.at(-1)?.id ?? null) : null };
}
