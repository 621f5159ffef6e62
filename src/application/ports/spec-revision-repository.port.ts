import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { Actor } from '../../domain/events/domain-event.js';
import type { ChangeCounts } from '../../domain/spec/changes/change.js';
import type { SpecFormat } from '../../domain/spec/spec-document.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';
import type { StoredChanges, StoredSpec } from './spec-repository.port.js';

/** A spec an API had, keyed by the API revision at which it was stored. */
export interface SpecRevisionSummary {
  readonly revision: number;
  readonly creationDate: Date;
  /** Who stored it (the nickname as it is now). */
  readonly user: Actor;
  readonly specFormat: SpecFormat;
  /** Against the spec before it; null for the first. */
  readonly counts: ChangeCounts | null;
  /** Why breaking changes were let through (`?allowBreaking=`), if they were. */
  readonly reason: string | null;
}

/**
 * Every spec an API has had, as SpecRepository.save keeps them. Storage may share what revisions
 * have in common (the TypeORM one keeps all but the current spec as content-defined chunks, once
 * per API); what `get` returns is the text as stored, byte for byte. Removed with the API.
 */
export interface SpecRevisionRepository {
  /** Newest first; `page.after` is a revision number (the page then holds older ones). */
  list(apiId: ApiId, page: PageRequest<number>): Promise<Page<SpecRevisionSummary, number>>;
  /** undefined when the API has no spec stored at this revision. */
  get(apiId: ApiId, revision: number): Promise<{ readonly summary: SpecRevisionSummary; readonly spec: StoredSpec } | undefined>;
  /**
   * The changes stored with a revision against the spec before it, if that was revision `from`:
   * null for the first spec, or when they were recorded against a revision since deleted from the
   * history (SPEC_HISTORY_RETENTION), so `from` is not the one they describe; undefined when there
   * is no such revision.
   */
  changes(apiId: ApiId, revision: number, from: number): Promise<StoredChanges | null | undefined>;
  /** The newest revision before `revision`, if any. */
  previous(apiId: ApiId, revision: number): Promise<number | undefined>;
}
export const SpecRevisionRepository = token<SpecRevisionRepository>('SpecRevisionRepository');
