import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../html.js';

/** A URL scheme a link or an image may use; everything else (javascript:, data:, vbscript:, file:...) is dropped. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto']);
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/**
 * markdown-it for text written by API owners (guides, descriptions in specs), read by anyone who
 * may see the API: `html: false` turns every tag into text, links and images keep only http(s),
 * mailto and relative URLs (markdown-it normalises them first, so `java&#09;script:` and
 * `JAVASCRIPT:` arrive here spelled plainly), and table alignment becomes a class, since the pages'
 * CSP allows no inline style. Headings move down below the page's own (`headingOffset`), so that a
 * guide's `# Title` is not a second h1.
 */
function create(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
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

/** Block Markdown (a guide, a description) as HTML that cannot carry script; its headings `headingOffset` levels down (h1 becomes h2 with 1). */
export function renderMarkdown(text: string, headingOffset: number): string {
  if (!MARKUP.test(text) && !BLOCK_START.test(text)) return text === '' ? '' : `<p>${escapeHtml(text.trimEnd())}</p>\n`;
  return md.render(text, { headingOffset });
}

/** One line of Markdown (a parameter's or property's description) without the paragraph around it. */
export function renderInlineMarkdown(text: string): string {
  return MARKUP.test(text) || BLOCK_START.test(text) ? md.renderInline(text) : escapeHtml(text);
}
