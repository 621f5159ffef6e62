/**
 * What the docs pages made of owners' text (a reference page's description and reference, a
 * guide), kept by a key naming that text (an API's revision, a guide's content hash) so that
 * repeated views do not render it again. Bounded by `budgetBytes` (two bytes a character of the
 * key and of the strings kept, `weigh`), the least recently used going first; a part heavier than
 * a quarter of the budget is made for its request but not kept, so that one page cannot empty the
 * cache of everyone else's. A part being made is shared: requests for its key meanwhile wait for
 * it instead of making it again.
 */
export class RenderedCache<V> {
  private readonly kept = new Map<string, { readonly value: V; readonly bytes: number }>();
  private readonly making = new Map<string, Promise<V>>();
  private used = 0;

  constructor(
    private readonly budgetBytes: number,
    /** Characters of the strings `value` holds. */
    private readonly weigh: (value: V) => number,
  ) {}

  /** Bytes of what is kept. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.kept.size;
  }

  /** The part of `key` if it is kept (marked as just used) or being made; undefined otherwise. */
  find(key: string): V | Promise<V> | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return this.making.get(key);
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.value;
  }

  /** The part of `key`: kept, being made, or made now by `make` (and kept if it fits). A failure of `make` is every waiter's, and nothing is kept. */
  async obtain(key: string, make: () => Promise<V>): Promise<V> {
    const found = this.find(key);
    if (found !== undefined) return found;
    const made = make();
    this.making.set(key, made);
    try {
      const value = await made;
      this.keep(key, value);
      return value;
    } finally {
      this.making.delete(key);
    }
  }

  private keep(key: string, value: V): void {
    const bytes = 2 * (key.length + this.weigh(value));
    if (bytes > this.budgetBytes / 4) return;
    const old = this.kept.get(key);
    if (old !== undefined) {
      this.kept.delete(key);
      this.used -= old.bytes;
    }
    this.kept.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.used <= this.budgetBytes) break;
      this.kept.delete(oldest);
      this.used -= entry.bytes;
    }
  }
}
