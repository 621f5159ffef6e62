import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/adapters/logging/pino-logger.js';
import { LoggerToken } from '../../src/main/container.js';
import { forEachDatabase } from '../support/databases.js';
import { startTestServerOn, type TestServer } from '../support/http-server.js';

class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line !== '') this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

/** The request log line of one request, found by the request id it was sent with. */
function requestLine(logs: LogCapture, requestId: string): Record<string, unknown> {
  const lines = logs.lines.filter((l) => l['requestId'] === requestId && l['msg'] === 'request');
  expect(lines, `one request line for ${requestId}`).to.have.length(1);
  return lines[0]!;
}

forEachDatabase('request log lines', (target) => {
  let server: TestServer;
  const logs = new LogCapture();
  before(async () => {
    server = await startTestServerOn(target, {}, (c) => c.rebind(LoggerToken).toConstantValue(createLogger('info', logs)));
  });
  after(async () => server?.stop());

  it('carry the request id, method, route pattern, raw path, status and duration of every request', async () => {
    const user = await server.user('logs@example.com', 'logs');
    const token = await server.token(user, ['api']);
    const created = await server.request('POST', `/api/${user.accountId}`, { token, body: { name: 'Logged', nickname: 'logged' }, headers: { 'X-Request-Id': 'log-create' } });
    expect(created.status).to.equal(201);
    const api = (await created.json()) as { id: string };
    const cases: { id: string; method: string; path: string; token?: string; status: number; route: string | null }[] = [
      { id: 'log-get', method: 'GET', path: `/api/${user.accountId}/${api.id}?fields=x`, token, status: 200, route: '/api/:accountId/:apiId' },
      { id: 'log-head', method: 'HEAD', path: `/api/${user.accountId}/${api.id}`, token, status: 200, route: '/api/:accountId/:apiId' },
      // Refused by the Bearer check mounted on /api, before the route's own middleware runs.
      { id: 'log-401', method: 'GET', path: `/api/${user.accountId}/${api.id}`, status: 401, route: '/api/:accountId/:apiId' },
      { id: 'log-405', method: 'PUT', path: `/api/${user.accountId}/${api.id}`, token, status: 405, route: '/api/:accountId/:apiId' },
      { id: 'log-404', method: 'GET', path: '/no/such/thing', status: 404, route: null },
      { id: 'log-health', method: 'GET', path: '/healthz', status: 200, route: '/healthz' },
    ];
    for (const c of cases) {
      const response = await server.request(c.method, c.path, { ...(c.token === undefined ? {} : { token: c.token }), headers: { 'X-Request-Id': c.id } });
      expect(response.status, c.id).to.equal(c.status);
    }
    // A line is written when the answer is complete; give the last one a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(requestLine(logs, 'log-create')).to.deep.include({ level: 30, method: 'POST', route: '/api/:accountId', path: `/api/${user.accountId}`, status: 201 });
    for (const c of cases) {
      const line = requestLine(logs, c.id);
      expect(line, c.id).to.deep.include({ method: c.method, route: c.route, path: c.path.split('?')[0], status: c.status, service: 'specbase' });
      expect(line['durationMs'], c.id).to.be.a('number').within(0, 10_000);
      expect(typeof line['time'], c.id).to.equal('number');
    }
    expect(JSON.stringify(logs.lines)).to.not.include(token);
    expect(JSON.stringify(logs.lines)).to.not.include('fields=x');
  });
});
