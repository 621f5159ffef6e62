import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The lease index of migration 0010 holds only the deliveries that carry a lease: leased, or
 * recorded-while-leased-and-not-yet-cleared after a crash, instead of every pending delivery.
 *
 * Over `state = 'pending'` it was a second partial index on the pending queue with the webhook
 * first, beside `webhook_deliveries_queue_idx`: without fresh statistics (a table that grew by
 * thousands of rows since the last ANALYZE, as during a fan-out) PostgreSQL took it, being the
 * smaller, for the claim's "each webhook's oldest due event" probe and sorted the webhook's whole
 * pending queue per probe instead of reading the queue index's first entry: 7-25 ms a claim with
 * a few thousand pending deliveries, about half a core of PostgreSQL during a fan-out
 * (performance.md). Over `lease_until IS NOT NULL` it can serve only the lease check (whose
 * `lease_until > ?` implies the predicate, on both databases), new deliveries are not entered in
 * it, and recording or releasing a delivery takes it out.
 */
export class LeaseIndex1764100000000 implements MigrationInterface {
  readonly name = 'LeaseIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.dropIndex('webhook_deliveries', 'webhook_deliveries_lease_idx');
    await q.createIndex('webhook_deliveries', new TableIndex({ name: 'webhook_deliveries_lease_idx', columnNames: ['webhook_id', 'lease_until'], where: 'lease_until IS NOT NULL' }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('webhook_deliveries', 'webhook_deliveries_lease_idx');
    await q.createIndex('webhook_deliveries', new TableIndex({ name: 'webhook_deliveries_lease_idx', columnNames: ['webhook_id', 'lease_until'], where: "state = 'pending'" }));
  }
}
