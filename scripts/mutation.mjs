#!/usr/bin/env node
// Mutation testing (docs/testing.md): StrykerJS over stryker.config.json, then every mutated file's
// score against the threshold; exits 1 when a file scores below it.
//
//   node scripts/mutation.mjs                       every file of the configuration's `mutate`
//   node scripts/mutation.mjs src/domain/x.ts ...   those files (a `file:from-to` line range too)
//   node scripts/mutation.mjs --changed [<base>]    only the lines changed since <base> (default
//                                                   HEAD~1; MUTATION_BASE too) in files `mutate` names
// MUTATION_THRESHOLD (90) is the lowest score a file may have; MUTATION_CONFIG (stryker.config.json)
// another configuration, say one that runs fewer tests while a file's killers are being written.
//
// A file's score is what the issue that brought mutation testing defines: killed and timed-out
// mutants over all mutants that ran or had no test (survived, no coverage); mutants the TypeScript
// checker refuses (they do not compile) and static ones (ignoreStatic) are not counted.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const THRESHOLD = Number(process.env.MUTATION_THRESHOLD ?? 90);
const CONFIG = process.env.MUTATION_CONFIG ?? 'stryker.config.json';
const require = createRequire(import.meta.url);
const config = JSON.parse(readFileSync(CONFIG, 'utf8'));

await withoutCoverageForCheckers();
const { Stryker } = await import('@stryker-mutator/core');

const args = process.argv.slice(2);
const mutate = args[0] === '--changed' ? changedLines(args[1] ?? process.env.MUTATION_BASE ?? 'HEAD~1') : args;
if (mutate.length === 0 && args[0] === '--changed') {
  console.log('mutation: no line of a mutated file changed; nothing to test.');
  process.exit(0);
}

const wholeFiles = mutate.every((pattern) => !/:\d+-\d+$/.test(pattern));
const results = await new Stryker({ configFile: CONFIG, ...(mutate.length > 0 ? { mutate } : {}) }).runMutationTest();
process.exit(report(results) ? 0 : 1);

/**
 * StrykerJS 9.6 sends the TypeScript checker every mutant with the ids of the tests that cover it,
 * all of one run in one message; with the classifier's thousands of generated cases (long titles)
 * that message passes V8's longest string and the run dies ("RangeError: Invalid string length").
 * The checker reads only where a mutant is and what replaces it: hand it the mutants without their
 * test lists, and map its answer back to the whole plans. (ADR 0034.)
 */
async function withoutCoverageForCheckers() {
  const core = path.dirname(require.resolve('@stryker-mutator/core/package.json'));
  const { CheckerFacade } = await import(pathToFileURL(path.join(core, 'dist/src/checker/checker-facade.js')).href);
  const slim = (plans) => plans.map((plan) => ({ ...plan, mutant: { ...plan.mutant, coveredBy: undefined, killedBy: undefined } }));
  const byId = (plans) => new Map(plans.map((plan) => [plan.mutant.id, plan]));
  const { group, check } = CheckerFacade.prototype;
  CheckerFacade.prototype.group = async function (name, plans) {
    const whole = byId(plans);
    return (await group.call(this, name, slim(plans))).map((g) => g.map((plan) => whole.get(plan.mutant.id)));
  };
  CheckerFacade.prototype.check = async function (name, plans) {
    const whole = byId(plans);
    return (await check.call(this, name, slim(plans))).map(([plan, result]) => [whole.get(plan.mutant.id), result]);
  };
}

/** `file:from-to` for each run of lines `git diff` shows added or changed since `base`, in files `mutate` names. */
function changedLines(base) {
  const files = execFileSync('git', ['ls-files', ...config.mutate.map((pattern) => `:(glob)${pattern}`)], { encoding: 'utf8' }).split('\n').filter(Boolean);
  if (files.length === 0) return [];
  const diff = execFileSync('git', ['diff', '--unified=0', '--no-color', base, '--', ...files], { encoding: 'utf8' });
  const ranges = [];
  let file = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) file = /^\+\+\+ b\/(.+)$/.exec(line)?.[1] ?? null; // null: deleted
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && file !== null) {
      const [from, count] = [Number(hunk[1]), hunk[2] === undefined ? 1 : Number(hunk[2])];
      if (count > 0) ranges.push(`${file}:${from}-${from + count - 1}`);
    }
  }
  return ranges;
}

/**
 * Prints each file's score; false when one is under the threshold, or when its disable comments
 * (equivalent mutants, docs/testing.md) reach 3% of its mutants (whole files only) or one gives no
 * reason.
 */
function report(mutants) {
  const files = new Map();
  for (const mutant of mutants) {
    const file = path.relative(process.cwd(), mutant.fileName);
    const tally = files.get(file) ?? { all: 0, detected: 0, undetected: 0, disabled: 0, unexplained: [], survivors: [] };
    tally.all += 1;
    if (mutant.status === 'Ignored' && !String(mutant.statusReason).startsWith('Static mutant')) {
      tally.disabled += 1;
      if (mutant.statusReason === 'Ignored using a comment') tally.unexplained.push(`${file}:${mutant.location.start.line} disabled without a reason`);
    }
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') tally.detected += 1;
    if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
      tally.undetected += 1;
      tally.survivors.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column + 1} ${mutant.mutatorName} ${mutant.status}: ${oneLine(mutant.replacement)}`);
    }
    files.set(file, tally);
  }
  let passed = true;
  for (const [file, { all, detected, undetected, disabled, unexplained, survivors }] of [...files].sort()) {
    const total = detected + undetected;
    const score = total === 0 ? 100 : (100 * detected) / total;
    const low = score < THRESHOLD;
    // Over part of a file (--changed, a line range) the share says nothing about the whole file.
    const overDisabled = wholeFiles && disabled > 0 && disabled >= 0.03 * all;
    passed &&= !low && !overDisabled && unexplained.length === 0;
    const verdict = low ? 'BELOW' : overDisabled || unexplained.length > 0 ? 'DISAB' : 'ok   ';
    const disables = disabled === 0 ? '' : `  (${disabled} of ${all} disabled)`;
    console.log(`${verdict} ${score.toFixed(2).padStart(6)}%  ${String(detected).padStart(4)}/${String(total).padEnd(4)} ${file}${disables}`);
    if (low) for (const survivor of survivors) console.log(`        ${survivor}`);
    for (const line of unexplained) console.log(`        ${line}`);
  }
  console.log(passed ? `mutation: every file at ${THRESHOLD}% or more, disable comments under 3%` : `mutation: a file is under ${THRESHOLD}%, or has too many disable comments or one without a reason`);
  return passed;
}

function oneLine(text) {
  const flat = String(text ?? '').replace(/\s+/g, ' ');
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
}
