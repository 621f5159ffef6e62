import { err, ok, type Result } from '../../domain/shared/result.js';
import type { Changelog } from '../releases/changelog.js';
import { CHANGELOG_LISTED, type ApiChangelogView, type DocsRefusal } from './docs-views.js';
import type { DocsTarget, ReadableApis } from './readable-api.js';

/**
 * The changelog of an API's documentation: its newest releases, each with what it changed since the
 * one before. With `publicOnly` (the Atom feed, read without a session) only a public API's.
 */
export class ViewApiChangelog {
  constructor(
    private readonly readable: ReadableApis,
    private readonly changelog: Changelog,
  ) {}

  async execute(input: DocsTarget & { readonly publicOnly?: boolean }): Promise<Result<ApiChangelogView, DocsRefusal>> {
    const found = await this.readable.find(input.publicOnly ? { ...input, viewer: undefined } : input);
    if (!found.ok) return input.publicOnly ? err({ kind: 'NotFound' }) : found;
    const api = found.value;
    const page = await this.changelog.page(api.accountId, api.id, { limit: CHANGELOG_LISTED });
    const entries = page.items.map((entry) => {
      const record = entry.release.toRecord();
      return { release: { version: record.version, status: record.status, releaseDate: record.releaseDate }, since: entry.changes.since, counts: entry.changes.counts, items: entry.changes.items, ...(entry.changes.truncated ? { truncated: true as const } : {}) };
    });
    return ok({ ...(await this.readable.frame(api)), entries });
  }
}
