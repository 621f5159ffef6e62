import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CATALOG_PATH, renderCatalog } from '../../scripts/changes-catalog.js';

describe('docs/changes.md', () => {
  it('is the catalog the classifier has, with the example of every rule (node --import tsx scripts/changes-catalog.ts rewrites it)', () => {
    expect(readFileSync(CATALOG_PATH, 'utf8') === renderCatalog(), 'docs/changes.md is out of date: run node --import tsx scripts/changes-catalog.ts').to.equal(true);
  });
});
