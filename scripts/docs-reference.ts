/**
 * `npm run docs:reference`: rewrites the generated reference part of docs/http-api.md from the
 * routes' declarations. test/unit/docs/http-reference.test.ts fails while it is not current.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { serviceReference, withReference } from '../src/adapters/http/openapi/http-reference.js';

const file = new URL('../docs/http-api.md', import.meta.url);
const before = await readFile(file, 'utf8');
const after = withReference(before, serviceReference());
if (after === before) console.log('docs/http-api.md: the reference is current');
else {
  await writeFile(file, after);
  console.log('docs/http-api.md: the reference is rewritten');
}
