import { MIGRATIONS } from '../../src/adapters/persistence/migrations/index.js';
import type { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { TypeOrmUnitOfWork } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import type { IdGenerator } from '../../src/application/ports/id-generator.port.js';
import { Account } from '../../src/domain/account/account.aggregate.js';
import type { AccountId } from '../../src/domain/account/account.js';
import { ok } from '../../src/domain/shared/result.js';
import { Webhook } from '../../src/domain/webhook/webhook.aggregate.js';
import { SequentialIds } from '../support/fakes.js';
import { aNewUser } from './fixtures.js';

/** A table's name as raw SQL names it in `db` (in its schema, on PostgreSQL's test databases), and the n-th placeholder of its dialect. */
export function sqlOf(db: TypeOrmDatabase): { readonly table: (name: string) => string; readonly p: (n: number) => string } {
  return {
    table: (name) => (db.schemaName ? `"${db.schemaName}"."${name}"` : `"${name}"`),
    p: (n) => (db.dialect === 'postgres' ? `$${n}` : '?'),
  };
}

/**
 * Takes a migrated database back to before `first`: undoes the last migration, then the one before,
 * down to `first` itself. Returns the names undone in the order they apply (what `migrate()`
 * answers when it runs them again).
 */
export async function undoThrough(db: TypeOrmDatabase, first: (typeof MIGRATIONS)[number]): Promise<string[]> {
  const index = MIGRATIONS.indexOf(first);
  if (index < 0) throw new Error(`${first.name} is not in MIGRATIONS`);
  const undone = MIGRATIONS.slice(index);
  for (let i = 0; i < undone.length; i++) await db.dataSource.undoLastMigration({ transaction: 'all' });
  return undone.map((migration) => migration.name);
}

/**
 * An account with a user and one active webhook subscribed to `api.created` for each of `names`
 * (target `https://hooks.example.com/<name>`), stored through the repositories: the rows a
 * webhook migration's test starts from.
 */
export async function seedWebhooks(db: TypeOrmDatabase, now: Date, ids: IdGenerator, names: readonly string[]): Promise<{ accountId: AccountId; webhooks: Webhook[] }> {
  const seeded = await new TypeOrmUnitOfWork(db, new SequentialIds()).run(async (tx) => {
    const accountId = await tx.accounts.create(Account.open(now, 14));
    const user = await tx.users.add(aNewUser(accountId, 'ada@example.com'));
    if (!user.ok) throw new Error('user');
    const webhooks: Webhook[] = [];
    for (const name of names) {
      const webhook = Webhook.create({ id: ids.next(), accountId, targetUrl: `https://hooks.example.com/${name}`, events: ['api.created'], secret: 's'.repeat(20), active: true }, now);
      if (!webhook.ok) throw new Error('webhook');
      await tx.webhooks.save(webhook.value);
      webhooks.push(webhook.value);
    }
    return ok({ accountId, webhooks });
  });
  if (!seeded.ok) throw new Error('seed');
  return seeded.value;
}
