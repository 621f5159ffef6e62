#!/usr/bin/env node
// The `specbase` command as built: runs the bundle of cli.ts (dist/main/cli.bundle.cjs, made by
// scripts/bundle.mjs) through V8's code cache (code-cache.ts). Bundled into dist/main/cli.bundle.js.
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';

runWithCodeCache(fileURLToPath(new URL('./cli.bundle.cjs', import.meta.url)));
