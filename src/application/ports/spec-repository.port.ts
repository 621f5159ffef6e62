import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { Actor } from '../../domain/events/domain-event.js';
import type { Change, ChangeCounts } from '../../domain/spec/changes/change.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import type { SpecFormat, SpecSyntax } from '../../domain/spec/spec-document.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/** A stored spec: the text as uploaded and its canonical JSON. */
export interface StoredSpec {
  readonly syntax: SpecSyntax;
  readonly source: string;
  readonly documentJson: string;
}

/** The changes of a spec against the one before it. */
export interface StoredChanges {
  /** Every change found, whether or not `items` keeps it. */
  readonly counts: ChangeCounts;
  readonly items: readonly Change[];
  /** Present when `items` holds only the first of the changes (`CHANGES_MAX_ITEMS`). */
  readonly truncated?: true;
}

/** A spec's entry in its API's history: the API revision it is stored at, who stored it, what it changed. */
export interface SpecRevisionEntry {
  readonly revision: number;
  readonly creationDate: Date;
  readonly actor: Actor;
  readonly specFormat: SpecFormat;
  /** Against the spec before it; null for the API's first spec. */
  readonly changes: StoredChanges | null;
  /** Why breaking changes were let through (`?allowBreaking=`), if a reason was given. */
  readonly reason: string | null;
}

export type DerivedKind = keyof DerivedResources;
export type DerivedItem<K extends DerivedKind> = DerivedResources[K][number];

export interface SpecRepository {
  /**
   * Stores the API's current spec, replaces its derived resources and keeps the spec in the API's
   * history as `revision` (SpecRevisionRepository reads it); the spec it replaces stays in the
   * history at its own revision.
   */
  save(apiId: ApiId, spec: StoredSpec, derived: DerivedResources, revision: SpecRevisionEntry): Promise<void>;
  /** undefined when the API has no spec (created empty). */
  get(apiId: ApiId): Promise<StoredSpec | undefined>;
  /** Derived resources of one kind in document order; the page key is the position. */
  listDerived<K extends DerivedKind>(apiId: ApiId, kind: K, page: PageRequest<number>): Promise<Page<DerivedItem<K>, number>>;
}
export const SpecRepository = token<SpecRepository>('SpecRepository');
