import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { renderInlineMarkdown, renderMarkdown } from '../../src/adapters/http/docs/markdown.js';

/** The same entity, however spelled: `&#34;` and `&quot;`. */
function decoded(html: string): string {
  return html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

describe('docs pages: Markdown of API owners (renderMarkdown)', () => {
  it('renders markup as text and drops links and images that are not http(s), mailto or relative', () => {
    const cases: [string, string][] = [
      ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n'],
      ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n'],
      ['[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>\n'],
      ['[x](JaVaScRiPt:alert(1))', '<p>[x](JaVaScRiPt:alert(1))</p>\n'],
      ['[x](&#106;avascript:alert(1))', '<p>[x](javascript:alert(1))</p>\n'],
      ['[x](<javascript:alert(1)>)', '<p>[x](&lt;javascript:alert(1)&gt;)</p>\n'],
      ['[x]: vbscript:msgbox\n\n[x]', '<p>[x]: vbscript:msgbox</p>\n<p>[x]</p>\n'],
      ['![i](data:image/svg+xml,<svg onload=alert(1)>)', '<p>![i](data:image/svg+xml,&lt;svg onload=alert(1)&gt;)</p>\n'],
      ['[a](https://example.com) [b](/docs) [c](#top) [d](mailto:a@example.com)', '<p><a href="https://example.com">a</a> <a href="/docs">b</a> <a href="#top">c</a> <a href="mailto:a@example.com">d</a></p>\n'],
    ];
    for (const [markdown, html] of cases) expect(renderMarkdown(markdown, 0), markdown).to.equal(html);
  });

  it('turns table alignment into classes (the CSP allows no inline style) and moves headings down', () => {
    expect(renderMarkdown('| a |\n|--:|\n| 1 |', 0)).to.include('<th class="align-right">a</th>').and.not.include('style=');
    expect(renderMarkdown('# One\n\n###### Six', 1)).to.equal('<h2>One</h2>\n<h6>Six</h6>\n');
  });

  it('escapes plain text directly, exactly as markdown-it would render it', () => {
    const reference = new MarkdownIt({ html: false, linkify: true, typographer: false });
    reference.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
    const plain = fc.string({ unit: fc.constantFrom(...'abc XYZ 019 .,;:?"\'()/{}=%$+-#@é'.split('')), maxLength: 60 });
    fc.assert(
      fc.property(plain, (text) => {
        expect(decoded(renderInlineMarkdown(text)), JSON.stringify(text)).to.equal(decoded(reference.renderInline(text)));
        expect(decoded(renderMarkdown(text, 0)), JSON.stringify(text)).to.equal(decoded(reference.render(text)));
      }),
      { numRuns: 2000 },
    );
  });
});
