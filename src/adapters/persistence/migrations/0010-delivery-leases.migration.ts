import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Each webhook's leased pending deliveries: claimDue asks "has this webhook anything in flight?"
 * for every webhook it looks at, which otherwise reads the webhook's whole pending queue.
 */
export class DeliveryLeases1763870000000 implements MigrationInterface {
  readonly name = 'DeliveryLeases1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('webhook_deliveries', new TableIndex({ name: 'webhook_deliveries_lease_idx', columnNames: ['webhook_id', 'lease_until'], where: "state = 'pending'" }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('webhook_deliveries', 'webhook_deliveries_lease_idx');
  }
}
