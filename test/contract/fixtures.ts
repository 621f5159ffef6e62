import type { IdentityPurge } from '../../src/application/ports/identity-repositories.port.js';
import { TypeOrmIdentityPurge } from '../../src/adapters/persistence/typeorm-identity-purge.js';
import { forDialect } from '../../src/adapters/persistence/raw-sql.js';
import { TypeOrmRetentionPurge } from '../../src/adapters/persistence/typeorm-retention-purge.js';
import type { RetentionPurge } from '../../src/application/ports/retention-purge.port.js';
import type { AccountId } from '../../src/domain/account/account.js';
import type { Transaction, UnitOfWork } from '../../src/application/ports/unit-of-work.port.js';
import { InMemoryDatabase } from '../../src/adapters/memory/in-memory-unit-of-work.js';
import { TypeOrmDatabase } from '../../src/adapters/persistence/typeorm-database.js';
import { ReadCache } from '../../src/adapters/persistence/read-cache.js';
import { TypeOrmUnitOfWork, typeOrmRepositories } from '../../src/adapters/persistence/typeorm-unit-of-work.js';
import type { NewUser } from '../../src/domain/user/user.aggregate.js';
import { forEachDatabase } from '../support/databases.js';
import { SequentialIds } from '../support/fakes.js';

/** The persistence ports of one implementation, fresh and empty. */
export interface PersistenceFixture {
  readonly uow: UnitOfWork;
  readonly repos: Transaction;
  /** The identity tables' cleanup, outside transactions as the worker runs it. */
  readonly purge: IdentityPurge;
  /** The retention cleanup, likewise. */
  readonly retention: RetentionPurge;
  /** Runs plain SQL, `?` placeholders, on the database (undefined in memory): what a test checks beneath the ports. */
  readonly sql?: (text: string, parameters?: unknown[]) => Promise<unknown[]>;
  /** A table's name as plain SQL writes it (in DATABASE_SCHEMA if one is set). */
  readonly table?: (name: string) => string;
  /** Which database `sql` talks to. */
  readonly dialect?: 'sqlite' | 'postgres';
  dispose(): Promise<void>;
}

/** Registers `suite` once per implementation: in-memory, SQLite, and PostgreSQL when configured. */
export function forEachImplementation(name: string, suite: (make: () => Promise<PersistenceFixture>) => void): void {
  describe(`${name} [in-memory]`, () =>
    suite(async () => {
      const db = new InMemoryDatabase(new SequentialIds());
      return { uow: db, repos: db.repositories, purge: db.identityPurge, retention: db.retentionPurge, dispose: async () => undefined };
    }),
  );
  forEachDatabase(name, (target) =>
    suite(async () => {
      const { config, dispose } = await target.create();
      const db = new TypeOrmDatabase(config, { trackChanges: true });
      await db.open();
      await db.migrate();
      const ids = new SequentialIds();
      return {
        uow: new TypeOrmUnitOfWork(db, ids),
        // As the server builds them: reads outside transactions go through the read cache.
        repos: typeOrmRepositories(db, db.read, ids, undefined, new ReadCache(() => db.changeVersion())),
        purge: new TypeOrmIdentityPurge(db.read, db.schemas),
        retention: new TypeOrmRetentionPurge(db),
        sql: (text, parameters = []) => db.read((m) => m.query(forDialect(db.dialect, text), parameters)),
        dialect: target.name,
        table: (name) => (db.schemaName ? `"${db.schemaName}"."${name}"` : `"${name}"`),
        dispose: async () => {
          await db.close();
          await dispose();
        },
      };
    }),
  );
}

export function aNewUser(accountId: AccountId, email: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    accountId,
    email,
    emailVerified: false,
    passwordHash: 'scrypt$x',
    nickname: email.split('@')[0] ?? 'user',
    name: null,
    givenName: null,
    familyName: null,
    picture: null,
    locale: null,
    creationDate: new Date('2026-11-22T10:15:00.000Z'),
    ...overrides,
  };
}
