import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { spawnTracked } from '../support/processes.js';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyServiceSignature } from '../../src/adapters/webhooks/signatures.js';
import { BIN, ensureBuilt, ROOT } from '../support/built-cli.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../support/http-server.js';

const CLI = [BIN];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(sqlitePath: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_PATH: sqlitePath, LOG_LEVEL: 'warn', ...extra };
  delete env['DATABASE_URL'];
  delete env['SPECBASE_NO_BOOTSTRAP'];
  return env;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnTracked(process.execPath, [...CLI, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** Starts `specbase serve` and resolves once it logs where it listens (and the token, if any). */
function serve(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnTracked(process.execPath, [...CLI, 'serve'], { cwd: ROOT, env: { ...env, PORT: '0', LOG_LEVEL: 'info' } });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stdout} ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = stdout.split('\n').map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; url?: string };
        } catch {
          return undefined;
        }
      }).find((entry) => entry?.msg === 'listening');
      // The demo banner, when there is one, is printed before the listening line.
      if (listening?.url) {
        clearTimeout(timer);
        resolvePromise({ child, url: listening.url, output: () => stdout });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));
}

describe('e2e: the specbase command', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    this.timeout(120_000);
    ensureBuilt();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'specbase-cli-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serve on an empty database prints a demo token that lists an empty account, and stops on SIGTERM', async () => {
    const env = baseEnv(join(dir, 'db', 'specbase.sqlite'));
    const first = await serve(env);
    const token = /^API token: (sbt_[A-Za-z0-9_-]{43})$/m.exec(first.output())?.[1];
    const accountId = /^ {2}account: {2}(\d+)$/m.exec(first.output())?.[1];
    expect(token, first.output()).to.be.a('string');
    const response = await fetch(`${first.url}/api/${accountId}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ items: [], nextCursor: null });
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).to.equal(0);

    const second = await serve(env);
    expect(second.output()).to.not.include('API token:');
    const again = await fetch(`${second.url}/api/${accountId}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(again.status, 'the token survives a restart').to.equal(200);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).to.equal(0);
  });

  it('serve stops gracefully on a SIGTERM that comes while the demo user is being made, printing it first', async () => {
    // The server listens before the demo bootstrap (its password hash) ends: a signal then must
    // not kill the process (it did, before the handlers were set up that early).
    const port = await freePort();
    const child = spawnTracked(process.execPath, [...CLI, 'serve'], { cwd: ROOT, env: { ...baseEnv(join(dir, 'specbase.sqlite')), PORT: String(port), LOG_LEVEL: 'info' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) => child.once('exit', (code, signal) => resolvePromise({ code, signal })));
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => undefined);
      if (status === 200) break;
      if (child.exitCode !== null) throw new Error(output);
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGTERM');
    expect(await exit, output).to.deep.equal({ code: 0, signal: null });
    expect(output).to.match(/^API token: sbt_/m);
    expect(output).to.include('"msg":"shutting down"');
  });

  it('user create, user verify and token create print one JSON object each', async () => {
    const env = baseEnv(join(dir, 'specbase.sqlite'));
    const created = await cli(['user', 'create', '--email', 'ops@example.com', '--password', 'a long passphrase', '--nickname', 'ops'], env);
    expect(created.code, created.stderr).to.equal(0);
    const user = JSON.parse(created.stdout) as { userId: number; accountId: number };
    expect(user.userId).to.be.a('number');
    expect(user.accountId).to.be.a('number');

    const refused = await cli(['token', 'create', '--email', 'ops@example.com', '--name', 'ci', '--scopes', 'api'], env);
    expect(refused.code).to.not.equal(0);
    expect(refused.stdout).to.equal('');
    expect(refused.stderr).to.include('not verified');

    const verified = await cli(['user', 'verify', '--email', 'ops@example.com'], env);
    expect(JSON.parse(verified.stdout)).to.deep.equal({ userId: user.userId, emailVerified: true });

    const issued = await cli(['token', 'create', '--email', 'ops@example.com', '--name', 'ci', '--scopes', 'api,api_release'], env);
    expect(issued.code, issued.stderr).to.equal(0);
    const token = JSON.parse(issued.stdout) as { id: string; token: string; scopes: string[] };
    expect(token.token).to.match(/^sbt_[A-Za-z0-9_-]{43}$/);
    expect(token.scopes).to.deep.equal(['api', 'api_release']);

    const server = await serve(env);
    const response = await fetch(`${server.url}/api/${user.accountId}`, { headers: { Authorization: `Bearer ${token.token}` } });
    expect(response.status).to.equal(200);
    server.child.kill('SIGTERM');
    await exited(server.child);
  });

  it('account plan puts an account on a plan, or a new trial, and prints it', async () => {
    const env = baseEnv(join(dir, 'plans.sqlite'));
    const created = JSON.parse((await cli(['user', 'create', '--email', 'team@example.com', '--password', 'a long passphrase'], env)).stdout) as { accountId: number };
    const free = await cli(['account', 'plan', '--account', String(created.accountId), '--plan', 'free'], env);
    expect(free.code, free.stderr).to.equal(0);
    expect(JSON.parse(free.stdout)).to.deep.equal({ accountId: created.accountId, plan: { name: 'free', trial: false, trialEndDate: null } });
    const trial = await cli(['account', 'plan', '--account', String(created.accountId), '--plan', 'private', '--trial-days', '30'], env);
    const shown = JSON.parse(trial.stdout) as { plan: { name: string; trial: boolean; trialEndDate: string } };
    expect(shown.plan).to.include({ name: 'private', trial: true });
    expect(Date.parse(shown.plan.trialEndDate) - Date.now()).to.be.within(30 * 24 * 3600_000 - 120_000, 30 * 24 * 3600_000);
  });

  it('registers OAuth clients (a secret shown once, none for a public client) and rotates the signing key', async () => {
    const env = baseEnv(join(dir, 'oauth.sqlite'));
    const created = await cli(['client', 'create', '--name', 'Dashboard', '--redirect-uri', 'https://app.example.com/cb', '--redirect-uri', 'http://127.0.0.1:8000/cb'], env);
    expect(created.code, created.stderr).to.equal(0);
    const client = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    expect(client.clientId).to.match(/\.apps\.specbase$/);
    expect(client.clientSecret).to.match(/^sbcs_[A-Za-z0-9_-]{43}$/);
    const mobile = JSON.parse((await cli(['client', 'create', '--name', 'Mobile', '--redirect-uri', 'com.example.app:/cb', '--public'], env)).stdout) as { clientSecret: null };
    expect(mobile.clientSecret).to.equal(null);
    const refused = await cli(['client', 'create', '--name', 'Bad', '--redirect-uri', 'http://app.example.com/cb'], env);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('must use https');

    const server = await serve(env);
    const before = (await (await fetch(`${server.url}/oauth2/v2/certs`)).json()) as { keys: { kid: string }[] };
    expect(before.keys).to.have.length(1);
    server.child.kill('SIGTERM');
    await exited(server.child);
    const rotated = await cli(['keys', 'rotate'], env);
    expect(rotated.code, rotated.stderr).to.equal(0);
    const { kid } = JSON.parse(rotated.stdout) as { kid: string };
    const again = await serve(env);
    const after = (await (await fetch(`${again.url}/oauth2/v2/certs`)).json()) as { keys: { kid: string }[] };
    expect(after.keys.map((k) => k.kid).sort(), 'the new key, and the retired one until its tokens expire').to.deep.equal([kid, before.keys[0]!.kid].sort());
    again.child.kill('SIGTERM');
    await exited(again.child);
  });

  it('lists, updates, rotates the secret of and deletes OAuth clients, each printing one JSON object', async () => {
    const env = baseEnv(join(dir, 'clients.sqlite'));
    const created = JSON.parse((await cli(['client', 'create', '--name', 'Dashboard', '--redirect-uri', 'https://app.example.com/cb', '--post-logout-redirect-uri', 'https://app.example.com/bye'], env)).stdout) as { clientId: string; clientSecret: string };
    const mobile = JSON.parse((await cli(['client', 'create', '--name', 'Mobile', '--redirect-uri', 'com.example.app:/cb', '--public'], env)).stdout) as { clientId: string };

    const listed = await cli(['client', 'list'], env);
    expect(listed.code, listed.stderr).to.equal(0);
    const { items } = JSON.parse(listed.stdout) as { items: Record<string, unknown>[] };
    expect(items.map((c) => [c['clientId'], c['name'], c['public'], c['redirectUris'], c['postLogoutRedirectUris']])).to.deep.equal([
      [created.clientId, 'Dashboard', false, ['https://app.example.com/cb'], ['https://app.example.com/bye']],
      [mobile.clientId, 'Mobile', true, ['com.example.app:/cb'], []],
    ]);
    expect(listed.stdout, 'never a secret').to.not.include('sbcs_');

    const updated = await cli(['client', 'update', '--id', created.clientId, '--name', 'Analytics', '--redirect-uri', 'https://new.example.com/cb', '--redirect-uri', 'http://127.0.0.1:9/cb'], env);
    expect(updated.code, updated.stderr).to.equal(0);
    expect(JSON.parse(updated.stdout)).to.deep.include({ clientId: created.clientId, name: 'Analytics', redirectUris: ['https://new.example.com/cb', 'http://127.0.0.1:9/cb'], postLogoutRedirectUris: ['https://app.example.com/bye'] });
    const hostile = await cli(['client', 'update', '--id', created.clientId, '--post-logout-redirect-uri', 'javascript:alert(1)'], env);
    expect(hostile.code).to.not.equal(0);
    expect(hostile.stderr).to.include('postLogoutRedirectUri');

    const rotated = await cli(['client', 'rotate-secret', '--id', created.clientId, '--overlap-seconds', '600'], env);
    expect(rotated.code, rotated.stderr).to.equal(0);
    const secret = JSON.parse(rotated.stdout) as { clientId: string; clientSecret: string };
    expect(secret.clientId).to.equal(created.clientId);
    expect(secret.clientSecret).to.match(/^sbcs_[A-Za-z0-9_-]{43}$/).and.not.equal(created.clientSecret);
    const noSecret = await cli(['client', 'rotate-secret', '--id', mobile.clientId], env);
    expect(noSecret.code).to.not.equal(0);
    expect(noSecret.stderr).to.include('public client');

    const deleted = await cli(['client', 'delete', '--id', mobile.clientId], env);
    expect(deleted.code, deleted.stderr).to.equal(0);
    expect(JSON.parse(deleted.stdout)).to.deep.equal({ clientId: mobile.clientId, deleted: true });
    const again = await cli(['client', 'delete', '--id', mobile.clientId], env);
    expect(again.code).to.not.equal(0);
    expect(again.stderr).to.include('no such client');
    expect((JSON.parse((await cli(['client', 'list'], env)).stdout) as { items: { clientId: string }[] }).items.map((c) => c.clientId)).to.deep.equal([created.clientId]);

    const issued = await cli(['client', 'registration-token'], env);
    expect(issued.code, issued.stderr).to.equal(0);
    const initial = JSON.parse(issued.stdout) as { token: string; expiresDate: string };
    expect(initial.token).to.match(/^sbit_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(initial.expiresDate) - Date.now()).to.be.within(23.9 * 3600_000, 24 * 3600_000);
  });

  it('migrate applies the migrations once', async () => {
    const env = baseEnv(join(dir, 'specbase.sqlite'));
    const first = await cli(['migrate'], env);
    expect(JSON.parse(first.stdout)).to.deep.equal({ applied: ['Initial1763780000000', 'SpecsAndReleases1763790000000', 'Webhooks1763800000000', 'Pages1763810000000', 'Shares1763820000000', 'EmailVerifications1763830000000', 'Identity1763840000000', 'RateLimits1763850000000', 'ChangeNotifications1763860000000', 'DeliveryLeases1763870000000', 'SpecFormat1763880000000', 'SpecHistory1763890000000', 'Plans1763900000000', 'IdentityClients1763910000000', 'DeviceCodes1763920000000', 'ClientRegistration1763930000000', 'IdentityIndexes1763940000000', 'Reliability1763950000000', 'ClientChangeNotifications1764000000000', 'LeaseIndex1764100000000', 'DropDueIndex1764200000000', 'WebhookLeases1764300000000', 'Lz4Documents1764400000000', 'WebhookPayloads1764500000000', 'RedirectUrisVerified1764600000000', 'RemovalAfterSunset1764700000000'] });
    const second = await cli(['migrate'], env);
    expect(JSON.parse(second.stdout)).to.deep.equal({ applied: [] });
  });

  it('seals secrets at rest with a key made beside the database; backup, rotation and an old backup read with the old key', async function () {
    this.timeout(120_000);
    const receiver = new WebhookReceiver();
    const base = await receiver.start();
    try {
      const path = join(dir, 'live', 'specbase.sqlite');
      const env = baseEnv(path, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '50' });
      const secret = `at-rest-${randomBytes(12).toString('hex')}`;

      // First start: no key configured, so one is made beside the database, and the log says so.
      const first = await serve(env);
      const keyFile = `${path}.key`;
      expect(first.output()).to.include('made a key to seal webhook secrets and signing keys at rest');
      expect(statSync(keyFile).mode & 0o777, 'readable by its owner only').to.equal(0o600);
      const oldKey = readFileSync(keyFile, 'utf8').trim();
      const token = /^API token: (sbt_[A-Za-z0-9_-]{43})$/m.exec(first.output())![1]!;
      const accountId = /^ {2}account: {2}(\d+)$/m.exec(first.output())![1]!;
      const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const hook = await fetch(`${first.url}/webhooks/${accountId}`, { method: 'POST', headers: auth, body: JSON.stringify({ targetUrl: `${base}/hook`, events: ['api.created'], secret }) });
      expect(hook.status).to.equal(201);
      const webhookId = ((await hook.json()) as { id: string }).id;
      const pinged = async (url: string, count: number) => {
        expect((await fetch(`${url}/webhooks/${accountId}/${webhookId}/ping`, { method: 'POST', headers: auth })).status).to.equal(202);
        await receiver.waitFor(count, '/hook');
        const last = receiver.at('/hook')[count - 1]!;
        return verifyServiceSignature(secret, `${base}/hook`, last.body, String(last.headers['x-service-signature']));
      };
      expect(await pinged(first.url, 1), 'signed with the secret as given').to.equal(true);

      // An online backup while the server runs.
      const backup = join(dir, 'backup.sqlite');
      const backedUp = await cli(['backup', '--to', backup], env);
      expect(backedUp.code, backedUp.stderr).to.equal(0);
      const { secretsKeyIds } = JSON.parse(backedUp.stdout) as { file: string; bytes: number; secretsKeyIds: string[] };
      expect(JSON.parse(backedUp.stdout)).to.deep.include({ file: backup });
      expect(secretsKeyIds, 'one key seals everything in the copy').to.have.length(1);
      const oldKeyId = secretsKeyIds[0]!;
      expect((await cli(['backup', '--to', backup], env)).stderr, 'never over a file').to.include('exists');
      first.child.kill('SIGTERM');
      expect(await exited(first.child)).to.equal(0);

      // Beneath the service: neither the secret nor a private key anywhere in the files, the rows sealed.
      for (const file of readdirSync(join(dir, 'live')).filter((name) => name.startsWith('specbase.sqlite') && !name.endsWith('.key'))) {
        const bytes = readFileSync(join(dir, 'live', file));
        expect(bytes.includes(secret), `${file} holds the webhook secret`).to.equal(false);
        expect(bytes.includes('PRIVATE KEY'), `${file} holds a PEM private key`).to.equal(false);
      }
      const stored = (file: string) => {
        const db = new Database(file, { readonly: true });
        try {
          return { secrets: db.prepare('SELECT secret FROM webhooks').pluck().all() as string[], keys: db.prepare('SELECT private_key_pem FROM signing_keys').pluck().all() as string[] };
        } finally {
          db.close();
        }
      };
      for (const value of [...stored(path).secrets, ...stored(path).keys]) expect(value).to.match(new RegExp(`^sb1\\.${oldKeyId}\\.`));
      for (const value of [...stored(backup).secrets, ...stored(backup).keys]) expect(value, 'the backup too').to.match(/^sb1\./);

      // Rotation: a new key, then every secret re-sealed with it (the key file beside is read as the old one).
      const generated = await cli(['secrets', 'generate-key'], env);
      const { key: newKey, keyId: newKeyId } = JSON.parse(generated.stdout) as { key: string; keyId: string };
      expect(newKeyId).to.match(/^[0-9a-f]{16}$/).and.not.equal(oldKeyId);
      const rotated = await cli(['secrets', 'rotate'], { ...env, SECRETS_KEY: newKey });
      expect(rotated.code, rotated.stderr).to.equal(0);
      expect(JSON.parse(rotated.stdout)).to.deep.equal({ keyId: newKeyId, rewrapped: { webhooks: 1, signingKeys: stored(path).keys.length } });
      for (const value of [...stored(path).secrets, ...stored(path).keys]) expect(value, 're-sealed').to.match(new RegExp(`^sb1\\.${newKeyId}\\.`));
      rmSync(keyFile);
      const second = await serve({ ...env, SECRETS_KEY: newKey });
      expect(await pinged(second.url, 2), 'the secret opens with the new key alone').to.equal(true);
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).to.equal(0);

      // The old backup, restored: refused with the new key alone, read with the old key given.
      const restored = join(dir, 'restored', 'specbase.sqlite');
      mkdirSync(join(dir, 'restored'));
      copyFileSync(backup, restored);
      const refused = await cli(['migrate'], baseEnv(restored, { SECRETS_KEY: newKey }));
      expect(refused.code).to.equal(2);
      expect(refused.stderr).to.include(`sealed with key ${oldKeyId}, which this process was not given`);
      const third = await serve(baseEnv(restored, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '50', SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: oldKey }));
      expect(await pinged(third.url, 3), 'the old backup reads with the old key given').to.equal(true);
      third.child.kill('SIGTERM');
      expect(await exited(third.child)).to.equal(0);
    } finally {
      await receiver.stop();
    }
  });

  for (const [label, args, extra, message] of [
    ['an unknown command', ['frobnicate'], {}, 'unknown command'],
    ['a missing flag', ['user', 'create', '--email', 'x@example.com'], {}, '--password is required'],
    ['an unknown flag', ['user', 'verify', '--email', 'x@example.com', '--force'], {}, "Unknown option '--force'"],
    ['a weak password', ['user', 'create', '--email', 'x@example.com', '--password', 'short'], {}, 'password: must be at least 10 characters'],
    ['a user that does not exist', ['token', 'create', '--email', 'x@example.com', '--name', 'n', '--scopes', 'api'], {}, 'no such user'],
    ['a malformed PORT', ['migrate'], { PORT: 'eighty' }, 'PORT must be an integer'],
    ['an unknown plan', ['account', 'plan', '--account', '1', '--plan', 'gold'], {}, 'plan: must be free or private'],
    ['trial days with the free plan', ['account', 'plan', '--account', '1', '--plan', 'free', '--trial-days', '7'], {}, 'trialDays: goes with plan private only'],
    ['an account that does not exist', ['account', 'plan', '--account', '999', '--plan', 'free'], {}, 'no such account'],
    ['an account id that is not one', ['account', 'plan', '--account', '0x10', '--plan', 'free'], {}, '--account must be an account id'],
    ['a malformed PLAN_FREE_APIS', ['migrate'], { PLAN_FREE_APIS: 'many' }, 'PLAN_FREE_APIS must be an integer from 0 to 1000000000, or unlimited'],
  ] as const) {
    it(`fails with a message and no stdout for ${label}`, async () => {
      const run = await cli([...args], baseEnv(join(dir, 'specbase.sqlite'), extra));
      expect(run.code).to.not.equal(0);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.include(message);
      expect(run.stderr).to.not.match(/\n\s+at /, 'no stack trace for a usage error');
    });
  }
});
