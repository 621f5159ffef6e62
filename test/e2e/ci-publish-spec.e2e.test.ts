import { expect } from 'chai';
import { spawnTracked } from '../support/processes.js';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { SCOPES } from '../../src/domain/token/scope.js';
import { ROOT } from '../support/built-cli.js';
import { startTestServer, type TestServer, type TestUser } from '../support/http-server.js';

/*
 * docs/ci-cd.md and examples/ci/publish-spec.sh against a real server: the script as a child
 * process, and the `run` steps of the guide's GitHub Actions workflows as GitHub runs them
 * (`bash --noprofile --norc -eo pipefail`), with their `${{ ... }}` expressions filled in.
 */

const SCRIPT = join(ROOT, 'examples/ci/publish-spec.sh');
const CHECK = join(ROOT, 'examples/ci/check-breaking.sh');
const PETSTORE = readFileSync(join(ROOT, 'test/fixtures/swagger/petstore.yaml'), 'utf8');
const PETSTORE_1_1 = PETSTORE.replace('  version: 1.0.0\n', '  version: 1.1.0\n');
const INVALID_OPENAPI_3 = 'openapi: 3.0.3\ninfo:\n  title: No responses\n  version: 1.0.0\npaths:\n  /pets:\n    get:\n      summary: List pets\n';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    // Only PATH from outside: the script must not depend on anything else in the environment.
    const child = spawnTracked(command, args, { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly run?: string;
}

/** The workflows of docs/ci-cd.md (its ```yaml blocks). */
function guideWorkflows(): { jobs: Record<string, { steps: Step[] }> }[] {
  const guide = readFileSync(join(ROOT, 'docs/ci-cd.md'), 'utf8');
  return [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as { jobs: Record<string, { steps: Step[] }> });
}

/** `${{ expression }}` replaced from `values`; an expression it does not know fails the test. */
function fillIn(value: string, values: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const filled = values[expression];
    if (filled === undefined) throw new Error(`the test does not know the expression \${{ ${expression} }}`);
    return filled;
  });
}

describe('CI/CD publishing (docs/ci-cd.md, examples/ci/publish-spec.sh) against a real server', () => {
  let dir: string;
  let server: TestServer;
  let owner: TestUser;
  let ownerAll: string;
  let narrow: string;
  let nickname = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'specbase-ci-'));
    server = await startTestServer({ kind: 'sqlite', path: join(dir, 'test.sqlite') });
    owner = await server.user('owner@example.com', 'owner');
    ownerAll = await server.token(owner, SCOPES);
    narrow = await server.token(owner, ['api', 'api_release']);
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A new empty API of the owner; resolves to its id. */
  async function emptyApi(): Promise<string> {
    nickname += 1;
    const response = await server.request('POST', `/api/${owner.accountId}`, { token: narrow, body: { name: 'CI', nickname: `ci-${nickname}` } });
    expect(response.status).to.equal(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function get<T>(path: string): Promise<{ status: number; body: T; text: string }> {
    const response = await server.request('GET', path, { token: ownerAll });
    const text = await response.text();
    let body: T;
    try {
      body = JSON.parse(text) as T;
    } catch {
      body = undefined as T;
    }
    return { status: response.status, body, text };
  }

  function specFile(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  function script(env: Record<string, string>): Promise<Run> {
    return run('bash', [SCRIPT], env, dir);
  }

  const scriptEnv = (apiId: string, extra: Record<string, string>): Record<string, string> => ({
    SPECBASE_URL: server.url,
    SPECBASE_TOKEN: narrow,
    SPECBASE_ACCOUNT: String(owner.accountId),
    SPECBASE_API: apiId,
    SPEC_FILE: specFile('petstore.yaml', PETSTORE),
    ...extra,
  });

  describe('examples/ci/publish-spec.sh', () => {
    it('replaces the spec and releases it with a token of scopes api and api_release', async () => {
      const apiId = await emptyApi();
      const result = await script(scriptEnv(apiId, { SPECBASE_RELEASE: '1.0.0' }));
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      const answer = JSON.parse(result.stdout) as { api: { revision: number; version: string }; release: { version: string; status: string } };
      expect(answer.api).to.include({ revision: 2, version: '1.0.0' });
      expect(answer.release).to.include({ version: '1.0.0', status: 'released' });

      expect((await get(`/api/${owner.accountId}/${apiId}/export`)).text).to.equal(PETSTORE);
      expect((await get(`/api/${owner.accountId}/${apiId}/export?release=1.0.0`)).text).to.equal(PETSTORE);
      const release = await get<{ status: string }>(`/api/${owner.accountId}/${apiId}/releases/1.0.0`);
      expect(release.status).to.equal(200);
      expect(release.body.status).to.equal('released');

      // Without a release only the spec changes; the same document again changes nothing.
      const again = await script(scriptEnv(apiId, {}));
      expect(again.code, again.stderr).to.equal(0);
      expect(JSON.parse(again.stdout)).to.deep.include({ release: null });
      expect((JSON.parse(again.stdout) as { api: { revision: number } }).api.revision).to.equal(2);
    });

    it('fails on a 4xx with the status and the problem+json on stderr, and a refused release leaves the spec as it was', async () => {
      const apiId = await emptyApi();
      expect((await script(scriptEnv(apiId, { SPECBASE_RELEASE: '1.0.0' }))).code).to.equal(0);

      const duplicate = await script(scriptEnv(apiId, { SPEC_FILE: specFile('petstore-1.1.yaml', PETSTORE_1_1), SPECBASE_RELEASE: '1.0.0' }));
      expect(duplicate.code).to.equal(1);
      expect(duplicate.stdout).to.equal('');
      const [first, second] = duplicate.stderr.trimEnd().split('\n');
      expect(first).to.equal(`publish-spec: PUT ${server.url}/api/${owner.accountId}/${apiId}/spec?release=1.0.0 answered 409:`);
      expect(JSON.parse(second!)).to.include({ status: 409, code: 'duplicate_version' });
      expect((await get(`/api/${owner.accountId}/${apiId}/export`)).text, 'the spec was rolled back with the release').to.equal(PETSTORE);
      expect((await get<{ revision: number }>(`/api/${owner.accountId}/${apiId}`)).body.revision).to.equal(2);

      const invalid = await script(scriptEnv(apiId, { SPEC_FILE: specFile('openapi3.yaml', INVALID_OPENAPI_3) }));
      expect(invalid.code).to.equal(1);
      expect(JSON.parse(invalid.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 422, code: 'invalid_spec' });

      const unparseable = await script(scriptEnv(apiId, { SPEC_FILE: specFile('broken.yaml', 'swagger: "2.0"\ninfo: [unclosed\n') }));
      expect(unparseable.code).to.equal(1);
      expect(JSON.parse(unparseable.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 400, code: 'unparseable_spec' });

      const revoked = await script(scriptEnv(apiId, { SPECBASE_TOKEN: 'sbt_' + 'A'.repeat(43) }));
      expect(revoked.code).to.equal(1);
      expect(JSON.parse(revoked.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 401, code: 'invalid_token' });

      const unknownApi = await script(scriptEnv('01a20150-2f6b-721c-b64b-122869a64584', {}));
      expect(unknownApi.code).to.equal(1);
      expect(JSON.parse(unknownApi.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 404, code: 'not_found' });
      expect((await get(`/api/${owner.accountId}/${apiId}/export`)).text).to.equal(PETSTORE);
    });

    it('needs api_release for a release: api alone may only replace the spec', async () => {
      const apiId = await emptyApi();
      const apiOnly = await server.token(owner, ['api']);
      const refused = await script(scriptEnv(apiId, { SPECBASE_TOKEN: apiOnly, SPECBASE_RELEASE: '1.0.0' }));
      expect(refused.code).to.equal(1);
      expect(JSON.parse(refused.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 403, code: 'insufficient_scope' });
      expect((await get(`/api/${owner.accountId}/${apiId}/export`)).status, 'nothing stored').to.equal(404);

      const specOnly = await script(scriptEnv(apiId, { SPECBASE_TOKEN: apiOnly }));
      expect(specOnly.code, specOnly.stderr).to.equal(0);
      expect((await get(`/api/${owner.accountId}/${apiId}/export`)).text).to.equal(PETSTORE);
    });

    it('percent-encodes the release label ("+" included) and sends If-Match', async () => {
      const apiId = await emptyApi();
      const plus = await script(scriptEnv(apiId, { SPECBASE_RELEASE: 'v1.0.0+build.7' }));
      expect(plus.code, plus.stderr).to.equal(0);
      const release = await get<{ version: string }>(`/api/${owner.accountId}/${apiId}/releases/${encodeURIComponent('v1.0.0+build.7')}`);
      expect(release.status, release.text).to.equal(200);
      expect(release.body.version).to.equal('v1.0.0+build.7');

      const stale = await script(scriptEnv(apiId, { SPEC_FILE: specFile('petstore-1.1.yaml', PETSTORE_1_1), SPECBASE_IF_MATCH: '1' }));
      expect(stale.code).to.equal(1);
      expect(JSON.parse(stale.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 412, code: 'revision_conflict' });
      const current = await script(scriptEnv(apiId, { SPEC_FILE: specFile('petstore-1.1.yaml', PETSTORE_1_1), SPECBASE_IF_MATCH: '2' }));
      expect(current.code, current.stderr).to.equal(0);
      expect((JSON.parse(current.stdout) as { api: { revision: number; version: string } }).api).to.include({ revision: 3, version: '1.1.0' });
    });

    it('works for a CI user given the one API as editor, with a token made over HTTP Basic', async () => {
      const apiId = await emptyApi();
      const ci = await server.user('ci@example.com', 'ci');
      const shared = await server.request('POST', `/api/${owner.accountId}/${apiId}/shares`, { token: ownerAll, body: { email: 'ci@example.com', role: 'editor' } });
      expect(shared.status, await shared.clone().text()).to.equal(201);
      const created = await fetch(`${server.url}/user/tokens`, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`ci@example.com:${ci.password}`).toString('base64')}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'github-actions', scopes: ['api', 'api_release'] }),
      });
      expect(created.status).to.equal(201);
      const ciToken = ((await created.json()) as { token: string }).token;

      const result = await script(scriptEnv(apiId, { SPECBASE_TOKEN: ciToken, SPECBASE_RELEASE: '1.0.0' }));
      expect(result.code, result.stderr).to.equal(0);
      expect((await get<{ status: string }>(`/api/${owner.accountId}/${apiId}/releases/1.0.0`)).body.status).to.equal('released');
      // ...and nothing else of the owner's account.
      const other = await emptyApi();
      const refused = await script(scriptEnv(other, { SPECBASE_TOKEN: ciToken }));
      expect(refused.code).to.equal(1);
      expect(JSON.parse(refused.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 404 });
      const deleted = await fetch(`${server.url}/api/${owner.accountId}/${apiId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${ciToken}` } });
      expect(deleted.status).to.equal(403);
    });

    it('stops with curl\'s message and exit code when the server cannot be reached', async () => {
      const result = await script(scriptEnv('x', { SPECBASE_URL: 'http://127.0.0.1:1' }));
      expect(result.code).to.equal(7);
      expect(result.stderr).to.match(/^curl: \(7\) /);
    });

    it('exits 2 naming a missing variable, before sending anything', async () => {
      const env = scriptEnv('x', {});
      delete env['SPECBASE_TOKEN'];
      const result = await script(env);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.equal('publish-spec: SPECBASE_TOKEN is required\n');
    });
  });

  describe('the GitHub Actions workflows of docs/ci-cd.md', () => {
    it('has three workflows, each with one step that runs a script', () => {
      const workflows = guideWorkflows();
      expect(workflows).to.have.length(3);
      for (const workflow of workflows) expect(Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.run !== undefined))).to.have.length(1);
    });

    for (const index of [0, 1]) {
      it(`workflow ${index + 1}: a push to main replaces the spec, a tag releases it, a re-run of the tag fails the step`, async () => {
        const apiId = await emptyApi();
        const workspace = mkdtempSync(join(dir, 'workspace-'));
        mkdirSync(join(workspace, 'api'));
        writeFileSync(join(workspace, 'api/swagger.yaml'), PETSTORE);
        mkdirSync(join(workspace, '.github/scripts'), { recursive: true });
        copyFileSync(SCRIPT, join(workspace, '.github/scripts/publish-spec.sh'));
        chmodSync(join(workspace, '.github/scripts/publish-spec.sh'), 0o755);

        const workflow = guideWorkflows()[index]!;
        const step = Object.values(workflow.jobs).flatMap((job) => job.steps).find((s) => s.run !== undefined)!;
        expect(step.shell).to.equal('bash');
        const runStep = async (ref: { type: 'branch' | 'tag'; name: string }, url = server.url): Promise<Run> => {
          const values: Record<string, string> = {
            'vars.SPECBASE_URL': url,
            'vars.SPECBASE_ACCOUNT': String(owner.accountId),
            'vars.SPECBASE_API': apiId,
            'secrets.SPECBASE_TOKEN': narrow,
            // What GitHub makes of the expression for a tag and for a branch.
            "github.ref_type == 'tag' && github.ref_name || ''": ref.type === 'tag' ? ref.name : '',
          };
          const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, fillIn(String(value), values)]));
          const file = join(workspace, 'step.sh');
          writeFileSync(file, fillIn(step.run!, values));
          return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { ...env, GITHUB_ACTIONS: 'true' }, workspace);
        };

        const push = await runStep({ type: 'branch', name: 'main' });
        expect(push.code, push.stdout + push.stderr).to.equal(0);
        expect((await get(`/api/${owner.accountId}/${apiId}/export`)).text).to.equal(PETSTORE);
        expect((await get<{ items: unknown[] }>(`/api/${owner.accountId}/${apiId}/releases`)).body.items).to.deep.equal([]);

        const tag = await runStep({ type: 'tag', name: 'v1.0.0+build.7' });
        expect(tag.code, tag.stdout + tag.stderr).to.equal(0);
        const release = await get<{ status: string }>(`/api/${owner.accountId}/${apiId}/releases/${encodeURIComponent('v1.0.0+build.7')}`);
        expect(release.status, release.text).to.equal(200);
        expect((await get(`/api/${owner.accountId}/${apiId}/export?release=${encodeURIComponent('v1.0.0+build.7')}`)).text).to.equal(PETSTORE);

        const unreachable = await runStep({ type: 'branch', name: 'main' }, 'http://127.0.0.1:1');
        expect(unreachable.code, 'a curl that cannot connect fails the step').to.equal(7);
        expect(unreachable.stderr).to.match(/curl: \(7\) /);

        const rerun = await runStep({ type: 'tag', name: 'v1.0.0+build.7' });
        expect(rerun.code).to.not.equal(0);
        expect(rerun.stdout + rerun.stderr).to.match(/"code":"duplicate_version"/);
        if (index === 0) {
          expect(rerun.stdout).to.match(/^::error title=Specbase answered 409::\{.*"code":"duplicate_version"/m);
        }
      });
    }
  });

  describe('examples/ci/check-breaking.sh and the pull-request workflow', () => {
    const WITHOUT_ORDER_DELETE = (() => {
      const document = parse(PETSTORE) as { paths: Record<string, Record<string, unknown>> };
      delete document.paths['/store/order/{orderId}']!['delete'];
      return stringify(document);
    })();

    async function publishedApi(): Promise<string> {
      const apiId = await emptyApi();
      const put = await server.request('PUT', `/api/${owner.accountId}/${apiId}/spec`, { token: narrow, body: PETSTORE, headers: { 'Content-Type': 'application/yaml' } });
      expect(put.status).to.equal(200);
      return apiId;
    }

    function check(apiId: string, spec: string, extra: Record<string, string> = {}): Promise<Run> {
      const file = join(dir, `check-${apiId}.yaml`);
      writeFileSync(file, spec);
      return run(CHECK, [], { SPECBASE_URL: server.url, SPECBASE_TOKEN: narrow, SPECBASE_ACCOUNT: String(owner.accountId), SPECBASE_API: apiId, SPEC_FILE: file, ...extra }, dir);
    }

    it('removes an operation in the document under check (the test document is what it says)', () => {
      expect(WITHOUT_ORDER_DELETE).to.not.equal(PETSTORE);
      expect((parse(WITHOUT_ORDER_DELETE) as { paths: Record<string, Record<string, unknown>> }).paths['/store/order/{orderId}']).to.have.keys(['get']);
    });

    it('passes a change that breaks nothing, listing it, and stores nothing', async () => {
      const apiId = await publishedApi();
      const before = await get<{ revision: number }>(`/api/${owner.accountId}/${apiId}`);
      const result = await check(apiId, PETSTORE_1_1);
      expect(result.code, result.stdout + result.stderr).to.equal(0);
      expect(result.stdout.split('\n')[0]).to.equal('check-breaking: 0 breaking, 0 warning, 0 info');
      expect((await get<{ revision: number }>(`/api/${owner.accountId}/${apiId}`)).body.revision).to.equal(before.body.revision);
    });

    it('fails on a breaking change with one readable line per change, and on a warning only when asked', async () => {
      const apiId = await publishedApi();
      const result = await check(apiId, WITHOUT_ORDER_DELETE);
      expect(result.code).to.equal(1);
      expect(result.stdout.split('\n').slice(0, 2)).to.deep.equal([
        'check-breaking: 1 breaking, 0 warning, 0 info',
        'BREAKING endpoint-removed  DELETE /store/order/{orderId} was removed.  (/paths/~1store~1order~1{orderId}/delete)',
      ]);
      expect(result.stderr).to.equal('check-breaking: 1 change(s) at breaking or above: the job fails\n');
      const deprecated = PETSTORE.replace('      operationId: getInventory\n', '      operationId: getInventory\n      deprecated: true\n');
      expect((await check(apiId, deprecated)).code, 'a warning passes by default').to.equal(0);
      const strict = await check(apiId, deprecated, { SPECBASE_FAIL_ON: 'warning' });
      expect(strict.code).to.equal(1);
      expect(strict.stdout).to.include('WARNING  endpoint-deprecated  GET /store/inventory became deprecated.');
    });

    it("lists the breaking changes the API's refuse policy answers with, and passes on Specbase's refusal of a bad document", async () => {
      const apiId = await publishedApi();
      expect((await server.request('PATCH', `/api/${owner.accountId}/${apiId}`, { token: narrow, body: { breakingChangePolicy: 'refuse' } })).status).to.equal(200);
      const refused = await check(apiId, WITHOUT_ORDER_DELETE);
      expect(refused.code).to.equal(1);
      expect(refused.stdout).to.include("breakingChangePolicy is refuse").and.include('BREAKING endpoint-removed');
      const invalid = await check(apiId, INVALID_OPENAPI_3);
      expect(invalid.code).to.equal(1);
      expect(JSON.parse(invalid.stderr.trimEnd().split('\n')[1]!)).to.include({ status: 422, code: 'invalid_spec' });
      expect((await check(apiId, PETSTORE, { SPECBASE_FAIL_ON: 'info' })).code).to.equal(2);
    });

    it('workflow 3: the pull-request check fails the step on a breaking change, with an ::error annotation, and passes otherwise', async () => {
      const apiId = await publishedApi();
      const workspace = mkdtempSync(join(dir, 'workspace-'));
      mkdirSync(join(workspace, 'api'));
      mkdirSync(join(workspace, '.github/scripts'), { recursive: true });
      copyFileSync(CHECK, join(workspace, '.github/scripts/check-breaking.sh'));
      chmodSync(join(workspace, '.github/scripts/check-breaking.sh'), 0o755);
      const step = Object.values(guideWorkflows()[2]!.jobs).flatMap((job) => job.steps).find((s) => s.run !== undefined)!;
      expect(step.shell).to.equal('bash');
      const values: Record<string, string> = { 'vars.SPECBASE_URL': server.url, 'vars.SPECBASE_ACCOUNT': String(owner.accountId), 'vars.SPECBASE_API': apiId, 'secrets.SPECBASE_TOKEN': narrow };
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, fillIn(String(value), values)]));
      const runStep = async (spec: string): Promise<Run> => {
        writeFileSync(join(workspace, 'api/swagger.yaml'), spec);
        writeFileSync(join(workspace, 'step.sh'), fillIn(step.run!, values));
        return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', join(workspace, 'step.sh')], { ...env, GITHUB_ACTIONS: 'true' }, workspace);
      };
      const breaking = await runStep(WITHOUT_ORDER_DELETE);
      expect(breaking.code).to.equal(1);
      expect(breaking.stdout).to.include('::error title=endpoint-removed::DELETE /store/order/{orderId} was removed.');
      expect((await runStep(PETSTORE_1_1)).code).to.equal(0);
    });
  });
});
