import { expect } from 'chai';
import { Clock } from '../../src/application/ports/clock.port.js';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/adapters/logging/pino-logger.js';
import { LoggerToken, StorageToken, type Storage } from '../../src/main/container.js';
import { WebhookWorker } from '../../src/main/webhook-worker.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { problem, startTestServerOn, type TestServer } from '../support/http-server.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** One scrape: every sample by its series (`name{a="x",b="y"}`, labels sorted), and each metric's type. */
interface Scrape {
  readonly samples: Map<string, number>;
  readonly types: Map<string, string>;
  readonly contentType: string | null;
}

function series(name: string, labels: Record<string, string> = {}): string {
  const pairs = Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}="${v}"`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(',')}}`;
}

function parse(text: string): Pick<Scrape, 'samples' | 'types'> {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    const key = series(sample[1]!, labels);
    expect(samples.has(key), `series ${key} appears once`).to.equal(false);
    samples.set(key, Number(sample[3]));
  }
  return { samples, types };
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).to.equal(200);
  expect(response.headers.get('cache-control')).to.equal('no-store');
  return { ...parse(await response.text()), contentType: response.headers.get('content-type') };
}

const value = (s: Scrape, name: string, labels: Record<string, string> = {}) => s.samples.get(series(name, labels)) ?? 0;
const HISTOGRAM = 'specbase_http_request_duration_seconds';
const DELIVERIES = 'specbase_webhook_deliveries_total';
const AUTHENTICATIONS = 'specbase_token_authentications_total';

forEachDatabase('GET /metrics', (target) => {
  let server: TestServer;
  const clock = new ShiftedClock();
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  before(async () => {
    receiverUrl = await receiver.start();
    // The worker runs when the test says so (drain), on a clock the test can move past a retry's backoff.
    server = await startTestServerOn(target, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_ATTEMPTS: '2' }, (c) => c.rebind(Clock).toConstantValue(clock));
  });
  after(async () => {
    await server?.stop();
    await receiver.stop();
  });

  it('serves the Prometheus text format with the exact series, which move with real traffic and deliveries', async () => {
    const worker = server.running.container.get(WebhookWorker);
    const user = await server.user('metrics@example.com', 'metrics');
    const token = await server.token(user, ['api', 'webhook']);
    const list = { route: '/api/:accountId', method: 'GET', status_class: '2xx' };

    const first = await scrape(server.url);
    expect(first.contentType).to.equal('text/plain; version=0.0.4; charset=utf-8');
    expect(Object.fromEntries([...first.types].filter(([name]) => name.startsWith('specbase_')))).to.deep.equal({
      [HISTOGRAM]: 'histogram',
      [DELIVERIES]: 'counter',
      [AUTHENTICATIONS]: 'counter',
      specbase_webhook_stale_run_writes_total: 'counter',
      specbase_outbox_pending_events: 'gauge',
      specbase_outbox_oldest_pending_age_seconds: 'gauge',
      specbase_webhooks_active: 'gauge',
    });
    for (const outcome of ['success', 'failure', 'gave_up', 'abandoned']) expect(first.samples.get(series(DELIVERIES, { outcome })), outcome).to.equal(0);
    for (const source of ['cache', 'database']) expect(first.samples.get(series(AUTHENTICATIONS, { source })), source).to.equal(0);
    expect(first.samples.get(series('specbase_webhook_stale_run_writes_total'))).to.equal(0);
    expect(first.samples.get(series('specbase_webhooks_active'))).to.equal(0);
    expect(first.samples.get(series('specbase_outbox_pending_events'))).to.equal(0);
    expect(first.samples.get(series('specbase_outbox_oldest_pending_age_seconds'))).to.equal(0);
    expect(first.types.get('process_cpu_user_seconds_total'), "the process's own figures").to.equal('counter');
    expect(first.types.get('nodejs_heap_size_total_bytes')).to.equal('gauge');

    // Traffic: a webhook on a loopback receiver, five listings, an unknown path.
    const hook = await server.request('POST', `/webhooks/${user.accountId}`, { token, body: { targetUrl: `${receiverUrl}/hook`, events: ['api.created'], active: true } });
    expect(hook.status).to.equal(201);
    for (let i = 0; i < 5; i += 1) expect((await server.request('GET', `/api/${user.accountId}`, { token })).status).to.equal(200);
    expect((await server.request('GET', '/nowhere')).status).to.equal(404);
    const created = await server.request('POST', `/api/${user.accountId}`, { token, body: { name: 'Measured', nickname: 'measured' } });
    expect(created.status).to.equal(201);

    const before = await scrape(server.url);
    expect(value(before, `${HISTOGRAM}_count`, list) - value(first, `${HISTOGRAM}_count`, list)).to.equal(5);
    expect(value(before, `${HISTOGRAM}_bucket`, { ...list, le: '+Inf' })).to.equal(value(before, `${HISTOGRAM}_count`, list));
    expect(value(before, `${HISTOGRAM}_sum`, list)).to.be.greaterThan(0);
    expect(value(before, `${HISTOGRAM}_count`, { route: '/api/:accountId', method: 'POST', status_class: '2xx' })).to.equal(1);
    expect(value(before, `${HISTOGRAM}_count`, { route: '/webhooks/:accountId', method: 'POST', status_class: '2xx' })).to.equal(1);
    expect(value(before, `${HISTOGRAM}_count`, { route: 'unmatched', method: 'GET', status_class: '4xx' })).to.equal(1);
    expect(value(before, `${HISTOGRAM}_count`, { route: '/metrics', method: 'GET', status_class: '2xx' }), 'the first scrape, counted once answered').to.equal(1);
    const routes = new Set([...before.samples.keys()].map((k) => /route="([^"]*)"/.exec(k)?.[1]).filter((r) => r !== undefined));
    // /openapi.json: the test server's response check reads the description once.
    expect([...routes].sort(), 'route patterns only, never a raw path').to.deep.equal(['/api/:accountId', '/metrics', '/openapi.json', '/webhooks/:accountId', 'unmatched']);
    // Seven Bearer requests with one token: the first reads the database, the token cache answers the rest.
    expect(value(before, AUTHENTICATIONS, { source: 'database' })).to.equal(1);
    expect(value(before, AUTHENTICATIONS, { source: 'cache' })).to.equal(6);
    expect(value(before, 'specbase_webhooks_active')).to.equal(1);
    expect(value(before, 'specbase_outbox_pending_events'), 'api.created waits in the outbox').to.equal(1);
    clock.advance(90_000);
    expect(value(await scrape(server.url), 'specbase_outbox_oldest_pending_age_seconds'), 'the wait grows with the clock').to.be.within(90, 120);

    // The worker delivers it to the receiver, which answers 200.
    await worker.drain();
    expect(receiver.received.filter((r) => r.event === 'api.created')).to.have.length(1);
    const delivered = await scrape(server.url);
    expect(value(delivered, DELIVERIES, { outcome: 'success' })).to.equal(1);
    expect(value(delivered, DELIVERIES, { outcome: 'failure' })).to.equal(0);
    expect(value(delivered, 'specbase_outbox_pending_events')).to.equal(0);
    expect(value(delivered, 'specbase_outbox_oldest_pending_age_seconds')).to.equal(0);
    expect(value(delivered, 'specbase_webhooks_active')).to.equal(1);

    // The receiver now fails: a failure, a retry scheduled; then the last attempt fails too and the webhook is deactivated.
    receiver.respond = () => 500;
    expect((await server.request('POST', `/api/${user.accountId}`, { token, body: { name: 'Failing', nickname: 'failing' } })).status).to.equal(201);
    await worker.drain();
    const failed = await scrape(server.url);
    expect(value(failed, DELIVERIES, { outcome: 'success' })).to.equal(1);
    expect(value(failed, DELIVERIES, { outcome: 'failure' })).to.equal(1);
    expect(value(failed, DELIVERIES, { outcome: 'gave_up' })).to.equal(0);
    expect(value(failed, 'specbase_outbox_pending_events'), 'dispatched, though not yet delivered').to.equal(0);
    clock.advance(3600_000);
    await worker.drain();
    const gaveUp = await scrape(server.url);
    expect(receiver.received.filter((r) => r.event === 'api.created')).to.have.length(3);
    expect(value(gaveUp, DELIVERIES, { outcome: 'gave_up' })).to.equal(1);
    expect(value(gaveUp, DELIVERIES, { outcome: 'failure' })).to.equal(1);
    expect(value(gaveUp, 'specbase_webhooks_active'), 'deactivated after its last failed attempt').to.equal(0);
  });

  it("keeps each container's figures apart, in one process", async () => {
    const other = await startTestServerOn(target);
    try {
      const before = await scrape(server.url);
      for (let i = 0; i < 3; i += 1) await fetch(`${other.url}/healthz`);
      const mine = await scrape(server.url);
      const theirs = await scrape(other.url);
      const health = { route: '/healthz', method: 'GET', status_class: '2xx' };
      expect(value(theirs, `${HISTOGRAM}_count`, health)).to.equal(3);
      expect(value(mine, `${HISTOGRAM}_count`, health)).to.equal(value(before, `${HISTOGRAM}_count`, health));
      expect(value(theirs, DELIVERIES, { outcome: 'success' })).to.equal(0);
    } finally {
      await other.stop();
    }
  });

  it('still answers, without the database figures, when the database is away', async () => {
    const other = await startTestServerOn(target);
    try {
      await other.running.container.get<Storage>(StorageToken).close();
      const away = await scrape(other.url);
      expect(away.types.has('specbase_outbox_pending_events')).to.equal(false);
      expect(away.types.has('specbase_webhooks_active')).to.equal(false);
      expect(away.types.get(HISTOGRAM)).to.equal('histogram');
      expect(away.types.get(DELIVERIES)).to.equal('counter');
    } finally {
      await other.stop();
    }
  });
});

forEachDatabase('GET /metrics with METRICS_TOKEN', (target) => {
  const secret = 'scrape-secret-0123456789';
  let server: TestServer;
  before(async () => {
    server = await startTestServerOn(target, { METRICS_TOKEN: secret });
  });
  after(async () => server?.stop());

  it('refuses a scrape without the token or with another one (401 invalid_token), serves one with it', async () => {
    for (const headers of [{}, { Authorization: 'Bearer scrape-secret-012345678' }, { Authorization: `Bearer ${secret}x` }, { Authorization: `Basic ${Buffer.from(`x:${secret}`).toString('base64')}` }]) {
      const refused = await fetch(`${server.url}/metrics`, { headers });
      expect(refused.status, JSON.stringify(headers)).to.equal(401);
      expect(refused.headers.get('www-authenticate')).to.equal('Bearer realm="specbase", error="invalid_token"');
      expect((await problem(refused)).code).to.equal('invalid_token');
    }
    const served = await scrape(server.url, { Authorization: `Bearer ${secret}` });
    expect(served.types.get(HISTOGRAM)).to.equal('histogram');
    expect(value(served, `${HISTOGRAM}_count`, { route: '/metrics', method: 'GET', status_class: '4xx' }), 'the refusals were counted').to.equal(4);
  });

  it('warns at start when /metrics is open beyond the loopback interface, not with a token', async () => {
    const warnings = async (env: Record<string, string>) => {
      const lines: string[] = [];
      const capture = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString('utf8').split('\n').filter((l) => l.includes('"level":40')));
          done();
        },
      });
      const started = await startTestServerOn(target, { HOST: '0.0.0.0', ...env }, (c) => c.rebind(LoggerToken).toConstantValue(createLogger('warn', capture)));
      await started.stop();
      return lines.filter((l) => l.includes('/metrics'));
    };
    expect(await warnings({})).to.have.length(1);
    expect(await warnings({ METRICS_TOKEN: secret })).to.deep.equal([]);
  });

  it('leaves /healthz and /readyz open', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
    expect((await fetch(`${server.url}/readyz`)).status).to.equal(200);
  });
});
