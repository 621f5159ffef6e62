import type { AccountId } from '../account/account.js';
import type { ApiId } from '../api/api.aggregate.js';
import type { FieldError } from '../shared/field-error.js';
import { err, ok, type Result } from '../shared/result.js';
import { formatTimestamp } from '../shared/time.js';
import type { Uuid } from '../shared/ids.js';

export type PageId = Uuid<'Page'>;

const SLUG = /^[a-z0-9-]{1,64}$/;

export function isValidSlug(value: unknown): value is string {
  return typeof value === 'string' && SLUG.test(value);
}
const TITLE_MAX = 200;
/** A guide of a few hundred pages of Markdown fits; the HTTP body limit applies first. */
const BODY_MAX = 1024 * 1024;
const POSITION_MAX = 1_000_000;

export interface PageState {
  readonly id: PageId;
  readonly apiId: ApiId;
  readonly accountId: AccountId;
  readonly title: string;
  readonly slug: string;
  /** Markdown, stored and returned exactly as written. */
  readonly body: string;
  /** Order among the API's pages, ascending. */
  readonly position: number;
  readonly creationDate: Date;
  readonly updateDate: Date;
}

export interface PageRecord {
  readonly id: PageId;
  readonly title: string;
  readonly slug: string;
  readonly body: string;
  readonly position: number;
  readonly creationDate: string;
  readonly updateDate: string;
  readonly [key: string]: unknown;
}

export type PageError = { readonly kind: 'InvalidField' } & FieldError;

export interface PageChanges {
  readonly title?: unknown;
  readonly slug?: unknown;
  readonly body?: unknown;
  readonly position?: unknown;
}

function check(field: keyof PageChanges, value: unknown): Result<string | number, PageError> {
  const invalid = (message: string) => err({ kind: 'InvalidField' as const, field, message });
  switch (field) {
    case 'title':
      return typeof value === 'string' && value.trim().length > 0 && value.length <= TITLE_MAX ? ok(value) : invalid(`must be 1-${TITLE_MAX} characters, not only spaces`);
    case 'slug':
      return isValidSlug(value) ? ok(value) : invalid('must be 1-64 of a-z, 0-9 and "-"');
    case 'body':
      return typeof value === 'string' && value.length <= BODY_MAX ? ok(value) : invalid('must be Markdown text of at most 1 MiB');
    case 'position':
      return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= POSITION_MAX ? ok(value as number) : invalid(`must be an integer from 0 to ${POSITION_MAX}`);
  }
}

export class Page {
  private constructor(private state: PageState) {}

  /** A new page; `position` defaults to the caller's "after the last one". Errors: `InvalidField`. */
  static create(
    input: { readonly id: PageId; readonly apiId: ApiId; readonly accountId: AccountId; readonly title: unknown; readonly slug: unknown; readonly body: unknown; readonly position: unknown },
    now: Date,
  ): Result<Page, PageError> {
    const fields: Record<string, string | number> = {};
    for (const field of ['title', 'slug', 'body', 'position'] as const) {
      const checked = check(field, input[field]);
      if (!checked.ok) return checked;
      fields[field] = checked.value;
    }
    return ok(
      new Page({
        id: input.id,
        apiId: input.apiId,
        accountId: input.accountId,
        title: fields['title'] as string,
        slug: fields['slug'] as string,
        body: fields['body'] as string,
        position: fields['position'] as number,
        creationDate: now,
        updateDate: now,
      }),
    );
  }

  static rehydrate(state: PageState): Page {
    return new Page(state);
  }

  get id(): PageId {
    return this.state.id;
  }
  get slug(): string {
    return this.state.slug;
  }

  /** Changes title, slug, body and/or position. Errors: `InvalidField`; nothing changes then. */
  update(changes: PageChanges, now: Date): Result<void, PageError> {
    let next: PageState = this.state;
    for (const field of ['title', 'slug', 'body', 'position'] as const) {
      if (changes[field] === undefined) continue;
      const checked = check(field, changes[field]);
      if (!checked.ok) return checked;
      next = { ...next, [field]: checked.value };
    }
    this.state = { ...next, updateDate: now };
    return ok();
  }

  snapshot(): PageState {
    return this.state;
  }

  toRecord(): PageRecord {
    const s = this.state;
    return { id: s.id, title: s.title, slug: s.slug, body: s.body, position: s.position, creationDate: formatTimestamp(s.creationDate), updateDate: formatTimestamp(s.updateDate) };
  }
}
