import type { ApiId } from '../../domain/api/api.aggregate.js';
import type { DerivedResources } from '../../domain/spec/derived-resources.js';
import type { SpecSyntax } from '../../domain/spec/spec-document.js';
import type { Page, PageRequest } from '../shared/page.js';
import { token } from '../shared/token.js';

/** A stored spec: the text as uploaded and its canonical JSON. */
export interface StoredSpec {
  readonly syntax: SpecSyntax;
  readonly source: string;
  readonly documentJson: string;
}

export type DerivedKind = keyof DerivedResources;
export type DerivedItem<K extends DerivedKind> = DerivedResources[K][number];

export interface SpecRepository {
  /** Stores the API's current spec and replaces its derived resources. */
  save(apiId: ApiId, spec: StoredSpec, derived: DerivedResources): Promise<void>;
  /** undefined when the API has no spec (created empty). */
  get(apiId: ApiId): Promise<StoredSpec | undefined>;
  /** Derived resources of one kind in document order; the page key is the position. */
  listDerived<K extends DerivedKind>(apiId: ApiId, kind: K, page: PageRequest<number>): Promise<Page<DerivedItem<K>, number>>;
}
export const SpecRepository = token<SpecRepository>('SpecRepository');
