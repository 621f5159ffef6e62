import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerRemembered, RememberedAnswers, type RememberedAnswer } from '../../../src/adapters/http/remembered-answers.js';
import type { Principal } from '../../../src/application/auth/principal.js';
import type { RateLimiter } from '../../../src/application/ports/rate-limiter.port.js';

const answer = (body: string): RememberedAnswer => ({ body, headers: ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(body.length)], route: '/api/:accountId', path: '/api/1' });

describe('RememberedAnswers', () => {
  function remembered(maxEntries = 10) {
    let version = 'v1';
    const answers = new RememberedAnswers(() => version, maxEntries);
    return {
      answers,
      change: (to: string) => {
        version = to;
      },
    };
  }

  it('gives an answer for the same Authorization and URL while the version holds, and nothing for another', () => {
    const { answers } = remembered();
    answers.put('Bearer a', '/api/1', 'v1', answer('[1]'));
    expect(answers.get('Bearer a', '/api/1')?.body).to.equal('[1]');
    expect(answers.get('Bearer b', '/api/1'), 'another token').to.equal(undefined);
    expect(answers.get('Bearer a', '/api/1?limit=2'), 'another URL').to.equal(undefined);
    expect(answers.get('Bearer a', '/api/1/x')).to.equal(undefined);
  });

  it('drops every answer once the version changes, and does not give them back if it changes back', () => {
    const { answers, change } = remembered();
    answers.put('Bearer a', '/api/1', 'v1', answer('[1]'));
    answers.put('Bearer b', '/api/1', 'v1', answer('[2]'));
    change('v2');
    expect(answers.get('Bearer a', '/api/1')).to.equal(undefined);
    expect(answers.size).to.equal(0);
    change('v1');
    expect(answers.get('Bearer b', '/api/1')).to.equal(undefined);
  });

  it('does not keep an answer whose request began before the latest change', () => {
    const { answers, change } = remembered();
    change('v2');
    answers.put('Bearer a', '/api/1', 'v1', answer('[old]'));
    expect(answers.size).to.equal(0);
    change('v1');
    expect(answers.get('Bearer a', '/api/1')).to.equal(undefined);
  });

  it('remembers nothing while the version never repeats (PostgreSQL not listening)', () => {
    let n = 0;
    const answers = new RememberedAnswers(() => `untracked:${++n}`, 10);
    const version = answers.version();
    answers.put('Bearer a', '/api/1', version, answer('[1]'));
    expect(answers.get('Bearer a', '/api/1')).to.equal(undefined);
    expect(answers.size).to.equal(0);
  });

  it('keeps at most maxEntries answers, the oldest going first; 0 keeps none', () => {
    const { answers } = remembered(2);
    for (const id of ['1', '2', '3']) answers.put('Bearer a', `/api/${id}`, 'v1', answer(id));
    expect(answers.size).to.equal(2);
    expect(answers.get('Bearer a', '/api/1')).to.equal(undefined);
    expect(answers.get('Bearer a', '/api/3')?.body).to.equal('3');
    const none = remembered(0).answers;
    none.put('Bearer a', '/api/1', 'v1', answer('[1]'));
    expect(none.size).to.equal(0);
  });

  it('does not keep very long keys or bodies', () => {
    const { answers } = remembered();
    answers.put('Bearer a', `/api/1?cursor=${'x'.repeat(2_000)}`, 'v1', answer('[1]'));
    answers.put('Bearer a', '/api/1', 'v1', answer('x'.repeat(300 * 1024)));
    expect(answers.size).to.equal(0);
  });
});

describe('answerRemembered (the request listener\'s first step)', () => {
  const BODY = '{"id":"x"}';
  const TOKEN = 'sbt_0123456789abcdef';

  interface Setup {
    readonly url: string;
    readonly calls: string[];
    readonly logged: object[];
    readonly served: object[];
    close(): Promise<void>;
  }

  /**
   * A real node:http server whose listener is `answerRemembered` over fakes, Koa's way standing
   * for a plain 'koa' answer; one answer remembered for GET /api/1 with TOKEN.
   */
  async function serve(options: { limit?: number; atOnce?: NonNullable<RateLimiter['attemptAtOnce']> | null; principal?: boolean; draining?: boolean; away?: boolean } = {}): Promise<Setup> {
    const calls: string[] = [];
    const logged: object[] = [];
    const served: object[] = [];
    const answers = new RememberedAnswers(() => 'v1', 10);
    answers.put(`Bearer ${TOKEN}`, '/api/1', 'v1', { body: BODY, headers: ['ETag', '"3"', 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(BODY.length)], route: '/api/:accountId/:apiId', path: '/api/1' });
    const principal = { userId: 1, accountId: 1, nickname: 'ada', scopes: ['api'], tokenId: 'token-1' } as unknown as Principal;
    const attemptAtOnce: NonNullable<RateLimiter['attemptAtOnce']> = (key) => {
      calls.push(`limit ${key}`);
      return { allowed: true, limit: 5, remaining: 4, resetMs: 30_500 };
    };
    const limiter: RateLimiter = {
      attempt: () => Promise.reject(new Error('not here')),
      release: () => Promise.resolve(),
      ...(options.atOnce === null ? {} : { attemptAtOnce: options.atOnce ?? attemptAtOnce }),
    };
    const remembered = answerRemembered({
      answers,
      authenticate: {
        executeAtOnce: (presented, admit = () => true) => {
          calls.push(`token ${presented}`);
          if (options.principal === false || !admit(principal)) return undefined;
          calls.push('authenticated');
          return principal;
        },
      },
      limiter,
      limit: { limit: options.limit ?? 5, windowMs: 60_000 },
      headers: ['X-Frame-Options', 'DENY'],
      draining: () => options.draining === true,
      databaseAway: () => options.away === true,
      logger: { info: (object: object) => void logged.push(object), warn: () => undefined, error: () => undefined, child: () => { throw new Error('unused'); } },
      metrics: { requestServed: (request) => void served.push(request) },
    });
    const server = createServer((req, res) => {
      if (!remembered(req, res)) {
        calls.push('koa');
        res.end('koa');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, calls, logged, served, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  async function ask(s: Setup, init: { method?: string; token?: string | null; path?: string } = {}): Promise<{ status: number; headers: Headers; body: string }> {
    const headers: Record<string, string> = init.token === null ? {} : { Authorization: `Bearer ${init.token ?? TOKEN}`, 'X-Request-Id': 'req-1' };
    const response = await fetch(s.url + (init.path ?? '/api/1'), { method: init.method ?? 'GET', headers });
    return { status: response.status, headers: response.headers, body: await response.text() };
  }

  it('answers with the request id, the headers every answer carries, the limit\'s and the remembered ones; logs and measures it', async () => {
    const s = await serve();
    try {
      const answer = await ask(s);
      expect(answer.body).to.equal(BODY);
      expect(answer.headers.get('x-request-id')).to.equal('req-1');
      expect(answer.headers.get('x-frame-options')).to.equal('DENY');
      expect([answer.headers.get('ratelimit-limit'), answer.headers.get('ratelimit-remaining'), answer.headers.get('ratelimit-reset')]).to.deep.equal(['5', '4', '31']);
      expect(answer.headers.get('etag')).to.equal('"3"');
      expect(s.calls).to.deep.equal([`token ${TOKEN}`, 'limit api:token:token-1', 'authenticated']);
      expect(s.logged).to.have.length(1);
      expect(s.logged[0]).to.deep.include({ requestId: 'req-1', method: 'GET', route: '/api/:accountId/:apiId', path: '/api/1', status: 200 });
      expect(s.served).to.have.length(1);
      expect(s.served[0]).to.deep.include({ route: '/api/:accountId/:apiId', method: 'GET', status: 200 });
    } finally {
      await s.close();
    }
  });

  it('with the limit off (0) asks no limiter and sends no RateLimit-* headers', async () => {
    const s = await serve({ limit: 0 });
    try {
      const answer = await ask(s);
      expect(answer.body).to.equal(BODY);
      expect(answer.headers.get('ratelimit-limit')).to.equal(null);
      expect(s.calls).to.deep.equal([`token ${TOKEN}`, 'authenticated']);
    } finally {
      await s.close();
    }
  });

  const goesToKoa: { readonly name: string; readonly options: Parameters<typeof serve>[0]; readonly request?: Parameters<typeof ask>[1]; readonly calls: string[] }[] = [
    { name: 'a token the cache cannot settle at once', options: { principal: false }, calls: [`token ${TOKEN}`, 'koa'] },
    { name: 'a limit that cannot be settled at once, or is used up', options: { atOnce: () => undefined }, calls: [`token ${TOKEN}`, 'koa'] },
    { name: 'a limiter that never decides at once', options: { atOnce: null }, calls: [`token ${TOKEN}`, 'koa'] },
    { name: 'draining', options: { draining: true }, calls: ['koa'] },
    { name: 'the database away', options: { away: true }, calls: ['koa'] },
    { name: 'HEAD', options: {}, request: { method: 'HEAD' }, calls: ['koa'] },
    { name: 'no token', options: {}, request: { token: null }, calls: ['koa'] },
    { name: 'another token', options: {}, request: { token: 'sbt_other' }, calls: ['koa'] },
    { name: 'another URL', options: {}, request: { path: '/api/1?limit=2' }, calls: ['koa'] },
  ];
  for (const c of goesToKoa) {
    it(`goes Koa's way, having sent, logged and measured nothing, for ${c.name}`, async () => {
      const s = await serve(c.options);
      try {
        const answer = await ask(s, c.request);
        if (c.request?.method !== 'HEAD') expect(answer.body).to.equal('koa');
        expect(answer.headers.get('x-request-id')).to.equal(null);
        expect(s.calls.filter((call) => !call.startsWith('limit'))).to.deep.equal(c.calls);
        expect(s.logged).to.deep.equal([]);
        expect(s.served).to.deep.equal([]);
      } finally {
        await s.close();
      }
    });
  }
});
