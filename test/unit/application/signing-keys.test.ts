import { expect } from 'chai';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import { PUBLISH_LEAD_MS, SigningKeys } from '../../../src/application/identity/signing-keys.js';
import type { StoredSigningKey } from '../../../src/application/ports/identity-repositories.port.js';
import type { SigningKeyGenerator } from '../../../src/application/ports/token-signer.port.js';
import { FixedClock, SequentialIds } from '../../support/fakes.js';

/** Keys without real key material: the rules here are about time only. */
class NamedKeys implements SigningKeyGenerator {
  private n = 0;
  async generate(now: Date, activationDate: Date): Promise<StoredSigningKey> {
    this.n += 1;
    return { kid: `k${this.n}`, privateKeyPem: '', publicJwk: {}, certificatePem: '', creationDate: now, activationDate };
  }
}

const HOUR = 3600_000;

describe('SigningKeys', () => {
  function setup() {
    const clock = new FixedClock();
    const db = new InMemoryDatabase(new SequentialIds());
    let reads = 0;
    const repository = db.repositories.signingKeys;
    const counting = { list: () => (reads++, repository.list()), add: (k: StoredSigningKey) => repository.add(k) };
    return { clock, keys: new SigningKeys(counting, new NamedKeys(), clock), reads: () => reads };
  }
  const kids = (keys: readonly StoredSigningKey[]) => keys.map((k) => k.kid).sort();

  it('makes a key on first start, and only then', async () => {
    const { keys } = setup();
    await keys.ensure();
    await keys.ensure();
    expect((await keys.current()).kid).to.equal('k1');
    expect(kids(await keys.published())).to.deep.equal(['k1']);
  });

  it('makes one key for callers side by side (the start in the background, the first request), and publishes it before any token is signed', async () => {
    const { keys } = setup();
    // A first start: the server listens before the key is made, and a key set may be asked for first.
    const [published] = await Promise.all([keys.published(), keys.ensure(), keys.current(), keys.ensure()]);
    expect(kids(published)).to.deep.equal(['k1']);
    expect((await keys.current()).kid).to.equal('k1');
    expect(kids(await keys.published())).to.deep.equal(['k1']);
  });

  it('publishes a rotated-in key at once, signs with it only after the lead, and keeps the old one published for a token lifetime after', async () => {
    const { keys, clock } = setup();
    await keys.ensure();
    const rotated = await keys.rotate();
    expect(rotated.activationDate.getTime() - clock.now().getTime()).to.equal(PUBLISH_LEAD_MS);
    expect((await keys.current()).kid, 'the old key still signs').to.equal('k1');
    expect(kids(await keys.published())).to.deep.equal(['k1', 'k2']);

    clock.advance(PUBLISH_LEAD_MS);
    expect((await keys.current()).kid).to.equal('k2');
    expect(kids(await keys.published()), 'k1 until its last tokens expire').to.deep.equal(['k1', 'k2']);
    clock.advance(HOUR + 300_000 - 1);
    expect(kids(await keys.published())).to.deep.equal(['k1', 'k2']);
    clock.advance(1);
    expect(kids(await keys.published())).to.deep.equal(['k2']);
  });

  it('signs with the first key to activate when none has yet (a rotation on an empty database)', async () => {
    const { keys } = setup();
    const rotated = await keys.rotate();
    expect((await keys.current()).kid).to.equal(rotated.kid);
    expect(kids(await keys.published())).to.deep.equal([rotated.kid]);
  });

  it('reads the list again for an unknown kid at most once per 5 seconds', async () => {
    const { keys, clock, reads } = setup();
    await keys.ensure();
    await keys.published();
    const before = reads();
    await keys.refresh();
    for (let i = 0; i < 10; i++) await keys.refresh();
    expect(reads() - before).to.equal(0, 'the list was read a moment ago');
    clock.advance(5_000);
    await keys.refresh();
    await keys.refresh();
    expect(reads() - before).to.equal(1);
  });
});
