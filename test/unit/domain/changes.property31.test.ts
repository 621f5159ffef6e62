import { expect } from 'chai';
import fc from 'fast-check';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { Change } from '../../../src/domain/spec/changes/change.js';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { MODELS_31, openApi31Documents } from '../../support/openapi31-documents.js';
import { alternativeMoved, definitionMoved, inlineAlternatives, inlined, referredDefinitions, shuffled, withModel } from '../../support/same-description.js';

/**
 * The classifier's laws on OpenAPI 3.1 documents whose schemas use JSON Schema 2020-12's keywords
 * (test/support/openapi31-documents.ts; the codec's test checks they are valid): a document
 * compared with itself, or with what describes the same API differently (keys in another order,
 * YAML, a model written in place of its references, an alternative or a `$defs` member moved into
 * a named schema), yields no change. Moving a schema into `components.schemas` lists one more
 * model, which is a change (`model-added`, as the contract's models are the entries there) and
 * the only one; when the older document already had that model, there is none at all.
 */
const RUNS = { numRuns: 100, seed: 20261126 };
/** YAML is slow to write and read (about 25 ms a document here). */
const YAML_RUNS = { ...RUNS, numRuns: 50 };

const line = (c: Change) => `${c.rule} at ${JSON.stringify(c.location)}: ${c.message}`;

/** Fails naming every change found (chai would cut the list short). */
function expectNone(changes: readonly string[], what: string): void {
  expect(changes, `${what}, found:\n  ${changes.join('\n  ')}\n`).to.deep.equal([]);
}

const modelsOf = (document: JsonObject) => (document['components'] as { schemas: Record<string, unknown> }).schemas;

/**
 * The changes from `older` to `newer`, but for those listing `models` as added or removed, which
 * must be there (once each) for the models only one of the documents has.
 */
function changesBut(older: JsonObject, newer: JsonObject, models: readonly string[]): string[] {
  const changes = classifyChanges(older, newer);
  const listing = (c: Change) => (c.rule === 'model-added' || c.rule === 'model-removed') && models.includes(c.location.model ?? '');
  const expected = models.flatMap((model) => {
    const [had, has] = [Object.hasOwn(modelsOf(older), model), Object.hasOwn(modelsOf(newer), model)];
    return had === has ? [] : [`${has ? 'model-added' : 'model-removed'} ${model}`];
  });
  expect(changes.filter(listing).map((c) => `${c.rule} ${c.location.model}`).sort(), 'the models listed').to.deep.equal(expected.sort());
  return changes.filter((c) => !listing(c)).map(line);
}

/** Names the documents never give a model. */
const NEW_NAMES = ['Choice', 'Variant', 'Alternative'];

describe('domain: the change classifier on OpenAPI 3.1 schemas, properties (fast-check)', () => {
  it('finds no change between a document and itself', () => {
    fc.assert(
      fc.property(openApi31Documents, (document) => {
        expectNone(classifyChanges(document, document).map(line), 'against itself');
      }),
      RUNS,
    );
  });

  it('finds no change between a document and its re-serialisation, keys in another order, as YAML and as JSON, either way', () => {
    fc.assert(
      fc.property(openApi31Documents, fc.integer({ min: 1, max: 2 ** 30 }), (document, seed) => {
        const reordered = shuffled(document, seed) as JsonObject;
        const yaml = parseYaml(stringifyYaml(reordered)) as JsonObject;
        const json = JSON.parse(JSON.stringify(reordered, null, 2)) as JsonObject;
        expectNone(classifyChanges(document, yaml).map(line), 'to YAML');
        expectNone(classifyChanges(yaml, document).map(line), 'from YAML');
        expectNone(classifyChanges(document, json).map(line), 'to JSON');
      }),
      YAML_RUNS,
    );
  });

  it('finds no change when a model is written in place of its $refs and of the $refs to its $anchor, either way (the model itself stays listed)', () => {
    let rewritten = 0;
    fc.assert(
      fc.property(openApi31Documents, fc.constantFrom(...MODELS_31), (document, model) => {
        const inline = inlined(document, model);
        if (JSON.stringify(inline) !== JSON.stringify(document)) rewritten += 1;
        expectNone(classifyChanges(document, inline).map(line), 'to written in place');
        expectNone(classifyChanges(inline, document).map(line), 'to referred to');
      }),
      RUNS,
    );
    expect(rewritten, 'documents where the model was referred to').to.be.greaterThan(RUNS.numRuns / 3);
  });

  it('finds no change when an alternative of a oneOf or anyOf written in place is moved into a named schema and referred to, either way', () => {
    let moved = 0;
    fc.assert(
      fc.property(openApi31Documents, fc.nat(), fc.constantFrom(...NEW_NAMES), fc.boolean(), (document, pick, name, alreadyNamed) => {
        const places = inlineAlternatives(document);
        if (places.length === 0) return;
        moved += 1;
        const place = places[pick % places.length]!;
        const after = alternativeMoved(document, place, name);
        const before = alreadyNamed ? withModel(document, name, modelsOf(after)[name]) : document;
        expectNone(changesBut(before, after, [name]), `${place.join('/')} moved to ${name}`);
        expectNone(changesBut(after, before, [name]), `${name} moved back to ${place.join('/')}`);
      }),
      RUNS,
    );
    expect(moved, 'documents with an alternative written in place').to.be.greaterThan(RUNS.numRuns / 3);
  });

  it('finds no change when $defs members are moved into components.schemas and their references follow them, either way', () => {
    let moved = 0;
    fc.assert(
      fc.property(openApi31Documents, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(), (document, picks, keepNames, alreadyNamed) => {
        const members = referredDefinitions(document);
        if (members.length === 0) return;
        moved += 1;
        let after = document;
        const names: string[] = [];
        const steps: string[] = [];
        for (const [model, name] of new Set(picks.map((pick) => members[pick % members.length]!))) {
          // Under its own name where that is free, else under its model's and its own.
          const to = keepNames && !Object.hasOwn(modelsOf(after), name) ? name : `${model}${name}`;
          after = definitionMoved(after, model, name, to);
          names.push(to);
          steps.push(`${model}/$defs/${name} to ${to}`);
        }
        const before = alreadyNamed ? names.reduce((d, name) => withModel(d, name, modelsOf(after)[name]), document) : document;
        expectNone(changesBut(before, after, names), `moved ${steps.join(', ')}`);
        expectNone(changesBut(after, before, names), `moved back ${steps.join(', ')}`);
      }),
      RUNS,
    );
    expect(moved, 'documents referring to a $defs member').to.be.greaterThan(RUNS.numRuns / 3);
  });
});
