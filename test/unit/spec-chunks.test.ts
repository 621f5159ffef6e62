import { expect } from 'chai';
import { chunked, chunkText, packChunk, unpackChunk } from '../../src/adapters/persistence/spec-chunks.js';

/** The spec history's content-defined chunks (ADR 0023): what makes a history grow with what changed. */
describe('spec chunks (content-defined chunking of spec texts)', () => {
  // About 1 MB of JSON-like text with varied words, for the rolling hash to find boundaries in.
  const word = (i: number) => ['pet', 'order', 'user', 'store', 'status', 'photo', 'tag', 'category', 'inventory', 'login'][i % 10]! + String((i * 7919) % 104729);
  const text = JSON.stringify(Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`/${word(i)}/${word(i * 3 + 1)}`, { summary: `${word(i * 5)} of the ${word(i * 11)}`, tags: [word(i * 17)] }])));

  it('cuts a text into pieces that join back to it, each of 2 K to 64 K characters but the last', () => {
    const chunks = chunkText(text);
    expect(chunks.join('')).to.equal(text);
    expect(chunks.length).to.be.greaterThan(10);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).to.be.within(2 * 1024, 64 * 1024 + 1);
    expect(chunkText('')).to.deep.equal(['']);
  });

  it('keeps every chunk but the ones around an edit: an insertion in the middle changes at most two', () => {
    const before = new Set(chunked(text).keys);
    const middle = text.length / 2;
    const edited = chunked(`${text.slice(0, middle)}"inserted":"a new operation's summary",${text.slice(middle)}`).keys;
    expect(edited.filter((key) => !before.has(key)).length).to.be.at.most(2);
  });

  it('never splits a surrogate pair, so every chunk is valid UTF-8 on its own and survives packing', () => {
    const emoji = '😀'.repeat(100_000);
    const chunks = chunkText(emoji);
    expect(chunks.length).to.be.greaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length % 2, 'whole pairs').to.equal(0);
      expect(unpackChunk(packChunk(chunk))).to.equal(chunk);
    }
  });
});
