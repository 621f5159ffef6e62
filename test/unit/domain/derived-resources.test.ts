import { expect } from 'chai';
import { countsOf, deriveResources } from '../../../src/domain/spec/derived-resources.js';
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
