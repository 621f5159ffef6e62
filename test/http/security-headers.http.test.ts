import { expect } from 'chai';
import { forEachDatabase } from '../support/databases.js';
import { startTestServerOn, type TestServer } from '../support/http-server.js';

forEachDatabase('security headers and timeouts', (target) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServerOn(target);
  });
  after(async () => {
    await server?.stop();
  });

  it('sends nosniff, no framing, no referrer and a deny-all CSP with every answer, errors included', async () => {
    const ada = await server.user('ada@example.com', 'ada');
    const token = await server.token(ada, ['api.readonly']);
    for (const response of [await server.request('GET', `/api/${ada.accountId}`, { token }), await server.request('GET', '/api/1'), await server.request('GET', '/healthz'), await server.request('GET', '/nowhere')]) {
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(response.headers.get('x-frame-options')).to.equal('DENY');
      expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(response.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('strict-transport-security'), 'not over plain http').to.equal(null);
    }
  });

  it('gives a client that sends its headers too slowly 20 s, then closes the connection', () => {
    expect(server.running.server.headersTimeout).to.equal(20_000);
    expect(server.running.server.requestTimeout).to.equal(60_000);
  });
});

describe('security headers over https', () => {
  it('adds Strict-Transport-Security when PUBLIC_URL is https', async () => {
    const { startTestServer } = await import('../support/http-server.js');
    const server = await startTestServer({ kind: 'sqlite', path: ':memory:' }, { PUBLIC_URL: 'https://docs.example.com' });
    try {
      const response = await server.request('GET', '/healthz');
      expect(response.headers.get('strict-transport-security')).to.equal('max-age=31536000');
    } finally {
      await server.stop();
    }
  });
});
