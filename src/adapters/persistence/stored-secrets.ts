import type { EntityManager } from 'typeorm';
import { type SecretBox, SecretsKeyError, SEALED_PREFIX } from './secret-box.js';
import { forDialect, tableOf } from './raw-sql.js';
import type { TypeOrmDatabase } from './typeorm-database.js';
import { signingKeyContext } from './typeorm-identity.repositories.js';
import { webhookSecretContext } from './typeorm-webhook.repositories.js';

/** How many stored secrets of each kind a pass changed. */
export interface SecretCounts {
  readonly webhooks: number;
  readonly signingKeys: number;
}

/** A column of sealed secrets: its table, key column, secret column and the context each value is sealed in. */
interface SecretColumn {
  readonly kind: keyof SecretCounts;
  readonly table: (m: EntityManager) => string;
  readonly key: string;
  readonly column: string;
  readonly context: (key: string) => string;
}

/** Rows rewritten per transaction. */
const BATCH = 200;

/**
 * The stored secrets as a whole (webhook secrets, private signing keys): sealing those stored in
 * clear before issue 14, checking that every one opens with a key the process was given, and
 * re-wrapping them all under the current key (`specbase secrets rotate`). Each batch is a
 * transaction of its own that selects its rows under lock, so it is safe while the service runs and
 * with several instances doing it at once.
 */
export class StoredSecrets {
  private readonly columns: readonly SecretColumn[];

  constructor(private readonly db: TypeOrmDatabase) {
    this.columns = [
      { kind: 'webhooks', table: (m) => tableOf(m, db.schemas.webhooks), key: 'id', column: 'secret', context: webhookSecretContext },
      { kind: 'signingKeys', table: (m) => tableOf(m, db.schemas.signingKeys), key: 'kid', column: 'private_key_pem', context: signingKeyContext },
    ];
  }

  /** Seals what is stored in clear, then checks every key id in use is one this process holds. */
  async sealAndCheck(): Promise<SecretCounts> {
    if (this.db.secrets.throwaway && (await this.anyInClear())) {
      // Sealed with a key nobody keeps, they would be lost: refuse instead.
      throw new SecretsKeyError('secrets are stored in clear and no key was given to seal them with (SECRETS_KEY, SECRETS_KEY_FILE)');
    }
    const sealed = await this.rewrite((column) => `${column} NOT LIKE '${SEALED_PREFIX}%'`, (box, value, context) => box.seal(value, context));
    await this.check();
    return sealed;
  }

  /** Re-wraps every sealed secret not under the current key with it; returns how many changed. */
  rotate(): Promise<SecretCounts> {
    return this.rewrite((column) => `${column} NOT LIKE '${SEALED_PREFIX}${this.db.secrets.keyId}.%'`, (box, value, context) => box.rewrap(value, context));
  }

  private async anyInClear(): Promise<boolean> {
    for (const c of this.columns) {
      const rows = await this.db.read((m) => m.query<unknown[]>(`SELECT 1 FROM ${c.table(m)} WHERE ${c.column} NOT LIKE '${SEALED_PREFIX}%' LIMIT 1`));
      if (rows.length > 0) return true;
    }
    return false;
  }

  /** Throws SecretsKeyError naming the key ids stored secrets were sealed with that this process lacks. */
  async check(): Promise<void> {
    const missing = new Set<string>();
    for (const c of this.columns) {
      const rows = await this.db.read((m) =>
        m.query<{ id: string }[]>(`SELECT DISTINCT substr(${c.column}, ${SEALED_PREFIX.length + 1}, 16) AS id FROM ${c.table(m)} WHERE ${c.column} LIKE '${SEALED_PREFIX}%'`),
      );
      for (const { id } of rows) if (!this.db.secrets.has(id)) missing.add(id);
    }
    if (missing.size > 0) {
      throw new SecretsKeyError(
        `the stored secrets were sealed with key ${[...missing].join(', ')}, which this process was not given: set SECRETS_KEY to it, or add it to SECRETS_PREVIOUS_KEYS (this process holds ${this.db.secrets.keyId})`,
      );
    }
  }

  /** Rewrites, batch by batch, the values of every column that match `where` (given the column's name). */
  private async rewrite(where: (column: string) => string, change: (box: SecretBox, value: string, context: string) => string): Promise<SecretCounts> {
    const counts: Record<keyof SecretCounts, number> = { webhooks: 0, signingKeys: 0 };
    for (const c of this.columns) {
      const condition = where(c.column);
      for (;;) {
        const changed = await this.db.transaction(async (m) => {
          // Under lock: a concurrent pass waits, then finds these rows no longer match.
          const lock = this.db.dialect === 'postgres' ? ' FOR UPDATE' : '';
          const rows = await m.query<{ key: string; value: string }[]>(`SELECT ${c.key} AS key, ${c.column} AS value FROM ${c.table(m)} WHERE ${condition} LIMIT ${BATCH}${lock}`);
          for (const row of rows) {
            await m.query(forDialect(this.db.dialect, `UPDATE ${c.table(m)} SET ${c.column} = ? WHERE ${c.key} = ?`), [change(this.db.secrets, row.value, c.context(row.key)), row.key]);
          }
          return rows.length;
        });
        counts[c.kind] += changed;
        if (changed < BATCH) break;
      }
    }
    return counts;
  }
}
