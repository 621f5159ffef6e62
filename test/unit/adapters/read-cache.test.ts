import { expect } from 'chai';
import { ReadCache } from '../../../src/adapters/persistence/read-cache.js';

describe('ReadCache', () => {
  it('answers what it remembered until the version changes', async () => {
    let version = 'v1';
    const cache = new ReadCache(() => version, 10);
    expect(await cache.remember('k', async () => 'value')).to.equal('value');
    expect(cache.get('k')).to.equal('value');
    await cache.remember('absent', async () => undefined);
    expect(cache.get('absent'), 'not found is remembered as null').to.equal(null);
    version = 'v2';
    expect(cache.get('k')).to.equal(undefined);
  });

  it('keeps at most maxEntries, and an entry used all along outlives every one not used again', async () => {
    const cache = new ReadCache(() => 'v', 4);
    for (const key of ['a', 'b', 'c', 'd']) await cache.remember(key, async () => key);
    const gone: string[] = [];
    const keys = 'efghijklmnopqrstuvwxyz'.split('');
    for (const key of keys) {
      expect(cache.get('a'), `a, before ${key}`).to.equal('a');
      await cache.remember(key, async () => key);
    }
    for (const key of ['b', 'c', 'd', ...keys]) if (cache.get(key) === undefined) gone.push(key);
    expect(cache.get('a')).to.equal('a');
    // Four kept in all: a and the three most recent.
    expect(gone).to.deep.equal(['b', 'c', 'd', ...keys.slice(0, -3)]);
  });

  it('lets the least recently used go first', async () => {
    const cache = new ReadCache(() => 'v', 4);
    for (const key of ['a', 'b', 'c', 'd']) await cache.remember(key, async () => key);
    await cache.remember('e', async () => 'e');
    expect(cache.get('a'), 'the oldest, never used again').to.equal(undefined);
    expect(['b', 'c', 'd', 'e'].map((key) => cache.get(key))).to.deep.equal(['b', 'c', 'd', 'e']);
  });
});
