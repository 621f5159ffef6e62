import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S } from '../../domain/identity/grant.js';
import type { Clock } from '../ports/clock.port.js';
import type { SigningKeyRepository, StoredSigningKey } from '../ports/identity-repositories.port.js';
import type { SigningKeyGenerator } from '../ports/token-signer.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { ok } from '../../domain/shared/result.js';

/** How long a retired key stays published: until the last token it signed has expired, plus clock skew. */
const RETIRED_KEY_GRACE_MS = (Math.max(ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S) + 300) * 1000;
/** How long a process trusts its copy of the key list before reading it again (another instance may have rotated). */
const CACHE_MS = 60_000;

/**
 * The identity service's RS256 keys: generated on first start and stored, so every instance and
 * every restart signs and verifies with the same ones; rotated on demand (`specbase keys rotate`),
 * the retired key still published until every token it signed has expired.
 */
export class SigningKeys {
  private cache: { readonly keys: readonly StoredSigningKey[]; readonly until: number } | undefined;

  constructor(
    private readonly repository: SigningKeyRepository,
    private readonly uow: UnitOfWork,
    private readonly generator: SigningKeyGenerator,
    private readonly clock: Clock,
  ) {}

  /** Makes sure a key exists; two instances starting at once may both make one, the newer simply wins. */
  async ensure(): Promise<void> {
    if ((await this.repository.list()).some((k) => k.retirementDate === null)) return;
    await this.rotate();
  }

  /** A new signing key; every other one retires. Returns the new kid. */
  async rotate(): Promise<string> {
    const now = this.clock.now();
    const key = await this.generator.generate(now);
    await this.uow.run(async (tx) => {
      await tx.signingKeys.add(key);
      await tx.signingKeys.retireAllBut(key.kid, now);
      return ok();
    });
    this.cache = undefined;
    return key.kid;
  }

  /** The key that signs now. */
  async current(): Promise<StoredSigningKey> {
    const active = (await this.all()).find((k) => k.retirementDate === null);
    if (active) return active;
    await this.ensure();
    this.cache = undefined;
    const created = (await this.all()).find((k) => k.retirementDate === null);
    if (!created) throw new Error('no signing key could be made');
    return created;
  }

  /** Keys whose signatures are still accepted and which the JWK set publishes. */
  async published(): Promise<readonly StoredSigningKey[]> {
    const now = this.clock.now().getTime();
    return (await this.all()).filter((k) => k.retirementDate === null || k.retirementDate.getTime() + RETIRED_KEY_GRACE_MS > now);
  }

  /** Reads the list again: a token names a kid this process has not seen yet. */
  async refresh(): Promise<void> {
    this.cache = undefined;
    await this.all();
  }

  private async all(): Promise<readonly StoredSigningKey[]> {
    const now = this.clock.now().getTime();
    if (this.cache && this.cache.until > now) return this.cache.keys;
    const keys = await this.repository.list();
    this.cache = { keys, until: now + CACHE_MS };
    return keys;
  }
}
