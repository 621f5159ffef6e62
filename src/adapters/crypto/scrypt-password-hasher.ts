import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '../../application/ports/password-hasher.port.js';

export interface ScryptParameters {
  /** CPU/memory cost N, a power of two. */
  readonly cost: number;
  readonly blockSize: number;
  readonly parallelization: number;
}

/** N=2^15, r=8, p=1: 32 MiB and about 110 ms a hash on the 2-core CI machine (docs/adr/0004). */
export const DEFAULT_SCRYPT: ScryptParameters = { cost: 2 ** 15, blockSize: 8, parallelization: 1 };

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, p: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: p.cost,
    r: p.blockSize,
    p: p.parallelization,
    maxmem: 256 * p.cost * p.blockSize,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Format: `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`; old hashes verify with their own parameters. */
export class ScryptPasswordHasher implements PasswordHasher {
  constructor(private readonly parameters: ScryptParameters = DEFAULT_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.parameters);
    const { cost, blockSize, parallelization } = this.parameters;
    return ['scrypt', cost, blockSize, parallelization, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, hash: string): Promise<boolean> {
    const [scheme, n, r, p, salt, key] = hash.split('$');
    if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
    const parameters = { cost: Number(n), blockSize: Number(r), parallelization: Number(p) };
    if (![parameters.cost, parameters.blockSize, parameters.parallelization].every(Number.isSafeInteger)) return false;
    const expected = Buffer.from(key, 'base64');
    const actual = await derive(password, Buffer.from(salt, 'base64'), parameters);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
