import type { ApiChangelogView, ApiDocsView, ApiGuideView, DocsApi, DocsChangelogEntry, DocsFrame, DocsRelease } from '../../../application/docs/docs-views.js';
import type { ApiReference } from '../../../domain/spec/api-reference.js';
import type { Change, ChangeCounts } from '../../../domain/spec/changes/change.js';
import { escapeHtml } from '../html.js';
import type { DocsPage } from './docs-page.js';
import { MARKDOWN_PAGE_MAX_CHARS, PageMarkdown, type MarkdownRenderer } from './markdown.js';
import { Anchors, renderReference } from './reference.html.js';

const STATUS_TEXT: Record<DocsRelease['status'], string> = { released: 'released', deprecated: 'deprecated', endOfLife: 'end of life' };

export function apiDocsPath(api: DocsApi, version?: string): string {
  const base = `/docs/${api.accountId}/${encodeURIComponent(api.nickname)}`;
  return version === undefined ? base : `${base}/${encodeURIComponent(version)}`;
}

function guidePath(api: DocsApi, slug: string): string {
  return `${apiDocsPath(api)}/guides/${encodeURIComponent(slug)}`;
}

const current = (yes: boolean) => (yes ? ' aria-current="page"' : '');

export function changelogPath(api: DocsApi, feed = false): string {
  return `${apiDocsPath(api)}/changelog${feed ? '.atom' : ''}`;
}

/** Versions, the changelog, guides and (on a reference page) its table of contents. `here`: the version shown, the changelog, or the guide's slug. */
function sidebar(frame: DocsFrame, here: { readonly version?: string | null; readonly guide?: string; readonly changelog?: boolean }, contents = ''): string {
  const { api } = frame;
  const versions = [
    `<li><a href="${apiDocsPath(api)}"${current(here.version === null)}>Latest${api.version === null ? '' : ` (${escapeHtml(api.version)})`}</a></li>`,
    ...[...frame.releases]
      .reverse()
      .map(
        (r) =>
          `<li><a href="${escapeHtml(apiDocsPath(api, r.version))}"${current(here.version === r.version)}>${escapeHtml(r.version)}</a>${
            r.status === 'released' ? '' : ` <span class="sb-badge ${r.status}">${STATUS_TEXT[r.status]}</span>`
          }</li>`,
      ),
    `<li><a href="${escapeHtml(changelogPath(api))}"${current(here.changelog === true)}>Changelog</a></li>`,
  ].join('');
  const guides =
    frame.guides.length === 0
      ? ''
      : `<h2>Guides</h2><ul>${frame.guides.map((g) => `<li><a href="${escapeHtml(guidePath(api, g.slug))}"${current(here.guide === g.slug)}>${escapeHtml(g.title)}</a></li>`).join('')}</ul>`;
  return `<nav class="sb-sidebar" aria-label="Documentation"><div><h2>Versions</h2><ul>${versions}</ul>${guides}${contents === '' ? '' : `<h2>Reference</h2>${contents}`}</div></nav>`;
}

function banner(api: DocsApi, release: DocsRelease): string {
  if (release.status === 'released') return '';
  const latest = `<a href="${apiDocsPath(api)}">the latest version</a>`;
  const text =
    release.status === 'deprecated'
      ? `<strong>Version ${escapeHtml(release.version)} is deprecated.</strong> It still works, but will reach its end of life: move to ${latest}.`
      : `<strong>Version ${escapeHtml(release.version)} has reached its end of life.</strong> It is no longer supported: use ${latest}.`;
  return `<div class="sb-banner ${release.status}" role="note" aria-label="Release status">${text}</div>`;
}

function heading(api: DocsApi, subtitle: string): string {
  return `<h1>${escapeHtml(api.name)}</h1><p class="sb-meta">${subtitle}${api.type === 'private' ? ' · <span class="sb-badge">private</span>' : ''}</p>`;
}

/** What a reference page shows of the owner's text, rendered: the API's description and the reference. */
export interface RenderedApiText {
  readonly description: string;
  /** The reference's table of contents; '' without a spec. */
  readonly contents: string;
  readonly body: string;
  /** How many texts are shown as written because the page's Markdown (MARKDOWN_PAGE_MAX_CHARS) was spent. */
  readonly overBudget: number;
}

export function renderedApiTextChars(text: RenderedApiText): number {
  return text.description.length + text.contents.length + text.body.length;
}

/**
 * The API's description and reference rendered, the Markdown within its bounds (PageMarkdown),
 * with pauses that let other requests through.
 */
export async function renderApiText(description: string | null, reference: ApiReference | null): Promise<RenderedApiText> {
  const markdown = new PageMarkdown();
  const make = (m: MarkdownRenderer) => ({ description: description === null ? '' : m.block(description, 1), reference: reference && renderReference(reference, new Anchors(), m) });
  make(markdown.recorder);
  await markdown.render();
  const made = make(markdown.player);
  return {
    description: made.description,
    contents: made.reference?.contents ?? '',
    body: made.reference ? made.reference.body : '<p class="sb-empty">This API has no spec yet.</p>',
    overBudget: markdown.overBudget,
  };
}

/** An API's reference page, the current spec or a release's, with its owner's text as `renderApiText` made it from `view`. */
export function apiDocsPage(view: ApiDocsView, text: RenderedApiText): DocsPage {
  const { api } = view;
  const release = view.edition.kind === 'release' ? view.edition.release : undefined;
  const spent =
    text.overBudget === 0
      ? ''
      : `<p class="sb-note">This page has more Markdown than the ${MARKDOWN_PAGE_MAX_CHARS.toLocaleString('en-US')} characters rendered for one page: ${text.overBudget.toLocaleString('en-US')} of its texts are shown as written.</p>`;
  const subtitle = release
    ? `Version ${escapeHtml(release.version)} · ${STATUS_TEXT[release.status]} · released ${escapeHtml(release.releaseDate.slice(0, 10))}`
    : `Latest${api.version === null ? '' : ` · version ${escapeHtml(api.version)}`}`;
  const body = `<div class="sb-layout">${sidebar(view, { version: release ? release.version : null }, text.contents)}
<main class="sb-main">${heading(api, subtitle)}${release ? banner(api, release) : ''}${spent}${text.description}
${text.body}</main></div>`;
  const title = `${api.name}${release ? ` ${release.version}` : ''} · Specbase`;
  return { status: 200, title, body, visibility: api.type };
}

const LEVEL_TEXT: Record<Change['level'], string> = { breaking: 'Breaking', warning: 'Warning', info: 'Info' };

function countsText(counts: ChangeCounts): string {
  const parts = (['breaking', 'warning', 'info'] as const).filter((level) => counts[level] > 0).map((level) => `${counts[level]} ${level}`);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}

/** One release's changes, grouped by level: what the changelog page and the Atom feed both show. */
export function changesHtml(entry: DocsChangelogEntry): string {
  if (entry.items.length === 0) return `<p class="sb-empty">${entry.since === null ? 'The first release.' : `No changes since ${escapeHtml(entry.since)}.`}</p>`;
  const all = entry.counts.breaking + entry.counts.warning + entry.counts.info;
  const cut = entry.truncated ? `<p class="sb-meta">The first ${entry.items.length.toLocaleString('en')} of ${all.toLocaleString('en')} changes, breaking ones first.</p>` : '';
  return cut + (['breaking', 'warning', 'info'] as const)
    .filter((level) => entry.items.some((c) => c.level === level))
    .map(
      (level) =>
        `<h4 class="sb-level ${level}">${LEVEL_TEXT[level]}</h4><ul>${entry.items
          .filter((c) => c.level === level)
          .map((c) => `<li><code>${escapeHtml(c.rule)}</code> ${escapeHtml(c.message)}</li>`)
          .join('')}</ul>`,
    )
    .join('');
}

/** What each release changed since the one before, newest first. */
export function changelogPage(view: ApiChangelogView): DocsPage {
  const { api } = view;
  const entries =
    view.entries.length === 0
      ? '<p class="sb-empty">No release yet.</p>'
      : view.entries
          .map(
            (e) =>
              `<section class="sb-release" id="release-${escapeHtml(e.release.version.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}"><h2><a href="${escapeHtml(apiDocsPath(api, e.release.version))}">${escapeHtml(e.release.version)}</a>${
                e.release.status === 'released' ? '' : ` <span class="sb-badge ${e.release.status}">${STATUS_TEXT[e.release.status]}</span>`
              }</h2><p class="sb-meta">Released ${escapeHtml(e.release.releaseDate.slice(0, 10))}${e.since === null ? '' : ` · since ${escapeHtml(e.since)}: ${countsText(e.counts)}`}</p>${changesHtml(e)}</section>`,
          )
          .join('\n');
  const feed = api.type === 'public' ? ` · <a href="${escapeHtml(changelogPath(api, true))}">Atom feed</a>` : '';
  const body = `<div class="sb-layout">${sidebar(view, { changelog: true })}
<main class="sb-main"><p class="sb-meta"><a href="${apiDocsPath(api)}">${escapeHtml(api.name)}</a> · Changelog${feed}</p><h1>Changelog</h1>
${entries}</main></div>`;
  return { status: 200, title: `Changelog · ${api.name} · Specbase`, body, visibility: api.type };
}

/** A guide's Markdown as its page shows it, with pauses that let other requests through (PageMarkdown). */
export async function renderGuide(guide: string): Promise<string> {
  const markdown = new PageMarkdown();
  markdown.recorder.block(guide, 1);
  await markdown.render();
  return markdown.player.block(guide, 1);
}

/** One guide of an API, `html` its Markdown as `renderGuide` made it. */
export function guidePage(view: ApiGuideView, html: string): DocsPage {
  const { api, guide } = view;
  const body = `<div class="sb-layout">${sidebar(view, { guide: guide.slug })}
<main class="sb-main"><p class="sb-meta"><a href="${apiDocsPath(api)}">${escapeHtml(api.name)}</a> · Guide</p><h1>${escapeHtml(guide.title)}</h1>
<article class="sb-guide">${html}</article></main></div>`;
  return { status: 200, title: `${guide.title} · ${api.name} · Specbase`, body, visibility: api.type };
}
