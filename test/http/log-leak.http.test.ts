import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/adapters/logging/pino-logger.js';
import { RegisterOAuthClient } from '../../src/application/identity/clients.use-cases.js';
import { RegisterUser } from '../../src/application/users/register-user.use-case.js';
import { LoggerToken } from '../../src/main/container.js';
import { forEachDatabase } from '../support/databases.js';
import { FormBrowser } from '../support/form-browser.js';
import { startTestServerOn, type TestServer } from '../support/http-server.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { swaggerFixture } from '../support/fixtures.js';

/** Every log line the server writes, at the most talkative level. */
class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/**
 * A run through everything that handles a credential — passwords, API tokens, e-mail verification
 * tokens, webhook secrets and signatures, OAuth client secrets, codes, access, refresh and ID
 * tokens, session and CSRF cookies — with the logs at `trace`: none of them may appear in any line.
 */
forEachDatabase('no credential in any log line', (target) => {
  let server: TestServer;
  const receiver = new WebhookReceiver();
  let receiverUrl: string;
  let mailDir: string;
  const logs = new LogCapture();
  const secrets = new Map<string, string>();
  const keep = (name: string, value: string | null | undefined) => {
    if (!value) throw new Error(`no ${name} to look for`);
    secrets.set(name, value);
  };

  before(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'specbase-leak-'));
    receiverUrl = await receiver.start();
    server = await startTestServerOn(target, { MAILER: 'file', MAIL_DIR: mailDir, WEBHOOK_WORKER: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '50', LOG_LEVEL: 'trace' }, (c) => {
      c.rebind(LoggerToken).toConstantValue(createLogger('trace', logs));
    });
  });
  after(async () => {
    await server?.stop();
    await receiver.stop();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('runs the tour and finds none of its secrets in the logs', async () => {
    const password = `pw-${randomBytes(9).toString('hex')}`;
    keep('password', password);
    const registered = await server.running.container.get(RegisterUser).execute({ email: 'leak@example.com', password, verified: false });
    if (!registered.ok) throw new Error('setup');
    const { accountId } = registered.value;
    keep('basic credentials', basic('leak@example.com', password).slice(6));

    // E-mail verification through the file mailer (MAILER=log would log the link by design).
    expect((await server.fetch('/user/email/verification', { method: 'POST', headers: { Authorization: basic('leak@example.com', password) } })).status).to.equal(202);
    const mail = await readFile(join(mailDir, (await readdir(mailDir)).find((n) => n.endsWith('.eml'))!), 'utf8');
    const verification = /token=(sbv_[A-Za-z0-9_-]{43})/.exec(mail)?.[1];
    keep('verification token', verification);
    expect((await server.fetch(`/user/email/verify?token=${verification}`)).status).to.equal(200);
    expect((await server.fetch('/user/email/verify', { method: 'POST', body: new URLSearchParams({ token: verification! }) })).status).to.equal(200);

    // An API token, used on every API; a failed Basic attempt too.
    await server.fetch('/user/tokens', { headers: { Authorization: basic('leak@example.com', 'a wrong guess 123') } });
    const created = await server.fetch('/user/tokens', { method: 'POST', headers: { Authorization: basic('leak@example.com', password), 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'all', scopes: ['api', 'api_release', 'api_page', 'api_share', 'webhook', 'profile'] }) });
    const apiToken = ((await created.json()) as { token: string }).token;
    keep('API token', apiToken);
    const bearer = { Authorization: `Bearer ${apiToken}` };

    const secret = `whsec-${randomBytes(12).toString('hex')}`;
    keep('webhook secret', secret);
    const webhook = await server.fetch(`/webhooks/${accountId}`, { method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ targetUrl: receiverUrl, events: ['api.created', 'api.deleted'], secret, active: true }) });
    expect(webhook.status, await webhook.clone().text()).to.equal(201);
    const generated = await server.fetch(`/webhooks/${accountId}`, { method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ targetUrl: receiverUrl, events: ['api.created'], active: true }) });
    keep('generated webhook secret', ((await generated.json()) as { secret: string }).secret);

    const form = new FormData();
    form.append('spec', new Blob([swaggerFixture('petstore.yaml').bytes]), 'petstore.yaml');
    expect((await server.fetch(`/api/${accountId}/import`, { method: 'POST', headers: bearer, body: form })).status).to.equal(201);
    await receiver.until(() => receiver.received.length >= 2, 10_000, 'the api.created deliveries');
    const signature = receiver.received[0]?.headers['x-service-signature'];
    keep('webhook signature', Array.isArray(signature) ? signature[0] : signature);
    expect((await server.fetch(`/api/${accountId}`, { headers: { Authorization: 'Bearer sbt_notatokenatallnotatokenatallnotatokenatall1' } })).status).to.equal(401);

    // The identity service: client secret, session and CSRF cookies, code, tokens, in query strings too.
    const client = await server.running.container.get(RegisterOAuthClient).execute({ name: 'Leaky', redirectUris: ['http://127.0.0.1:9/cb'], public: false });
    if (!client.ok) throw new Error('setup');
    keep('client secret', client.value.clientSecret);
    const verifier = randomBytes(32).toString('base64url');
    keep('PKCE verifier', verifier);
    const browser = new FormBrowser(server.url);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const back = await browser.authorize(
      `/o/oauth2/auth?${new URLSearchParams({ response_type: 'code', client_id: client.value.clientId, redirect_uri: 'http://127.0.0.1:9/cb', scope: 'openid email', access_type: 'offline', code_challenge: challenge, code_challenge_method: 'S256' }).toString()}`,
      { email: 'leak@example.com', password },
    );
    keep('code', back.searchParams.get('code'));
    keep('session cookie', browser.cookies.get('sb_session'));
    keep('CSRF cookie', browser.cookies.get('sb_csrf'));
    const tokens = (await (
      await server.fetch('/o/oauth2/token', {
        method: 'POST',
        headers: { Authorization: basic(client.value.clientId, client.value.clientSecret!) },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: verifier }),
      })
    ).json()) as { access_token: string; refresh_token: string; id_token: string };
    keep('access token', tokens.access_token);
    keep('refresh token', tokens.refresh_token);
    keep('ID token', tokens.id_token);
    await server.fetch(`/oauth2/v2/tokeninfo?access_token=${tokens.access_token}`);
    await server.fetch(`/oauth2/v2/tokeninfo?id_token=${tokens.id_token}`);
    await server.fetch(`/oauth2/v2/userinfo?access_token=${tokens.access_token}`);
    await server.fetch('/userinfo/v2/me', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    await server.fetch('/o/oauth2/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.value.clientId, client_secret: client.value.clientSecret! }) });
    await server.fetch('/o/oauth2/revoke', { method: 'POST', body: new URLSearchParams({ token: tokens.refresh_token }) });

    // A password change.
    const newPassword = `new-${randomBytes(9).toString('hex')}`;
    keep('new password', newPassword);
    expect((await server.fetch('/user/password', { method: 'PUT', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ currentPassword: password, newPassword }) })).status).to.equal(204);

    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = logs.text.split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => l.includes('"msg":"request"')).length, 'every request was logged').to.be.at.least(20);
    for (const [name, value] of secrets) {
      const line = lines.find((l) => l.includes(value));
      expect(line, `${name} appears in a log line`).to.equal(undefined);
    }
  });

  it('redacts the bound parameters a database error carries', () => {
    const capture = new LogCapture();
    const logger = createLogger('info', capture);
    const error = Object.assign(new Error('duplicate key'), { query: 'INSERT INTO webhooks ...', parameters: ['whsec-leaked-secret'] });
    logger.error({ err: error }, 'unhandled error');
    expect(capture.text).to.include('INSERT INTO webhooks');
    expect(capture.text).not.to.include('whsec-leaked-secret');
  });
});
