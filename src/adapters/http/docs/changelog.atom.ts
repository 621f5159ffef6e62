import type { ApiChangelogView } from '../../../application/docs/docs-views.js';
import { escapeHtml } from '../html.js';
import { apiDocsPath, changelogPath, changesHtml } from './api-docs.html.js';

/** `text` for XML content and attributes: the same five characters as HTML. */
const xml = escapeHtml;

/**
 * A public API's changelog as an Atom feed (RFC 4287): an entry per release, newest first, its
 * content the same HTML as the changelog page's. Links are absolute, from PUBLIC_URL.
 */
export function changelogFeed(view: ApiChangelogView, publicUrl: string): string {
  const { api } = view;
  const page = `${publicUrl}${changelogPath(api)}`;
  const updated = view.entries[0]?.release.releaseDate ?? '1970-01-01T00:00:00.000+00:00';
  const entries = view.entries
    .map((e) => {
      const link = `${publicUrl}${apiDocsPath(api, e.release.version)}`;
      const summary = e.since === null ? 'The first release.' : `${e.counts.breaking} breaking, ${e.counts.warning} warning, ${e.counts.info} info since ${e.since}.`;
      return (
        `<entry><id>${xml(link)}</id><title>${xml(`${api.name} ${e.release.version}`)}</title><updated>${xml(e.release.releaseDate)}</updated>` +
        `<link rel="alternate" type="text/html" href="${xml(link)}"/><summary>${xml(summary)}</summary><content type="html">${xml(changesHtml(e))}</content></entry>`
      );
    })
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>${xml(page)}</id><title>${xml(`${api.name}: changelog`)}</title><updated>${xml(updated)}</updated>
<link rel="self" type="application/atom+xml" href="${xml(`${publicUrl}${changelogPath(api, true)}`)}"/><link rel="alternate" type="text/html" href="${xml(page)}"/>
${entries}
</feed>
`;
}
