import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { expectedCounts, OPENAPI_FIXTURES, packageFixture, swaggerFixture, type SpecFixture } from '../support/fixtures.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

type Json = Record<string, unknown>;

interface ImportBody {
  api: { id: string; name: string; nickname: string; version: string | null; revision: number; specFormat: string | null };
  release: { version: string } | null;
  counts: { endpoints: number; models: number; environments: number; authAdapters: number };
}

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function documentOf(fixture: SpecFixture): Json {
  const text = fixture.bytes.toString('utf8');
  return (fixture.syntax === 'json' ? JSON.parse(text) : parseYaml(text)) as Json;
}

function exampleFixture(path: string): SpecFixture {
  const bytes = readFileSync(new URL(`../../${path}`, import.meta.url));
  return { name: path.split('/').at(-1)!, file: path, syntax: path.endsWith('.json') ? 'json' : 'yaml', bytes };
}

/** Every example document the README imports, with the counts it promises for it. */
function readmeExamples(): { fixture: SpecFixture; counts: unknown }[] {
  return [...README.matchAll(/(examples\/specs\/[\w.-]+)[\s\S]*?"counts":(\{[^}]*\})/g)].map((m) => ({ fixture: exampleFixture(m[1]!), counts: JSON.parse(m[2]!) }));
}

/** `[METHOD, path]` of every operation, internal path-item references followed by hand: what the endpoints list must hold. */
function operationsOf(document: Json): [string, string][] {
  const result: [string, string][] = [];
  for (const [path, raw] of Object.entries((document['paths'] ?? {}) as Json)) {
    if (path.startsWith('x-')) continue;
    let item = raw as Json;
    const ref = item['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/')) item = ref.slice(2).split('/').reduce<Json>((node, key) => node[key.replace(/~1/g, '/')] as Json, document);
    for (const method of METHODS) if (item[method] !== undefined) result.push([method.toUpperCase(), path]);
  }
  return result;
}

function formatOf(document: Json): string {
  return document['swagger'] === '2.0' ? 'swagger-2.0' : String(document['openapi']).startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0';
}

forEachDatabase('Core-API: OpenAPI 3.0 and 3.1 import, spec updates, export and docs pages over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let all: string;

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
    all = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });

  const importSpec = (fixture: SpecFixture, partName: 'spec' | 'file', bodyForm: 'field' | 'json-part' | 'none', body: object) => server.importSpec(ada.accountId, all, fixture, partName, bodyForm, body);
  const walk = <T>(path: string, limit: number) => server.walk<T>(path, all, limit);

  /** Imports `fixture` and checks the answer, every derived list and the export round trip against the document itself. */
  async function importAndCheck(fixture: SpecFixture, partName: 'spec' | 'file', bodyForm: 'field' | 'json-part' | 'none', nickname: string): Promise<ImportBody> {
    const document = documentOf(fixture);
    const response = await importSpec(fixture, partName, bodyForm, { nickname, type: 'public' });
    expect(response.status, (await response.clone().text()).slice(0, 2000)).to.equal(201);
    const body = (await response.json()) as ImportBody;
    const info = document['info'] as { title: string; version: string };
    expect(body.api).to.include({ name: info.title, version: info.version, revision: 1, specFormat: formatOf(document) });
    if (bodyForm !== 'none') expect(body.api.nickname).to.equal(nickname);
    expect(body.counts).to.deep.equal(expectedCounts(document));
    const base = `/api/${ada.accountId}/${body.api.id}`;
    expect(((await (await server.request('GET', base, { token: all })).json()) as Json)['specFormat']).to.equal(formatOf(document));

    const endpoints = await walk<{ method: string; path: string; unresolved: boolean }>(`${base}/endpoints`, 200);
    expect(endpoints.map((e) => [e.method, e.path])).to.deep.equal(operationsOf(document));
    const components = (document['components'] ?? {}) as Json;
    const models = await walk<{ name: string; schema: unknown }>(`${base}/models`, 200);
    expect(models.map((m) => m.name)).to.deep.equal(Object.keys(components['schemas'] ?? {}));
    expect(models.map((m) => m.schema)).to.deep.equal(Object.values((components['schemas'] ?? {}) as Json));
    const servers = (document['servers'] as Json[] | undefined) ?? [];
    const environments = await walk<Json>(`${base}/environments`, 50);
    expect(environments).to.deep.equal(
      servers.length === 0 ? [{ url: '/', description: null, variables: {} }] : servers.map((s) => ({ url: s['url'], description: s['description'] ?? null, variables: s['variables'] ?? {} })),
    );
    const schemes = Object.entries((components['securitySchemes'] ?? {}) as Record<string, Json>);
    const adapters = await walk<Json>(`${base}/auth-adapters`, 50);
    expect(adapters.map((a) => [a['name'], a['type']])).to.deep.equal(schemes.map(([name, s]) => [name, s['type']]));
    for (const [i, [, scheme]] of schemes.entries()) {
      const adapter = adapters[i]!;
      if (scheme['type'] === 'apiKey') expect(adapter).to.include({ in: scheme['in'], paramName: scheme['name'] });
      if (scheme['type'] === 'http') expect(adapter).to.include({ scheme: scheme['scheme'], bearerFormat: scheme['bearerFormat'] ?? null });
      if (scheme['type'] === 'openIdConnect') expect(adapter).to.include({ openIdConnectUrl: scheme['openIdConnectUrl'] });
      if (scheme['type'] === 'oauth2') {
        const flows = scheme['flows'] as Record<string, { scopes: Record<string, string>; tokenUrl?: string; authorizationUrl?: string }>;
        expect(Object.keys(adapter['flows'] as Json)).to.deep.equal(Object.keys(flows));
        for (const [name, flow] of Object.entries(flows)) {
          expect((adapter['flows'] as Record<string, Json>)[name]).to.deep.include({ tokenUrl: flow.tokenUrl ?? null, authorizationUrl: flow.authorizationUrl ?? null });
          expect((adapter['flows'] as Record<string, { scopes: Json[] }>)[name]!.scopes).to.deep.equal(Object.entries(flow.scopes).map(([n, d]) => ({ name: n, description: d })));
        }
      }
    }

    const asUploaded = await server.request('GET', `${base}/export`, { token: all });
    expect(asUploaded.headers.get('content-type')).to.match(fixture.syntax === 'yaml' ? /^application\/yaml/ : /^application\/json/);
    expect(await asUploaded.text()).to.equal(fixture.bytes.toString('utf8').replace(/^\uFEFF/, ''));
    for (const syntax of ['yaml', 'json'] as const) {
      const text = await (await server.request('GET', `${base}/export?format=${syntax}`, { token: all })).text();
      expect(syntax === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })).to.deep.equal(document);
    }
    return body;
  }

  const forms: ['spec' | 'file', 'field' | 'json-part' | 'none'][] = [
    ['spec', 'json-part'],
    ['file', 'field'],
    ['spec', 'field'],
    ['file', 'json-part'],
    ['spec', 'none'],
  ];
  let n = 0;
  for (const [i, path] of OPENAPI_FIXTURES.entries()) {
    const [partName, bodyForm] = forms[i % forms.length]!;
    it(`imports ${path.split('/').slice(-3).join('/')} as part "${partName}", body ${bodyForm === 'none' ? 'left out' : `as a ${bodyForm}`}: counts, derived lists and export round trip`, async function () {
      this.timeout(120_000);
      await importAndCheck(packageFixture(path), partName, bodyForm, `oas-${++n}`);
    });
  }

  it('imports both body forms of the README examples, with the counts the README shows', async function () {
    this.timeout(30_000);
    const examples = readmeExamples();
    expect(examples.map((e) => e.fixture.name)).to.deep.equal(['bookshelf.openapi-3.1.yaml', 'bookshelf.openapi-3.0.json']);
    for (const [i, { fixture, counts }] of examples.entries()) {
      const body = await importAndCheck(fixture, i === 0 ? 'spec' : 'file', i === 0 ? 'json-part' : 'field', `readme-${i}`);
      expect(body.counts).to.deep.equal(counts);
    }
  });

  it("imports the service's own /openapi.json (OpenAPI 3.1), as it does /swagger.yaml", async function () {
    this.timeout(30_000);
    const description = Buffer.from(await (await fetch(`${server.url}/openapi.json`)).arrayBuffer());
    const body = await importAndCheck({ name: 'openapi.json', file: 'openapi.json', syntax: 'json', bytes: description }, 'spec', 'field', 'specbase-itself');
    expect(body.api.specFormat).to.equal('openapi-3.1');
    expect(body.counts.endpoints).to.be.greaterThan(50);
  });

  it('ignores a UTF-8 byte-order mark before an OpenAPI 3.1 document, and exports it without one', async () => {
    const fixture = exampleFixture('examples/specs/bookshelf.openapi-3.1.yaml');
    await importAndCheck({ ...fixture, bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture.bytes]) }, 'spec', 'field', 'with-bom');
  });

  describe('a team moving from Swagger 2.0 to OpenAPI 3.1 and back', () => {
    const petstore = swaggerFixture('petstore.yaml');
    const trainTravel = packageFixture('@readme/oas-examples/3.1/yaml/train-travel.yaml');
    let base: string;
    let docsPath: string;

    const page = async (path: string): Promise<string> => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).to.equal(200);
      return response.text();
    };
    const put = async (fixture: SpecFixture, query = ''): Promise<ImportBody> => {
      const response = await server.request('PUT', `${base}/spec${query}`, { token: all, body: fixture.bytes.toString('utf8'), headers: { 'Content-Type': 'application/yaml' } });
      expect(response.status, await response.clone().text()).to.equal(200);
      return (await response.json()) as ImportBody;
    };

    before(async () => {
      const response = await importSpec(petstore, 'spec', 'json-part', { nickname: 'moving', type: 'public', createRelease: true, releaseVersion: '1.0.0' });
      expect(response.status).to.equal(201);
      const body = (await response.json()) as ImportBody;
      expect(body.api.specFormat).to.equal('swagger-2.0');
      base = `/api/${ada.accountId}/${body.api.id}`;
      docsPath = `/docs/${ada.accountId}/moving`;
    });

    it('replaces the 2.0 spec with a 3.1 one: the format, the derived resources and the docs page follow; the 2.0 release stays as it was', async () => {
      const swaggerPage = await page(docsPath);
      expect(swaggerPage).to.include('Server: <code>http://petstore.swagger.io/v2</code>');
      expect(swaggerPage).to.include('<h4>Request body <span class="sb-required">required</span></h4>');

      const body = await put(trainTravel, '?release=2.0.0');
      expect(body.api).to.include({ specFormat: 'openapi-3.1', revision: 2, name: 'Train Travel API' });
      expect(body.counts).to.deep.equal(expectedCounts(documentOf(trainTravel)));
      expect(await walk(`${base}/environments`, 50)).to.deep.equal([{ url: 'https://api.example.com', description: 'Production', variables: {} }]);
      const adapters = await walk<Json>(`${base}/auth-adapters`, 50);
      expect(adapters[0]).to.deep.include({ name: 'OAuth2', type: 'oauth2', scheme: null, paramName: null, unresolved: false });

      const openApiPage = await page(docsPath);
      expect(openApiPage).to.include('<h1>Train Travel API</h1>');
      expect(openApiPage).to.include('Server: <code>https://api.example.com</code> (Production)');
      expect(openApiPage).to.include('<span class="sb-method post">POST</span> <code>/bookings</code>');
      expect(openApiPage, 'a request body with its media types').to.match(/<h4>Request body <span class="sb-required">required<\/span><\/h4><p class="sb-media"><code>application\/json<\/code>, <code>application\/xml<\/code>: <a href="#model-booking"><code>Booking<\/code><\/a><\/p>/);
      expect(openApiPage, 'responses by media type').to.match(/<tr><td><code>200<\/code><\/td><td>[^<]*<\/td><td><code>application\/json<\/code>/);
      expect(openApiPage, 'security per operation').to.include('<p class="sb-security">Security: <a href="#security-oauth2"><code>OAuth2</code></a> (<code>read</code>)</p>');
      expect(openApiPage, 'the security schemes').to.include('<section class="sb-scheme" id="security-oauth2"><h3>OAuth2</h3>');
      expect(openApiPage).to.include('Token URL: <code>https://example.com/oauth/token</code>');
      expect(openApiPage).to.include('<section class="sb-model" id="model-station"><h3>Station</h3>');
      expect(openApiPage, 'nothing of the 2.0 spec is left').to.not.include('/pet/{petId}');

      const release = await page(`${docsPath}/1.0.0`);
      expect(release, 'the release keeps its 2.0 spec').to.include('<code>/pet/{petId}</code>');
      expect(await (await server.request('GET', `${base}/export?release=1.0.0`, { token: all })).text()).to.equal(petstore.bytes.toString('utf8'));
      expect(await (await server.request('GET', `${base}/export?release=2.0.0`, { token: all })).text()).to.equal(trainTravel.bytes.toString('utf8'));
      expect(await page(`${docsPath}/2.0.0`)).to.include('<code>/bookings</code>');
    });

    it('moves back to Swagger 2.0: format, derived resources and docs page follow again', async () => {
      const body = await put(petstore);
      expect(body.api).to.include({ specFormat: 'swagger-2.0', revision: 3, name: 'Swagger Petstore' });
      expect(await walk(`${base}/environments`, 50)).to.deep.equal([{ scheme: 'http', host: 'petstore.swagger.io', basePath: '/v2', url: 'http://petstore.swagger.io/v2' }]);
      const html = await page(docsPath);
      expect(html).to.include('<code>/pet/{petId}</code>');
      expect(html).to.not.include('<code>/bookings</code>');
    });
  });

  it('renders the JSON Schema of 3.1 on the docs page: type lists, const, $defs, boolean schemas', async function () {
    this.timeout(30_000);
    await importAndCheck(exampleFixture('examples/specs/bookshelf.openapi-3.1.yaml'), 'spec', 'field', 'bookshelf-page');
    const html = await (await fetch(`${server.url}/docs/${ada.accountId}/bookshelf-page`)).text();
    expect(html).to.include('<tr><td><code>subtitle</code></td><td><code>string</code> or <code>null</code></td>');
    expect(html).to.include('<tr><td><code>kind</code> <span class="sb-required">required</span></td><td><code>string</code>: one of <code>book</code></td>');
    expect(html, 'a $ref into $defs is followed').to.include('<tr><td><code>isbn</code></td><td><code>string</code></td>');
    expect(html).to.include('Servers: <code>https://{region}.bookshelf.example/v1</code> (Production), <code>http://localhost:3000/v1</code>');
    expect(html).to.include('Security: <a href="#security-oauth"><code>oauth</code></a> (<code>books:write</code>) or <a href="#security-apikey"><code>apiKey</code></a>');
    expect(html).to.include('Mutual TLS (a client certificate)');
    expect(html, "3.1's webhooks, apart from the endpoints").to.include(
      '<section class="sb-group" id="section-webhooks"><h2>Webhooks</h2><p>Requests the API sends to its subscribers.</p><section class="sb-operation" id="webhook-post-bookadded"><h3><span class="sb-method post">POST</span> <code>bookAdded</code></h3>',
    );
    expect(html).to.include('HTTP <code>bearer</code> authentication (JWT)');
  });
});
