import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';
import { WebhookReceiver, sleep } from '../support/webhook-receiver.js';

interface WebhookBody {
  id: string;
  targetUrl: string;
  events: string[];
  active: boolean;
  secretSet: boolean;
  secret?: string;
  lastResponse: { status: number | null; body: string; durationMs: number; date: string } | null;
  deactivationReason: string | null;
}
interface DeliveryBody {
  id: string;
  eventId: string;
  event: string;
  state: string;
  attempts: { status: number | null; error: string | null; responseBody: string; durationMs: number; date: string }[];
  nextAttemptDate: string | null;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`not reached in time: ${JSON.stringify(value).slice(0, 500)}`);
    await sleep(25);
  }
}

forEachDatabase('Event-API: webhooks over HTTP', (target) => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let all: string;
  let receiver: WebhookReceiver;
  let receiverUrl: string;

  before(async () => {
    server = await startTestServerOn(target, {
      WEBHOOK_WORKER: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_TIMEOUT_MS: '2000',
    });
    ada = await server.user('ada@example.com', 'ada');
    bob = await server.user('bob@example.com', 'bob');
    all = await server.token(ada, SCOPES);
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
  });
  after(async () => {
    await server?.stop();
    await receiver?.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.respond = () => 200;
  });

  async function createWebhook(body: Record<string, unknown>, token = all, accountId = ada.accountId): Promise<WebhookBody> {
    const response = await server.request('POST', `/webhooks/${accountId}`, { token, body });
    expect(response.status, await response.clone().text()).to.equal(201);
    return (await response.json()) as WebhookBody;
  }
  const deliveries = async (id: string) =>
    ((await (await server.request('GET', `/webhooks/${ada.accountId}/${id}/deliveries`, { token: all })).json()) as { items: DeliveryBody[] }).items;

  it('delivers api.created once to an activated webhook, signed both ways, and shows the last response', async () => {
    const path = '/hooks/created';
    const webhook = await createWebhook({ targetUrl: receiverUrl + path, events: ['api.created'] });
    expect(webhook).to.include({ active: false, secretSet: true, lastResponse: null });
    expect(webhook.secret).to.match(/^[0-9a-f]{64}$/);
    const secret = webhook.secret!;
    const shown = (await (await server.request('GET', `/webhooks/${ada.accountId}/${webhook.id}`, { token: all })).json()) as WebhookBody;
    expect(shown).to.not.have.property('secret');
    const inactive = await createWebhook({ targetUrl: `${receiverUrl}/hooks/inactive`, events: ['api.created'], secret: 'a secret of my own' });
    expect(inactive).to.not.have.property('secret');

    expect((await server.request('POST', `/webhooks/${ada.accountId}/${webhook.id}/activate`, { token: all })).status).to.equal(200);
    const created = await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Pets', nickname: 'pets-webhook' } });
    const api = (await created.json()) as { id: string; revision: number };

    await receiver.waitFor(1, path);
    await sleep(300);
    expect(receiver.received.map((r) => r.path)).to.deep.equal([path]);
    const [delivery] = receiver.received;
    const body = delivery!.body;
    expect(delivery!.headers['content-type']).to.equal('application/json');
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(receiverUrl + path, 'utf8').update(body, 'utf8').digest('hex');
    expect(delivery!.headers['x-service-signature']).to.equal(expected);
    const standard = new StandardWebhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
    expect(() => standard.verify(body, delivery!.headers as Record<string, string>)).to.not.throw();
    const payload = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).to.deep.equal(['id', 'name', 'resource', 'resourceType', 'timestamp', 'user']);
    expect(payload).to.deep.include({ id: delivery!.headers['webhook-id'], name: 'api.created', resourceType: 'Api', user: { id: ada.userId, nickname: 'ada' } });
    expect(payload['resource']).to.deep.include({ id: api.id, nickname: 'pets-webhook', revision: 1 });
    expect(payload['timestamp']).to.match(/\+00:00$/);

    const after = await eventually(
      async () => (await (await server.request('GET', `/webhooks/${ada.accountId}/${webhook.id}`, { token: all })).json()) as WebhookBody,
      (w) => w.lastResponse !== null,
    );
    expect(after.lastResponse).to.deep.include({ status: 200, body: 'ok' });
    const log = await deliveries(webhook.id);
    expect(log).to.have.length(1);
    expect(log[0]).to.deep.include({ eventId: payload['id'], event: 'api.created', state: 'succeeded', nextAttemptDate: null });
    expect(log[0]!.attempts.map((a) => a.status)).to.deep.equal([200]);
    expect(await deliveries(inactive.id)).to.deep.equal([]);
  });

  it('reads one delivery of the log as the log shows it; an unknown id or another webhook\'s delivery is not found', async () => {
    const webhook = await createWebhook({ targetUrl: receiverUrl + '/hooks/read-one', events: ['api.created'], active: true });
    await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'One', nickname: 'one-delivery' } });
    const log = await eventually(() => deliveries(webhook.id), (items) => items[0]?.state === 'succeeded');
    const one = await server.request('GET', `/webhooks/${ada.accountId}/${webhook.id}/deliveries/${log[0]!.id}`, { token: await server.token(ada, ['webhook.readonly']) });
    expect(one.status).to.equal(200);
    expect(await one.json()).to.deep.equal(log[0]);
    const unknown = await server.request('GET', `/webhooks/${ada.accountId}/${webhook.id}/deliveries/00000000-0000-7000-8000-000000000000`, { token: all });
    expect(unknown.status).to.equal(404);
    const other = await createWebhook({ targetUrl: receiverUrl + '/hooks/read-other', events: ['api.deleted'] });
    const elsewhere = await server.request('GET', `/webhooks/${ada.accountId}/${other.id}/deliveries/${log[0]!.id}`, { token: all });
    expect(elsewhere.status, "another webhook's delivery is not found").to.equal(404);
    for (const id of [webhook.id, other.id]) await server.request('DELETE', `/webhooks/${ada.accountId}/${id}`, { token: all });
  });

  it('retries a failing receiver with backoff until it succeeds, and redelivers the same event id', async () => {
    const path = '/hooks/flaky';
    const webhook = await createWebhook({ targetUrl: receiverUrl + path, events: ['api.created', 'api.deleted'], active: true });
    receiver.respond = (request) => (request.path === path && receiver.at(path).length <= 2 ? 500 : 200);
    await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Flaky', nickname: 'flaky' } });
    await receiver.waitFor(3, path);
    const flaky = receiver.at(path);
    const ids = new Set(flaky.map((r) => r.headers['webhook-id']));
    expect(ids.size, 'every retry carries the same event id').to.equal(1);
    expect(flaky[1]!.at - flaky[0]!.at, 'the first retry waits for the backoff (50 ms +-20%)').to.be.at.least(35);
    const log = await eventually(() => deliveries(webhook.id), (items) => items[0]?.state === 'succeeded');
    expect(log).to.have.length(1);
    expect(log[0]!.attempts.map((a) => a.status)).to.deep.equal([500, 500, 200]);
    expect(log[0]!.attempts[0]!.responseBody).to.match(/^failure \d+$/);
    expect(log[0]!.attempts[0]!.error).to.equal(null);

    const redelivered = await server.request('POST', `/webhooks/${ada.accountId}/${webhook.id}/deliveries/${log[0]!.id}/redeliver`, { token: all });
    expect(redelivered.status).to.equal(202);
    await receiver.waitFor(4, path);
    expect(receiver.at(path)[3]!.headers['webhook-id']).to.equal([...ids][0]);
    expect(receiver.at(path)[3]!.body).to.equal(receiver.at(path)[2]!.body);
    const after = await eventually(() => deliveries(webhook.id), (items) => items.length === 2 && items[0]!.state === 'succeeded');
    expect(after.map((d) => d.eventId)).to.deep.equal([log[0]!.eventId, log[0]!.eventId]);

    await server.request('POST', `/webhooks/${ada.accountId}/${webhook.id}/deactivate`, { token: all });
    const refused = await server.request('POST', `/webhooks/${ada.accountId}/${webhook.id}/deliveries/${log[0]!.id}/redeliver`, { token: all });
    expect(refused.status).to.equal(409);
    expect(await problem(refused)).to.include({ code: 'webhook_inactive' });
  });

  it('gives up after the last attempt and deactivates a webhook that never succeeded, saying why', async () => {
    const path = '/hooks/down';
    const webhook = await createWebhook({ targetUrl: receiverUrl + path, events: ['api.created'], active: true });
    receiver.respond = (request) => (request.path === path ? 503 : 200);
    await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Down', nickname: 'down' } });
    await receiver.waitFor(4, path);
    const shown = await eventually(
      async () => (await (await server.request('GET', `/webhooks/${ada.accountId}/${webhook.id}`, { token: all })).json()) as WebhookBody,
      (w) => !w.active,
    );
    expect(shown.deactivationReason).to.match(/4 failed attempts/);
    expect(shown.lastResponse).to.deep.include({ status: 503 });
    const [delivery] = await deliveries(webhook.id);
    expect(delivery).to.deep.include({ state: 'failed', nextAttemptDate: null });
    await sleep(200);
    expect(receiver.at(path)).to.have.length(4);
  });

  it('pings at once, active or not', async () => {
    const webhook = await createWebhook({ targetUrl: `${receiverUrl}/hooks/ping`, events: ['release.released'] });
    const response = await server.request('POST', `/webhooks/${ada.accountId}/${webhook.id}/ping`, { token: all });
    expect(response.status).to.equal(202);
    await receiver.waitFor(1, '/hooks/ping');
    expect(JSON.parse(receiver.at('/hooks/ping')[0]!.body)).to.deep.include({ name: 'ping', resourceType: 'Webhook' });
  });

  it('updates, deactivates and deletes: deliveries follow the current settings', async () => {
    const webhook = await createWebhook({ targetUrl: `${receiverUrl}/hooks/one`, events: ['api.deleted'], active: true });
    const base = `/webhooks/${ada.accountId}/${webhook.id}`;
    const patched = await server.request('PATCH', base, { token: all, body: { targetUrl: `${receiverUrl}/hooks/two`, events: ['api.created'] } });
    expect(await patched.json()).to.deep.include({ targetUrl: `${receiverUrl}/hooks/two`, events: ['api.created'] });
    await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Moved', nickname: 'moved' } });
    await receiver.waitFor(1, '/hooks/two');
    expect(receiver.at('/hooks/one')).to.deep.equal([]);
    expect((await server.request('POST', `${base}/deactivate`, { token: all })).status).to.equal(200);
    receiver.received.length = 0;
    await server.request('POST', `/api/${ada.accountId}`, { token: all, body: { name: 'Quiet', nickname: 'quiet' } });
    await sleep(300);
    expect(receiver.received.filter((r) => r.path === '/hooks/two')).to.deep.equal([]);
    expect((await server.request('DELETE', base, { token: all })).status).to.equal(204);
    expect((await server.request('GET', base, { token: all })).status).to.equal(404);
  });

  for (const [label, body, field] of [
    ['an unknown event', { targetUrl: 'https://example.com/h', events: ['api.renamed'] }, 'events'],
    ['no events', { targetUrl: 'https://example.com/h', events: [] }, 'events'],
    ['events that are not a list', { targetUrl: 'https://example.com/h', events: 'api.created' }, 'events'],
    ['a short secret', { targetUrl: 'https://example.com/h', events: ['api.created'], secret: 'short' }, 'secret'],
    ['a non-http target', { targetUrl: 'file:///etc/passwd', events: ['api.created'] }, 'targetUrl'],
    ['an unknown field', { targetUrl: 'https://example.com/h', events: ['api.created'], owner: 2 }, 'owner'],
  ] as const) {
    it(`refuses ${label} with 400 naming ${field}`, async () => {
      const response = await server.request('POST', `/webhooks/${ada.accountId}`, { token: all, body });
      expect(response.status).to.equal(400);
      expect((await problem(response)).errors?.map((e) => e.field)).to.include(field);
    });
  }

  it("hides another account's webhooks as not found", async () => {
    const webhook = await createWebhook({ targetUrl: `${receiverUrl}/hooks/private`, events: ['api.created'] });
    const bobToken = await server.token(bob, ['webhook']);
    for (const [method, path] of [
      ['GET', `/webhooks/${ada.accountId}`],
      ['GET', `/webhooks/${ada.accountId}/${webhook.id}`],
      ['GET', `/webhooks/${bob.accountId}/${webhook.id}`],
      ['POST', `/webhooks/${bob.accountId}/${webhook.id}/ping`],
      ['DELETE', `/webhooks/${bob.accountId}/${webhook.id}`],
    ] as const) {
      expect((await server.request(method, path, { token: bobToken })).status, `${method} ${path}`).to.equal(404);
    }
  });
});

forEachDatabase('Event-API: private webhook targets refused by default', (target) => {
  let server: TestServer;
  let all: string;
  let accountId: number;

  before(async () => {
    server = await startTestServerOn(target);
    const ada = await server.user('ada@example.com', 'ada');
    accountId = ada.accountId;
    all = await server.token(ada, SCOPES);
  });
  after(async () => {
    await server?.stop();
  });

  for (const url of ['http://127.0.0.1:8080/h', 'http://localhost/h', 'http://[::1]/h', 'http://10.1.2.3/h', 'http://192.168.0.10/h', 'http://169.254.169.254/latest/meta-data', 'http://2130706433/h', 'http://0.0.0.0/h']) {
    it(`refuses ${url} with a clear 400`, async () => {
      const response = await server.request('POST', `/webhooks/${accountId}`, { token: all, body: { targetUrl: url, events: ['api.created'] } });
      expect(response.status).to.equal(400);
      const body = await problem(response);
      expect(body.errors?.[0]?.field).to.equal('targetUrl');
      expect(body.detail).to.match(/targetUrl: .+/);
    });
  }
});
