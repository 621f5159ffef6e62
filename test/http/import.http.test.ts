import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { expectedCounts, swaggerFixture, type SpecFixture } from '../support/fixtures.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

interface ImportBody {
  api: { id: string; name: string; nickname: string; version: string | null; revision: number; description: string | null };
  release: { version: string; status: string } | null;
  counts: { endpoints: number; models: number; environments: number; authAdapters: number };
}

type BodyForm = 'field' | 'json-part' | 'none';

function documentOf(fixture: SpecFixture): Record<string, unknown> {
  const text = fixture.bytes.toString('utf8');
  return (fixture.syntax === 'json' ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown>;
}

forEachDatabase('Core-API: import, spec updates and export over HTTP', (target) => {
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

  const importSpec = (fixture: SpecFixture, partName: 'spec' | 'file', bodyForm: BodyForm, body: object, token = all) => server.importSpec(ada.accountId, token, fixture, partName, bodyForm, body);
  const walk = (path: string, limit: number) => server.walk<unknown>(path, all, limit);

  const cases: [string, 'spec' | 'file', BodyForm][] = [
    ['petstore.yaml', 'spec', 'json-part'],
    ['petstore.yaml', 'file', 'field'],
    ['petstore.json', 'spec', 'field'],
    ['petstore.json', 'file', 'json-part'],
    ['petstore.yaml', 'spec', 'none'],
    ['okta-management-2.15.0.yaml', 'file', 'json-part'],
    ['kubernetes-1.13.json.gz', 'spec', 'field'],
    ['circular.yaml', 'file', 'none'],
  ];
  let n = 0;
  for (const [file, partName, bodyForm] of cases) {
    it(`imports ${file} as part "${partName}" with the body ${bodyForm === 'none' ? 'left out' : `as a ${bodyForm}`}: counts, derived lists and export round trip`, async function () {
      this.timeout(30_000);
      const fixture = swaggerFixture(file);
      const document = documentOf(fixture);
      const nickname = `import-${++n}`;
      const response = await importSpec(fixture, partName, bodyForm, { nickname, type: 'public' });
      expect(response.status, await response.clone().text()).to.equal(201);
      const body = (await response.json()) as ImportBody;
      const info = document['info'] as { title: string; version: string };
      expect(body.api).to.include({ name: info.title, version: info.version, revision: 1 });
      expect(body.api.nickname).to.equal(bodyForm === 'none' ? body.api.nickname : nickname);
      expect(body.release).to.equal(null);
      expect(body.counts).to.deep.equal(expectedCounts(document));
      expect(response.headers.get('location')).to.equal(`/api/${ada.accountId}/${body.api.id}`);
      const base = `/api/${ada.accountId}/${body.api.id}`;

      const endpoints = (await walk(`${base}/endpoints`, 200)) as { method: string; path: string }[];
      expect(endpoints).to.have.length(body.counts.endpoints);
      const firstPath = Object.keys(document['paths'] as object).find((p) => !p.startsWith('x-'));
      if (firstPath) expect(endpoints[0]!.path).to.equal(firstPath);
      expect(await walk(`${base}/models`, 200)).to.have.length(body.counts.models);
      expect(await walk(`${base}/environments`, 50)).to.have.length(body.counts.environments);
      expect(await walk(`${base}/auth-adapters`, 50)).to.have.length(body.counts.authAdapters);

      const asUploaded = await server.request('GET', `${base}/export`, { token: all });
      expect(asUploaded.headers.get('content-type')).to.match(fixture.syntax === 'yaml' ? /^application\/yaml/ : /^application\/json/);
      expect(await asUploaded.text()).to.equal(fixture.bytes.toString('utf8'));
      for (const format of ['yaml', 'json'] as const) {
        const exported = await server.request('GET', `${base}/export?format=${format}`, { token: all });
        expect(exported.status).to.equal(200);
        expect(exported.headers.get('content-disposition')).to.match(new RegExp(`filename=".+\\.${format}"`));
        const text = await exported.text();
        expect(format === 'json' ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })).to.deep.equal(document);
      }
    });
  }

  it('creates the first release with the import, in the same request (createRelease + releaseVersion)', async () => {
    const response = await importSpec(swaggerFixture('petstore.yaml'), 'spec', 'json-part', { nickname: 'with-release', createRelease: true, releaseVersion: '2026.1' });
    expect(response.status).to.equal(201);
    expect(((await response.json()) as ImportBody).release).to.include({ version: '2026.1', status: 'released' });
  });

  it('takes a document whatever its title: a blank one names the API after its nickname, a long one is cut to 200 characters', async () => {
    const petstore = swaggerFixture('petstore.yaml').bytes.toString('utf8');
    const withTitle = (title: string) => ({ ...swaggerFixture('petstore.yaml'), bytes: Buffer.from(petstore.replace('title: Swagger Petstore', `title: ${title}`)) });
    const blank = await importSpec(withTitle('""'), 'spec', 'field', { nickname: 'untitled-pets' });
    expect(blank.status, await blank.clone().text()).to.equal(201);
    expect(((await blank.json()) as ImportBody).api).to.include({ name: 'untitled-pets', nickname: 'untitled-pets' });
    const anonymous = await importSpec(withTitle('"  "'), 'spec', 'none', {});
    expect(((await anonymous.json()) as ImportBody).api).to.include({ name: 'Untitled API', nickname: 'api' });
    const long = await importSpec(withTitle('x'.repeat(300)), 'spec', 'field', { nickname: 'long-title' });
    expect(long.status).to.equal(201);
    expect(((await long.json()) as ImportBody).api.name).to.equal(`${'x'.repeat(199)}…`);
  });

  it('releases info.version when createRelease names no version', async () => {
    const response = await importSpec(swaggerFixture('petstore.json'), 'spec', 'field', { nickname: 'default-version', createRelease: true });
    expect(((await response.json()) as ImportBody).release).to.include({ version: '1.0.0' });
  });

  it('needs api_release as well to import with createRelease, and writes nothing without it', async () => {
    const apiOnly = await server.token(ada, ['api']);
    const before = await server.rowCounts();
    const refused = await importSpec(swaggerFixture('petstore.yaml'), 'spec', 'field', { nickname: 'no-release-scope', createRelease: true }, apiOnly);
    expect(refused.status).to.equal(403);
    expect(refused.headers.get('www-authenticate')).to.include('scope="api_release"');
    expect(await server.rowCounts()).to.deep.equal(before);
    const plain = await importSpec(swaggerFixture('petstore.yaml'), 'spec', 'field', { nickname: 'no-release-scope' }, apiOnly);
    expect(plain.status).to.equal(201);
  });

  describe('PUT .../spec from CI/CD', () => {
    const petstore = swaggerFixture('petstore.yaml');
    const changed = petstore.bytes.toString('utf8').replace('version: 1.0.0', 'version: 2.0.0').replace('title: Swagger Petstore', 'title: Petstore Two');

    it('replaces the spec with a raw YAML body, grows the revision and follows info', async () => {
      const created = (await (await importSpec(petstore, 'spec', 'field', { nickname: 'ci-raw' })).json()) as ImportBody;
      const base = `/api/${ada.accountId}/${created.api.id}`;
      const response = await server.request('PUT', `${base}/spec`, { token: all, body: changed, headers: { 'Content-Type': 'application/yaml', 'If-Match': '"1"' } });
      expect(response.status, await response.clone().text()).to.equal(200);
      expect(response.headers.get('etag')).to.equal('"2"');
      const body = (await response.json()) as ImportBody;
      expect(body.api).to.include({ revision: 2, name: 'Petstore Two', version: '2.0.0', nickname: 'ci-raw' });
      expect(body.release).to.equal(null);
      expect(await (await server.request('GET', `${base}/export`, { token: all })).text()).to.equal(changed);

      const same = await server.request('PUT', `${base}/spec`, { token: all, body: changed, headers: { 'Content-Type': 'application/yaml' } });
      expect(((await same.json()) as ImportBody).api.revision, 'the same text again changes nothing').to.equal(2);

      const stale = await server.request('PUT', `${base}/spec`, { token: all, body: petstore.bytes.toString('utf8'), headers: { 'Content-Type': 'application/yaml', 'If-Match': '"1"' } });
      expect(stale.status).to.equal(412);
      expect(await (await server.request('GET', `${base}/export`, { token: all })).text()).to.equal(changed);
    });

    it('replaces the spec by multipart and releases it with ?release=, or with the body part', async () => {
      const created = (await (await importSpec(petstore, 'spec', 'field', { nickname: 'ci-multipart' })).json()) as ImportBody;
      const base = `/api/${ada.accountId}/${created.api.id}`;
      const viaQuery = await server.multipart('PUT', `${base}/spec?release=2.0.0`, all, [{ name: 'file', value: changed, filename: 'swagger.yaml', type: 'text/yaml' }]);
      expect(viaQuery.status, await viaQuery.clone().text()).to.equal(200);
      expect(((await viaQuery.json()) as ImportBody).release).to.include({ version: '2.0.0', status: 'released' });
      const viaBody = await server.multipart('PUT', `${base}/spec`, all, [
        { name: 'spec', value: petstore.bytes, filename: 'swagger.yaml', type: 'text/yaml' },
        { name: 'body', value: JSON.stringify({ release: '2.0.1' }), type: 'application/json' },
      ]);
      const body = (await viaBody.json()) as ImportBody;
      expect(body.release).to.include({ version: '2.0.1' });
      expect(body.api.revision).to.equal(3);
      const releases = (await (await server.request('GET', `${base}/releases`, { token: all })).json()) as { items: { version: string }[] };
      expect(releases.items.map((r) => r.version)).to.deep.equal(['2.0.0', '2.0.1']);
    });

    it('rolls the whole update back when its release cannot be made (duplicate version)', async () => {
      const created = (await (await importSpec(petstore, 'spec', 'field', { nickname: 'ci-rollback', createRelease: true, releaseVersion: '1.0.0' })).json()) as ImportBody;
      const base = `/api/${ada.accountId}/${created.api.id}`;
      const before = await server.rowCounts();
      const response = await server.request('PUT', `${base}/spec?release=1.0.0`, { token: all, body: changed, headers: { 'Content-Type': 'application/yaml' } });
      expect(response.status).to.equal(409);
      expect(await problem(response)).to.include({ code: 'duplicate_version' });
      expect(await server.rowCounts()).to.deep.equal(before);
      const api = (await (await server.request('GET', base, { token: all })).json()) as ImportBody['api'];
      expect(api).to.include({ revision: 1, name: 'Swagger Petstore' });
      expect(await (await server.request('GET', `${base}/export`, { token: all })).text()).to.equal(petstore.bytes.toString('utf8'));
    });

    it('gives an API created empty its first spec', async () => {
      const empty = (await (await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Empty', nickname: 'empty-then-spec' } })).json()) as { id: string };
      const base = `/api/${ada.accountId}/${empty.id}`;
      expect((await server.request('GET', `${base}/export`, { token: all })).status).to.equal(404);
      expect(await (await server.request('GET', `${base}/endpoints`, { token: all })).json()).to.deep.equal({ items: [], nextCursor: null });
      const response = await server.request('PUT', `${base}/spec`, { token: all, body: petstore.bytes.toString('utf8'), headers: { 'Content-Type': 'text/yaml' } });
      expect(((await response.json()) as ImportBody).api).to.include({ revision: 2, name: 'Swagger Petstore' });
      expect((await walk(`${base}/endpoints`, 50)).length).to.equal(20);
    });
  });
});
