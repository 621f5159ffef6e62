import SwaggerParser from '@apidevtools/swagger-parser';
import type { Routes } from '../../src/adapters/http/dispatch.js';
import { expect } from 'chai';
import type Koa from 'koa';
import { parse as parseYaml } from 'yaml';
import { protectedRoutes, standaloneRoutes, type HttpDependencies } from '../../src/adapters/http/app.js';
import { buildOpenApiDocument, openApiPath } from '../../src/adapters/http/openapi/openapi-document.js';
import type { OpenApiDocument } from '../../src/adapters/http/openapi/openapi.types.js';
import { toSwagger2, toSwagger2Schema, type Swagger2Document } from '../../src/adapters/http/openapi/swagger2.js';
import type { RouteDefinition } from '../../src/adapters/http/routes.js';
import { SCOPES } from '../../src/domain/token/scope.js';
import { createApp } from '../../src/main/server.js';
import { forEachDatabase, sqlite } from '../support/databases.js';
import { compiledSchemasFor, OpenApiResponseValidator } from '../support/openapi-validator.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The route table as the app builds it (handlers are not called here). */
const TABLE = protectedRoutes({ jsonMaxBytes: 1024, importMaxBytes: 1024 } as unknown as HttpDependencies);
const SOURCE = { routes: TABLE, standalone: standaloneRoutes({} as unknown as HttpDependencies), publicUrl: 'https://specbase.example.com', scopeBase: 'https://specbase.example.com', version: '1.2.3' };

/**
 * Not API, so not described: the HTML reference pages and their static assets, which another
 * branch of issue 8 serves under /docs. Nothing else may be left out.
 */
const NOT_API = [/^\/docs$/, /^\/docs\/.*$/];

function operationsOf(paths: Readonly<Record<string, Readonly<Partial<Record<string, { readonly operationId: string }>>>>>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) found.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    }
  }
  return found;
}

/** `METHOD /path/{param}` of every route of every router the app mounts; HEAD and OPTIONS come with GET and allowedMethods. */
function servedRoutes(app: Koa): Set<string> {
  const served = new Set<string>();
  const routers = app.middleware.flatMap((middleware) => {
    const mounted = middleware as { router?: Routes; routers?: readonly Routes[] };
    return mounted.routers ?? (mounted.router === undefined ? [] : [mounted.router]);
  });
  for (const router of routers) {
    for (const layer of router.stack) {
      const path = String(layer.path);
      if (NOT_API.some((pattern) => pattern.test(path))) continue;
      for (const method of layer.methods) if (method !== 'HEAD' && method !== 'OPTIONS') served.add(`${method} ${openApiPath(path)}`);
    }
  }
  return served;
}

/** Every key anywhere in a document, with the path to it. */
function keysIn(value: unknown, path = ''): [string, string][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [[key, `${path}/${key}`] as [string, string], ...keysIn(child, `${path}/${key}`)]);
}

/** Where a `type` is not a single name (a property called `type` aside). */
function typeListsIn(value: unknown, path = '', inProperties = false): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [
    ...(key === 'type' && !inProperties && typeof child !== 'string' ? [`${path}/type`] : []),
    ...typeListsIn(child, `${path}/${key}`, key === 'properties'),
  ]);
}

forEachDatabase('self-description: /openapi.json and /swagger.yaml', (target) => {
  let server: TestServer;
  let ada: TestUser;

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(target);
    ada = await server.user('ada@example.com', 'ada');
  });
  after(async () => {
    await server?.stop();
  });

  async function openApi(): Promise<OpenApiDocument> {
    return (await (await server.fetch('/openapi.json')).json()) as OpenApiDocument;
  }

  async function swagger(): Promise<{ text: string; document: Swagger2Document }> {
    const text = await (await server.fetch('/swagger.yaml')).text();
    return { text, document: parseYaml(text) as Swagger2Document };
  }

  it('serves /openapi.json without credentials: OpenAPI 3.1 that swagger-parser validates, naming PUBLIC_URL as its server', async () => {
    const response = await server.fetch('/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/openapi+json');
    const document = (await response.json()) as OpenApiDocument;
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.deep.equal([{ url: server.url }]);
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('serves /swagger.yaml without credentials: the same description as Swagger 2.0 in YAML that swagger-parser validates, host and basePath from PUBLIC_URL', async () => {
    const response = await server.fetch('/swagger.yaml');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/yaml; charset=utf-8');
    const text = await response.text();
    expect(text, 'no YAML anchors or aliases').to.not.match(/(^|\s)[&*]a\d+\b/m);
    const document = parseYaml(text) as Swagger2Document;
    expect(document.swagger).to.equal('2.0');
    const url = new URL(server.url);
    expect({ host: document.host, basePath: document.basePath, schemes: document.schemes }).to.deep.equal({ host: url.host, basePath: '/', schemes: ['http'] });
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('describes every operation in both documents under the same method, path and operationId', async () => {
    const [three, two] = [await openApi(), (await swagger()).document];
    expect(operationsOf(two.paths)).to.deep.equal(operationsOf(three.paths));
    expect(Object.keys(two.definitions)).to.deep.equal(Object.keys(three.components.schemas));
  });

  it('caches both for 5 minutes and answers 304 to If-None-Match with the ETag', async () => {
    for (const path of ['/openapi.json', '/swagger.yaml']) {
      const first = await server.fetch(path);
      expect(first.headers.get('cache-control'), path).to.equal('public, max-age=300');
      const etag = first.headers.get('etag');
      expect(etag, path).to.match(/^"[A-Za-z0-9_-]{22}"$/);
      // As a browser revalidates (fetch would add `Cache-Control: no-cache`, which asks for the full answer).
      const again = await server.fetch(path, { headers: { 'If-None-Match': etag!, 'Cache-Control': 'max-age=0' } });
      expect(again.status, path).to.equal(304);
      expect(await again.text(), path).to.equal('');
      expect((await server.fetch(path, { headers: { 'If-None-Match': '"other"', 'Cache-Control': 'max-age=0' } })).status, path).to.equal(200);
    }
  });

  it('describes exactly what the app serves: every route of every router it mounts has an operation, every operation a route (HEAD, OPTIONS and /docs aside)', async () => {
    const served = servedRoutes(createApp(server.running.container));
    const described = new Set(operationsOf((await openApi()).paths).keys());
    expect([...served].filter((route) => !described.has(route)), 'served but not described').to.deep.equal([]);
    expect([...described].filter((route) => !served.has(route)), 'described but not served').to.deep.equal([]);
    expect(served.size, 'the walk found the routers').to.be.greaterThan(60);
  });

  it('imports itself: /swagger.yaml through POST /api/<account>/import is 201, with an endpoint per operation, a model per schema and its environment', async function () {
    this.timeout(30_000);
    const { text, document } = await swagger();
    const token = await server.token(ada, ['api']);
    const imported = await server.multipart('POST', `/api/${ada.accountId}/import`, token, [
      { name: 'spec', value: text, filename: 'swagger.yaml', type: 'application/yaml' },
      { name: 'body', value: JSON.stringify({ nickname: 'specbase-itself' }) },
    ]);
    expect(imported.status, await imported.clone().text()).to.equal(201);
    const { api, counts } = (await imported.json()) as { api: { id: string; name: string; version: string }; counts: Record<string, number> };
    expect(api).to.include({ name: 'Specbase', version: document.info.version });
    expect(counts).to.deep.equal({
      endpoints: operationsOf(document.paths).size,
      models: Object.keys(document.definitions).length,
      environments: 1,
      authAdapters: Object.keys(document.securityDefinitions).length,
    });

    const base = `/api/${ada.accountId}/${api.id}`;
    const endpoints = (await (await server.request('GET', `${base}/endpoints?limit=200`, { token })).json()) as { items: { method: string; path: string; operationId: string }[] };
    expect(endpoints.items).to.deep.include.members([
      { method: 'GET', path: '/api/{accountId}', operationId: 'listApis', summary: 'List the APIs of an account', tags: ['APIs'], deprecated: false, unresolved: false },
      { method: 'POST', path: '/api/{accountId}/import', operationId: 'importApi', summary: TABLE.find((r) => r.path === '/api/:accountId/import')!.summary, tags: ['Specs'], deprecated: false, unresolved: false },
    ]);
    const environments = (await (await server.request('GET', `${base}/environments`, { token })).json()) as { items: { url: string }[] };
    expect(environments.items.map((e) => e.url)).to.deep.equal([server.url]);
    const adapters = (await (await server.request('GET', `${base}/auth-adapters`, { token })).json()) as { items: { name: string; type: string; flow: string | null }[] };
    expect(adapters.items.map(({ name, type, flow }) => ({ name, type, flow }))).to.deep.equal([
      { name: 'apiToken', type: 'apiKey', flow: null },
      { name: 'password', type: 'basic', flow: null },
      { name: 'oauthClient', type: 'basic', flow: null },
      { name: 'initialAccessToken', type: 'apiKey', flow: null },
      { name: 'registrationAccessToken', type: 'apiKey', flow: null },
      { name: 'oauth2AccessCode', type: 'oauth2', flow: 'accessCode' },
      { name: 'oauth2Implicit', type: 'oauth2', flow: 'implicit' },
    ]);
  });

  it('describes the problems a login or consent form that cannot be read gets (not a page)', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const undecodable = await server.fetch('/o/oauth2/auth', { method: 'POST', headers: { ...form, 'Content-Encoding': 'gzip' }, body: 'not gzip' });
    expect([undecodable.status, ((await undecodable.json()) as { code: string }).code]).to.deep.equal([400, 'invalid_request']);
    const unknown = await server.fetch('/o/oauth2/auth', { method: 'POST', headers: { ...form, 'Content-Encoding': 'zz' }, body: 'step=login' });
    expect([unknown.status, ((await unknown.json()) as { code: string }).code]).to.deep.equal([415, 'unsupported_media_type']);
  });

  describe('the response check of the HTTP tests', () => {
    let validator: OpenApiResponseValidator;
    const problem = (status: number, code: string) =>
      new Response(JSON.stringify({ type: `urn:specbase:problem:${code}`, title: 'T', status, detail: 'd', code }), { status, headers: { 'content-type': 'application/problem+json' } });
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

    before(async () => {
      validator = await OpenApiResponseValidator.load(server.url);
    });

    const refused: [string, string, string, () => Response, RegExp][] = [
      ['a status the operation does not describe', 'GET', '/api/1', () => json({}, 418), /answered 418, a status \/openapi.json does not describe for GET \/api\/\{accountId\} \(listApis\)/],
      ['a field the schema does not list', 'GET', '/api/1', () => json({ items: [], nextCursor: null, total: 0 }), /must NOT have unevaluated properties: total/],
      ['a required field missing', 'GET', '/user', () => json({ id: 1 }), /must have required property 'email'/],
      ['a problem code the status does not have', 'GET', '/api/1', () => problem(404, 'duplicate_slug'), /\/code must be equal to one of the allowed values: \["not_found"\]/],
      ['a media type the response does not list', 'GET', '/api/1', () => new Response('x', { status: 200, headers: { 'content-type': 'text/plain' } }), /Content-Type text\/plain, not one of application\/json/],
      ['a header the description requires, missing', 'GET', '/api/1', () => problem(401, 'invalid_token'), /the header WWW-Authenticate is missing/],
      ['a body where none is described', 'DELETE', '/webhooks/1/01a2016c-9623-7352-b8ed-d2a47323ed6a', () => json({}), /answered 200, a status/],
      ['anything but the router’s 404 on an unknown path', 'GET', '/nowhere', () => json({}), /no operation for it \(unknown path\)/],
    ];
    for (const [what, method, path, make, message] of refused) {
      it(`fails the request on ${what}`, async () => {
        let error: Error | undefined;
        try {
          await validator.check(method, server.url + path, make());
        } catch (e) {
          error = e as Error;
        }
        expect(error?.message).to.match(message);
      });
    }

    it('passes answers the description allows', async () => {
      await validator.check('GET', `${server.url}/api/1`, json({ items: [], nextCursor: null }));
      await validator.check('GET', `${server.url}/api/1/import`, problem(404, 'not_found'));
      await validator.check('PUT', `${server.url}/api/1`, new Response(JSON.stringify({ code: 'method_not_allowed' }), { status: 405, headers: { 'content-type': 'application/problem+json', allow: 'GET, POST' } }));
    });
  });
});

describe('self-description behind a path prefix: PUBLIC_URL names server, host and basePath', () => {
  it('gives https://docs.example.com/specbase as the 3.1 server and as host, basePath and scheme of the 2.0 document', async function () {
    this.timeout(30_000);
    const server = await startTestServerOn(sqlite, { PUBLIC_URL: 'https://docs.example.com/specbase' });
    try {
      const three = (await (await server.fetch('/openapi.json')).json()) as OpenApiDocument;
      expect(three.servers).to.deep.equal([{ url: 'https://docs.example.com/specbase' }]);
      const two = parseYaml(await (await server.fetch('/swagger.yaml')).text()) as Swagger2Document;
      expect({ host: two.host, basePath: two.basePath, schemes: two.schemes }).to.deep.equal({ host: 'docs.example.com', basePath: '/specbase', schemes: ['https'] });
      expect(two.paths['/api/{accountId}'], 'paths stay relative to basePath').to.not.equal(undefined);
    } finally {
      await server.stop();
    }
  });
});

describe('OpenAPI description: built from the route table', () => {
  const document = buildOpenApiDocument(SOURCE);

  it('gives every route of the table an operation with its summary, and its scope as the API token requirement', () => {
    for (const route of TABLE) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'];
      expect(operation, `${route.method} ${route.path}`).to.not.equal(undefined);
      expect(operation!.summary).to.equal(route.summary);
      expect(operation!.security).to.deep.equal([{ apiToken: [route.scope] }]);
      expect(operation!.description).to.include(`Scope \`${route.scope}\``);
      expect(Object.keys(operation!.responses), `${route.method} ${route.path}`).to.include.members(['401', '403', '429', '500']);
    }
  });

  it('describes a route from its own declaration: a route added to the table is in the document with its contract', () => {
    const extra: RouteDefinition = {
      method: 'GET',
      path: '/api/:accountId/:apiId/statistics',
      scope: 'api.readonly',
      summary: 'New',
      operationId: 'getStatistics',
      tag: 'APIs',
      responses: { 200: { description: 'The statistics.', content: { 'application/json': { schema: { type: 'object' } } } } },
      problems: ['validation_failed'],
      handler: async () => undefined,
    };
    const operation = buildOpenApiDocument({ ...SOURCE, routes: [...TABLE, extra] }).paths['/api/{accountId}/{apiId}/statistics']?.get;
    expect(operation?.operationId).to.equal('getStatistics');
    expect(Object.keys(operation?.responses ?? {})).to.include.members(['200', '400', '401', '403', '404', '429', '500']);
  });

  it('refuses to build when a route refers to a schema no feature defines', () => {
    const route = TABLE.find((r) => r.method === 'GET' && r.path === '/api/:accountId')!;
    const typo: RouteDefinition = { ...route, path: '/api/:accountId/typo', operationId: 'typo', responses: { 200: { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiLsit' } } } } } };
    expect(() => buildOpenApiDocument({ ...SOURCE, routes: [...TABLE, typo] })).to.throw('References to schemas no feature defines: ApiLsit');
  });

  it('refuses to build when two routes declare the same operationId', () => {
    const twin = TABLE.find((r) => r.method === 'DELETE' && r.path === '/api/:accountId/:apiId/pages/:pageId')!;
    const copy: RouteDefinition = { ...twin, path: '/api/:accountId/:apiId/pages/:pageId/copy' };
    expect(() => buildOpenApiDocument({ ...SOURCE, routes: [...TABLE, copy] })).to.throw(`operationId ${twin.operationId} is used twice`);
  });

  it('offers the API token (each scope), HTTP Basic and the identity service’s OAuth 2.0 flows with their scopes', () => {
    const { apiToken, password, oauth2 } = document.components.securitySchemes;
    expect(apiToken).to.include({ type: 'http', scheme: 'bearer' });
    expect(password).to.include({ type: 'http', scheme: 'basic' });
    expect(oauth2?.type).to.equal('oauth2');
    if (oauth2?.type !== 'oauth2') return;
    expect(oauth2.flows.authorizationCode).to.include({ authorizationUrl: 'https://specbase.example.com/o/oauth2/auth', tokenUrl: 'https://specbase.example.com/o/oauth2/token' });
    expect(Object.keys(oauth2.flows.implicit.scopes)).to.have.members(['openid', 'email', 'profile', 'https://specbase.example.com/auth/plus.me', 'https://specbase.example.com/auth/userinfo.email', 'https://specbase.example.com/auth/userinfo.profile']);
    const required = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => op.security.flatMap((s) => s['apiToken'] ?? []))));
    expect([...required].sort()).to.deep.equal([...SCOPES].sort());
  });

  it('holds only schemas that compile as JSON Schema 2020-12 under ajv’s strict mode: components, parameters, bodies, answers and headers', () => {
    const schemas = compiledSchemasFor(document);
    let compiled = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method} ${path}`;
        const found = [
          ...(operation.parameters ?? []).map((p) => [`parameter ${p.name}`, p.schema] as const),
          ...Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => [`request ${type}`, media.schema ?? {}] as const),
          ...Object.entries(operation.responses).flatMap(([status, response]) => [
            ...Object.entries(response.content ?? {}).map(([type, media]) => [`${status} ${type}`, media.schema ?? {}] as const),
            ...Object.entries(response.headers ?? {}).map(([name, header]) => [`${status} header ${name}`, header.schema] as const),
          ]),
        ];
        for (const [what, schema] of found) {
          expect(() => schemas.compile(`strict: ${JSON.stringify(schema)}`, schema), `${where} ${what}`).to.not.throw();
          compiled += 1;
        }
      }
    }
    expect(compiled).to.be.greaterThan(500);
  });

  it('describes each route outside the table once, with a distinct operationId', () => {
    const keys = SOURCE.standalone.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).to.equal(keys.length);
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).to.equal(ids.length);
  });
});

describe('OpenAPI 3.1 to Swagger 2.0', () => {
  const two = toSwagger2(buildOpenApiDocument(SOURCE));

  it('turns a type list with null into the type and x-nullable, and drops null from an enum', () => {
    expect(toSwagger2Schema({ type: ['string', 'null'], format: 'date-time' })).to.deep.equal({ type: 'string', format: 'date-time', 'x-nullable': true });
    expect(toSwagger2Schema({ type: ['string', 'null'], enum: ['GET', 'PUT', null] })).to.deep.equal({ type: 'string', enum: ['GET', 'PUT'], 'x-nullable': true });
  });

  it('turns oneOf a reference or null into allOf the reference, x-nullable; any other oneOf into what its alternatives share', () => {
    expect(toSwagger2Schema({ oneOf: [{ $ref: '#/components/schemas/Release' }, { type: 'null' }], description: 'd' })).to.deep.equal({
      allOf: [{ $ref: '#/definitions/Release' }],
      description: 'd',
      'x-nullable': true,
    });
    expect(toSwagger2Schema({ oneOf: [{ type: 'string', pattern: 'a' }, { type: 'string', pattern: 'b' }] })).to.deep.equal({ type: 'string' });
    expect(toSwagger2Schema({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).to.deep.equal({});
  });

  it('turns const into a one-value enum of its type, examples into example, and drops what 2.0 lacks', () => {
    expect(toSwagger2Schema({ const: true })).to.deep.equal({ type: 'boolean', enum: [true] });
    expect(toSwagger2Schema({ const: 401 })).to.deep.equal({ type: 'integer', enum: [401] });
    expect(toSwagger2Schema({ type: 'string', examples: ['a', 'b'], writeOnly: true, contentMediaType: 'application/octet-stream' })).to.deep.equal({ type: 'string', example: 'a' });
    expect(toSwagger2Schema({ $ref: '#/components/schemas/Actor', description: 'ignored beside $ref in 2.0' })).to.deep.equal({ $ref: '#/definitions/Actor' });
  });

  it('turns the multipart import into formData parameters: the spec parts as files, the JSON body part as a string', () => {
    const operation = two.paths['/api/{accountId}/import']!['post']!;
    expect(operation.consumes).to.deep.equal(['multipart/form-data']);
    const form = (operation.parameters ?? []).filter((p) => p.in === 'formData').map((p) => ({ name: p.name, type: 'type' in p ? p.type : undefined }));
    expect(form).to.deep.equal([
      { name: 'spec', type: 'file' },
      { name: 'file', type: 'file' },
      { name: 'body', type: 'string' },
    ]);
  });

  it('keeps one body per operation, naming the media types it had to leave out', () => {
    const operation = two.paths['/api/{accountId}/{apiId}/spec']!['put']!;
    expect(operation.consumes).to.deep.equal(['multipart/form-data']);
    expect(operation.description).to.include('Also takes application/yaml, application/json');
  });

  it('sends the API token as an apiKey header and splits the OAuth 2.0 scheme into one per flow, the scopes moving out of non-OAuth requirements', () => {
    expect(two.securityDefinitions['apiToken']).to.include({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(two.securityDefinitions['oauth2AccessCode']).to.include({ type: 'oauth2', flow: 'accessCode', tokenUrl: 'https://specbase.example.com/o/oauth2/token' });
    expect(two.securityDefinitions['oauth2Implicit']).to.include({ type: 'oauth2', flow: 'implicit' });
    expect(two.paths['/api/{accountId}']!['get']!.security).to.deep.equal([{ apiToken: [] }]);
    expect(two.paths['/oauth2/v2/userinfo']!['get']!.security).to.deep.equal([{ oauth2AccessCode: [] }, { oauth2Implicit: [] }]);
    expect(two.paths['/o/oauth2/token']!['post']!.security).to.deep.equal([{ oauthClient: [] }, {}]);
  });

  it('leaves nothing Swagger 2.0 lacks anywhere in the document', () => {
    const foreign = keysIn(two).filter(([key]) => ['oneOf', 'anyOf', 'const', 'examples', 'contentMediaType', 'writeOnly', 'requestBody', 'components', 'servers', 'openapi'].includes(key));
    expect(foreign).to.deep.equal([]);
    expect(typeListsIn(two), 'every type is one name').to.deep.equal([]);
  });
});
