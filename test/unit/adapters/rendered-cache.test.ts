import { expect } from 'chai';
import { RenderedCache } from '../../../src/adapters/http/docs/rendered-cache.js';

/** A part of `chars` characters, and how many times each key was made. */
function counting() {
  const made = new Map<string, number>();
  const make = (key: string, chars: number) => async () => {
    made.set(key, (made.get(key) ?? 0) + 1);
    return 'x'.repeat(chars);
  };
  return { made, make };
}

describe('RenderedCache: the docs pages’ rendered owners’ text, by key, within a byte budget', () => {
  it('makes a part once and hands it out again while it is kept', async () => {
    const cache = new RenderedCache<string>(10_000, (html) => html.length);
    const { made, make } = counting();
    expect(await cache.obtain('a', make('a', 100))).to.have.length(100);
    expect(await cache.obtain('a', make('a', 100))).to.have.length(100);
    expect(cache.find('a')).to.have.length(100);
    expect(made.get('a')).to.equal(1);
    expect(cache.bytes).to.equal(2 * (1 + 100));
  });

  it('drops the least recently used parts first to stay within its budget; finding a part counts as using it', async () => {
    // Parts of 499 characters and a one-character key weigh 1,000 bytes, a quarter of the budget.
    const cache = new RenderedCache<string>(4_000, (html) => html.length);
    const { make } = counting();
    for (const key of ['a', 'b', 'c', 'd']) await cache.obtain(key, make(key, 499));
    expect(cache.find('a')).to.not.equal(undefined);
    await cache.obtain('e', make('e', 499));
    expect([...'abcde'].map((key) => cache.find(key) !== undefined)).to.deep.equal([true, false, true, true, true]);
    expect(cache.bytes).to.equal(4_000);
    expect(cache.size).to.equal(4);
  });

  it('makes a part heavier than a quarter of its budget for the request but does not keep it, so one page cannot push out everyone else’s', async () => {
    const cache = new RenderedCache<string>(4_000, (html) => html.length);
    const { made, make } = counting();
    await cache.obtain('small', make('small', 100));
    expect(await cache.obtain('large', make('large', 600))).to.have.length(600);
    expect(await cache.obtain('large', make('large', 600))).to.have.length(600);
    expect(made.get('large')).to.equal(2);
    expect(cache.find('small')).to.not.equal(undefined);
  });

  it('makes a part once for requests that ask for it while it is being made', async () => {
    const cache = new RenderedCache<string>(10_000, (html) => html.length);
    let makes = 0;
    let finish: (html: string) => void = () => undefined;
    const make = () => {
      makes++;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = cache.obtain('a', make);
    const second = cache.obtain('a', make);
    expect(cache.find('a')).to.be.instanceOf(Promise);
    finish('made');
    expect(await Promise.all([first, second])).to.deep.equal(['made', 'made']);
    expect(makes).to.equal(1);
  });

  it('keeps nothing when making fails: every waiter gets the failure, and the next request makes it again', async () => {
    const cache = new RenderedCache<string>(10_000, (html) => html.length);
    let makes = 0;
    const failing = async () => {
      makes++;
      throw new Error('broken');
    };
    const results = await Promise.allSettled([cache.obtain('a', failing), cache.obtain('a', failing)]);
    expect(results.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect(cache.find('a')).to.equal(undefined);
    expect(await cache.obtain('a', async () => 'fine')).to.equal('fine');
    expect(makes).to.equal(1);
    expect(cache.bytes).to.equal(2 * (1 + 4));
  });
});
