import { expect } from 'chai';
import { AuthenticateToken } from '../../../src/application/auth/authenticate-token.use-case.js';
import { TokenCache, type TokenCacheSettings } from '../../../src/application/auth/token-cache.js';
import { RevokeApiToken } from '../../../src/application/tokens/manage-api-tokens.use-cases.js';
import { CreateApiToken } from '../../../src/application/tokens/create-api-token.use-case.js';
import { RegisterUser } from '../../../src/application/users/register-user.use-case.js';
import { RandomTokenGenerator } from '../../../src/adapters/crypto/random-token-generator.js';
import { InMemoryDatabase } from '../../../src/adapters/memory/in-memory-unit-of-work.js';
import type { ApiTokenId } from '../../../src/domain/token/api-token.aggregate.js';
import { FixedClock, PLAN_SETTINGS, PlainPasswordHasher, SequentialIds, plansOver } from '../../support/fakes.js';
import { userId } from '../../support/ids.js';
import { NO_METRICS } from '../../../src/application/ports/metrics.port.js';

const BOUND = 2_000;

/**
 * An instance's token cache in front of an in-memory database that "another instance" changes
 * directly. Counts the reads that reach the database: authentication's and the cache's re-reads.
 */
async function setup(settings: Partial<TokenCacheSettings> = {}) {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const db = new InMemoryDatabase(ids);
  const generator = new RandomTokenGenerator();
  const tokens = db.repositories.tokens;
  const reads: string[][] = [];
  let failing = false;
  const counted = Object.create(tokens) as typeof tokens;
  counted.findHolders = async (hashes) => {
    reads.push([...hashes]);
    if (failing) throw new Error('database unavailable');
    return tokens.findHolders(hashes);
  };
  let failingUses = false;
  counted.recordUse = async (id, at) => {
    if (failingUses) throw new Error('database unavailable');
    return tokens.recordUse(id, at);
  };
  const cache = new TokenCache({ maxEntries: 100, revalidateMs: BOUND, idleMs: 300_000, ...settings }, (hashes) => counted.findHolders(hashes));
  const authentications: string[] = [];
  const metrics = { ...NO_METRICS, tokenAuthenticated: (source: 'cache' | 'database') => void authentications.push(source) };
  const authenticate = new AuthenticateToken(counted, generator, clock, cache, metrics);
  const register = new RegisterUser(db, new PlainPasswordHasher(), PLAN_SETTINGS, clock);
  const createToken = new CreateApiToken(db, plansOver(db.repositories, clock), ids, generator, clock);
  await register.execute({ email: 'ada@example.com', password: 'a long passphrase', verified: true, nickname: 'ada' });
  async function newToken(name = 'ci'): Promise<{ id: ApiTokenId; token: string }> {
    const created = await createToken.execute({ userId: userId(1) }, { name, scopes: ['api'] });
    if (!created.ok) throw new Error('setup');
    return created.value;
  }
  const accepted = async (token: string): Promise<boolean> => (await authenticate.execute(token)).ok;
  /** What `execute` threw for `token` (it must throw). */
  const refusal = async (token: string): Promise<string> => {
    try {
      await authenticate.execute(token);
    } catch (error) {
      return String(error);
    }
    throw new Error('execute did not throw');
  };
  /** The token's last use as stored (the first token of user 1). */
  const lastUse = async (): Promise<string | undefined> => (await tokens.listByUser(userId(1)))[0]!.lastUseDate?.toISOString();
  /** Accepted without waiting (`executeAtOnce`): true, or undefined when it must be asked the slow way. */
  const acceptedAtOnce = (token: string): boolean | undefined => (authenticate.executeAtOnce(token) === undefined ? undefined : true);
  /** Lets a background re-read started by the last request finish. */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    clock,
    tokens,
    cache,
    reads,
    newToken,
    accepted,
    acceptedAtOnce,
    refusal,
    lastUse,
    settle,
    revoke: new RevokeApiToken(tokens, cache),
    authenticate,
    authentications,
    fail: (value: boolean) => {
      failing = value;
    },
    failUses: (value: boolean) => {
      failingUses = value;
    },
  };
}

describe('TokenCache with AuthenticateToken', () => {
  it('answers a hot token without reading the database', async () => {
    const s = await setup();
    const { token } = await s.newToken();
    expect(await s.accepted(token)).to.equal(true);
    expect(s.reads).to.have.length(1);
    for (let i = 0; i < 50; i++) {
      s.clock.advance(10);
      expect(await s.accepted(token)).to.equal(true);
    }
    expect(s.reads).to.have.length(1);
  });

  it('refuses a token revoked on this instance with the very next request', async () => {
    const s = await setup();
    const { id, token } = await s.newToken();
    expect(await s.accepted(token)).to.equal(true);
    expect((await s.revoke.execute(userId(1), id)).ok).to.equal(true);
    expect(await s.accepted(token)).to.equal(false);
  });

  it('refuses a token deleted elsewhere once the bound has passed, even when no request came in between', async () => {
    const s = await setup();
    const { id, token } = await s.newToken();
    expect(await s.accepted(token)).to.equal(true);
    // Another instance revokes it: this instance's cache is not told.
    expect(await s.tokens.delete(userId(1), id)).to.equal(true);
    s.clock.advance(BOUND / 4);
    expect(await s.accepted(token)).to.equal(true, 'within the bound the cache may still answer');
    s.clock.advance(BOUND);
    expect(await s.accepted(token)).to.equal(false);
    expect(s.cache.size).to.equal(0);
  });

  it('re-reads every entry in one query ahead of the bound under steady traffic, so requests do not wait', async () => {
    const s = await setup();
    const first = await s.newToken('first');
    const second = await s.newToken('second');
    expect(await s.accepted(first.token)).to.equal(true);
    expect(await s.accepted(second.token)).to.equal(true);
    expect(s.reads).to.have.length(2);
    await s.tokens.delete(userId(1), second.id);
    s.clock.advance(BOUND / 2);
    // Served from the cache, and it starts one background re-read of both entries.
    expect(await s.accepted(first.token)).to.equal(true);
    await s.settle();
    expect(s.reads).to.have.length(3);
    expect(new Set(s.reads[2])).to.deep.equal(new Set(s.reads[0]!.concat(s.reads[1]!)));
    // The re-read learnt of the revocation before the bound was reached.
    s.clock.advance(1);
    expect(await s.accepted(second.token)).to.equal(false);
    expect(await s.accepted(first.token)).to.equal(true);
  });

  it('never answers from an entry older than the bound: a failed re-read leaves the request to the database', async () => {
    const s = await setup();
    const { token } = await s.newToken();
    expect(await s.accepted(token)).to.equal(true);
    s.fail(true);
    s.clock.advance(BOUND / 2);
    expect(await s.accepted(token)).to.equal(true);
    await s.settle();
    s.clock.advance(BOUND);
    expect(await s.refusal(token)).to.include('database unavailable');
    s.fail(false);
    expect(await s.accepted(token)).to.equal(true);
  });

  it('keeps at most maxEntries tokens, dropping the least recently used', async () => {
    const s = await setup({ maxEntries: 2 });
    const [a, b, c] = [await s.newToken('a'), await s.newToken('b'), await s.newToken('c')];
    await s.accepted(a.token);
    await s.accepted(b.token);
    await s.accepted(a.token);
    await s.accepted(c.token);
    expect(s.cache.size).to.equal(2);
    const before = s.reads.length;
    await s.accepted(a.token);
    expect(s.reads.length).to.equal(before, 'a was used recently and stays');
    await s.accepted(b.token);
    expect(s.reads.length).to.equal(before + 1, 'b was the least recently used and went');
  });

  it('does not re-read tokens idle for longer than idleMs', async () => {
    const s = await setup({ idleMs: 10_000 });
    const idle = await s.newToken('idle');
    const busy = await s.newToken('busy');
    await s.accepted(idle.token);
    for (let t = 0; t < 12_000; t += BOUND / 2) {
      s.clock.advance(BOUND / 2);
      await s.accepted(busy.token);
      await s.settle();
    }
    const lastReread = s.reads.at(-1)!;
    expect(lastReread).to.have.length(1);
    expect(s.cache.size).to.equal(1);
  });

  it('with maxEntries 0 reads the database on every request', async () => {
    const s = await setup({ maxEntries: 0 });
    const { token } = await s.newToken();
    for (let i = 0; i < 3; i++) expect(await s.accepted(token)).to.equal(true);
    expect(s.reads).to.have.length(3);
  });

  it('still records a use at most once a minute, from the cache', async () => {
    const s = await setup();
    const { token } = await s.newToken();
    const { lastUse } = s;
    await s.accepted(token);
    const first = await lastUse();
    s.clock.advance(30_000);
    await s.accepted(token);
    expect(await lastUse()).to.equal(first);
    s.clock.advance(30_000);
    await s.accepted(token);
    expect(await lastUse()).to.equal(s.clock.now().toISOString());
  });

  it('keeps a use written back while a re-read was under way: the older row does not take it back', async () => {
    const s = await setup();
    const { token } = await s.newToken();
    const { lastUse } = s;
    await s.accepted(token);
    // The entry is half its bound old at the second request, which starts a re-read; the third
    // finds the use due and writes it back while that re-read may still be under way.
    s.clock.advance(60_000 - BOUND / 2);
    await s.accepted(token);
    s.clock.advance(BOUND / 2);
    await s.accepted(token);
    await s.settle();
    const written = await lastUse();
    expect(written).to.equal(s.clock.now().toISOString());
    s.clock.advance(1_000);
    await s.accepted(token);
    expect(await lastUse(), 'not written again a second later').to.equal(written);
  });

  it('writes a use again with the next request when writing it back failed', async () => {
    const s = await setup();
    const { token } = await s.newToken();
    const { lastUse } = s;
    s.failUses(true);
    expect(await s.refusal(token)).to.include('database unavailable');
    s.failUses(false);
    s.clock.advance(1_000);
    expect(await s.accepted(token)).to.equal(true);
    expect(await lastUse(), 'written by the next request, not a minute later').to.equal(s.clock.now().toISOString());
  });

  describe('executeAtOnce (the remembered answers\' check, ADR 0029)', () => {
    it('answers only for a token the cache holds, confirmed within the bound, and never reads', async () => {
      const s = await setup();
      const { token } = await s.newToken();
      expect(s.acceptedAtOnce(token), 'not cached yet').to.equal(undefined);
      expect(s.acceptedAtOnce('not a token')).to.equal(undefined);
      expect(s.reads).to.have.length(0);
      expect(await s.accepted(token)).to.equal(true);
      s.clock.advance(BOUND / 4);
      expect(s.acceptedAtOnce(token)).to.equal(true);
      s.clock.advance(BOUND);
      expect(s.acceptedAtOnce(token), 'past the bound: execute waits for the re-read, so must its caller').to.equal(undefined);
      expect(s.reads).to.have.length(1);
    });

    it('refreshes ahead like execute, so a deletion elsewhere is seen before the bound', async () => {
      const s = await setup();
      const { id, token } = await s.newToken();
      expect(await s.accepted(token)).to.equal(true);
      await s.tokens.delete(userId(1), id);
      s.clock.advance(BOUND / 2);
      expect(s.acceptedAtOnce(token)).to.equal(true);
      await s.settle();
      expect(s.reads).to.have.length(2);
      expect(s.acceptedAtOnce(token)).to.equal(undefined);
      expect(await s.accepted(token)).to.equal(false);
    });

    it('gives way to execute when a use is to be written back, so uses are still recorded once a minute', async () => {
      const s = await setup();
      const { token } = await s.newToken();
      await s.accepted(token);
      s.clock.advance(59_000);
      // Past the bound: confirmed again by a re-read, and still nothing to write back.
      await s.accepted(token);
      expect(s.acceptedAtOnce(token)).to.equal(true);
      s.clock.advance(1_000);
      expect(s.acceptedAtOnce(token)).to.equal(undefined);
      await s.accepted(token);
      expect(await s.lastUse()).to.equal(s.clock.now().toISOString());
      expect(s.acceptedAtOnce(token)).to.equal(true);
    });

    it('counts as a use of the entry: a token answered at once is the most recently used', async () => {
      const s = await setup({ maxEntries: 2 });
      const [a, b, c] = [await s.newToken('a'), await s.newToken('b'), await s.newToken('c')];
      await s.accepted(a.token);
      await s.accepted(b.token);
      expect(s.acceptedAtOnce(a.token)).to.equal(true);
      await s.accepted(c.token);
      expect(s.acceptedAtOnce(a.token), 'a stays').to.equal(true);
      expect(s.acceptedAtOnce(b.token), 'b went').to.equal(undefined);
    });

    it('counts an authentication only when admit lets the request in; turned away, it answers undefined and counts nothing', async () => {
      const s = await setup();
      const { token } = await s.newToken();
      expect(await s.accepted(token)).to.equal(true);
      expect(s.authentications).to.deep.equal(['database']);
      const seen: string[] = [];
      expect(s.authenticate.executeAtOnce(token, (principal) => (seen.push(String(principal.tokenId)), false))).to.equal(undefined);
      expect(seen).to.have.length(1);
      expect(s.authentications).to.deep.equal(['database']);
      expect(s.authenticate.executeAtOnce(token, () => true)?.tokenId).to.equal(seen[0]);
      expect(s.authentications).to.deep.equal(['database', 'cache']);
    });
  });
});
