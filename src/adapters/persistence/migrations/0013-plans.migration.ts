import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { dialectTypes } from '../dialect.js';

/**
 * Plans (issue 16): `accounts.plan` (`free` or `private`), `trial_end_date` (a trial of the Private
 * plan ends then) and `trial_reminder_date` (when the trial-ending message went out). Accounts
 * opened before plans existed had everything without limit: they stay on `private`, with no trial
 * to end (docs/operations.md, upgrading), so an upgrade takes nothing away from anyone. Accounts
 * that code without plans creates (an old instance during a rolling upgrade) are on `free`.
 */
export class Plans1763900000000 implements MigrationInterface {
  readonly name = 'Plans1763900000000';

  async up(q: QueryRunner): Promise<void> {
    const t = dialectTypes(q.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
    const timestamp = (name: string) => new TableColumn({ name, type: String(t.timestamp), ...(t.timestampLength ? { length: String(t.timestampLength) } : {}), isNullable: true });
    // The default serves code that knows no plans (an older instance during a rolling upgrade): its
    // new accounts get the free plan, never a Private plan without end. The accounts there are now move to private.
    await q.addColumn('accounts', new TableColumn({ name: 'plan', type: 'text', isNullable: false, default: "'free'" }));
    const schema = (q.connection.options as { schema?: string }).schema;
    const accounts = schema ? `${q.connection.driver.escape(schema)}.${q.connection.driver.escape('accounts')}` : q.connection.driver.escape('accounts');
    await q.query(`UPDATE ${accounts} SET plan = 'private'`);
    await q.addColumn('accounts', timestamp('trial_end_date'));
    await q.addColumn('accounts', timestamp('trial_reminder_date'));
    // The reminder's sweep: trials ending soon that nobody was told of.
    await q.createIndex('accounts', new TableIndex({ name: 'accounts_trial_end_idx', columnNames: ['trial_end_date'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('accounts', 'accounts_trial_end_idx');
    for (const column of ['trial_reminder_date', 'trial_end_date', 'plan']) await q.dropColumn('accounts', column);
  }
}
