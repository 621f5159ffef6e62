import { expect } from 'chai';
import { authAdaptersOf, countsOf, deriveResources } from '../../../src/domain/spec/derived-resources.js';
import { summarizeSpec, type JsonObject } from '../../../src/domain/spec/spec-document.js';
import { nameFromTitle, nicknameFromTitle } from '../../../src/domain/api/api.aggregate.js';
import { anApi } from '../../support/builders.js';
import { userId } from '../../support/ids.js';

const ACTOR = { id: userId(1), nickname: 'ada' };
const NO_CHANGE = { fromRevision: null, breaking: false, counts: { breaking: 0, warning: 0, info: 0 } };
const doc = (extra: JsonObject): JsonObject => ({ swagger: '2.0', info: { title: 'T', version: '1' }, paths: {}, ...extra });

describe('derived resources', () => {
  it('makes one endpoint per path and method, upper case, in document order, skipping extensions', () => {
    const derived = deriveResources(
      doc({
        basePath: '/v2',
        paths: {
          '/pets': {
            parameters: [],
            post: { operationId: 'addPet', summary: 'Add', tags: ['pet'] },
            get: { operationId: 'listPets', deprecated: true },
            'x-internal': { get: {} },
          },
          'x-extension': { get: {} },
          '/pets/{id}': { delete: { tags: ['pet', 7] } },
        },
      }),
    );
    expect(derived.endpoints).to.deep.equal([
      { method: 'GET', path: '/pets', operationId: 'listPets', summary: null, tags: [], deprecated: true, unresolved: false },
      { method: 'POST', path: '/pets', operationId: 'addPet', summary: 'Add', tags: ['pet'], deprecated: false, unresolved: false },
      { method: 'DELETE', path: '/pets/{id}', operationId: null, summary: null, tags: ['pet'], deprecated: false, unresolved: false },
    ]);
  });

  it('follows an internal $ref path item and marks an external one unresolved without reading it', () => {
    const derived = deriveResources(
      doc({
        'x-shared': { pets: { get: { operationId: 'fromRef' } } },
        paths: { '/a': { $ref: '#/x-shared/pets' }, '/b': { $ref: 'other.yaml#/pets' }, '/c': { $ref: '#/nowhere' } },
      }),
    );
    expect(derived.endpoints.map((e) => [e.method, e.path, e.operationId, e.unresolved])).to.deep.equal([
      ['GET', '/a', 'fromRef', false],
      [null, '/b', null, true],
      [null, '/c', null, true],
    ]);
  });

  it('survives $ref cycles without expanding them', () => {
    const derived = deriveResources(
      doc({ paths: { '/loop': { $ref: '#/paths/~1loop' } }, definitions: { Node: { properties: { next: { $ref: '#/definitions/Node' } } }, Alias: { $ref: '#/definitions/Alias' } } }),
    );
    expect(derived.endpoints[0]).to.include({ path: '/loop', unresolved: true });
    expect(derived.models.map((m) => [m.name, m.unresolved])).to.deep.equal([['Node', false], ['Alias', true]]);
    expect(derived.models[0]!.schema).to.deep.equal({ properties: { next: { $ref: '#/definitions/Node' } } });
  });

  it('makes one environment per scheme, and one with nulls when the document names none', () => {
    expect(deriveResources(doc({ schemes: ['https', 'http', 'https'], host: 'api.example.com', basePath: '/v1' })).environments).to.deep.equal([
      { scheme: 'https', host: 'api.example.com', basePath: '/v1', url: 'https://api.example.com/v1' },
      { scheme: 'http', host: 'api.example.com', basePath: '/v1', url: 'http://api.example.com/v1' },
    ]);
    expect(deriveResources(doc({ host: 'x.io', basePath: '/' , schemes: ['https'] })).environments[0]!.url).to.equal('https://x.io');
    expect(deriveResources(doc({})).environments).to.deep.equal([{ scheme: null, host: null, basePath: '/', url: null }]);
  });

  it('makes one authentication adapter per security definition, with its flow, scopes and key location', () => {
    const derived = deriveResources(
      doc({
        securityDefinitions: {
          oauth: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a/auth', tokenUrl: 'https://a/token', scopes: { read: 'Read', write: 'Write' } },
          key: { type: 'apiKey', in: 'header', name: 'X-Key', description: 'the key' },
          basic: { type: 'basic' },
        },
      }),
    );
    expect(derived.authAdapters).to.deep.equal([
      { name: 'oauth', type: 'oauth2', description: null, flow: 'accessCode', authorizationUrl: 'https://a/auth', tokenUrl: 'https://a/token', scopes: [{ name: 'read', description: 'Read' }, { name: 'write', description: 'Write' }], in: null, parameterName: null },
      { name: 'key', type: 'apiKey', description: 'the key', flow: null, authorizationUrl: null, tokenUrl: null, scopes: [], in: 'header', parameterName: 'X-Key' },
      { name: 'basic', type: 'basic', description: null, flow: null, authorizationUrl: null, tokenUrl: null, scopes: [], in: null, parameterName: null },
    ]);
    expect(countsOf(derived)).to.deep.equal({ endpoints: 0, models: 0, environments: 1, authAdapters: 3 });
  });

  it('OpenAPI 3: endpoints of every method, trace too, path items behind a reference of their kind, fields of the wrong type as absent', () => {
    const derived = deriveResources({
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      'x-items': { c: { post: { operationId: 7, summary: ['s'], deprecated: 'yes' } } },
      paths: { '/a': { trace: { operationId: 'echo' }, get: { tags: 'pets' } }, '/b': { $ref: '#/components/schemas/S' }, '/c': { $ref: '#/x-items/c' } },
      components: { schemas: { S: { type: 'object' } } },
    });
    expect(derived.endpoints).to.deep.equal([
      { method: 'GET', path: '/a', operationId: null, summary: null, tags: [], deprecated: false, unresolved: false },
      { method: 'TRACE', path: '/a', operationId: 'echo', summary: null, tags: [], deprecated: false, unresolved: false },
      { method: null, path: '/b', operationId: null, summary: null, tags: [], deprecated: false, unresolved: true },
      { method: 'POST', path: '/c', operationId: null, summary: null, tags: [], deprecated: false, unresolved: false },
    ]);
  });

  it('OpenAPI 3: models from components.schemas, unresolved when a reference leads to no schema', () => {
    const schemas = { S: { type: 'object' }, R: { $ref: '#/components/schemas/S' }, Lost: { $ref: '#/info' }, Far: { $ref: 'other.yaml#/S' } };
    expect(deriveResources({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, components: { schemas } }).models).to.deep.equal([
      { name: 'S', schema: { type: 'object' }, unresolved: false },
      { name: 'R', schema: { $ref: '#/components/schemas/S' }, unresolved: false },
      { name: 'Lost', schema: { $ref: '#/info' }, unresolved: true },
      { name: 'Far', schema: { $ref: 'other.yaml#/S' }, unresolved: true },
    ]);
  });

  it('OpenAPI 3: one environment per server as written, a server without a url at /, and / when there is none', () => {
    const variables = { env: { default: 'api', enum: ['api', 'beta'] } };
    const servers = [{ url: 'https://{env}.example.com', description: 'main', variables }, { description: 7, variables: 'none' }, 'junk'];
    expect(deriveResources({ openapi: '3.1.0', info: { title: 'T', version: '1' }, servers }).environments).to.deep.equal([
      { url: 'https://{env}.example.com', description: 'main', variables },
      { url: '/', description: null, variables: {} },
      { url: '/', description: null, variables: {} },
    ]);
    for (const none of [[], undefined, 'https://example.com']) {
      const document: JsonObject = none === undefined ? { openapi: '3.1.0', info: { title: 'T', version: '1' } } : { openapi: '3.1.0', info: { title: 'T', version: '1' }, servers: none };
      expect(deriveResources(document).environments, JSON.stringify(none)).to.deep.equal([{ url: '/', description: null, variables: {} }]);
    }
  });

  it('OpenAPI 3: one authentication adapter per security scheme, each with its own type’s fields only', () => {
    const securitySchemes = {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'D', in: 'header', name: 'n', openIdConnectUrl: 'https://x' },
      key: { type: 'apiKey', in: 'cookie', name: 'sid', scheme: 'basic', bearerFormat: 'JWT' },
      oauth: {
        type: 'oauth2',
        scheme: 'basic',
        flows: { implicit: { authorizationUrl: 'https://a', scopes: { read: 'Read', odd: 7 } }, clientCredentials: { tokenUrl: 'https://t', refreshUrl: 'https://r' }, 'x-ext': {} },
      },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id', flows: {} },
    };
    const none = { description: null, scheme: null, bearerFormat: null, in: null, paramName: null, flows: null, openIdConnectUrl: null, unresolved: false };
    expect(deriveResources({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, components: { securitySchemes } }).authAdapters).to.deep.equal([
      { ...none, name: 'bearer', type: 'http', description: 'D', scheme: 'bearer', bearerFormat: 'JWT' },
      { ...none, name: 'key', type: 'apiKey', in: 'cookie', paramName: 'sid' },
      {
        ...none,
        name: 'oauth',
        type: 'oauth2',
        flows: {
          implicit: { authorizationUrl: 'https://a', tokenUrl: null, refreshUrl: null, scopes: [{ name: 'read', description: 'Read' }, { name: 'odd', description: '' }] },
          clientCredentials: { authorizationUrl: null, tokenUrl: 'https://t', refreshUrl: 'https://r', scopes: [] },
        },
      },
      { ...none, name: 'oidc', type: 'openIdConnect', openIdConnectUrl: 'https://id' },
    ]);
  });

  it('OpenAPI 3: follows a security scheme’s internal $ref; one leading nowhere or to no security scheme is unresolved, of type unknown', () => {
    const securitySchemes = { basic: { type: 'http', scheme: 'basic' }, ref: { $ref: '#/components/securitySchemes/basic' }, lost: { $ref: '#/nowhere' }, wrong: { $ref: '#/info' }, odd: { type: 7 } };
    const derived = deriveResources({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, components: { securitySchemes } });
    expect(derived.authAdapters.map((a) => [a.name, a.type, 'unresolved' in a ? a.unresolved : undefined, 'scheme' in a ? a.scheme : undefined])).to.deep.equal([
      ['basic', 'http', false, 'basic'],
      ['ref', 'http', false, 'basic'],
      ['lost', 'unknown', true, null],
      ['wrong', 'unknown', true, null],
      ['odd', 'unknown', false, null],
    ]);
  });

  it('authAdaptersOf: the adapters deriveResources gives, of either format', () => {
    const swagger = doc({ securityDefinitions: { key: { type: 'apiKey', in: 'query', name: 'k' } }, paths: { '/a': { get: {} } } });
    const openApi: JsonObject = { openapi: '3.1.0', info: { title: 'T', version: '1' }, components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'k' }, r: { $ref: '#/components/securitySchemes/key' } } } };
    for (const document of [swagger, openApi]) expect(authAdaptersOf(document)).to.deep.equal(deriveResources(document).authAdapters);
    expect(authAdaptersOf(swagger).map((a) => a.type)).to.deep.equal(['apiKey']);
    expect(authAdaptersOf(openApi).map((a) => a.name)).to.deep.equal(['key', 'r']);
  });

  it('Swagger 2.0: an environment of the host without schemes, basePath / when none, and a scope without a text described as empty', () => {
    expect(deriveResources(doc({ host: 'api.example.com' })).environments).to.deep.equal([{ scheme: null, host: 'api.example.com', basePath: '/', url: null }]);
    expect(deriveResources(doc({ schemes: ['https', 7] })).environments).to.deep.equal([{ scheme: 'https', host: null, basePath: '/', url: null }]);
    expect(deriveResources(doc({ host: 7, basePath: 8, schemes: 'https' })).environments).to.deep.equal([{ scheme: null, host: null, basePath: '/', url: null }]);
    const oauth = deriveResources(doc({ securityDefinitions: { o: { type: 'oauth2', scopes: { read: 7 } }, x: 'junk' } })).authAdapters;
    expect(oauth.map((a) => [a.name, a.type, 'scopes' in a ? a.scopes : null])).to.deep.equal([
      ['o', 'oauth2', [{ name: 'read', description: '' }]],
      ['x', 'unknown', []],
    ]);
  });

  it('Swagger 2.0: no trace endpoint, and models from definitions', () => {
    const derived = deriveResources(doc({ paths: { '/a': { trace: {}, head: {}, options: {}, patch: {}, put: {} } }, definitions: { Pet: { type: 'object' } } }));
    expect(derived.endpoints.map((e) => e.method)).to.deep.equal(['PUT', 'OPTIONS', 'HEAD', 'PATCH']);
    expect(derived.models).to.deep.equal([{ name: 'Pet', schema: { type: 'object' }, unresolved: false }]);
  });

  it('summarises info for the API record', () => {
    expect(summarizeSpec(doc({ info: { title: 'Pets', version: '2.1', description: 'About' } }))).to.deep.equal({ format: 'swagger-2.0', title: 'Pets', version: '2.1', description: 'About' });
  });
});

describe('API spec rules', () => {
  for (const [title, nickname] of <[string, string][]>[
    ['Swagger Petstore', 'swagger-petstore'],
    ['Pet Store (v2)', 'pet-store-v2'],
    ['Émile’s API', 'emile-s-api'],
    ['   ', 'api'],
    ['日本語', 'api'],
    ['x'.repeat(80), 'x'.repeat(64)],
    ['Kubernetes', 'kubernetes'],
  ]) {
    it(`makes the nickname ${JSON.stringify(nickname.slice(0, 20))} from the title ${JSON.stringify(title.slice(0, 20))}`, () => {
      expect(nicknameFromTitle(title)).to.equal(nickname);
    });
  }

  it('replacing the spec renames the API after info.title, takes its version and grows the revision', () => {
    const api = anApi().atRevision(3).build();
    const result = api.replaceSpec({ format: 'openapi-3.1', title: 'Pet Store', description: 'New', version: '2.0.0' }, 3, ACTOR, NO_CHANGE, new Date('2026-11-23T00:00:00.000Z'));
    expect(result.ok).to.equal(true);
    expect(api.toRecord()).to.include({ name: 'Pet Store', description: 'New', version: '2.0.0', specFormat: 'openapi-3.1', revision: 4, updateDate: '2026-11-23T00:00:00.000+00:00' });
  });

  it('refuses a stale If-Match on a spec replacement, changing nothing', () => {
    const api = anApi().atRevision(3).build();
    expect(api.replaceSpec({ format: 'swagger-2.0', title: 'X', description: null, version: null }, 2, ACTOR, NO_CHANGE, new Date())).to.deep.equal({ ok: false, error: { kind: 'RevisionMismatch', expected: 2, actual: 3 } });
    expect(api.toRecord()).to.include({ revision: 3, name: 'Pets' });
  });

  it('keeps the name for a blank title, and cuts a title over 200 characters to 199 and an ellipsis', () => {
    const api = anApi().build();
    expect(api.replaceSpec({ format: 'openapi-3.0', title: '  ', description: null, version: null }, undefined, ACTOR, NO_CHANGE, new Date()).ok).to.equal(true);
    expect(api.toRecord()).to.include({ name: 'Pets', revision: 2, specFormat: 'openapi-3.0' });
    api.replaceSpec({ format: 'openapi-3.0', title: 'x'.repeat(201), description: null, version: null }, undefined, ACTOR, NO_CHANGE, new Date());
    expect(api.toRecord().name).to.equal(`${'x'.repeat(199)}…`);
  });

  for (const [title, name] of <[string, string][]>[
    ['Pets', 'Pets'],
    ['', 'fallback'],
    [' \t ', 'fallback'],
    ['x'.repeat(200), 'x'.repeat(200)],
    ['y'.repeat(300), `${'y'.repeat(199)}…`],
    [`${'z'.repeat(198)}😀😀`, `${'z'.repeat(198)}…`],
  ]) {
    it(`names an API ${JSON.stringify(name.slice(0, 12))}${name.length > 12 ? '...' : ''} (${name.length}) for the title ${JSON.stringify(title.slice(0, 12))} (${title.length})`, () => {
      expect(nameFromTitle(title, 'fallback')).to.equal(name);
    });
  }
});
