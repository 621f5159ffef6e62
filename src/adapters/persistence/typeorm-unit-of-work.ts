import type { EntityManager } from 'typeorm';
import type { IdGenerator } from '../../application/ports/id-generator.port.js';
import type { Transaction, UnitOfWork } from '../../application/ports/unit-of-work.port.js';
import type { Result } from '../../domain/shared/result.js';
import type { Run, TypeOrmDatabase } from './typeorm-database.js';
import {
  TypeOrmAccountRepository,
  TypeOrmApiRepository,
  TypeOrmApiTokenRepository,
  TypeOrmEventOutbox,
  TypeOrmUserRepository,
} from './typeorm.repositories.js';
import { TypeOrmReleaseRepository, TypeOrmSpecRepository } from './typeorm-spec.repositories.js';

export function typeOrmRepositories(db: TypeOrmDatabase, run: Run, ids: IdGenerator): Transaction {
  return {
    accounts: new TypeOrmAccountRepository(run, db.schemas),
    users: new TypeOrmUserRepository(run, db.schemas),
    tokens: new TypeOrmApiTokenRepository(run, db.schemas),
    apis: new TypeOrmApiRepository(run, db.schemas, db.dialect),
    specs: new TypeOrmSpecRepository(run, db.schemas),
    releases: new TypeOrmReleaseRepository(run, db.schemas, db.dialect),
    outbox: new TypeOrmEventOutbox(run, db.schemas, ids),
  };
}

/** Signals a rollback for an error result; never escapes `run`. */
class Rollback extends Error {}

export class TypeOrmUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: TypeOrmDatabase,
    private readonly ids: IdGenerator,
  ) {}

  async run<T, E>(work: (tx: Transaction) => Promise<Result<T, E>>): Promise<Result<T, E>> {
    let result: Result<T, E> | undefined;
    try {
      await this.db.transaction(async (manager: EntityManager) => {
        const inTransaction: Run = (w) => w(manager);
        result = await work(typeOrmRepositories(this.db, inTransaction, this.ids));
        if (!result.ok) throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    return result as Result<T, E>;
  }
}
