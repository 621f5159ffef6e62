import { expect } from 'chai';
import { RememberedAnswers, type RememberedAnswer } from '../../../src/adapters/http/remembered-answers.js';

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
