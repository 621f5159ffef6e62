import { expect } from 'chai';
import { connect } from 'node:net';
import { SCOPES } from '../../src/domain/token/scope.js';
import { cpuMs } from '../support/cpu.js';
import { forEachDatabase } from '../support/databases.js';
import { swaggerFixture } from '../support/fixtures.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const LIMIT = 64 * 1024;
const petstore = swaggerFixture('petstore.yaml');
const specPart = (value: string | Uint8Array, name = 'spec') => ({ name, value, filename: 'swagger.yaml', type: 'text/yaml' });
const bodyPart = (value: unknown) => ({ name: 'body', value: typeof value === 'string' ? value : JSON.stringify(value), type: 'application/json' });
const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  .concat(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`))
  .join('\n');

forEachDatabase('Core-API: bad imports and spec updates write nothing', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let all: string;
  let apiPath: string;

  before(async () => {
    server = await startTestServerOn(target, { IMPORT_MAX_BYTES: String(LIMIT) });
    ada = await server.user('ada@example.com', 'ada');
    all = await server.token(ada, SCOPES);
    const created = await server.multipart('POST', `/api/${ada.accountId}/import`, all, [specPart(petstore.bytes), bodyPart({ nickname: 'taken', createRelease: true, releaseVersion: '1.0.0' })]);
    expect(created.status).to.equal(201);
    apiPath = `/api/${ada.accountId}/${((await created.json()) as { api: { id: string } }).api.id}`;
  });
  after(async () => {
    await server?.stop();
  });

  type Send = () => Promise<Response>;
  const imports = (parts: Parameters<TestServer['multipart']>[3]): Send => () => server.multipart('POST', `/api/${ada.accountId}/import`, all, parts);
  const cases: [string, Send, number, string, { field?: string; line?: number }?][] = [
    ['YAML that does not parse', imports([specPart('swagger: "2.0"\ninfo:\n  title: a: b\n')]), 400, 'unparseable_spec', { line: 3 }],
    ['bytes that are not UTF-8', imports([specPart(new Uint8Array([0xc3, 0x28, 0xa0, 0xa1]))]), 400, 'unparseable_spec'],
    ['an OpenAPI 3.2 document (a version not accepted)', imports([specPart('openapi: 3.2.0\ninfo: {title: T, version: "1"}\npaths: {}\n')]), 422, 'invalid_spec', { field: 'openapi' }],
    ['an AsyncAPI document', imports([specPart('asyncapi: 3.0.0\ninfo: {title: T, version: "1"}\n')]), 422, 'invalid_spec', { field: 'asyncapi' }],
    ['OpenAPI 3.1 without info', imports([specPart('openapi: 3.1.0\npaths: {}\n')]), 422, 'invalid_spec'],
    ['OpenAPI 3.0 with an operation without responses', imports([specPart('openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths:\n  /a: {get: {}}\n')]), 422, 'invalid_spec'],
    ['Swagger 2.0 without info', imports([specPart('swagger: "2.0"\npaths: {}\n')]), 422, 'invalid_spec'],
    ['Swagger 2.0 with a duplicate operationId', imports([specPart('swagger: "2.0"\ninfo: {title: T, version: "1"}\npaths:\n  /a: {get: {operationId: x, responses: {200: {description: ok}}}}\n  /b: {get: {operationId: x, responses: {200: {description: ok}}}}\n')]), 422, 'invalid_spec'],
    ['no spec part', imports([bodyPart({ nickname: 'x' })]), 400, 'validation_failed', { field: 'spec' }],
    ['both spec and file', imports([specPart(petstore.bytes), specPart(petstore.bytes, 'file')]), 400, 'validation_failed', { field: 'spec' }],
    ['the spec part twice', imports([specPart(petstore.bytes), specPart(petstore.bytes)]), 400, 'validation_failed', { field: 'spec' }],
    ['an unknown part', imports([specPart(petstore.bytes), { name: 'extra', value: 'x' }]), 400, 'validation_failed', { field: 'extra' }],
    ['an unknown body field', imports([specPart(petstore.bytes), bodyPart({ nickname: 'x', owner: 3 })]), 400, 'validation_failed', { field: 'owner' }],
    ['createRelease of the wrong type', imports([specPart(petstore.bytes), bodyPart({ createRelease: 'yes' })]), 400, 'validation_failed', { field: 'createRelease' }],
    ['a nickname of the wrong type', imports([specPart(petstore.bytes), bodyPart({ nickname: 5 })]), 400, 'validation_failed', { field: 'nickname' }],
    ['a body that is not JSON', imports([specPart(petstore.bytes), bodyPart('{nickname: x')]), 400, 'validation_failed', { field: 'body' }],
    ['a body that is a JSON list', imports([specPart(petstore.bytes), bodyPart('[]')]), 400, 'validation_failed', { field: 'body' }],
    ['a nickname the rules refuse', imports([specPart(petstore.bytes), bodyPart({ nickname: '../../etc' })]), 400, 'validation_failed', { field: 'nickname' }],
    ['an unknown type', imports([specPart(petstore.bytes), bodyPart({ type: 'secret' })]), 400, 'validation_failed', { field: 'type' }],
    ['an invalid release version', imports([specPart(petstore.bytes), bodyPart({ nickname: 'fresh', createRelease: true, releaseVersion: 'not valid/1' })]), 400, 'validation_failed', { field: 'releaseVersion' }],
    ['an info.version that cannot be a release label', imports([specPart(petstore.bytes.toString('utf8').replace('version: 1.0.0', 'version: "1.0 final"')), bodyPart({ nickname: 'label', createRelease: true })]), 422, 'invalid_spec', { field: 'info.version' }],
    ['a nickname the account already has', imports([specPart(petstore.bytes), bodyPart({ nickname: 'taken' })]), 409, 'duplicate_nickname'],
    ['a spec over IMPORT_MAX_BYTES', imports([specPart('swagger: "2.0"\n' + '#'.repeat(LIMIT + 10))]), 413, 'payload_too_large'],
    ['an alias bomb', imports([specPart(bomb)]), 400, 'unparseable_spec'],
    ['an OpenAPI 3.1 document over IMPORT_MAX_BYTES', imports([specPart('openapi: 3.1.0\n' + '#'.repeat(LIMIT + 10))]), 413, 'payload_too_large'],
    ['an alias bomb inside OpenAPI 3.0 components', imports([specPart(`openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\ncomponents:\n  x-bomb:\n${bomb.replace(/^/gm, '    ')}\n`)]), 400, 'unparseable_spec'],
    ['OpenAPI 3.1 schemas nested too deeply', imports([specPart(`{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"Deep":${'{"items":'.repeat(200)}{}${'}'.repeat(200)}}}}`)]), 400, 'unparseable_spec'],
    ['an OpenAPI 3.1 document holding the character U+0000', imports([specPart('openapi: 3.1.0\ninfo: {title: "T\u0000", version: "1"}\npaths: {}\n')]), 400, 'unparseable_spec', { line: 2 }],
    ['an OpenAPI 3.0 document escaping U+0000 in a value', imports([specPart('openapi: 3.0.3\ninfo: {title: T, version: "1", description: "a\\0b"}\npaths: {}\n')]), 422, 'invalid_spec', { field: 'info.description' }],
    ['a deeply nested document', imports([specPart('a: ' + '['.repeat(30_000) + ']'.repeat(30_000))]), 400, 'unparseable_spec'],
    ['a spec holding the character U+0000', imports([specPart('swagger: "2.0"\ninfo: {title: "T\u0000", version: "1"}\npaths: {}\n')]), 400, 'unparseable_spec', { line: 2 }],
    ['a spec escaping U+0000 in a value', imports([specPart(petstore.bytes.toString('utf8').replace('title: Swagger Petstore', 'title: "Swagger\\0Petstore"'))]), 422, 'invalid_spec', { field: 'info.title' }],
    ['a raw spec update escaping U+0000 in a key', () => server.request('PUT', `${apiPath}/spec`, { token: all, body: petstore.bytes.toString('utf8') + '\n"x-a\\u0000": 1\n', headers: { 'Content-Type': 'application/yaml' } }), 422, 'invalid_spec', { field: 'x-a\\u0000' }],
    ['an import body holding U+0000', imports([specPart(petstore.bytes), bodyPart({ nickname: 'n\u0000' })]), 400, 'validation_failed', { field: 'nickname' }],
    ['a JSON body instead of multipart', () => server.request('POST', `/api/${ada.accountId}/import`, { token: all, body: { nickname: 'x' } }), 415, 'unsupported_media_type'],
    [
      'multipart without a boundary',
      () => server.request('POST', `/api/${ada.accountId}/import`, { token: all, body: 'x', headers: { 'Content-Type': 'multipart/form-data' } }),
      400,
      'invalid_multipart',
    ],
    [
      'truncated multipart',
      () => server.request('POST', `/api/${ada.accountId}/import`, { token: all, body: '--b\r\nContent-Disposition: form-data; name="spec"\r\n\r\nswagger', headers: { 'Content-Type': 'multipart/form-data; boundary=b' } }),
      400,
      'invalid_multipart',
    ],
    [
      'a part without a name',
      () => server.request('POST', `/api/${ada.accountId}/import`, { token: all, body: '--b\r\nContent-Disposition: form-data\r\n\r\nswagger: "2.0"\r\n--b--\r\n', headers: { 'Content-Type': 'multipart/form-data; boundary=b' } }),
      400,
      'validation_failed',
      { field: '(unnamed part)' },
    ],
    ['a raw spec update that does not parse', () => server.request('PUT', `${apiPath}/spec`, { token: all, body: 'swagger: [', headers: { 'Content-Type': 'application/yaml' } }), 400, 'unparseable_spec'],
    ['a raw spec update that is not a valid spec', () => server.request('PUT', `${apiPath}/spec`, { token: all, body: '{"openapi":"3.1.0"}', headers: { 'Content-Type': 'application/json' } }), 422, 'invalid_spec'],
    ['a raw spec update over the limit', () => server.request('PUT', `${apiPath}/spec`, { token: all, body: 'x'.repeat(LIMIT + 1), headers: { 'Content-Type': 'application/yaml' } }), 413, 'payload_too_large'],
    ['a spec update releasing a taken version', () => server.request('PUT', `${apiPath}/spec?release=1.0.0`, { token: all, body: petstore.bytes.toString('utf8').replace('1.0.0', '1.0.1'), headers: { 'Content-Type': 'application/yaml' } }), 409, 'duplicate_version'],
    ['a release given twice', () => server.multipart('PUT', `${apiPath}/spec?release=3.0.0`, all, [specPart(petstore.bytes), bodyPart({ release: '3.0.1' })]), 400, 'validation_failed', { field: 'release' }],
    ['a compressed body', () => server.request('PUT', `${apiPath}/spec`, { token: all, body: 'x', headers: { 'Content-Type': 'application/yaml', 'Content-Encoding': 'gzip' } }), 415, 'unsupported_media_type'],
    ['an export format that does not exist', () => server.request('GET', `${apiPath}/export?format=xml`, { token: all }), 400, 'validation_failed', { field: 'format' }],
    ['an export of a release that does not exist', () => server.request('GET', `${apiPath}/export?release=9.9.9`, { token: all }), 404, 'not_found'],
  ];

  for (const [label, send, status, code, expectation] of cases) {
    it(`${label}: ${status} ${code}, nothing written`, async () => {
      const before = await server.rowCounts();
      const started = process.cpuUsage();
      const response = await send();
      expect(response.status, await response.clone().text()).to.equal(status);
      const body = await problem(response);
      expect(body).to.include({ status, code });
      if (expectation?.field) expect(body.errors?.map((e) => e.field)).to.include(expectation.field);
      if (expectation?.line) expect(body).to.include({ line: expectation.line });
      expect(cpuMs(started), 'answered with little work (CPU ms)').to.be.below(3000);
      expect(await server.rowCounts()).to.deep.equal(before);
    });
  }

  it('refuses a declared Content-Length over the limit before the body arrives', async () => {
    const url = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/${ada.accountId}/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${all}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n--b\r\n`,
        );
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString();
        if (data.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${data}`)), 3000);
    });
    expect(answer).to.match(/^HTTP\/1\.1 413 /);
  });

  it('leaves the existing API, spec and release exactly as they were', async () => {
    const api = (await (await server.request('GET', apiPath, { token: all })).json()) as { revision: number };
    expect(api.revision).to.equal(1);
    expect(await (await server.request('GET', `${apiPath}/export`, { token: all })).text()).to.equal(petstore.bytes.toString('utf8'));
    const releases = (await (await server.request('GET', `${apiPath}/releases`, { token: all })).json()) as { items: { version: string }[] };
    expect(releases.items.map((r) => r.version)).to.deep.equal(['1.0.0']);
  });
});
