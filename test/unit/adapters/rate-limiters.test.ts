import { expect } from 'chai';
import { InMemoryRateLimiter } from '../../../src/adapters/memory/in-memory-rate-limiter.js';
import { BatchedRateLimiter, type TypeOrmRateLimiter } from '../../../src/adapters/persistence/typeorm-rate-limiter.js';
import type { RateLimit } from '../../../src/application/ports/rate-limiter.port.js';

const RULE: RateLimit = { limit: 3, windowMs: 60_000 };
const at = (ms: number) => new Date(1_800_000_000_000 + ms);

describe('rate limiters: attemptAtOnce (the remembered answers\' count, ADR 0029)', () => {
  describe('InMemoryRateLimiter', () => {
    it('counts an allowed attempt as attempt does, in the same window', async () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.attemptAtOnce('k', RULE, at(0))).to.deep.equal({ allowed: true, limit: 3, remaining: 2, resetMs: 60_000 });
      expect(await limiter.attempt('k', RULE, at(1_000))).to.deep.equal({ allowed: true, limit: 3, remaining: 1, resetMs: 59_000 });
      expect(limiter.attemptAtOnce('k', RULE, at(2_000))).to.deep.equal({ allowed: true, limit: 3, remaining: 0, resetMs: 58_000 });
    });

    it('counts nothing and gives undefined once the window is used up, so the slow way refuses it once', async () => {
      const limiter = new InMemoryRateLimiter();
      for (let i = 0; i < 3; i++) expect(limiter.attemptAtOnce('k', RULE, at(i))?.allowed).to.equal(true);
      expect(limiter.attemptAtOnce('k', RULE, at(10))).to.equal(undefined);
      expect(limiter.attemptAtOnce('k', RULE, at(11))).to.equal(undefined);
      expect(await limiter.attempt('k', RULE, at(12))).to.include({ allowed: false, remaining: 0 });
      // The refused attempt was counted once: one given back makes room for exactly one more.
      await limiter.release('k', at(13));
      await limiter.release('k', at(13));
      expect(limiter.attemptAtOnce('k', RULE, at(14))?.remaining).to.equal(0);
      expect(limiter.attemptAtOnce('k', RULE, at(15))).to.equal(undefined);
      expect(limiter.attemptAtOnce('k', RULE, at(60_000))?.remaining, 'a new window').to.equal(2);
    });
  });

  describe('BatchedRateLimiter', () => {
    function batched() {
      const calls: string[] = [];
      let count = 0;
      const store = {
        attempt: async (key: string, rule: RateLimit, now: Date) => {
          calls.push(`attempt ${key}`);
          count += 1;
          return { allowed: count <= rule.limit, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetMs: 60_000 - (now.getTime() % 60_000) };
        },
        addCounts: async (additions: readonly { key: string; count: number }[]) => {
          for (const { key, count: added } of additions) {
            calls.push(`add ${key} ${added}`);
            count += added;
          }
          return new Map();
        },
        release: async () => undefined,
      };
      return { limiter: new BatchedRateLimiter(store as unknown as TypeOrmRateLimiter), calls };
    }

    it('gives undefined for a window this instance has not counted in yet: its first attempt goes to the database', async () => {
      const { limiter, calls } = batched();
      expect(limiter.attemptAtOnce('k', RULE, at(0))).to.equal(undefined);
      expect(calls).to.deep.equal([]);
      expect((await limiter.attempt('k', RULE, at(0))).remaining).to.equal(2);
      expect(limiter.attemptAtOnce('k', RULE, at(1))).to.include({ allowed: true, remaining: 1 });
      expect((await limiter.attempt('k', RULE, at(2))).remaining).to.equal(0);
      expect(limiter.attemptAtOnce('k', RULE, at(3)), 'used up: counts nothing').to.equal(undefined);
      await limiter.flush();
      expect(calls).to.deep.equal(['attempt k', 'add k 2']);
    });
  });
});
