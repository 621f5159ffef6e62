import { expect } from 'chai';
import sinon from 'sinon';
import { DatabaseMonitor } from '../../../src/main/database-monitor.js';
import { isConnectionFailure } from '../../../src/adapters/persistence/connection-errors.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DatabaseMonitor: whether the database answers, told fast', () => {
  // The monitor's time is faked (its timers and Date.now), so no busy machine moves a timeout; setImmediate stays real for tick().
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => (clock = sinon.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })));
  afterEach(() => clock.restore());

  it('is away when a ping fails or stays unanswered past the timeout, back when one answers; a stale ping says nothing', async () => {
    const answers: ((ok: boolean) => void)[] = [];
    const events: string[] = [];
    const monitor = new DatabaseMonitor(() => new Promise<boolean>((resolve) => answers.push(resolve)), {
      timeoutMs: 50,
      away: () => events.push('away'),
      back: (ms) => events.push(ms >= 0 ? 'back' : 'never'),
    });
    monitor.probe();
    expect(monitor.available, 'a ping in flight is not yet a failure').to.equal(true);
    monitor.probe();
    expect(answers, 'no second ping while the first is recent').to.have.length(1);
    clock.tick(49);
    monitor.probe();
    expect(answers, 'still recent at 49 ms of a 50 ms timeout').to.have.length(1);
    expect(monitor.available).to.equal(true);
    clock.tick(1);
    monitor.probe();
    expect(monitor.available, 'unanswered for the whole timeout: a stalled server').to.equal(false);
    expect(answers, 'and another ping, on another connection, rather than wait on a dead one').to.have.length(2);
    answers[1]!(true);
    await tick();
    expect(monitor.available, 'the second answered').to.equal(true);
    monitor.probe();
    expect(answers, 'the stuck first is forgotten: a new probe pings').to.have.length(3);
    answers[0]!(false);
    await tick();
    expect(monitor.available, 'the first failing late (its connection found dead) says nothing now').to.equal(true);
    answers[2]!(false);
    await tick();
    expect(monitor.available, 'a failed ping').to.equal(false);
    monitor.probe();
    answers[3]!(true);
    await tick();
    expect(events, 'each change told once').to.deep.equal(['away', 'back', 'away', 'back']);
  });

  it('answers health checks at once while away, bounds them while watching, and leaves them alone when not watching', async () => {
    let up = true;
    const monitor = new DatabaseMonitor(async () => up, { timeoutMs: 50, intervalMs: 10_000 });
    const hanging = () => new Promise<boolean>(() => undefined);
    expect(await monitor.answers(async () => true), 'not started: the check as it is').to.equal(true);
    monitor.start();
    try {
      let answer: boolean | undefined;
      void monitor.answers(hanging).then((ok) => (answer = ok));
      await clock.tickAsync(49);
      expect(answer, 'a check that hangs: still waited on before the timeout').to.equal(undefined);
      await clock.tickAsync(1);
      expect(answer, 'a check that hangs is false at the timeout').to.equal(false);
      up = false;
      monitor.probe();
      await tick();
      let called = false;
      expect(await monitor.answers(async () => (called = true)), 'away: false without asking').to.equal(false);
      expect(called).to.equal(false);
    } finally {
      monitor.stop();
    }
  });
});

describe('isConnectionFailure: the database did not answer, as opposed to refusing a statement', () => {
  it('recognises refused and reset sockets, a server shutting down or starting, and dead connections', () => {
    const wrapped = (driverError: object) => Object.assign(new Error('query failed'), { driverError });
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
      wrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
      wrapped(Object.assign(new Error('connection failure'), { code: '08006' })),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isConnectionFailure(error), error.message).to.equal(true);
    }
  });

  it('leaves statement errors alone: a unique violation, a syntax error, a bug', () => {
    const wrapped = (code: string, message: string) => Object.assign(new Error(message), { driverError: Object.assign(new Error(message), { code }) });
    for (const error of [wrapped('23505', 'duplicate key value violates unique constraint'), wrapped('42601', 'syntax error'), new TypeError('x is undefined'), 'a string', null]) {
      expect(isConnectionFailure(error), String(error)).to.equal(false);
    }
  });
});
