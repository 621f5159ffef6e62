import { expect } from 'chai';
import { generateSecretsKey, SecretBox, SecretsKeyError } from '../../src/adapters/persistence/secret-box.js';
import { forDialect } from '../../src/adapters/persistence/raw-sql.js';
import { StoredSecrets } from '../../src/adapters/persistence/stored-secrets.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import { UuidV7IdGenerator } from '../../src/adapters/crypto/uuid-v7-id-generator.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import { forEachDatabase } from '../support/databases.js';

/**
 * Secrets at rest on both databases (issue 14, done-when 3): rows stored in clear before the issue
 * are sealed by the next migrate; a database sealed with a key the process lacks refuses to start
 * with the key id it needs; rotation re-seals under the new key; a sealed value moved to another
 * row does not open there.
 */
forEachDatabase('secrets at rest', (target) => {
  const K1 = generateSecretsKey().key;
  const K2 = generateSecretsKey().key;
  const T0 = new Date('2026-11-26T00:00:00.000Z');

  async function opened(config: Awaited<ReturnType<typeof target.create>>['config'], box: SecretBox) {
    const db = new TypeOrmDatabase(config, { secrets: box });
    await db.open();
    return db;
  }
  const sql = (db: TypeOrmDatabase, text: string, parameters: unknown[] = []) => db.read((m) => m.query(forDialect(db.dialect, text), parameters));
  const table = (db: TypeOrmDatabase, name: string) => (db.schemaName ? `"${db.schemaName}"."${name}"` : `"${name}"`);

  it('seals the secrets stored in clear, refuses a database sealed with a key it lacks, and re-seals on rotation', async () => {
    const { config, dispose } = await target.create();
    const first = await opened(config, new SecretBox(K1));
    try {
      await first.migrate();
      const accountId = await typeOrmRepositories(first, first.read, new UuidV7IdGenerator()).accounts.create(Account.open(T0, 14));
      // As a database of before issue 14 holds them: in clear.
      const ids = ['01950000-0000-7000-8000-000000000001', '01950000-0000-7000-8000-000000000002'];
      for (const [i, id] of ids.entries()) {
        await sql(first, `INSERT INTO ${table(first, 'webhooks')} (id, account_id, target_url, events, secret, active, creation_date, update_date) VALUES (?, ?, 'https://hooks.example.com/in', '["api.created"]', ?, ?, ?, ?)`, [id, accountId, `plain-secret-${i}-0123456789`, true, T0.toISOString(), T0.toISOString()]);
      }
      await sql(first, `INSERT INTO ${table(first, 'signing_keys')} (kid, private_key_pem, public_jwk, certificate_pem, creation_date, activation_date) VALUES ('k1', ?, '{}', 'cert', ?, ?)`, ['-----BEGIN PRIVATE KEY-----\nMIIplain\n-----END PRIVATE KEY-----\n', T0.toISOString(), T0.toISOString()]);
      await first.migrate();
      const rows = (await sql(first, `SELECT secret FROM ${table(first, 'webhooks')} ORDER BY id`)) as { secret: string }[];
      const key = (await sql(first, `SELECT private_key_pem FROM ${table(first, 'signing_keys')}`)) as { private_key_pem: string }[];
      for (const value of [...rows.map((r) => r.secret), key[0]!.private_key_pem]) expect(value).to.match(new RegExp(`^sb1\\.${K1.id}\\.`)).and.not.include('plain');
      const repos = typeOrmRepositories(first, first.read, new UuidV7IdGenerator());
      expect((await repos.webhooks.get(accountId, ids[0] as never))?.secret, 'reads back as it was').to.equal('plain-secret-0-0123456789');
      expect((await repos.signingKeys.list())[0]?.privateKeyPem).to.include('MIIplain');

      // A sealed value copied into another row does not open there.
      await sql(first, `UPDATE ${table(first, 'webhooks')} SET secret = ? WHERE id = ?`, [rows[0]!.secret, ids[1]]);
      const moved = await repos.webhooks.get(accountId, ids[1] as never).catch((error: unknown) => error);
      expect(moved).to.be.instanceOf(SecretsKeyError);
      await sql(first, `UPDATE ${table(first, 'webhooks')} SET secret = ? WHERE id = ?`, [rows[1]!.secret, ids[1]]);
      await first.close();

      // Another key alone: the start is refused, naming the key it needs.
      const wrong = await opened(config, new SecretBox(K2));
      const refused = await wrong.migrate().catch((error: unknown) => error);
      await wrong.close();
      expect(refused).to.be.instanceOf(SecretsKeyError);
      expect(String(refused)).to.include(`sealed with key ${K1.id}, which this process was not given`);

      // The new key with the old one as previous: starts, and rotation re-seals everything under the new one.
      const rotating = await opened(config, new SecretBox(K2, [K1]));
      await rotating.migrate();
      expect(await new StoredSecrets(rotating).rotate()).to.deep.equal({ webhooks: 2, signingKeys: 1 });
      expect(await new StoredSecrets(rotating).rotate(), 'nothing left to do').to.deep.equal({ webhooks: 0, signingKeys: 0 });
      await rotating.close();
      const after = await opened(config, new SecretBox(K2));
      try {
        await after.migrate();
        const values = (await sql(after, `SELECT secret AS v FROM ${table(after, 'webhooks')} UNION ALL SELECT private_key_pem AS v FROM ${table(after, 'signing_keys')}`)) as { v: string }[];
        for (const { v } of values) expect(v).to.match(new RegExp(`^sb1\\.${K2.id}\\.`));
        expect((await typeOrmRepositories(after, after.read, new UuidV7IdGenerator()).webhooks.get(accountId, ids[1] as never))?.secret).to.equal('plain-secret-1-0123456789');
      } finally {
        await after.close();
      }
    } finally {
      if (first.dataSource.isInitialized) await first.close();
      await dispose();
    }
  });
});
