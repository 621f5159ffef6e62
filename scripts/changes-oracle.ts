/**
 * Runs the semantic oracle of the change classifier (test/support/schema-oracle.ts) over many
 * generated pairs of schemas, and prints what it finds: the outcomes per direction, per kind of
 * mutation, and the smallest counterexamples (misses, and breaking verdicts without a witness),
 * each shrunk. The unit test test/unit/domain/changes.oracle.test.ts runs the same on fewer pairs.
 *
 *   node --import tsx scripts/changes-oracle.ts [--pairs 5000] [--seed 20261101] [--budget 6000] [--shrink 20] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { DIRECTIONS, describe, judge, OUTCOMES, SEARCH_BUDGET, Validators, type Direction, type Outcome, type PairJudgement } from '../test/support/schema-oracle.js';
import { pairInputs, shrinkPair, type PairInput } from '../test/support/schema-pairs.js';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '20261101' },
    budget: { type: 'string', default: String(SEARCH_BUDGET) },
    shrink: { type: 'string', default: '20' },
    json: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const budget = Number(values.budget);
const validators = new Validators();


interface Found {
  readonly input: PairInput;
  readonly judgement: PairJudgement;
  readonly direction: Direction;
}

const started = performance.now();
const inputs = fc.sample(pairInputs, { seed: Number(values.seed), numRuns: pairs });
const totals = new Map<string, number>();
const byKind = new Map<string, Map<Outcome, number>>();
const interesting: Found[] = [];
let skipped = 0;
const bump = (map: Map<string, number>, k: string) => map.set(k, (map.get(k) ?? 0) + 1);
for (const input of inputs) {
  const judgement = judge(validators, input, budget);
  if (judgement === null) {
    skipped += 1;
    continue;
  }
  for (const direction of DIRECTIONS) {
    const { outcome } = judgement[direction];
    bump(totals, `${direction} ${outcome}`);
    for (const kind of new Set(judgement.pair.kinds)) {
      const counts = byKind.get(kind) ?? new Map<Outcome, number>();
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      byKind.set(kind, counts);
    }
    if (outcome !== 'agreed-breaking' && outcome !== 'agreed-safe') interesting.push({ input, judgement, direction });
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);

console.log(`${pairs} pairs (${skipped} skipped: no change, or a schema ajv refuses), seed ${values.seed}, search budget ${budget}, ${seconds} s`);
for (const direction of DIRECTIONS) console.log(`  ${direction}: ${OUTCOMES.map((o) => `${o} ${totals.get(`${direction} ${o}`) ?? 0}`).join(', ')}`);
console.log('\nBy kind of mutation (request and response counted apart; a pair of two mutations under both):');
console.log(`  ${'kind'.padEnd(40)} ${OUTCOMES.join(' ')}`);
for (const [kind, counts] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`  ${kind.padEnd(40)} ${OUTCOMES.map((o) => String(counts.get(o) ?? 0).padStart(o.length)).join(' ')}`);
}

/** The smallest input that still gives `found`'s outcome in its direction. */
function shrunk(found: Found): PairJudgement {
  const { direction } = found;
  const outcome = found.judgement[direction].outcome;
  const small = shrinkPair(found.input, (input) => judge(validators, input, budget)?.[direction].outcome === outcome, 1500);
  return judge(validators, small, budget)!;
}

const limit = Number(values.shrink);
const shown = new Set<string>();
const report: { direction: Direction; outcome: Outcome; kinds: readonly string[]; older: unknown; newer: unknown; witness?: unknown; items: unknown }[] = [];
for (const outcome of ['miss', 'miss-warned', 'possible-false-alarm', 'known-limit'] as const) {
  const found = interesting.filter((f) => f.judgement[f.direction].outcome === outcome);
  // One of each kind of finding (direction, mutations, the classifier's rules), the smallest; the commonest kinds first.
  const groups = new Map<string, Found[]>();
  for (const f of found) {
    const signature = `${f.direction} ${f.judgement.pair.kinds.join('+')} ${[...new Set(f.judgement[f.direction].items.map((c) => c.rule))].sort().join(',')}`;
    groups.set(signature, [...(groups.get(signature) ?? []), f]);
  }
  const size = (f: Found) => JSON.stringify(f.judgement.pair).length;
  const representatives = [...groups.values()].sort((x, y) => y.length - x.length).map((g) => g.sort((x, y) => size(x) - size(y))[0]!);
  console.log(`\n== ${outcome}: ${found.length} in ${groups.size} kinds, the ${Math.min(limit, groups.size)} commonest kinds shrunk ==`);
  for (const f of representatives.slice(0, limit)) {
    const small = shrunk(f);
    const text = describe(small, f.direction);
    const k = JSON.stringify([f.direction, small.pair.older, small.pair.newer]);
    if (shown.has(k)) continue;
    shown.add(k);
    console.log(text);
    const d = small[f.direction];
    report.push({ direction: f.direction, outcome, kinds: small.pair.kinds, older: small.pair.older, newer: small.pair.newer, ...(d.witness === undefined ? {} : { witness: d.witness }), items: d.items.map((c) => ({ level: c.level, rule: c.rule, property: c.location.property, message: c.message })) });
  }
}
if (values.json !== undefined) writeFileSync(values.json, JSON.stringify(report, null, 2));
