import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DOCS_CSS, SWAGGER_INITIALIZER } from './docs-assets.js';

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const gzipped = promisify(gzip);

interface Source {
  readonly type: string;
  readonly read: () => Buffer;
}

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** Of the content: the `v` of its URL and its ETag. */
  readonly hash: string;
  /** The gzip-compressed body, made on first demand. */
  gzip(): Promise<Buffer>;
}

function swaggerUiFile(name: string): () => Buffer {
  // The package's own files, from wherever npm put it: the machines that run Specbase have no internet.
  return () => readFileSync(join(dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), name));
}

/** Every file /docs/assets/ serves: nothing else of the package (no index.html, no source maps). */
const SOURCES: Readonly<Record<string, Source>> = {
  'swagger-ui-bundle.js': { type: JS, read: swaggerUiFile('swagger-ui-bundle.js') },
  'swagger-ui.css': { type: CSS, read: swaggerUiFile('swagger-ui.css') },
  'swagger-initializer.js': { type: JS, read: () => Buffer.from(SWAGGER_INITIALIZER) },
  'docs.css': { type: CSS, read: () => Buffer.from(DOCS_CSS) },
};

/**
 * The docs pages' static files, read once on first use and kept in memory (about 1.5 MB). Pages link
 * them as `/docs/assets/<file>?v=<hash of the content>`, so a browser may keep such a URL for a
 * year: an upgrade changes the URL, not what an old URL answers.
 */
export class DocsAssets {
  private readonly loaded = new Map<string, Asset>();

  get(name: string): Asset | undefined {
    if (!Object.hasOwn(SOURCES, name)) return undefined;
    let asset = this.loaded.get(name);
    if (!asset) {
      const source = SOURCES[name]!;
      const body = source.read();
      let compressed: Promise<Buffer> | undefined;
      asset = { type: source.type, body, hash: createHash('sha256').update(body).digest('base64url').slice(0, 16), gzip: () => (compressed ??= gzipped(body)) };
      this.loaded.set(name, asset);
    }
    return asset;
  }

  /** The URL a page links: with the content's hash. */
  url(name: string): string {
    const asset = this.get(name);
    if (!asset) throw new Error(`no docs asset ${name}`);
    return `/docs/assets/${name}?v=${asset.hash}`;
  }
}
