import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { spawnTracked } from '../support/processes.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../support/built-cli.js';
import { problem } from '../support/http-server.js';

const EXAMPLE = join(ROOT, 'examples/embed-in-koa/server.js');

/**
 * examples/embed-in-koa runs as a program of its own, importing the package by its name
 * (`specbase`, resolved through package.json "exports" to dist/, as for a dependency): it must
 * start, answer under its prefix and on its own route, and exit cleanly on SIGTERM.
 */
describe('examples/embed-in-koa, run as a process', function () {
  this.timeout(60_000);
  let dir: string;
  let child: ChildProcess | undefined;
  let output = '';

  before(function () {
    this.timeout(180_000);
    ensureBuilt();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'specbase-embed-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('serves Specbase under /specbase next to its own route, from use cases and HTTP alike, and stops on SIGTERM', async () => {
    const env = { PATH: process.env['PATH'] ?? '', PORT: '0', SQLITE_PATH: join(dir, 'host.sqlite'), LOG_LEVEL: 'silent' };
    const proc = spawnTracked(process.execPath, [EXAMPLE], { cwd: ROOT, env });
    child = proc;
    proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));

    const started = await Promise.race([
      new Promise<RegExpExecArray>((resolve) => {
        const look = () => {
          const match = /^Try: curl -H "Authorization: Bearer (sbt_[A-Za-z0-9_-]{43})" (http:\/\/127\.0\.0\.1:\d+)\/specbase\/api\/(\d+)$/m.exec(output);
          if (match) resolve(match);
        };
        proc.stdout.on('data', look);
        look();
      }),
      exited.then(() => {
        throw new Error(`the example exited before it listened:\n${output}`);
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the example did not start within 30 s:\n${output}`)), 30_000)),
    ]);
    const [, token, url, accountId] = started;

    // Its own route, answered from Specbase's use cases called in-process.
    const hello = await fetch(`${url}/hello`);
    expect(hello.status).to.equal(200);
    expect(await hello.json()).to.deep.equal({ service: 'host', apis: ['host-catalogue'] });

    // Specbase's HTTP interface under the prefix: the same API, through a token and the Core-API.
    const listed = await fetch(`${url}/specbase/api/${accountId}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(listed.status).to.equal(200);
    expect(((await listed.json()) as { items: { nickname: string }[] }).items.map((api) => api.nickname)).to.deep.equal(['host-catalogue']);
    expect(listed.headers.get('x-request-id'), "Specbase's own middleware answered").to.match(/^[0-9a-f-]{36}$/);
    const health = await fetch(`${url}/specbase/healthz?probe=1`);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    expect((await fetch(`${url}/specbase/readyz`)).status).to.equal(200);
    expect((await fetch(`${url}/specbase/metrics`)).headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
    const unauthenticated = await fetch(`${url}/specbase/api/${accountId}`);
    expect((await problem(unauthenticated)).code).to.equal('invalid_token');
    const unknown = await fetch(`${url}/specbase/nowhere`);
    expect((await problem(unknown)).code, "an unknown path under the prefix is Specbase's 404").to.equal('not_found');
    const outside = await fetch(`${url}/healthz`);
    expect(outside.status, "Specbase's paths exist only under the prefix").to.equal(404);
    expect(outside.headers.get('content-type')).to.not.equal('application/problem+json');

    proc.kill('SIGTERM');
    const exit = await Promise.race([exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within 10 s of SIGTERM:\n${output}`)), 10_000))]);
    expect(exit, output).to.deep.equal({ code: 0, signal: null });
  });
});
