import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import { SwaggerSpecCodec } from '../../../src/adapters/swagger/swagger-spec-codec.js';
import { ApiAccess } from '../../../src/application/auth/api-access.js';
import type { SpecRepository } from '../../../src/application/ports/spec-repository.port.js';
import { ImportApi } from '../../../src/application/specs/import-api.use-case.js';
import { ReplaceSpec } from '../../../src/application/specs/replace-spec.use-case.js';
import { aPrincipal } from '../../support/builders.js';
import { Account } from '../../../src/domain/account/account.aggregate.js';
import { ok } from '../../../src/domain/shared/result.js';
import { FixedClock, SequentialIds, plansOver } from '../../support/fakes.js';
import { accountId, userId } from '../../support/ids.js';

const owner = aPrincipal({ userId: userId(1), accountId: accountId(1), scopes: ['api'] });

function spec(paths: string[]): Uint8Array {
  const entries = paths.map((path) => [path, { get: { responses: { '200': { description: 'ok' } } } }]);
  return Buffer.from(JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1.0.0' }, paths: Object.fromEntries(entries) }));
}

/** ReplaceSpec compares the new spec with the current one before its transaction, so the write lock is not held meanwhile. */
describe('ReplaceSpec: changes computed outside the transaction', () => {
  it('compares again inside the transaction when another update landed in between, so the changes are against the spec it replaces', async () => {
    const db = new InMemoryDatabase(new SequentialIds());
    const codec = new SwaggerSpecCodec();
    const clock = new FixedClock();
    const ids = new SequentialIds();
    await db.run(async (tx) => ok(await tx.accounts.create(Account.open(clock.now(), 14))));
    const imported = await new ImportApi(db, plansOver(db.repositories, clock), codec, ids, clock).execute(owner, { accountId: accountId(1), spec: spec(['/a']) });
    if (!imported.ok) throw new Error(JSON.stringify(imported.error));
    const apiId = imported.value.api.id;
    // A spec repository whose first read outside a transaction lets another update commit right after it.
    let interleaved = false;
    const specs: SpecRepository = {
      ...db.repositories.specs,
      get: async (id) => {
        const current = await db.repositories.specs.get(id);
        if (!interleaved) {
          interleaved = true;
          const other = await replace.execute(owner, { accountId: accountId(1), apiId, spec: spec(['/a', '/b']) });
          if (!other.ok) throw new Error('the other update failed');
        }
        return current;
      },
    };
    const replace = new ReplaceSpec(new ApiAccess(db.repositories.shares), db, db.repositories.apis, specs, plansOver(db.repositories, clock), codec, ids, clock);
    const result = await replace.execute(owner, { accountId: accountId(1), apiId, spec: spec(['/a', '/b', '/c']) });
    if (!result.ok || !('release' in result.value)) throw new Error(JSON.stringify(result));
    // Against /a alone it would be two endpoints added; against what it replaced (/a and /b), one.
    expect(result.value.changes?.items.map((c) => [c.rule, c.location.path])).to.deep.equal([['endpoint-added', '/c']]);
    expect(result.value.api.revision).to.equal(3);
  });
});
