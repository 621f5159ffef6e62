import { expect } from 'chai';
import { SCOPES } from '../../src/domain/token/scope.js';
import { forEachDatabase } from '../support/databases.js';
import { problem, startTestServerOn, type TestServer } from '../support/http-server.js';

/** PostgreSQL cannot store U+0000 in text; both databases refuse it the same way, and nothing is written. */
forEachDatabase('U+0000 in JSON bodies', (target) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServerOn(target);
  });
  after(async () => {
    await server?.stop();
  });

  it('is a 400 naming the field, for values, nested values and field names alike', async () => {
    const ada = await server.user('ada@example.com', 'ada');
    const token = await server.token(ada, SCOPES);
    const before = await server.rowCounts();
    const cases: [string, string, unknown, string][] = [
      ['POST', `/api/${ada.accountId}`, { name: 'N\u0000', nickname: 'nul' }, 'name'],
      ['PATCH', '/user', { name: 'A\u0000B' }, 'name'],
      ['POST', `/webhooks/${ada.accountId}`, { targetUrl: 'https://93.184.215.14/a', events: ['api.created', 'x\u0000'] }, 'events.1'],
      ['POST', `/api/${ada.accountId}`, { name: 'N', nickname: 'ok', ['we\u0000ird']: 1 }, 'we\\u0000ird'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await server.request(method, path, { token, body });
      expect(response.status, `${method} ${path}`).to.equal(400);
      const refused = await problem(response);
      expect(refused.errors?.[0]).to.deep.equal({ field, message: 'must not contain the character U+0000' });
    }
    expect(await server.rowCounts()).to.deep.equal(before);
  });
});
