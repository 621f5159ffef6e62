import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { REFERENCE_END, REFERENCE_START, serviceReference } from '../../../src/adapters/http/openapi/http-reference.js';
import { PROBLEM_STATUS } from '../../../src/adapters/http/openapi/problems.js';

describe('docs/http-api.md: the generated reference', () => {
  it('is current: what the routes declare now (run `npm run docs:reference` after changing a route)', async () => {
    const markdown = await readFile(new URL('../../../docs/http-api.md', import.meta.url), 'utf8');
    const start = markdown.indexOf(REFERENCE_START);
    const end = markdown.indexOf(REFERENCE_END);
    expect(start, 'the start marker').to.be.greaterThan(0);
    expect(end, 'the end marker').to.be.greaterThan(start);
    expect(markdown.slice(start, end + REFERENCE_END.length)).to.equal(serviceReference());
  });

  it('lists every problem code with its status and every operation of the Bearer table with its scope', () => {
    const reference = serviceReference();
    for (const [code, status] of Object.entries(PROBLEM_STATUS)) expect(reference).to.include(`| \`${code}\` | ${status} |`);
    expect(reference).to.include('| `POST /api/{accountId}` | Create an empty API | `api` | `application/json` CreateApi | 201;');
    expect(reference).to.include('| `PUT /user/password` |');
  });
});
