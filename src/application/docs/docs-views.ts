import type { AccountId } from '../../domain/account/account.js';
import type { ApiType } from '../../domain/api/api.aggregate.js';
import type { ReleaseStatus } from '../../domain/release/release.aggregate.js';
import type { ApiReference } from '../../domain/spec/api-reference.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';

/**
 * What the rendered documentation pages show, as plain data. Every field is the owner's text:
 * whoever renders it escapes it.
 */
export interface DocsApi {
  readonly accountId: AccountId;
  readonly nickname: string;
  readonly name: string;
  /** Markdown (`info.description`). */
  readonly description: string | null;
  readonly type: ApiType;
  /** `info.version` of the current spec. */
  readonly version: string | null;
}

export interface DocsRelease {
  readonly version: string;
  readonly status: ReleaseStatus;
  readonly releaseDate: string;
}

export interface DocsGuideLink {
  readonly slug: string;
  readonly title: string;
}

/** What every page of an API's documentation has around its content: the versions and the guides. */
export interface DocsFrame {
  readonly api: DocsApi;
  /** By release date. */
  readonly releases: readonly DocsRelease[];
  /** By position; at most `GUIDES_LISTED`. */
  readonly guides: readonly DocsGuideLink[];
}

/** The reference of the current spec (`latest`) or of a release's frozen one. */
export interface ApiDocsView extends DocsFrame {
  readonly edition: { readonly kind: 'latest' } | { readonly kind: 'release'; readonly release: DocsRelease };
  /**
   * Names the owner's text the page shows, `api.description` and `reference`: equal keys, equal
   * texts. The API's id and revision (which grows with every change of the API or its spec), and
   * a release's id for a release's page.
   */
  readonly textKey: string;
  /**
   * null for an API created empty, which has no spec yet; undefined when the caller said it holds
   * what it made of `textKey` (ViewApiDocs' `held`), and the spec was not read.
   */
  readonly reference: ApiReference | null | undefined;
}

/** A release as the changelog page shows it: what it changed since the one before. */
export interface DocsChangelogEntry {
  readonly release: DocsRelease;
  readonly since: string | null;
  readonly counts: ChangeCounts;
  readonly items: readonly Change[];
  /** Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`); `counts` counts them all. */
  readonly truncated?: true;
}

export interface ApiChangelogView extends DocsFrame {
  /** Newest first; at most `CHANGELOG_LISTED`. */
  readonly entries: readonly DocsChangelogEntry[];
}

export const CHANGELOG_LISTED = 50;

export interface ApiGuideView extends DocsFrame {
  /** `body` is Markdown, as written. */
  readonly guide: { readonly slug: string; readonly title: string; readonly body: string };
}

/**
 * Why a page is not shown. `SignInRequired` goes to a viewer who is not signed in whenever the page
 * is not of a public API, whether the API is private or does not exist, so that the answer does not
 * tell which; a signed-in viewer gets `NotFound` for both.
 */
export type DocsRefusal = { readonly kind: 'NotFound' } | { readonly kind: 'SignInRequired' };

export const GUIDES_LISTED = 200;
