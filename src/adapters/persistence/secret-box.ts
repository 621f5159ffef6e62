import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (issue 14): webhook secrets and the identity service's private signing keys are
 * stored sealed, by envelope encryption with AES-256-GCM (node:crypto). Each value gets a data key
 * of its own that encrypts it; the data key is stored wrapped (encrypted) by the operator's key.
 * Rotating the operator's key re-wraps the data keys and leaves the ciphertexts as they are.
 *
 * A sealed value is one line of text:
 * `sb1.<key id>.<wrap iv>.<wrapped data key + tag>.<iv>.<ciphertext + tag>`, base64url parts.
 * The key id names the operator key that wrapped it (the first 16 hex digits of its SHA-256), so a
 * store sealed under a key the process was not given says which one it needs. The value's
 * context (`webhooks.secret:<id>`) is authenticated with it: a sealed value copied into another
 * row does not open there.
 */

export const SEALED_PREFIX = 'sb1.';

/** An operator key: 32 random bytes, given as 64 hex digits or base64 (44 characters). */
export interface SecretsKey {
  readonly id: string;
  readonly key: Buffer;
}

export class SecretsKeyError extends Error {}

/** Parses an operator key (hex or base64 of 32 bytes); `name` says where it came from in errors. */
export function parseSecretsKey(text: string, name: string): SecretsKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
  if (key?.length !== 32) throw new SecretsKeyError(`${name} must be 32 bytes as 64 hex digits or base64 (specbase secrets generate-key makes one)`);
  return { id: keyId(key), key };
}

/** A new random operator key, and how to write it down (base64). */
export function generateSecretsKey(): { readonly key: SecretsKey; readonly text: string } {
  const key = randomBytes(32);
  return { key: { id: keyId(key), key }, text: key.toString('base64') };
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** Contexts whose last value a SecretBox keeps (a webhook each, a signing key each). */
const CACHED = 10_000;

const IV_BYTES = 12;
const TAG_BYTES = 16;
const b64 = (buffer: Buffer): string => buffer.toString('base64url');

function encrypt(key: Buffer, plain: Buffer, context: string): { iv: Buffer; sealed: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  return { iv, sealed: Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]) };
}

function decrypt(key: Buffer, iv: Buffer, sealed: Buffer, context: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
}

/** The parts of a sealed value. */
interface Envelope {
  readonly keyId: string;
  readonly wrapIv: Buffer;
  readonly wrappedKey: Buffer;
  readonly iv: Buffer;
  readonly ciphertext: Buffer;
}

function envelopeOf(sealed: string): Envelope {
  const parts = sealed.slice(SEALED_PREFIX.length).split('.');
  if (!sealed.startsWith(SEALED_PREFIX) || parts.length !== 5) throw new SecretsKeyError('a stored secret is not sealed as Specbase seals them');
  const [keyId, wrapIv, wrappedKey, iv, ciphertext] = parts as [string, string, string, string, string];
  return { keyId, wrapIv: Buffer.from(wrapIv, 'base64url'), wrappedKey: Buffer.from(wrappedKey, 'base64url'), iv: Buffer.from(iv, 'base64url'), ciphertext: Buffer.from(ciphertext, 'base64url') };
}

const text = (e: Envelope): string => `${SEALED_PREFIX}${e.keyId}.${b64(e.wrapIv)}.${b64(e.wrappedKey)}.${b64(e.iv)}.${b64(e.ciphertext)}`;

/**
 * Seals with the current operator key; opens with it or any previous one it is given (to read a
 * store, or a backup, sealed before a rotation).
 */
export class SecretBox {
  private readonly keys: ReadonlyMap<string, Buffer>;
  /**
   * The last value sealed or opened per context, so the delivery path (a webhook read per run and
   * saved after it) does no cryptography while a secret is unchanged: an open costs ~9 µs, a seal
   * ~17 µs (ADR 0026). At most CACHED contexts, the oldest dropped first.
   */
  private readonly recent = new Map<string, { readonly plain: string; readonly sealed: string }>();

  constructor(
    private readonly current: SecretsKey,
    previous: readonly SecretsKey[] = [],
    /** A key made for this process alone, kept nowhere: what it seals is lost with the process. */
    readonly throwaway = false,
  ) {
    this.keys = new Map([current, ...previous].map((k) => [k.id, k.key]));
  }

  /** A box with a key of its own that nothing after this process can read (tests, in-memory SQLite). */
  static throwaway(): SecretBox {
    return new SecretBox(generateSecretsKey().key, [], true);
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.current.id;
  }

  /** Whether a stored value is sealed (rather than plain text stored before issue 14). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_PREFIX);
  }

  /** The key id a sealed value was wrapped with. */
  static keyIdOf(stored: string): string {
    return envelopeOf(stored).keyId;
  }

  /** Seals `plain` for the row `context` names; the value stored already when it is unchanged and under the current key. */
  seal(plain: string, context: string): string {
    const known = this.recent.get(context);
    if (known?.plain === plain && known.sealed.startsWith(`${SEALED_PREFIX}${this.current.id}.`)) return known.sealed;
    const dataKey = randomBytes(32);
    const value = encrypt(dataKey, Buffer.from(plain, 'utf8'), context);
    const wrapped = encrypt(this.current.key, dataKey, `${context}#key`);
    return this.remember(context, plain, text({ keyId: this.current.id, wrapIv: wrapped.iv, wrappedKey: wrapped.sealed, iv: value.iv, ciphertext: value.sealed }));
  }

  /**
   * The value `stored` seals, for the row `context` names. A value not sealed at all is returned as
   * it is: written in clear by an instance of before issue 14 still running beside this one during
   * an upgrade; the next migrate or save seals it.
   */
  open(stored: string, context: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const known = this.recent.get(context);
    if (known?.sealed === stored) return known.plain;
    const envelope = envelopeOf(stored);
    const plain = decrypt(this.dataKey(envelope, context), envelope.iv, envelope.ciphertext, context).toString('utf8');
    this.remember(context, plain, stored);
    return plain;
  }

  private remember(context: string, plain: string, sealed: string): string {
    this.recent.delete(context);
    this.recent.set(context, { plain, sealed });
    if (this.recent.size > CACHED) this.recent.delete(this.recent.keys().next().value!);
    return sealed;
  }

  /** The same value wrapped with the current key (its ciphertext unchanged); as it is when it already is. */
  rewrap(stored: string, context: string): string {
    const envelope = envelopeOf(stored);
    if (envelope.keyId === this.current.id) return stored;
    const wrapped = encrypt(this.current.key, this.dataKey(envelope, context), `${context}#key`);
    return text({ ...envelope, keyId: this.current.id, wrapIv: wrapped.iv, wrappedKey: wrapped.sealed });
  }

  /** Whether this box holds the key `keyId`. */
  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  private dataKey(envelope: Envelope, context: string): Buffer {
    const key = this.keys.get(envelope.keyId);
    if (key === undefined) throw new SecretsKeyError(`a stored secret was sealed with key ${envelope.keyId}, which this process was not given (SECRETS_KEY, SECRETS_PREVIOUS_KEYS)`);
    try {
      return decrypt(key, envelope.wrapIv, envelope.wrappedKey, `${context}#key`);
    } catch {
      throw new SecretsKeyError(`a stored secret does not open with key ${envelope.keyId}: it was altered, or belongs to another row`);
    }
  }
}
