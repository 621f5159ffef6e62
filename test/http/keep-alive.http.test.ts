import { expect } from 'chai';
import { sqlite } from '../support/databases.js';
import { startTestServerOn, TEST_KEEP_ALIVE_MS } from '../support/http-server.js';

/**
 * The harness's own guard (test/support/http-server.ts): a test that blocks the shared event loop
 * past the server's keep-alive timeout between two requests still gets its answer. With the
 * production timeout (5 s) this failed with ECONNRESET, as GitHub's import test did on loaded runs.
 */
describe('test servers: a request after a long computation in the test', () => {
  it('is answered on the connection kept alive', async function () {
    this.timeout(30_000);
    const server = await startTestServerOn(sqlite);
    try {
      expect(server.running.server.keepAliveTimeout).to.equal(TEST_KEEP_ALIVE_MS);
      expect((await server.fetch('/healthz')).status).to.equal(200);
      const end = Date.now() + 6_500;
      while (Date.now() < end) {
        // Blocks the event loop, as a long synchronous check does.
      }
      expect((await server.fetch('/healthz')).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
});
