import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetAccountPlan } from '../../src/application/accounts/account-plan.use-cases.js';
import { SendTrialReminders } from '../../src/application/accounts/send-trial-reminders.use-case.js';
import { RegisterUser } from '../../src/application/users/register-user.use-case.js';
import { Clock } from '../../src/application/ports/clock.port.js';
import type { Scope } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { ShiftedClock } from '../support/fakes.js';
import { problem, startTestServerOn, type TestServer, type TestUser } from '../support/http-server.js';

const DAY = 24 * 60 * 60 * 1000;
const SCOPES: readonly Scope[] = ['api', 'api_page', 'webhook', 'profile'];
const basic = (user: TestUser) => ({ Authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}` });

/** Small ceilings, so that each can be reached by a test. */
const PLAN_ENV = {
  PLAN_FREE_APIS: '3',
  PLAN_FREE_WEBHOOKS: '1',
  PLAN_FREE_API_TOKENS: '2',
  PLAN_FREE_PAGES_PER_API: '1',
  PLAN_FREE_IMPORT_BYTES: '3000',
  PLAN_PRIVATE_APIS: '8',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};

interface PlanLimitProblem {
  status: number;
  code: string;
  detail: string;
  plan: string;
  quota: string;
  limit: number;
  current: number;
}

/** A Swagger 2.0 document of about `bytes` bytes (a padded description). */
function document(title: string, bytes = 400): string {
  const base = { swagger: '2.0', info: { title, version: '1.0.0', description: '' }, paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } } };
  const pad = Math.max(0, bytes - JSON.stringify(base).length);
  return JSON.stringify({ ...base, info: { ...base.info, description: 'x'.repeat(pad) } });
}

forEachDatabase('plans and quotas over HTTP', (target) => {
  let server: TestServer;
  let n = 0;

  before(async function () {
    this.timeout(60_000);
    server = await startTestServerOn(target, PLAN_ENV);
  });
  after(async () => {
    await server?.stop();
  });

  async function someone(): Promise<{ user: TestUser; token: string }> {
    n += 1;
    const user = await server.user(`user${n}@example.com`, `user${n}`);
    return { user, token: await server.token(user, SCOPES) };
  }

  async function onPlan(user: TestUser, plan: 'free' | 'private'): Promise<void> {
    const changed = await server.running.container.get(SetAccountPlan).execute({ accountId: user.accountId, plan });
    if (!changed.ok) throw new Error(JSON.stringify(changed.error));
  }

  async function refused(response: Response, quota: string): Promise<PlanLimitProblem> {
    expect(response.status, await response.clone().text()).to.equal(403);
    const body = (await problem(response)) as unknown as PlanLimitProblem;
    expect(body).to.include({ code: 'plan_limit', quota });
    return body;
  }

  function createApi(user: TestUser, token: string, nickname: string, type?: 'public' | 'private'): Promise<Response> {
    return server.request('POST', `/api/${user.accountId}`, { token, body: { name: nickname, nickname, ...(type ? { type } : {}) } });
  }

  function importApi(user: TestUser, token: string, nickname: string, text: string, type?: 'public' | 'private'): Promise<Response> {
    return server.multipart('POST', `/api/${user.accountId}/import`, token, [
      { name: 'spec', value: text, filename: 'spec.json', type: 'application/json' },
      { name: 'body', value: JSON.stringify({ nickname, ...(type ? { type } : {}) }) },
    ]);
  }

  it("shows a new account's 14-day trial of the Private plan on GET /user, and the operator's changes", async () => {
    const { user, token } = await someone();
    const profile = (await (await server.request('GET', '/user', { token })).json()) as { plan: { name: string; trial: boolean; trialEndDate: string } };
    expect(profile.plan).to.include({ name: 'private', trial: true });
    expect(Date.parse(profile.plan.trialEndDate) - Date.now()).to.be.within(14 * DAY - 60_000, 14 * DAY);
    await onPlan(user, 'private');
    expect(((await (await server.request('GET', '/user', { token })).json()) as { plan: unknown }).plan).to.deep.equal({ name: 'private', trial: false, trialEndDate: null });
    await onPlan(user, 'free');
    expect(((await (await server.request('GET', '/user', { token })).json()) as { plan: unknown }).plan).to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
  });

  it('on the free plan: no new private API, by create, import or PATCH, with nothing written; public APIs are fine', async () => {
    const { user, token } = await someone();
    expect((await createApi(user, token, 'kept-private')).status, 'private, the default, during the trial').to.equal(201);
    await onPlan(user, 'free');
    const before = await server.rowCounts();
    const created = await refused(await createApi(user, token, 'secret'), 'privateApis');
    expect(created).to.include({ plan: 'free', limit: 0, current: 1 });
    expect(created.detail).to.include('no private APIs');
    await refused(await createApi(user, token, 'secret', 'private'), 'privateApis');
    await refused(await importApi(user, token, 'secret', document('Secret'), 'private'), 'privateApis');
    expect(await server.rowCounts()).to.deep.equal(before);
    const open = await createApi(user, token, 'open', 'public');
    expect(open.status).to.equal(201);
    const api = (await open.json()) as { id: string };
    await refused(await server.request('PATCH', `/api/${user.accountId}/${api.id}`, { token, body: { type: 'private' } }), 'privateApis');
    const still = (await (await server.request('GET', `/api/${user.accountId}/${api.id}`, { token })).json()) as { type: string; revision: number };
    expect(still).to.include({ type: 'public', revision: 1 });
    expect((await server.request('PATCH', `/api/${user.accountId}/${api.id}`, { token, body: { name: 'Renamed' } })).status, 'other changes are fine').to.equal(200);
  });

  it('refuses the APIs, webhooks, API tokens and pages quotas once reached, with limit and current, writing nothing', async () => {
    const { user, token } = await someone();
    await onPlan(user, 'free');
    const ids: string[] = [];
    for (const nickname of ['a', 'b', 'c']) {
      const created = await createApi(user, token, nickname, 'public');
      expect(created.status).to.equal(201);
      ids.push(((await created.json()) as { id: string }).id);
    }
    let before = await server.rowCounts();
    expect(await refused(await createApi(user, token, 'd', 'public'), 'apis')).to.include({ plan: 'free', limit: 3, current: 3 });
    await refused(await importApi(user, token, 'd', document('D'), 'public'), 'apis');
    expect(await server.rowCounts()).to.deep.equal(before);

    const hook = { targetUrl: 'http://127.0.0.1:9/specbase', events: ['api.created'] };
    expect((await server.request('POST', `/webhooks/${user.accountId}`, { token, body: hook })).status).to.equal(201);
    before = await server.rowCounts();
    expect(await refused(await server.request('POST', `/webhooks/${user.accountId}`, { token, body: hook }), 'webhooks')).to.include({ limit: 1, current: 1 });
    expect(await server.rowCounts()).to.deep.equal(before);

    // One token already (the test's own); the plan allows two.
    expect((await server.request('POST', '/user/tokens', { headers: basic(user), body: { name: 'ci', scopes: ['api'] } })).status).to.equal(201);
    before = await server.rowCounts();
    expect(await refused(await server.request('POST', '/user/tokens', { headers: basic(user), body: { name: 'more', scopes: ['api'] } }), 'apiTokens')).to.include({ limit: 2, current: 2 });
    expect(await server.rowCounts()).to.deep.equal(before);

    const pages = `/api/${user.accountId}/${ids[0]!}/pages`;
    expect((await server.request('POST', pages, { token, body: { title: 'Guide', slug: 'guide', body: '# Guide' } })).status).to.equal(201);
    before = await server.rowCounts();
    expect(await refused(await server.request('POST', pages, { token, body: { title: 'More', slug: 'more', body: '' } }), 'pagesPerApi')).to.include({ limit: 1, current: 1 });
    expect(await server.rowCounts()).to.deep.equal(before);
    expect((await server.request('POST', `/api/${user.accountId}/${ids[1]!}/pages`, { token, body: { title: 'Guide', slug: 'guide', body: '' } })).status, 'per API').to.equal(201);
  });

  it('refuses a document over the import size of the plan, on import and on a spec update, writing nothing', async () => {
    const { user, token } = await someone();
    await onPlan(user, 'free');
    const created = await importApi(user, token, 'small', document('Small', 2000), 'public');
    expect(created.status, await created.clone().text()).to.equal(201);
    const api = ((await created.json()) as { api: { id: string } }).api;
    const big = document('Big', 4000);
    const before = await server.rowCounts();
    expect(await refused(await importApi(user, token, 'big', big, 'public'), 'importBytes')).to.include({ limit: 3000, current: Buffer.byteLength(big) });
    const update = await server.request('PUT', `/api/${user.accountId}/${api.id}/spec`, { token, body: big, headers: { 'Content-Type': 'application/json' } });
    expect(await refused(update, 'importBytes')).to.include({ limit: 3000, current: Buffer.byteLength(big) });
    expect(await server.rowCounts()).to.deep.equal(before);
    await onPlan(user, 'private');
    expect((await importApi(user, token, 'big', big, 'public')).status, 'no ceiling on the Private plan').to.equal(201);
  });

  it('lets exactly one of several concurrent requests take the last free slot', async function () {
    this.timeout(30_000);
    const { user, token } = await someone();
    await onPlan(user, 'free');
    for (const nickname of ['one', 'two']) expect((await createApi(user, token, nickname, 'public')).status).to.equal(201);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createApi(user, token, `racer-${i}`, 'public')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).to.deep.equal([201, 403, 403, 403, 403, 403, 403, 403]);
    for (const answer of answers.filter((a) => a.status === 403)) await refused(answer, 'apis');
    const list = (await (await server.request('GET', `/api/${user.accountId}`, { token })).json()) as { items: unknown[] };
    expect(list.items).to.have.length(3);

    const hooks = await Promise.all(Array.from({ length: 6 }, () => server.request('POST', `/webhooks/${user.accountId}`, { token, body: { targetUrl: 'http://127.0.0.1:9/x', events: ['api.created'] } })));
    expect(hooks.map((h) => h.status).sort()).to.deep.equal([201, 403, 403, 403, 403, 403]);
  });
});

forEachDatabase('the end of a trial over HTTP (a clock moved on)', (target) => {
  let server: TestServer;
  let clock: ShiftedClock;
  let mailDir: string;

  before(async function () {
    this.timeout(60_000);
    mailDir = await mkdtemp(join(tmpdir(), 'specbase-trial-mail-'));
    clock = new ShiftedClock();
    server = await startTestServerOn(
      target,
      { ...PLAN_ENV, MAILER: 'file', MAIL_DIR: mailDir, WEBHOOK_WORKER: 'true', WEBHOOK_POLL_MS: '20', TRIAL_REMINDER_INTERVAL_MS: '20' },
      (c) => {
        c.rebind(Clock).toConstantValue(clock);
      },
    );
  });
  after(async () => {
    await server?.stop();
    await rm(mailDir, { recursive: true, force: true });
  });

  async function mailsTo(to: string): Promise<string[]> {
    const names = (await readdir(mailDir)).filter((name) => name.endsWith('.eml')).sort();
    const mails = await Promise.all(names.map((name) => readFile(join(mailDir, name), 'utf8')));
    return mails.filter((mail) => mail.includes(`\r\nTo: ${to}\r\n`));
  }

  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    const until = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('tells the account once, three days before its trial ends; then the trial ends and its private API stays private and readable', async function () {
    this.timeout(60_000);
    const ada = await server.user('ada@example.com', 'ada');
    const paid = await server.user('pat@example.com', 'pat');
    const unverified = await server.running.container.get(RegisterUser).execute({ email: 'una@example.com', password: 'a long passphrase', verified: false });
    expect(unverified.ok).to.equal(true);
    const adaToken = await server.token(ada, ['api', 'profile']);
    await server.running.container.get(SetAccountPlan).execute({ accountId: paid.accountId, plan: 'private' });
    const created = await server.multipart('POST', `/api/${ada.accountId}/import`, adaToken, [
      { name: 'spec', value: document('Internal'), filename: 'spec.json', type: 'application/json' },
      { name: 'body', value: JSON.stringify({ nickname: 'internal' }) },
    ]);
    expect(created.status).to.equal(201);
    const api = ((await created.json()) as { api: { id: string; type: string } }).api;
    expect(api.type).to.equal('private');

    // Nothing while more than three days remain.
    clock.advance(10 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsTo('ada@example.com')).to.deep.equal([]);

    // Three days before the end: one message, whatever the worker's rounds and a few more run at once.
    clock.advance(DAY + 60_000);
    await eventually(async () => (await mailsTo('ada@example.com')).length > 0, 'the trial reminder');
    const reminders = server.running.container.get(SendTrialReminders);
    expect(await Promise.all([reminders.execute(), reminders.execute(), reminders.execute()])).to.deep.equal([0, 0, 0]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mails = await mailsTo('ada@example.com');
    expect(mails).to.have.length(1);
    expect(mails[0]).to.include('Subject: Your Specbase trial of the Private plan ends soon');
    expect(mails[0]).to.include('your private APIs stay private');
    expect(await mailsTo('pat@example.com'), 'no trial, no message').to.deep.equal([]);
    expect(await mailsTo('una@example.com'), "the account's address, verified or not").to.have.length(1);

    // The end: no request needed; the free plan from then on.
    clock.advance(3 * DAY);
    const profile = (await (await server.request('GET', '/user', { token: adaToken })).json()) as { plan: unknown };
    expect(profile.plan).to.deep.equal({ name: 'free', trial: false, trialEndDate: null });
    const kept = (await (await server.request('GET', `/api/${ada.accountId}/${api.id}`, { token: adaToken })).json()) as { type: string; revision: number };
    expect(kept).to.include({ type: 'private', revision: 1 });
    const exported = await server.request('GET', `/api/${ada.accountId}/${api.id}/export`, { token: adaToken });
    expect(exported.status).to.equal(200);
    expect(await exported.text()).to.equal(document('Internal'));
    expect((await fetch(`${server.url}/docs/${ada.accountId}/internal`, { redirect: 'manual' })).status, 'still not public').to.equal(303);
    const refusal = await server.request('POST', `/api/${ada.accountId}`, { token: adaToken, body: { name: 'Another', nickname: 'another' } });
    expect(refusal.status).to.equal(403);
    expect(await problem(refusal)).to.include({ code: 'plan_limit' });
    expect(await mailsTo('ada@example.com'), 'still one message').to.have.length(1);
  });
});
