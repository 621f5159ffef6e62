import type { AccountId, UserId } from '../../domain/account/account.js';
import type { UserRepository } from '../../application/ports/user-repository.port.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { User, type NewUser } from '../../domain/user/user.aggregate.js';
import { dateOf, dialectOf, forDialect, storedKey, tableOf } from './raw-sql.js';
import type { UserRow } from './rows.js';
import type { Schemas } from './schema.js';
import { isStorableText, isUniqueViolation, type Run } from './typeorm-database.js';

function userFromRow(row: UserRow): User {
  return User.rehydrate({ ...row, id: storedKey(row.id), accountId: storedKey(row.accountId), emailVerified: Boolean(row.emailVerified) });
}

export class TypeOrmUserRepository implements UserRepository {
  constructor(
    private readonly run: Run,
    private readonly s: Schemas,
  ) {}

  add(user: NewUser): Promise<Result<User, { readonly kind: 'DuplicateEmail' }>> {
    return this.run(async (m) => {
      try {
        const inserted = await m.getRepository(this.s.users).insert({ ...user });
        return ok(User.rehydrate({ ...user, id: storedKey(inserted.identifiers[0]?.['id'] as number) }));
      } catch (error) {
        if (isUniqueViolation(error)) return err({ kind: 'DuplicateEmail' as const });
        throw error;
      }
    });
  }

  async get(id: UserId): Promise<User | undefined> {
    const row = await this.run(async (m) => {
      // Plain SQL: read on every userinfo and tokeninfo request (docs/performance.md).
      const sql =
        'SELECT id, account_id AS "accountId", email, email_verified AS "emailVerified", password_hash AS "passwordHash", nickname, name, ' +
        `given_name AS "givenName", family_name AS "familyName", picture, locale, creation_date AS "creationDate" FROM ${tableOf(m, this.s.users)} WHERE id = ?`;
      const [read] = await m.query<(Omit<UserRow, 'creationDate'> & { creationDate: Date | string })[]>(forDialect(dialectOf(m), sql), [id]);
      const found: UserRow | undefined = read && { ...read, creationDate: dateOf(read.creationDate) };
      return found;
    });
    return row && userFromRow(row);
  }

  getByEmail(email: string): Promise<User | undefined> {
    if (!isStorableText(email)) return Promise.resolve(undefined);
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOneBy({ email });
      return row ? userFromRow(row) : undefined;
    });
  }

  ownerOf(accountId: AccountId): Promise<User | undefined> {
    return this.run(async (m) => {
      const row = await m.getRepository(this.s.users).findOne({ where: { accountId }, order: { id: 'ASC' } });
      return row ? userFromRow(row) : undefined;
    });
  }

  save(user: User): Promise<void> {
    return this.run(async (m) => {
      const { id, ...fields } = user.snapshot();
      await m.getRepository(this.s.users).update({ id }, fields);
    });
  }

  any(): Promise<boolean> {
    return this.run((m) => m.getRepository(this.s.users).exists());
  }
}
