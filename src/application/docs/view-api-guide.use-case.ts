import { isValidSlug } from '../../domain/page/page.aggregate.js';
import { err, ok, type Result } from '../../domain/shared/result.js';
import type { PageRepository } from '../ports/page-repository.port.js';
import type { ApiGuideView, DocsRefusal } from './docs-views.js';
import type { DocsTarget, ReadableApis } from './readable-api.js';

/** One guide (an API page, by slug) of an API's documentation, with the versions and guides beside it. */
export class ViewApiGuide {
  constructor(
    private readonly readable: ReadableApis,
    private readonly pages: PageRepository,
  ) {}

  async execute(input: DocsTarget & { readonly slug: string }): Promise<Result<ApiGuideView, DocsRefusal>> {
    if (!isValidSlug(input.slug)) return err({ kind: 'NotFound' });
    const found = await this.readable.find(input);
    if (!found.ok) return found;
    const page = await this.pages.findBySlug(found.value.id, input.slug);
    if (!page) return err({ kind: 'NotFound' });
    const { slug, title, body } = page.snapshot();
    return ok({ ...(await this.readable.frame(found.value)), guide: { slug, title, body } });
  }
}
