'use strict';
// One mocha process runs unit, contract and HTTP suites; tsx compiles TypeScript on the fly.
// `npx mocha test/x.test.ts` runs that file alone: mocha adds the files named on its command line
// to `spec`, so the whole tree is the default only when none is named.
const named = process.argv.slice(2).some((arg) => /\.(test|fixture)\.ts$/.test(arg));
module.exports = {
  spec: named ? [] : ['test/**/*.test.ts'],
  'node-option': ['import=tsx'],
  // Stops the child processes a test started, whatever its outcome (test/support/processes.ts).
  require: ['test/support/process-hooks.ts'],
  timeout: 20000,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'spec',
  exit: true,
};
