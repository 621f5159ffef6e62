import { expect } from 'chai';
import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { queryParam } from '../../../src/adapters/http/pagination.js';
import { HttpProblem } from '../../../src/adapters/http/problem.js';

/** A Koa context for `url`, as a request to it would get. */
function contextFor(url: string): Koa.Context {
  const app = new Koa();
  const req = { url, method: 'GET', headers: {}, socket: {} } as unknown as IncomingMessage;
  const res = { getHeader: () => undefined, setHeader: () => undefined } as unknown as ServerResponse;
  return app.createContext(req, res);
}

describe('queryParam: a query parameter given at most once', () => {
  const queries = ['', '?', '?limit=20', '?limit=', '?limit', '?a=1&limit=5&b=2', '?cursor=a%2Bb%3D', '?cursor=a+b', '?name=%C3%A9t%C3%A9', '?limit=%zz', '?=x&limit=3', '?LIMIT=4', `?limit=${'9'.repeat(300)}`];

  for (const url of queries) {
    it(`reads "${url.slice(0, 40)}" as Koa's ctx.query does, the first time and again`, () => {
      for (const name of ['limit', 'cursor', 'name', 'a', 'missing']) {
        const expected = contextFor(`/api/1${url}`).query[name];
        expect(queryParam(contextFor(`/api/1${url}`), name), name).to.equal(expected);
        expect(queryParam(contextFor(`/api/1${url}`), name), `${name}, again`).to.equal(expected);
      }
    });
  }

  it('refuses a parameter given twice, naming it, the first time and again', () => {
    for (let i = 0; i < 2; i++) {
      let thrown: unknown;
      try {
        queryParam(contextFor('/api/1?limit=1&limit=2'), 'limit');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(HttpProblem);
      expect((thrown as HttpProblem).problem.errors).to.deep.equal([{ field: 'limit', message: 'must be given once' }]);
    }
    expect(queryParam(contextFor('/api/1?limit=1&limit=2'), 'cursor')).to.equal(undefined);
  });
});
