import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S } from '../../domain/identity/grant.js';
import type { Clock } from '../ports/clock.port.js';
import type { SigningKeyRepository, StoredSigningKey } from '../ports/identity-repositories.port.js';
import type { SigningKeyGenerator } from '../ports/token-signer.port.js';

/** How long a superseded key stays published: until the last token it signed has expired, plus clock skew. */
const RETIRED_KEY_GRACE_MS = (Math.max(ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S) + 300) * 1000;
/** How long a process trusts its copy of the key list before reading it again (another instance may have rotated). */
const CACHE_MS = 60_000;
const REFRESH_MIN_MS = 5_000;
/** JWK sets are served with `max-age=300`. */
export const KEY_SET_MAX_AGE_S = 300;
/**
 * How long a rotated-in key is published before it signs: longer than a client may cache the key
 * set plus how long an instance caches the list, so nobody meets a token whose key they have not seen.
 */
export const PUBLISH_LEAD_MS = KEY_SET_MAX_AGE_S * 1000 + CACHE_MS;

/** A key's place in time: from its activation it signs, until the next key's activation. */
interface Timeline {
  readonly key: StoredSigningKey;
  /** When the next key took over, if one has. */
  readonly supersededAt: number | undefined;
}

/**
 * The identity service's RS256 keys: made on first start and stored, so every instance and every
 * restart signs and verifies with the same ones. `rotate` adds a key that is published at once and
 * signs from `PUBLISH_LEAD_MS` later; the key it replaces stays published until every token it
 * signed has expired. Which key signs follows from the activation dates alone, so every instance
 * switches at the same moment without telling each other.
 */
export class SigningKeys {
  private cache: { readonly keys: readonly StoredSigningKey[]; readonly until: number } | undefined;
  private lastRead: number | undefined;
  /** The key being made, if any: one at a time in a process. */
  private making: Promise<void> | undefined;

  constructor(
    private readonly repository: SigningKeyRepository,
    private readonly generator: SigningKeyGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * Makes a key that signs at once if there is none: on a first start, after the server listens, or
   * by whatever needs a key first (`current`, `published`). Calls side by side in one process share
   * one key; two instances starting together may both make one, and the later activation signs.
   */
  ensure(): Promise<void> {
    this.making ??= this.makeIfNone().finally(() => (this.making = undefined));
    return this.making;
  }

  private async makeIfNone(): Promise<void> {
    if ((await this.repository.list()).length > 0) return;
    const now = this.clock.now();
    await this.repository.add(await this.generator.generate(now, now));
    this.cache = undefined;
  }

  /** A new key, published now, signing from `PUBLISH_LEAD_MS` later. */
  async rotate(): Promise<{ readonly kid: string; readonly activationDate: Date }> {
    const now = this.clock.now();
    const key = await this.generator.generate(now, new Date(now.getTime() + PUBLISH_LEAD_MS));
    await this.repository.add(key);
    this.cache = undefined;
    return { kid: key.kid, activationDate: key.activationDate };
  }

  /**
   * The key that signs now: the latest activated one. Should none be activated yet (a rotation on an
   * empty database, or the old key deleted early), the first to activate signs: it is published.
   */
  async current(): Promise<StoredSigningKey> {
    const now = this.clock.now().getTime();
    let keys = await this.all();
    if (keys.length === 0) {
      await this.ensure();
      keys = await this.all();
    }
    const chosen = keys.find((k) => k.activationDate.getTime() <= now) ?? keys.at(-1);
    if (!chosen) throw new Error('no signing key could be made');
    return chosen;
  }

  /** Keys whose signatures are accepted and which the key sets publish: coming, current, and superseded less than a token lifetime ago. */
  async published(): Promise<readonly StoredSigningKey[]> {
    let keys = await this.all();
    if (keys.length === 0) {
      // A key set is never empty: the key a first token will be signed with is published first.
      await this.ensure();
      keys = await this.all();
    }
    const now = this.clock.now().getTime();
    return this.timeline(keys, now)
      .filter((t) => t.supersededAt === undefined || t.supersededAt + RETIRED_KEY_GRACE_MS > now)
      .map((t) => t.key);
  }

  /**
   * Reads the list again, because a token names a kid this process has not seen; at most once per
   * `REFRESH_MIN_MS`, so tokens with made-up kids cannot make every request read the database.
   */
  async refresh(): Promise<void> {
    const now = this.clock.now().getTime();
    if (this.lastRead !== undefined && now - this.lastRead < REFRESH_MIN_MS) return;
    this.cache = undefined;
    await this.all();
  }

  private timeline(keys: readonly StoredSigningKey[], now: number): Timeline[] {
    // `keys` is latest activation first: each activated key is superseded by the activated one before it in the list.
    let later: number | undefined;
    const result: Timeline[] = [];
    for (const key of keys) {
      const activation = key.activationDate.getTime();
      result.push({ key, supersededAt: activation <= now ? later : undefined });
      if (activation <= now) later = activation;
    }
    return result;
  }

  private async all(): Promise<readonly StoredSigningKey[]> {
    const now = this.clock.now().getTime();
    if (this.cache && this.cache.until > now) return this.cache.keys;
    const keys = await this.repository.list();
    this.cache = { keys, until: now + CACHE_MS };
    this.lastRead = now;
    return keys;
  }
}
