import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_CONTINUE, safeContinue } from '../../../src/adapters/http/sign-in.routes.js';

const ORIGIN = 'https://specbase.example';

/** Where a browser on the login page goes with `location` in a `Location` header (or a link). */
const followed = (location: string): URL => new URL(location, `${ORIGIN}/login`);

/** What every answer must be: a path of this origin that a browser keeps here, given again unchanged. */
function expectLocal(given: unknown, answer: string): void {
  const label = JSON.stringify(given);
  expect(answer.startsWith('/') && !answer.startsWith('//') && !answer.startsWith('/\\'), label).to.equal(true);
  expect(followed(answer).origin, label).to.equal(ORIGIN);
  expect(safeContinue(answer), `${label}, given again`).to.equal(answer);
}

describe('safeContinue: where the sign-in page goes afterwards', () => {
  const cases: [unknown, string][] = [
    ['/docs/1/petstore?x=1#models', '/docs/1/petstore?x=1#models'],
    ['/./../docs', '/docs'],
    ['/./../evil', '/evil'],
    ['/%2f%2fevil', '/%2f%2fevil'],
    ['/.//evil', DEFAULT_CONTINUE],
    ['/..//evil', DEFAULT_CONTINUE],
    ['/a/../..//evil', DEFAULT_CONTINUE],
    ['/%2e//evil', DEFAULT_CONTINUE],
    ['/%2E%2e//evil', DEFAULT_CONTINUE],
    ['/.%2e/.//evil.example/x?y#z', DEFAULT_CONTINUE],
    ['//evil', DEFAULT_CONTINUE],
    ['///evil', DEFAULT_CONTINUE],
    ['/\\evil', DEFAULT_CONTINUE],
    ['/.\\/evil', DEFAULT_CONTINUE],
    ['\\\\evil', DEFAULT_CONTINUE],
    ['https://evil', DEFAULT_CONTINUE],
    ['HTTPS://evil', DEFAULT_CONTINUE],
    ['javascript:alert(1)', DEFAULT_CONTINUE],
    ['/\t/evil', DEFAULT_CONTINUE],
    ['/\n/evil', DEFAULT_CONTINUE],
    ['/\r\n/evil', DEFAULT_CONTINUE],
    ['\t//evil', DEFAULT_CONTINUE],
    ['/docs\r\nSet-Cookie: x=y', DEFAULT_CONTINUE],
    [' /docs', DEFAULT_CONTINUE],
    ['docs', DEFAULT_CONTINUE],
    ['', DEFAULT_CONTINUE],
    [`/${'a'.repeat(3000)}`, DEFAULT_CONTINUE],
    [['/docs', '/x'], DEFAULT_CONTINUE],
    [undefined, DEFAULT_CONTINUE],
  ];

  for (const [given, expected] of cases) {
    it(`${String(JSON.stringify(given)).slice(0, 60)} -> ${expected}`, () => {
      const answer = safeContinue(given);
      expect(answer).to.equal(expected);
      expectLocal(given, answer);
    });
  }

  it('answers any string, spelled from the pieces of those attacks, with a path a browser keeps on this origin', () => {
    const piece = fc.constantFrom('/', '//', '\\', '.', '..', '%2e', '%2E', '%2f', '%5c', 'evil.example', ':', '@', '?', '#', '\t', '\n', ' ', 'https:', 'docs', '\u3000', '%00');
    // Paths of dot segments and slashes, the spellings that resolve to something else.
    const segment = fc.constantFrom('/', '//', '.', '..', '%2e', '%2E%2e', '.%2e', 'a', 'evil.example');
    const dotted = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('')}`);
    fc.assert(
      fc.property(fc.oneof(dotted, fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), fc.string({ unit: 'binary', maxLength: 40 })), (given) => {
        expectLocal(given, safeContinue(given));
      }),
      { numRuns: 2000 },
    );
  });
});
