import { expect } from 'chai';
import { classifyChanges } from '../../../src/domain/spec/changes/classify.js';
import { countChanges } from '../../../src/domain/spec/changes/change.js';
import { ruleCatalog } from '../../../src/domain/spec/changes/rules.js';
import { pointer } from '../../../src/domain/spec/json-pointer.js';
import type { JsonObject } from '../../../src/domain/spec/spec-document.js';
import { CHANGE_CASES, doc, formsOf } from '../../support/change-cases.js';

const catalog = new Map(ruleCatalog().map((entry) => [entry.rule, entry]));

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
});
