import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/swagger');

export interface SwaggerFixture {
  readonly name: string;
  readonly file: string;
  readonly format: 'yaml' | 'json';
  readonly bytes: Buffer;
}

/** The real-world Swagger 2.0 documents of test/fixtures/swagger (see its README for sources). */
export function swaggerFixture(file: string): SwaggerFixture {
  const raw = readFileSync(join(DIR, file));
  const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  const name = file.replace(/\.gz$/, '');
  return { name, file, format: name.endsWith('.json') ? 'json' : 'yaml', bytes };
}

export const FIXTURES = ['petstore.yaml', 'petstore.json', 'okta-management-2.15.0.yaml', 'kubernetes-1.13.json.gz', 'circular.yaml'] as const;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Counts taken straight from a document, independently of the service's own derivation. */
export function expectedCounts(document: Record<string, unknown>): { endpoints: number; models: number; environments: number; authAdapters: number } {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, unknown>>;
  let endpoints = 0;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('x-')) endpoints += Object.keys(item).filter((key) => METHODS.includes(key)).length;
  }
  const schemes = new Set((document['schemes'] as string[] | undefined) ?? []);
  return {
    endpoints,
    models: Object.keys((document['definitions'] ?? {})).length,
    environments: Math.max(1, schemes.size),
    authAdapters: Object.keys((document['securityDefinitions'] ?? {})).length,
  };
}
