import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegisterUser } from '../../src/application/users/register-user.use-case.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer } from '../support/http-server.js';

const basic = (email: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });
const PASSWORD = 'a long passphrase';

forEachDatabase('User-API: e-mail verification through the mailer over HTTP', (target) => {
  let server: TestServer;
  let mailDir: string;

  before(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'specbase-mail-'));
    server = await startTestServerOn(target, { MAILER: 'file', MAIL_DIR: mailDir, PUBLIC_URL: 'https://docs.example.com' });
  });
  after(async () => {
    await server?.stop();
    await rm(mailDir, { recursive: true, force: true });
  });

  async function unverified(email: string): Promise<{ accountId: number; auth: Record<string, string> }> {
    const registered = await server.running.container.get(RegisterUser).execute({ email, password: PASSWORD, verified: false });
    if (!registered.ok) throw new Error('setup');
    return { accountId: registered.value.accountId, auth: basic(email, PASSWORD) };
  }

  /** The messages written to the mail directory for `to`, oldest first. */
  async function mailsTo(to: string): Promise<string[]> {
    const names = (await readdir(mailDir)).filter((n) => n.endsWith('.eml')).sort();
    const mails = await Promise.all(names.map((n) => readFile(join(mailDir, n), 'utf8')));
    return mails.filter((m) => m.includes(`\r\nTo: ${to}\r\n`));
  }

  function linkIn(mail: string): URL {
    const match = /https:\/\/docs\.example\.com\/user\/email\/verify\?token=\S+/.exec(mail);
    if (!match) throw new Error(`no link in ${mail}`);
    return new URL(match[0]);
  }

  function verifyPath(link: URL): string {
    return `${link.pathname}${link.search}`;
  }

  it('refuses a token before verification, sends a link, verifies through the page, then issues a working token that stops working when revoked', async () => {
    const { accountId, auth } = await unverified('dee@example.com');
    const before = await server.request('POST', '/user/tokens', { headers: auth, body: { name: 'ci', scopes: ['api'] } });
    expect(before.status).to.equal(403);
    expect(await problem(before)).to.include({ code: 'email_not_verified' });

    const sent = await server.request('POST', '/user/email/verification', { headers: auth });
    expect(sent.status).to.equal(202);
    const receipt = (await sent.json()) as { email: string; expirationDate: string };
    expect(receipt.email).to.equal('dee@example.com');
    expect(Date.parse(receipt.expirationDate) - Date.now()).to.be.within(23.9 * 3600_000, 24 * 3600_000);
    const [mail, ...others] = await mailsTo('dee@example.com');
    expect(others).to.deep.equal([]);
    expect(mail).to.include('Subject: Verify your e-mail address for Specbase\r\n');
    expect(mail).to.match(/^From: Specbase <no-reply@docs\.example\.com>\r\n/);
    expect(mail).to.match(/\r\nMessage-ID: <[0-9a-f-]{36}@docs\.example\.com>\r\n/);
    const link = linkIn(mail!);
    const token = link.searchParams.get('token')!;
    expect(token).to.match(/^sbv_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(receipt)).not.to.include(token);

    const page = await server.request('GET', verifyPath(link));
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
    const html = await page.text();
    expect(html).to.include(`name="token" value="${token}"`);
    expect((await server.request('POST', '/user/tokens', { headers: auth, body: { name: 'ci', scopes: ['api'] } })).status, 'opening the page verifies nothing').to.equal(403);

    const confirmed = await server.fetch('/user/email/verify', { method: 'POST', body: new URLSearchParams({ token }) });
    expect(confirmed.status).to.equal(200);
    expect(await confirmed.text()).to.include('dee@example.com is verified');

    const created = await server.request('POST', '/user/tokens', { headers: auth, body: { name: 'ci', scopes: ['api'] } });
    expect(created.status).to.equal(201);
    const apiToken = (await created.json()) as { id: string; token: string };
    expect((await server.request('GET', `/api/${accountId}`, { token: apiToken.token })).status).to.equal(200);
    expect((await server.request('DELETE', `/user/tokens/${apiToken.id}`, { headers: auth })).status).to.equal(204);
    expect((await server.request('GET', `/api/${accountId}`, { token: apiToken.token })).status).to.equal(401);

    const again = await server.request('POST', '/user/email/verification', { headers: auth });
    expect(again.status).to.equal(409);
    expect(await problem(again)).to.include({ code: 'email_already_verified' });
  });

  it('takes the token as JSON too, once: a used, replaced or made-up token is a 400 and verifies nothing', async () => {
    const { auth } = await unverified('eve@example.com');
    await server.request('POST', '/user/email/verification', { headers: auth });
    await server.request('POST', '/user/email/verification', { headers: auth });
    const [first, second] = (await mailsTo('eve@example.com')).map((m) => linkIn(m).searchParams.get('token')!);
    expect(first).to.not.equal(second);

    for (const token of [first, `sbv_${'A'.repeat(43)}`, 'sbt_not-a-verification-token', 42, '']) {
      const refused = await server.request('POST', '/user/email/verify', { body: { token } });
      expect(refused.status, String(token)).to.equal(400);
      expect(await problem(refused)).to.deep.include({ code: 'validation_failed' });
    }
    expect((await server.request('POST', '/user/tokens', { headers: auth, body: { name: 'ci', scopes: ['api'] } })).status, 'still unverified').to.equal(403);

    const accepted = await server.request('POST', '/user/email/verify', { body: { token: second } });
    expect(accepted.status).to.equal(200);
    expect(await accepted.json()).to.deep.equal({ email: 'eve@example.com', emailVerified: true });
    const reused = await server.request('POST', '/user/email/verify', { body: { token: second } });
    expect(reused.status).to.equal(400);
    const reusedForm = await server.fetch('/user/email/verify', { method: 'POST', body: new URLSearchParams({ token: second! }) });
    expect(reusedForm.status).to.equal(400);
    expect(await reusedForm.text()).to.include('This link no longer works');
  });

  it('sends nothing without the right password, and answers a cut-short link with a page, not a form', async () => {
    await unverified('fay@example.com');
    const wrong = await server.request('POST', '/user/email/verification', { headers: basic('fay@example.com', 'not the passphrase') });
    expect(wrong.status).to.equal(401);
    expect(wrong.headers.get('www-authenticate')).to.match(/^Basic /);
    expect((await server.request('POST', '/user/email/verification')).status).to.equal(401);
    expect(await mailsTo('fay@example.com')).to.deep.equal([]);

    const cut = await server.request('GET', '/user/email/verify?token=sbv_%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(cut.status).to.equal(400);
    const html = await cut.text();
    expect(html).to.include('not complete');
    expect(html).not.to.include('<script');
    expect(html).not.to.include('<form');
    expect((await server.request('POST', '/user/email/verify', { body: { token: 'x', extra: 1 } })).status).to.equal(400);
  });
});
