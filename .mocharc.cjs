'use strict';
// One mocha process runs unit, contract and HTTP suites; tsx compiles TypeScript on the fly.
module.exports = {
  spec: ['test/**/*.test.ts'],
  'node-option': ['import=tsx'],
  timeout: 20000,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'spec',
  exit: true,
};
