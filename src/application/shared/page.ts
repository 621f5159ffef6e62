/** A page of a list in a stable order; `next` is the last item's key when more may follow. */
export interface Page<T, K = string> {
  readonly items: readonly T[];
  readonly next: K | null;
}

export interface PageRequest<K = string> {
  /** 1-200; the adapter validates it. */
  readonly limit: number;
  /** Items strictly after this key. */
  readonly after?: K | undefined;
}

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;
