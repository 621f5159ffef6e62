import { expect } from 'chai';
import { changesBetween } from '../../../src/application/specs/spec-helpers.js';

const ON = new Date('2026-11-22T10:15:00.000Z');
const spec = (document: object) => ({ syntax: 'json' as const, source: JSON.stringify(document), documentJson: JSON.stringify(document) });

describe('application: a comparison past CHANGES_MAX_ITEMS', () => {
  const info = { title: 'T', version: '1' };
  const ok = { get: { responses: { '200': { description: 'ok' } } } };
  const older = spec({ openapi: '3.1.0', info, paths: { '/a': ok, '/b': ok } });
  // Three models added (info, listed first: models come before operations) and both operations removed (breaking).
  const newer = spec({ openapi: '3.1.0', info, paths: {}, components: { schemas: { A: { type: 'string' }, B: { type: 'string' }, C: { type: 'string' } } } });

  it('keeps the breaking items first, in their order, and counts every change', () => {
    const changes = changesBetween(older, newer, { maxItems: 3 }, ON);
    expect(changes.items.map((c) => c.rule)).to.deep.equal(['model-added', 'endpoint-removed', 'endpoint-removed']);
    expect(changes.counts).to.deep.equal({ breaking: 2, warning: 0, info: 3 });
    expect(changes.truncated).to.equal(true);
  });

  it('keeps breaking items only when there are as many as it keeps', () => {
    expect(changesBetween(older, newer, { maxItems: 2 }, ON).items.map((c) => c.rule)).to.deep.equal(['endpoint-removed', 'endpoint-removed']);
  });

  it('keeps everything, not truncated, when it fits', () => {
    const changes = changesBetween(older, newer, { maxItems: 5 }, ON);
    expect(changes.items).to.have.length(5);
    expect(changes).to.not.have.property('truncated');
  });
});
