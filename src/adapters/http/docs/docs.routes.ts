import Router from '@koa/router';
import type { Context } from 'koa';
import { createHash } from 'node:crypto';
import type { DocsRefusal } from '../../../application/docs/docs-views.js';
import type { ViewApiDocs } from '../../../application/docs/view-api-docs.use-case.js';
import type { ViewApiGuide } from '../../../application/docs/view-api-guide.use-case.js';
import type { ViewApiChangelog } from '../../../application/docs/view-api-changelog.use-case.js';
import type { SignedIn } from '../../../application/identity/authorization.use-cases.js';
import type { AccountId, UserId } from '../../../domain/account/account.js';
import { parseIntegerKeyText } from '../../../domain/shared/ids.js';
import type { Result } from '../../../domain/shared/result.js';
import { param } from '../routes.js';
import { SESSION_COOKIE, readCookie } from '../session-cookies.js';
import { signInUrl } from '../sign-in.routes.js';
import { apiDocsPage, changelogPage, guidePage, renderApiText, renderedApiTextChars, renderGuide, type RenderedApiText } from './api-docs.html.js';
import { changelogFeed } from './changelog.atom.js';
import { sendDocsPage, sendNotFoundPage, sendSwaggerPage, type DocsPage } from './docs-page.js';
import { RenderedCache } from './rendered-cache.js';
import { DocsAssets } from './static-assets.js';

export interface DocsUseCases {
  readonly view: ViewApiDocs;
  readonly guide: ViewApiGuide;
  readonly changelog: ViewApiChangelog;
}

export interface DocsDependencies {
  readonly docs: DocsUseCases;
  /** The signed-in person a login session cookie names, if it is live. */
  readonly session: (cookie: string | undefined) => Promise<SignedIn | undefined>;
  /** What `/docs` shows in Swagger UI: the service's own OpenAPI description. */
  readonly descriptionUrl: string;
  /** PUBLIC_URL: the Atom feed's links are absolute. */
  readonly publicUrl: string;
  /** What the rendered owners' text of the pages may take in memory (RenderedCache), reference pages and guides together; RENDERED_DOCS_BYTES by default. */
  readonly renderedBytes?: number;
}

/** 64 MiB: a dozen pages of the Kubernetes API's size (4.6 M characters of HTML), or thousands of ordinary ones. */
export const RENDERED_DOCS_BYTES = 64 * 1024 * 1024;

const YEAR_S = 365 * 24 * 3600;

/** `<account_id>` as the use cases take it: anything but digits is a number no account has. */
const DOCS_ACCOUNT = Symbol('docs account');

/** `<account_id>` of a docs path, parsed by the router's `accountId` parameter handler. */
function accountId(ctx: Context): AccountId {
  return (ctx.state as { [DOCS_ACCOUNT]: AccountId })[DOCS_ACCOUNT];
}

/**
 * The documentation pages: `/docs` (the service's own API in Swagger UI, from the package's files
 * under `/docs/assets/`) and the server-rendered pages of stored APIs under
 * `/docs/<account_id>/<nickname>`. A page the viewer may not see sends someone not signed in to
 * the login page and back, and shows anyone else the same 404 as a page that does not exist.
 */
export function docsRouter(deps: DocsDependencies): Router {
  const router = new Router();
  const assets = new DocsAssets();
  const budget = deps.renderedBytes ?? RENDERED_DOCS_BYTES;
  // Reference pages by their view's textKey; guides by their Markdown's SHA-256, which names what was rendered whatever changed it.
  const apiTexts = new RenderedCache<RenderedApiText>((budget * 3) / 4, renderedApiTextChars);
  const guides = new RenderedCache<string>(budget / 4, (html) => html.length);
  // An account id no account can have is the not-found page before anything is read.
  router.param('accountId', async (text, ctx, next) => {
    const id = parseIntegerKeyText<AccountId>(text);
    if (id === undefined) return sendNotFoundPage(ctx, assets);
    (ctx.state as { [DOCS_ACCOUNT]: AccountId })[DOCS_ACCOUNT] = id;
    return next();
  });

  const viewer = async (ctx: Context): Promise<UserId | undefined> => {
    const cookie = readCookie(ctx, SESSION_COOKIE);
    return cookie === undefined ? undefined : (await deps.session(cookie))?.userId;
  };

  const answer = <T>(ctx: Context, result: Result<T, DocsRefusal>, render: (view: T) => DocsPage, signedIn: boolean) => {
    if (result.ok) return sendDocsPage(ctx, assets, render(result.value), signedIn);
    refuse(ctx, result.error);
  };

  const refuse = (ctx: Context, refusal: DocsRefusal) => {
    if (refusal.kind === 'NotFound') return sendNotFoundPage(ctx, assets);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(signInUrl(ctx.url));
    ctx.status = 303;
  };

  /** A reference page: its owner's text as rendered before for the same textKey, or rendered now (and kept). */
  const referencePage = async (ctx: Context, version: string | undefined) => {
    const seen = await viewer(ctx);
    const held: { text?: RenderedApiText | Promise<RenderedApiText> | undefined } = {};
    const result = await deps.docs.view.execute({
      viewer: seen,
      accountId: accountId(ctx),
      nickname: param(ctx, 'nickname'),
      version,
      held: (key) => (held.text = apiTexts.find(key)) !== undefined,
    });
    if (!result.ok) return refuse(ctx, result.error);
    const view = result.value;
    const { reference } = view;
    const text = await (held.text ??
      apiTexts.obtain(view.textKey, () => {
        if (reference === undefined) throw new Error('the docs view left the reference out, though nothing was held');
        return renderApiText(view.api.description, reference);
      }));
    sendDocsPage(ctx, assets, apiDocsPage(view, text), seen !== undefined);
  };

  router.get('/docs', (ctx) => sendSwaggerPage(ctx, assets, deps.descriptionUrl));

  router.get('/docs/assets/:file', async (ctx) => {
    const asset = assets.get(param(ctx, 'file'));
    if (!asset) return sendNotFoundPage(ctx, assets);
    ctx.status = 200;
    ctx.set('ETag', `"${asset.hash}"`);
    ctx.set('Cache-Control', ctx.query['v'] === asset.hash ? `public, max-age=${YEAR_S}, immutable` : 'public, no-cache');
    ctx.set('Vary', 'Accept-Encoding');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    if (asset.body.length > 1024 && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = await asset.gzip();
    } else {
      ctx.body = asset.body;
    }
  });

  router.get('/docs/:accountId/:nickname', (ctx) => referencePage(ctx, undefined));

  router.get('/docs/:accountId/:nickname/guides/:slug', async (ctx) => {
    const seen = await viewer(ctx);
    const result = await deps.docs.guide.execute({ viewer: seen, accountId: accountId(ctx), nickname: param(ctx, 'nickname'), slug: param(ctx, 'slug') });
    if (!result.ok) return refuse(ctx, result.error);
    const { body } = result.value.guide;
    const html = await guides.obtain(createHash('sha256').update(body).digest('base64'), () => renderGuide(body));
    sendDocsPage(ctx, assets, guidePage(result.value, html), seen !== undefined);
  });

  // Before /:version: a release labelled `changelog` is shown at /docs/<account_id>/<nickname> only.
  router.get('/docs/:accountId/:nickname/changelog', async (ctx) => {
    const seen = await viewer(ctx);
    const result = await deps.docs.changelog.execute({ viewer: seen, accountId: accountId(ctx), nickname: param(ctx, 'nickname') });
    answer(ctx, result, changelogPage, seen !== undefined);
  });

  router.get('/docs/:accountId/:nickname/changelog.atom', async (ctx) => {
    const result = await deps.docs.changelog.execute({ viewer: undefined, accountId: accountId(ctx), nickname: param(ctx, 'nickname'), publicOnly: true });
    if (!result.ok) return sendNotFoundPage(ctx, assets);
    ctx.status = 200;
    ctx.type = 'application/atom+xml; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = changelogFeed(result.value, deps.publicUrl);
  });

  router.get('/docs/:accountId/:nickname/:version', (ctx) => referencePage(ctx, param(ctx, 'version')));

  router.get('/docs/*rest', (ctx) => sendNotFoundPage(ctx, assets));

  return router;
}
