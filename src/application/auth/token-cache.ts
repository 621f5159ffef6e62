import { ApiToken, type ApiTokenId } from '../../domain/token/api-token.aggregate.js';
import { MAX_HOLDER_LOOKUP, type TokenHolder } from '../ports/api-token-repository.port.js';

export interface TokenCacheSettings {
  /** How many tokens are kept; 0 turns the cache off (every request reads the database). */
  readonly maxEntries: number;
  /**
   * The revocation bound: an entry is used only while the database confirmed its token less than
   * this long ago. A token revoked on any instance stops working everywhere within this time.
   */
  readonly revalidateMs: number;
  /** Entries unused for this long are dropped, so that the re-check reads only the tokens in use. */
  readonly idleMs: number;
}

export const DEFAULT_TOKEN_CACHE: TokenCacheSettings = { maxEntries: 10_000, revalidateMs: 2_000, idleMs: 300_000 };

interface Entry {
  holder: TokenHolder;
  /** When the read that last found the token began (ms): what the revocation bound is measured from. */
  confirmedAt: number;
  lastUsedAt: number;
}

/**
 * Hot API tokens with their holders, so that a Bearer request needs no database read. The bound
 * on revocation comes from the database, not from a time-to-live alone: all entries are re-read
 * in one query (`reread`, a few hundred hashes per statement) when the oldest confirmation passes
 * half the bound, in the background; an entry older than the whole bound is never used, its
 * request waits for the re-read instead. A token deleted by any instance, or by hand, or with its
 * user, is missing from the re-read and leaves the cache; a revocation on this instance leaves it
 * at once (`forget`). Least recently used entries go first when the cache is full.
 */
export class TokenCache {
  /** In least- to most-recently-used order (a Map keeps insertion order; a use re-inserts). */
  private readonly entries = new Map<string, Entry>();
  private rereading: Promise<void> | undefined;
  /** When the oldest entry was confirmed: the next re-read is due at half the bound after it. */
  private oldestConfirmation = Infinity;

  constructor(
    private readonly settings: TokenCacheSettings,
    private readonly reread: (tokenHashes: readonly string[]) => Promise<TokenHolder[]>,
  ) {}

  get enabled(): boolean {
    return this.settings.maxEntries > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The holder of `tokenHash` if the cache may answer for it at `now` (ms); undefined sends the
   * caller to the database. May wait for a re-read that is overdue.
   */
  async get(tokenHash: string, now: number): Promise<TokenHolder | undefined> {
    let entry = this.entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (now - entry.confirmedAt >= this.settings.revalidateMs) {
      await this.rereadAll(now);
      entry = this.entries.get(tokenHash);
      // Added after the re-read began, so not part of it: the caller reads the database.
      if (entry === undefined || now - entry.confirmedAt >= this.settings.revalidateMs) return undefined;
    } else {
      this.refreshAhead(now);
    }
    return this.used(tokenHash, entry, now);
  }

  /**
   * `get` without waiting: the holder when the cache may answer for `tokenHash` at `now` at once;
   * undefined when it is not cached or its confirmation is past the bound (`get` waits for the
   * re-read then, and so must the caller).
   */
  getAtOnce(tokenHash: string, now: number): TokenHolder | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry === undefined || now - entry.confirmedAt >= this.settings.revalidateMs) return undefined;
    this.refreshAhead(now);
    return this.used(tokenHash, entry, now);
  }

  /**
   * Re-reads ahead, so that under steady traffic no request ever waits; a failure leaves the
   * entries to age until a request waits for the re-read and sees the database's error.
   */
  private refreshAhead(now: number): void {
    if (now - this.oldestConfirmation >= this.settings.revalidateMs / 2 && this.rereading === undefined) this.rereadAll(now).catch(() => undefined);
  }

  private used(tokenHash: string, entry: Entry, now: number): TokenHolder {
    entry.lastUsedAt = now;
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.holder;
  }

  /** Remembers `holder`, found by a read that began at `readAt` (ms). */
  put(holder: TokenHolder, readAt: number): void {
    if (!this.enabled) return;
    const hash = holder.token.tokenHash;
    this.entries.delete(hash);
    this.entries.set(hash, { holder, confirmedAt: readAt, lastUsedAt: readAt });
    this.oldestConfirmation = Math.min(this.oldestConfirmation, readAt);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.settings.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /** Replaces the cached copy of a token after its last use was written back. */
  update(holder: TokenHolder): void {
    const entry = this.entries.get(holder.token.tokenHash);
    if (entry) entry.holder = holder;
  }

  /** Drops a token revoked on this instance: it stops working here with the next request. */
  forget(tokenId: ApiTokenId): void {
    for (const [hash, entry] of this.entries) {
      if (entry.holder.token.id === tokenId) this.entries.delete(hash);
    }
  }

  /** One re-read at a time; callers arriving meanwhile share it. */
  private rereadAll(now: number): Promise<void> {
    this.rereading ??= this.rereadEntries(now).finally(() => {
      this.rereading = undefined;
    });
    return this.rereading;
  }

  private async rereadEntries(startedAt: number): Promise<void> {
    const hashes: string[] = [];
    for (const [hash, entry] of this.entries) {
      if (startedAt - entry.lastUsedAt >= this.settings.idleMs) this.entries.delete(hash);
      else hashes.push(hash);
    }
    const found = new Map<string, TokenHolder>();
    for (let i = 0; i < hashes.length; i += MAX_HOLDER_LOOKUP) {
      for (const holder of await this.reread(hashes.slice(i, i + MAX_HOLDER_LOOKUP))) found.set(holder.token.tokenHash, holder);
    }
    let oldest = Infinity;
    for (const [hash, entry] of this.entries) {
      const holder = found.get(hash);
      if (holder !== undefined) {
        entry.holder = withLaterUse(holder, entry.holder);
        entry.confirmedAt = Math.max(entry.confirmedAt, startedAt);
      } else if (entry.confirmedAt <= startedAt) {
        // Checked and gone: revoked, or its user deleted.
        this.entries.delete(hash);
        continue;
      }
      oldest = Math.min(oldest, entry.confirmedAt);
    }
    this.oldestConfirmation = oldest;
  }
}

/**
 * The holder a re-read found, keeping the cached copy's last use when that is later: a use written
 * back while the re-read was under way (`update`) is not taken back by the older row, which would
 * have the next request write it again.
 */
function withLaterUse(found: TokenHolder, cached: TokenHolder): TokenHolder {
  const cachedUse = cached.token.lastUseDate;
  const foundUse = found.token.lastUseDate;
  if (cachedUse === null || (foundUse !== null && foundUse.getTime() >= cachedUse.getTime())) return found;
  return { token: ApiToken.rehydrate({ ...found.token.snapshot(), lastUseDate: cachedUse }), user: found.user };
}
