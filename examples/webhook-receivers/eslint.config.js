// The root config type-checks through tsconfig.json, which does not cover these stand-alone
// examples: lint them as plain Node.js modules.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node }, rules: { eqeqeq: ['error', 'always'] } },
];
