import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateSecretsKey, parseSecretsKey, SecretBox, SecretsKeyError, type SecretsKey } from '../adapters/persistence/secret-box.js';
import type { Config } from './config.js';

/** Where a SQLite database's key file goes when no key is configured: beside the database file. */
export function keyFileBeside(sqlitePath: string): string {
  return `${sqlitePath}.key`;
}

/**
 * The SecretBox the configuration asks for (docs/security.md, "Secrets at rest"). The current key
 * is `SECRETS_KEY`, else the file `SECRETS_KEY_FILE`, else, on a SQLite file, the key file beside
 * it, made on the first start (never in the database; `told` says so). PostgreSQL needs one
 * configured: every instance must hold the same key. A key file beside the database that is not the
 * current key is still read with (so a rotation away from it needs nothing more), as is every key of
 * `SECRETS_PREVIOUS_KEYS`. Throws SecretsKeyError for a missing or malformed key.
 */
export function secretBoxFor(config: Config, told: (message: string, file: string) => void): SecretBox {
  const { database, secrets } = config;
  const previous = secrets.previousKeys.map((text, i) => parseSecretsKey(text, `SECRETS_PREVIOUS_KEYS (key ${i + 1})`));
  const beside = database.kind === 'sqlite' && database.path !== ':memory:' ? keyFileBeside(database.path) : undefined;
  let current: SecretsKey;
  if (secrets.key !== null) current = parseSecretsKey(secrets.key, 'SECRETS_KEY');
  else if (secrets.keyFile !== null) current = readKeyFile(secrets.keyFile, 'SECRETS_KEY_FILE');
  else if (beside !== undefined) current = existsSync(beside) ? readKeyFile(beside, `the key file ${beside}`) : makeKeyFile(beside, told);
  else if (database.kind === 'sqlite') return SecretBox.throwaway();
  else throw new SecretsKeyError('SECRETS_KEY or SECRETS_KEY_FILE is required with PostgreSQL: every instance seals and opens webhook secrets and signing keys with the same key (specbase secrets generate-key makes one)');
  if (beside !== undefined && existsSync(beside) && (secrets.key !== null || secrets.keyFile !== null)) {
    const old = readKeyFile(beside, `the key file ${beside}`);
    if (old.id !== current.id) previous.push(old);
  }
  return new SecretBox(current, previous);
}

function readKeyFile(file: string, name: string): SecretsKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SecretsKeyError(`${name} cannot be read: ${(error as Error).message}`);
  }
  return parseSecretsKey(text, name);
}

function makeKeyFile(file: string, told: (message: string, file: string) => void): SecretsKey {
  const made = generateSecretsKey();
  mkdirSync(dirname(file), { recursive: true });
  // 'wx': never over a key another process made meanwhile; 0600: the key is as secret as what it seals.
  try {
    writeFileSync(file, `${made.text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file, `the key file ${file}`);
    throw error;
  }
  told('made a key to seal webhook secrets and signing keys at rest; back it up apart from the database: without it they cannot be read', file);
  return made.key;
}
