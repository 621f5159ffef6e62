import { isValidVersion } from '../../domain/release/release.aggregate.js';
import { describeReference, type ApiReference } from '../../domain/spec/api-reference.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import { isJsonObject } from '../../domain/spec/spec-document.js';
import type { ReleaseRepository } from '../ports/release-repository.port.js';
import type { SpecRepository, StoredSpec } from '../ports/spec-repository.port.js';
import type { ApiDocsView, DocsRefusal } from './docs-views.js';
import type { DocsTarget, ReadableApis } from './readable-api.js';

/**
 * The documentation page of an API: its current spec, or with `version` the frozen spec of that
 * release (a deleted release is gone: not found), with the versions and guides beside it. `held`:
 * whether the caller already holds what it made of a view's `textKey` (a rendered page); the spec
 * is then neither read nor described (a large one costs far more than its page's other parts).
 */
export class ViewApiDocs {
  constructor(
    private readonly readable: ReadableApis,
    private readonly specs: SpecRepository,
    private readonly releases: ReleaseRepository,
  ) {}

  async execute(input: DocsTarget & { readonly version?: string | undefined; readonly held?: (textKey: string) => boolean }): Promise<Result<ApiDocsView, DocsRefusal>> {
    if (input.version !== undefined && !isValidVersion(input.version)) return err({ kind: 'NotFound' });
    const found = await this.readable.find(input);
    if (!found.ok) return found;
    const api = found.value;
    let textKey = `${api.id}@${api.revision}`;
    let spec: StoredSpec | undefined;
    let edition: ApiDocsView['edition'] = { kind: 'latest' };
    let held: boolean;
    if (input.version === undefined) {
      held = input.held?.(textKey) ?? false;
      if (!held) spec = await this.specs.get(api.id);
    } else {
      const release = await this.releases.get(api.id, input.version);
      if (!release) return err({ kind: 'NotFound' });
      const record = release.toRecord();
      textKey += `/${record.id}`;
      held = input.held?.(textKey) ?? false;
      if (!held) {
        spec = await this.releases.snapshot(api.id, input.version);
        if (!spec) return err({ kind: 'NotFound' });
      }
      edition = { kind: 'release', release: { version: record.version, status: record.status, releaseDate: record.releaseDate } };
    }
    let reference: ApiReference | null | undefined;
    if (!held) {
      const document: unknown = spec ? JSON.parse(spec.documentJson) : undefined;
      reference = isJsonObject(document) ? describeReference(document) : null;
    }
    return ok({ ...(await this.readable.frame(api)), edition, textKey, reference });
  }
}
