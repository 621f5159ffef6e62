import { expect } from 'chai';
import Database from 'better-sqlite3';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import sinon from 'sinon';
import { AuthenticateToken } from '../../src/application/auth/authenticate-token.use-case.js';
import { RememberedAnswers } from '../../src/adapters/http/remembered-answers.js';
import { createLogger } from '../../src/adapters/logging/pino-logger.js';
import { ConfigToken, LoggerToken } from '../../src/main/container.js';
import type { Config } from '../../src/main/config.js';
import { Readiness } from '../../src/main/readiness.js';
import { forEachDatabase } from '../support/databases.js';
import { startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '') this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

interface RawAnswer {
  readonly status: number;
  /** As sent: name, value, name, value. */
  readonly rawHeaders: readonly string[];
  readonly body: string;
}

/** A GET over node:http, which keeps the headers in the order and case they were sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers without those every answer makes anew: its id, the date and the limit's state. */
function lasting(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    kept.push(/^(x-request-id|date|ratelimit-remaining|ratelimit-reset)$/i.test(name) ? name : `${name}: ${rawHeaders[i + 1]}`);
  }
  return kept;
}

const header = (answer: RawAnswer, name: string): string | undefined => {
  const at = answer.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name);
  return at < 0 ? undefined : answer.rawHeaders[at + 1];
};

forEachDatabase('remembered answers of the hot reads (ADR 0029)', (target) => {
  let server: TestServer;
  let authenticate: sinon.SinonSpiedInstance<AuthenticateToken>;
  const logs = new LogCapture();

  before(async () => {
    server = await startTestServerOn(target, { RATE_LIMIT_API: '1000' }, (c) => c.rebind(LoggerToken).toConstantValue(createLogger('info', logs)));
    authenticate = sinon.spy(server.running.container.get(AuthenticateToken));
  });
  afterEach(() => {
    authenticate.execute.resetHistory();
    authenticate.executeAtOnce.resetHistory();
  });
  after(async () => {
    sinon.restore();
    await server?.stop();
  });

  let n = 0;
  async function owner(): Promise<{ user: TestUser; token: string; apiPath: string; listPath: string }> {
    n += 1;
    const user = await server.user(`owner${n}@example.com`, `owner${n}`);
    const token = await server.token(user, ['api', 'api_share']);
    const created = await server.request('POST', `/api/${user.accountId}`, { token, body: { name: `API ${n}`, nickname: `api${n}` } });
    expect(created.status).to.equal(201);
    const { id } = (await created.json()) as { id: string };
    authenticate.execute.resetHistory();
    await server.settled();
    return { user, token, apiPath: `/api/${user.accountId}/${id}`, listPath: `/api/${user.accountId}?limit=5` };
  }
  const get = (path: string, token: string, headers: Record<string, string> = {}) => rawGet(server.url + path, { Authorization: `Bearer ${token}`, ...headers });

  it('answers a read again without Koa, with the headers and body Koa sent, counting the limit on', async () => {
    const { token, apiPath, listPath } = await owner();
    for (const path of [apiPath, listPath]) {
      const first = await get(path, token);
      expect(first.status).to.equal(200);
      expect(authenticate.execute.callCount, 'the first goes Koa\'s way').to.equal(1);
      const again = await get(path, token);
      expect(authenticate.execute.callCount, 'the second does not').to.equal(1);
      expect(authenticate.executeAtOnce.callCount).to.equal(1);
      expect(again.status).to.equal(200);
      expect(again.body).to.equal(first.body);
      expect(lasting(again.rawHeaders)).to.deep.equal(lasting(first.rawHeaders));
      expect(Number(header(again, 'ratelimit-remaining'))).to.equal(Number(header(first, 'ratelimit-remaining')) - 1);
      expect(header(again, 'x-request-id')).to.match(/^[0-9a-f-]{36}$/).and.not.equal(header(first, 'x-request-id'));
      authenticate.execute.resetHistory();
      authenticate.executeAtOnce.resetHistory();
    }
  });

  it('reads again after a write: the new name and ETag, the list too', async () => {
    const { token, apiPath, listPath } = await owner();
    const before = await get(apiPath, token);
    await get(apiPath, token);
    await get(listPath, token);
    const patched = await server.request('PATCH', apiPath, { token, body: { name: 'Renamed' } });
    expect(patched.status).to.equal(200);
    const after = await get(apiPath, token);
    expect(JSON.parse(after.body)).to.include({ name: 'Renamed' });
    expect(header(after, 'etag')).to.not.equal(header(before, 'etag'));
    expect((JSON.parse((await get(listPath, token)).body) as { items: { name: string }[] }).items[0]!.name).to.equal('Renamed');
  });

  it('refuses a token revoked over the User-API with the next request (401), though its answer was remembered', async () => {
    const { user, token, apiPath } = await owner();
    await get(apiPath, token);
    expect((await get(apiPath, token)).status).to.equal(200);
    const basic = { Authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}` };
    const listed = (await (await server.fetch('/user/tokens', { headers: basic })).json()) as { items: { id: string }[] };
    expect((await server.fetch(`/user/tokens/${listed.items[0]!.id}`, { method: 'DELETE', headers: basic })).status).to.equal(204);
    expect((await get(apiPath, token)).status).to.equal(401);
  });

  it('does not remember a grantee\'s answers (shares are read on every request): a revoked share is a 404 at once', async () => {
    const { token, apiPath } = await owner();
    const grantee = await server.user(`grantee${n}@example.com`, `grantee${n}`);
    const granteeToken = await server.token(grantee, ['api.readonly']);
    const shared = await server.request('POST', `${apiPath}/shares`, { token, body: { email: grantee.email, role: 'viewer' } });
    expect(shared.status).to.equal(201);
    const { id: shareId } = (await shared.json()) as { id: string };
    const sharedList = `/api/${apiPath.split('/')[2]}`;
    for (let i = 0; i < 3; i++) {
      expect((await get(apiPath, granteeToken)).status).to.equal(200);
      expect((await get(sharedList, granteeToken)).status).to.equal(200);
    }
    expect(authenticate.executeAtOnce.callCount, 'never remembered').to.equal(0);
    expect(server.running.container.get(RememberedAnswers).size).to.equal(0);
    expect((await server.request('DELETE', `${apiPath}/shares/${shareId}`, { token })).status).to.equal(204);
    expect((await get(apiPath, granteeToken)).status).to.equal(404);
  });

  it('logs a remembered answer like any: its request id (the caller\'s when sane), route, path without the query, status, duration; counts it in the metrics', async () => {
    const { token, listPath } = await owner();
    const count = async () => {
      const text = await (await server.fetch('/metrics')).text();
      const line = text.split('\n').find((l) => l.startsWith('specbase_http_request_duration_seconds_count{') && l.includes('route="/api/:accountId"') && l.includes('method="GET"') && l.includes('status_class="2xx"'));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    await get(listPath, token);
    const counted = await count();
    const again = await get(listPath, token, { 'X-Request-Id': 'remembered-1' });
    expect(authenticate.executeAtOnce.callCount).to.equal(1);
    expect(header(again, 'x-request-id')).to.equal('remembered-1');
    expect(await count()).to.equal(counted + 1);
    const lines = logs.lines.filter((l) => l['requestId'] === 'remembered-1' && l['msg'] === 'request');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({ level: 30, method: 'GET', route: '/api/:accountId', path: listPath.split('?')[0], status: 200 });
    expect(lines[0]!['durationMs']).to.be.a('number').within(0, 10_000);
    expect(JSON.stringify(logs.lines)).to.not.include(token);
  });

  it('goes Koa\'s way for HEAD, without a token, and with another token of the same user, though the answer is remembered', async () => {
    const { user, token, apiPath } = await owner();
    const other = await server.token(user, ['api.readonly']);
    await server.settled();
    await get(apiPath, token);
    const remembered = await get(apiPath, token);
    expect(authenticate.executeAtOnce.callCount).to.equal(1);
    expect(authenticate.executeAtOnce.returnValues[0], 'answered remembered').to.not.equal(undefined);
    authenticate.execute.resetHistory();
    const head = await server.fetch(apiPath, { method: 'HEAD', headers: { Authorization: `Bearer ${token}` } });
    expect(head.status).to.equal(200);
    expect((await rawGet(server.url + apiPath, {})).status).to.equal(401);
    const byOther = await get(apiPath, other);
    expect(byOther.status).to.equal(200);
    expect(byOther.body).to.equal(remembered.body);
    expect(authenticate.executeAtOnce.callCount, 'none of them answered remembered').to.equal(1);
    expect(authenticate.execute.callCount, 'HEAD and the other token went through the Bearer check').to.equal(2);
  });

  it('lets Koa\'s way answer when the remembered way throws (a bug there is logged, not a lost request)', async () => {
    const { token, apiPath } = await owner();
    const first = await get(apiPath, token);
    const failing = sinon.stub(server.running.container.get(RememberedAnswers), 'get').throws(new Error('remembered way broken'));
    try {
      const answer = await get(apiPath, token);
      expect(answer.status).to.equal(200);
      expect(answer.body).to.equal(first.body);
      expect(failing.callCount).to.equal(1);
    } finally {
      failing.restore();
    }
    expect(logs.lines.some((l) => l['msg'] === 'remembered answer failed' && (l['err'] as { message?: string } | undefined)?.message === 'remembered way broken')).to.equal(true);
  });

  if (target.name === 'sqlite') {
    it('reads again after another process commits to the SQLite file', async () => {
      const { token, apiPath } = await owner();
      await get(apiPath, token);
      await get(apiPath, token);
      const config = server.running.container.get<Config>(ConfigToken);
      if (config.database.kind !== 'sqlite') throw new Error('sqlite expected');
      const other = new Database(config.database.path);
      try {
        other.pragma('busy_timeout = 5000');
        expect(other.prepare('UPDATE apis SET name = ? WHERE id = ?').run('Changed elsewhere', apiPath.split('/').at(-1)).changes).to.equal(1);
      } finally {
        other.close();
      }
      expect(JSON.parse((await get(apiPath, token)).body)).to.include({ name: 'Changed elsewhere' });
    });
  }

  // Last: the instance stops taking new work.
  it('goes Koa\'s way while draining, which closes the connection after the answer', async () => {
    const { token, apiPath } = await owner();
    await get(apiPath, token);
    expect(server.running.container.get(RememberedAnswers).size).to.be.greaterThan(0);
    server.running.container.get(Readiness).drain();
    const answer = await get(apiPath, token);
    expect(answer.status).to.equal(200);
    expect(header(answer, 'connection')).to.equal('close');
    expect(authenticate.executeAtOnce.callCount).to.equal(0);
  });
});
